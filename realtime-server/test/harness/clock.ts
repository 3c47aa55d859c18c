// Virtual time for the durability harness: setTimeout, setInterval, Date.now, performance.now and
// Math.random are replaced while a scenario runs, so seconds of debounces, heartbeats and lapses take microseconds, and a seed
// decides everything. Each timer runs at its own due time, with microtasks and setImmediate work
// drained in between, as in Node's event loop.

import { mulberry32 } from '@tandem/shared';

interface Timer {
  id: number;
  at: number;
  order: number;
  fn: (...args: unknown[]) => void;
  args: unknown[];
  interval: number | null;
  cancelled: boolean;
}

/** What setTimeout returns: methods on the prototype, so a timer costs one small object. */
class Handle {
  constructor(readonly timer: Timer) {}
  unref(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  hasRef(): boolean {
    return false;
  }
  refresh(): this {
    return this;
  }
  [Symbol.toPrimitive](): number {
    return this.timer.id;
  }
}

const earlier = (a: Timer, b: Timer): boolean => a.at < b.at || (a.at === b.at && a.order < b.order);

/** A binary min-heap of timers by due time, then creation order. */
class TimerHeap {
  private readonly items: Timer[] = [];

  get size(): number {
    return this.items.length;
  }

  push(timer: Timer): void {
    const items = this.items;
    let i = items.length;
    items.push(timer);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!earlier(timer, items[parent]!)) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = timer;
  }

  peek(): Timer | undefined {
    return this.items[0];
  }

  pop(): Timer | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    let i = 0;
    const n = items.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && earlier(items[right]!, items[left]!) ? right : left;
      if (!earlier(items[child]!, last)) break;
      items[i] = items[child]!;
      i = child;
    }
    items[i] = last;
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }

  forEach(fn: (timer: Timer) => void): void {
    for (const timer of this.items) fn(timer);
  }
}

const VIRTUAL_EPOCH = 1_700_000_000_000;

const real = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  setImmediate: globalThis.setImmediate,
  clearImmediate: globalThis.clearImmediate,
  dateNow: Date.now,
  performanceNow: performance.now,
  mathRandom: Math.random,
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
  now = VIRTUAL_EPOCH;
  private readonly timers = new TimerHeap();
  private nextId = 1;
  private order = 0;
  private installed = false;
  /** Math.random while installed: the server's own jitter (store retry backoff) replays with the seed. */
  private random: () => number = mulberry32(0);

  install(): void {
    if (this.installed) return;
    this.installed = true;
    const add = (fn: (...a: unknown[]) => void, ms: number | undefined, args: unknown[], repeat: boolean) => {
      const delay = ms === undefined || !(ms > 0) ? 0 : ms;
      const timer: Timer = {
        id: this.nextId++,
        at: this.now + delay,
        order: this.order++,
        fn,
        args,
        interval: repeat ? Math.max(1, delay) : null,
        cancelled: false,
      };
      this.timers.push(timer);
      return new Handle(timer);
    };
    const cancel = (h: unknown) => {
      if (h instanceof Handle) h.timer.cancelled = true;
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
    // The server's code reads these too: the persister's retry jitter (Math.random), the turn
    // budgets and presence waits (performance.now). Left real, a seed did not replay: one failed
    // 9 times in 60 on a loaded machine and never when quiet.
    performance.now = () => this.now - VIRTUAL_EPOCH;
    Math.random = () => this.random();
  }

  /** Seeds Math.random for the next scenario. */
  reseed(seed: number): void {
    this.random = mulberry32(seed);
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
    performance.now = real.performanceNow;
    Math.random = real.mathRandom;
    this.timers.clear();
  }

  /** Drops every timer (a scenario's leftovers must not run in the next one). */
  clear(): void {
    this.timers.forEach((timer) => {
      timer.cancelled = true;
    });
    this.timers.clear();
  }

  /** The next live timer due at or before `until`, taken off the heap; null when there is none. */
  private takeNext(until: number): Timer | null {
    for (;;) {
      const top = this.timers.peek();
      if (!top || top.at > until) return null;
      this.timers.pop();
      if (!top.cancelled) return top;
    }
  }

  /** Runs every timer due up to `until` (each at its time, draining in between), then sets now. */
  async runUntil(until: number): Promise<void> {
    await drain();
    for (;;) {
      const timer = this.takeNext(until);
      if (!timer) break;
      if (timer.at > this.now) this.now = timer.at;
      if (timer.interval !== null) {
        timer.at = this.now + timer.interval;
        timer.order = this.order++;
        this.timers.push(timer);
      } else timer.cancelled = true;
      timer.fn(...timer.args);
      await drain();
    }
    if (until > this.now) this.now = until;
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
