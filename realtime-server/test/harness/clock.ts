// Virtual time for the durability harness: setTimeout, setInterval and Date.now are replaced while
// a scenario runs, so seconds of debounces, heartbeats and lapses take microseconds, and a seed
// decides everything. Each timer runs at its own due time, with microtasks and setImmediate work
// drained in between, as in Node's event loop.

interface Timer {
  id: number;
  at: number;
  order: number;
  fn: () => void;
  interval: number | null;
  cancelled: boolean;
}

const real = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  setImmediate: globalThis.setImmediate,
  clearImmediate: globalThis.clearImmediate,
  dateNow: Date.now,
};

/**
 * Lets pending promise callbacks run (setImmediate is virtual too: a timer due now). A chain
 * deeper than this resumes at the next timer, as slow work would: still deterministic.
 */
export const drain = async (rounds = 8): Promise<void> => {
  for (let i = 0; i < rounds; i++) await null;
};

/** One real turn of the event loop (between scenarios, so the test runner can breathe). */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => real.setImmediate(resolve));

export class VirtualClock {
  now = 1_700_000_000_000;
  private readonly timers: Timer[] = [];
  private nextId = 1;
  private order = 0;
  private installed = false;

  install(): void {
    if (this.installed) return;
    this.installed = true;
    const handle = (timer: Timer) => {
      const h = {
        timer,
        unref: () => h,
        ref: () => h,
        hasRef: () => false,
        refresh: () => h,
        [Symbol.toPrimitive]: () => timer.id,
      };
      return h;
    };
    const add = (fn: (...a: unknown[]) => void, ms: number | undefined, args: unknown[], repeat: boolean) => {
      const delay = Math.max(0, Number(ms) || 0);
      const timer: Timer = {
        id: this.nextId++,
        at: this.now + delay,
        order: this.order++,
        fn: () => fn(...args),
        interval: repeat ? Math.max(1, delay) : null,
        cancelled: false,
      };
      this.timers.push(timer);
      return handle(timer);
    };
    const cancel = (h: unknown) => {
      const timer = (h as { timer?: Timer } | undefined)?.timer;
      if (timer) timer.cancelled = true;
    };
    const g = globalThis as unknown as Record<string, unknown>;
    g.setTimeout = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) =>
      add(fn, ms, args, false);
    g.setInterval = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) =>
      add(fn, ms, args, true);
    g.setImmediate = (fn: (...a: unknown[]) => void, ...args: unknown[]) => add(fn, 0, args, false);
    g.clearImmediate = cancel;
    g.clearTimeout = cancel;
    g.clearInterval = cancel;
    Date.now = () => this.now;
  }

  uninstall(): void {
    if (!this.installed) return;
    this.installed = false;
    const g = globalThis as unknown as Record<string, unknown>;
    g.setTimeout = real.setTimeout;
    g.clearTimeout = real.clearTimeout;
    g.setInterval = real.setInterval;
    g.clearInterval = real.clearInterval;
    g.setImmediate = real.setImmediate;
    g.clearImmediate = real.clearImmediate;
    Date.now = real.dateNow;
    this.timers.length = 0;
  }

  /** Drops every timer (a scenario's leftovers must not run in the next one). */
  clear(): void {
    for (const timer of this.timers) timer.cancelled = true;
    this.timers.length = 0;
  }

  private takeNext(until: number): Timer | null {
    let best = -1;
    for (let i = 0; i < this.timers.length; i++) {
      const t = this.timers[i]!;
      if (t.cancelled) continue;
      if (t.at > until) continue;
      if (best < 0) best = i;
      else {
        const b = this.timers[best]!;
        if (t.at < b.at || (t.at === b.at && t.order < b.order)) best = i;
      }
    }
    if (best < 0) return null;
    return this.timers[best]!;
  }

  private compact(): void {
    let j = 0;
    for (let i = 0; i < this.timers.length; i++) {
      const t = this.timers[i]!;
      if (!t.cancelled) this.timers[j++] = t;
    }
    this.timers.length = j;
  }

  /** Runs every timer due up to `until` (each at its time, draining in between), then sets now. */
  async runUntil(until: number): Promise<void> {
    await drain();
    let steps = 0;
    for (;;) {
      const timer = this.takeNext(until);
      if (!timer) break;
      this.now = Math.max(this.now, timer.at);
      if (timer.interval !== null) {
        timer.at = this.now + timer.interval;
        timer.order = this.order++;
      } else timer.cancelled = true;
      timer.fn();
      await drain();
      if (++steps % 256 === 0) this.compact();
    }
    this.now = Math.max(this.now, until);
    this.compact();
  }

  /** Advances time while `promise` is pending (for awaiting server work that needs timers). */
  async runWhile<T>(promise: Promise<T>, limitMs: number, stepMs = 100): Promise<T> {
    let done = false;
    let value: T | undefined;
    let error: unknown;
    let failed = false;
    promise.then(
      (v) => {
        done = true;
        value = v;
      },
      (e: unknown) => {
        done = true;
        failed = true;
        error = e;
      },
    );
    const deadline = this.now + limitMs;
    await drain();
    while (!done && this.now < deadline) await this.runUntil(this.now + stepMs);
    if (!done) throw new Error(`still pending after ${limitMs} ms of virtual time`);
    if (failed) throw error;
    return value as T;
  }
}
