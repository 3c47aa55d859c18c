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
