// A fixed-window counter per key (login attempts per email and per IP). In memory, per
// instance: with N instances an attacker gets at most N× the budget, which still bounds guessing.
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
export interface WriteLimiter {
  hit(key: string): Promise<number>;
}

/** The count of this instance alone (one instance, or the in-process bus). */
export class LocalWriteLimiter implements WriteLimiter {
  private readonly window: WindowLimiter;

  constructor(limit: number, windowMs: number) {
    this.window = new WindowLimiter(limit, windowMs);
  }

  hit(key: string): Promise<number> {
    return Promise.resolve(this.window.hit(key));
  }
}

/**
 * The count of every instance together, in a SharedCounter. When the counter cannot be reached
 * (Redis down or not answering within `deadlineMs`), the limit is counted on this instance alone
 * rather than refused: a broker outage must not stop every API write. Said once per outage.
 */
export class SharedWriteLimiter implements WriteLimiter {
  private readonly local: WindowLimiter;
  private failing = false;

  constructor(
    private readonly counter: SharedCounter,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly onFallback: (error: unknown) => void,
    private readonly deadlineMs = 500,
  ) {
    this.local = new WindowLimiter(limit, windowMs);
  }

  async hit(key: string): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const { count, msLeft } = await Promise.race([
        this.counter.count(key, this.windowMs),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('shared counter did not answer')), this.deadlineMs);
        }),
      ]);
      this.failing = false;
      if (count <= this.limit) return 0;
      return Math.max(1, Math.ceil(msLeft / 1000));
    } catch (error) {
      if (!this.failing) this.onFallback(error);
      this.failing = true;
      return this.local.hit(key);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The shared limiter when the deployment has a SharedCounter, else this instance's own. */
export function writeLimiter(
  counter: SharedCounter | null,
  limit: number,
  windowMs: number,
  onFallback: (error: unknown) => void,
): WriteLimiter {
  return counter
    ? new SharedWriteLimiter(counter, limit, windowMs, onFallback)
    : new LocalWriteLimiter(limit, windowMs);
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
