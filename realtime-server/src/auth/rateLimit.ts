// The REST limits (SPEC §8 `RATE_LIMITED`, §9): fixed windows per key (an email, an IP, a user, an
// integration key). Every one is a single limit across a cluster: with a Redis bus each counts in
// Redis (SharedLimiter over Bus.counter, one counter name per limit so no two share counts), and
// falls back to this instance's own count only while Redis cannot be reached; on the in-process
// bus (one instance) each counts in memory. `httpLimits` builds them all, in one place.
import { createHash } from 'node:crypto';

/** A fixed-window counter per key, in this instance's memory (the local count, and the fallback). */
export class WindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one attempt; returns 0 when allowed, else the seconds until the window resets. */
  hit(key: string, now = Date.now()): number {
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 100_000) this.sweep(now);
    }
    window.count += 1;
    if (window.count <= this.limit) return 0;
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows)
      if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}

/** One fixed window's count, kept where every instance sees it (Redis; see Bus.counter). */
export interface SharedCounter {
  /**
   * Adds one to `key`'s window, which starts with its first count and lasts `windowMs`; resolves
   * to the count so far and the milliseconds left. Rejects when the counter cannot be reached.
   */
  count(key: string, windowMs: number): Promise<{ count: number; msLeft: number }>;
}

/** A limit of `limit` a window per key; hit() resolves to 0 when allowed, else the seconds to wait. */
export interface Limiter {
  hit(key: string): Promise<number>;
}

/** The count of this instance alone (one instance, or the in-process bus). */
export class LocalLimiter implements Limiter {
  private readonly window: WindowLimiter;

  constructor(limit: number, windowMs: number) {
    this.window = new WindowLimiter(limit, windowMs);
  }

  hit(key: string): Promise<number> {
    return Promise.resolve(this.window.hit(key));
  }
}

/**
 * Whether the shared counter is failing, for every limiter built over it: the fallback is said
 * once per outage, whichever limit notices it first, and not again until a count gets through.
 */
export class CounterOutage {
  private failing = false;

  constructor(private readonly onFallback: (error: unknown, limit: string) => void) {}

  failed(error: unknown, limit: string): void {
    if (!this.failing) this.onFallback(error, limit);
    this.failing = true;
  }

  answered(): void {
    this.failing = false;
  }
}

/**
 * The count of every instance together, in a SharedCounter. When the counter cannot be reached
 * (Redis down or not answering within `deadlineMs`), the limit is counted on this instance alone
 * rather than refused: a broker outage must not stop every sign-in or API write. Said once per
 * outage (CounterOutage).
 */
export class SharedLimiter implements Limiter {
  private readonly local: WindowLimiter;

  constructor(
    private readonly name: string,
    private readonly counter: SharedCounter,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly outage: CounterOutage,
    private readonly deadlineMs = 500,
  ) {
    this.local = new WindowLimiter(limit, windowMs);
  }

  async hit(key: string): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const { count, msLeft } = await Promise.race([
        this.counter.count(sharedKey(key), this.windowMs),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('shared counter did not answer')), this.deadlineMs);
        }),
      ]);
      this.outage.answered();
      if (count <= this.limit) return 0;
      return Math.max(1, Math.ceil(msLeft / 1000));
    } catch (error) {
      this.outage.failed(error, this.name);
      return this.local.hit(key);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * What a key is counted under in the shared counter: a digest, so Redis never holds the emails and
 * addresses that some limits are keyed by (they would sit there in clear for a window).
 */
const sharedKey = (key: string): string => createHash('sha256').update(key).digest('base64url').slice(0, 22);

/** What the REST plugins count, each a limit a minute (HttpDeps.limits). */
export interface HttpLimits {
  /** Content-API and MCP writes per key or person (SPEC §15): CONTENT_WRITES_PER_MINUTE. */
  contentWrites: Limiter;
  /** Sign-in attempts per email (lower-cased by LoginBody): LOGIN_ATTEMPTS_PER_MINUTE. */
  loginByEmail: Limiter;
  /** Sign-in attempts per client IP: LOGIN_ATTEMPTS_PER_MINUTE. */
  loginByIp: Limiter;
  /** Accounts, guests and guest upgrades per client IP: SIGNUPS_PER_MINUTE. */
  signupByIp: Limiter;
  /** Invite-link previews (GET /api/join/:token) per client IP: JOIN_LOOKUPS_PER_MINUTE. */
  joinLookupsByIp: Limiter;
  /** Comments (threads, replies, edits) per user: COMMENTS_PER_MINUTE. */
  commentWrites: Limiter;
  /** Public-view viewer tokens and drawn images per client IP: PUBLIC_REQUESTS_PER_MINUTE. */
  publicByIp: Limiter;
  /** Searches of a board's pages per user (shared limits.boardSearchesPerMinute). */
  boardSearches: Limiter;
}

/** Each limit's budget a minute, and the counter name it counts under (never shared by two limits). */
export function limitBudgets(config: {
  contentWritesPerMinute: number;
  loginAttemptsPerMinute: number;
  signupsPerMinute: number;
  joinLookupsPerMinute: number;
  commentsPerMinute: number;
  publicRequestsPerMinute: number;
  boardSearchesPerMinute: number;
}): Record<keyof HttpLimits, { name: string; perMinute: number }> {
  return {
    contentWrites: { name: 'content-writes', perMinute: config.contentWritesPerMinute },
    loginByEmail: { name: 'login-email', perMinute: config.loginAttemptsPerMinute },
    loginByIp: { name: 'login-ip', perMinute: config.loginAttemptsPerMinute },
    signupByIp: { name: 'signup-ip', perMinute: config.signupsPerMinute },
    joinLookupsByIp: { name: 'join-lookup-ip', perMinute: config.joinLookupsPerMinute },
    commentWrites: { name: 'comment-writes', perMinute: config.commentsPerMinute },
    publicByIp: { name: 'public-ip', perMinute: config.publicRequestsPerMinute },
    boardSearches: { name: 'board-search', perMinute: config.boardSearchesPerMinute },
  };
}

/**
 * Every REST limit, built here only: shared through `counter` (Bus.counter, present with Redis)
 * when the deployment has one, else this instance's own count. `onFallback` is told once per
 * outage of the shared counter, with the name of the limit that noticed it.
 */
export function httpLimits(
  budgets: Record<keyof HttpLimits, { name: string; perMinute: number }>,
  counter: ((name: string) => SharedCounter) | null,
  onFallback: (error: unknown, limit: string) => void,
): HttpLimits {
  const outage = new CounterOutage(onFallback);
  const built = {} as Record<keyof HttpLimits, Limiter>;
  for (const [field, { name, perMinute }] of Object.entries(budgets) as [
    keyof HttpLimits,
    { name: string; perMinute: number },
  ][]) {
    built[field] = counter
      ? new SharedLimiter(name, counter(name), perMinute, 60_000, outage)
      : new LocalLimiter(perMinute, 60_000);
  }
  return built;
}

/**
 * A token bucket (messages per connection): `rate` per second sustained, `burst` at once.
 * Allocation-free on the hot path.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now = performance.now(),
  ) {
    this.tokens = burst;
    this.last = now;
  }

  take(now = performance.now()): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until `count` tokens are available (0 when they are now). */
  msUntil(count: number, now = performance.now()): number {
    this.refill(now);
    const lacking = Math.min(count, this.burst) - this.tokens;
    return lacking <= 0 ? 0 : (lacking * 1000) / this.rate;
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.rate) / 1000);
    this.last = now;
  }
}
