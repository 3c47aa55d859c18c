// Slowing a fast sender down instead of cutting it off (docs/api.md §9, DESIGN "Slow a fast sender
// down"). Each connection has a token bucket: `rate` messages a second, bursts of `burst`. A
// message within the budget is handled at once. Past it, messages wait here in order and are
// handled as the budget refills; once HOLD_BYTES (or HOLD_MESSAGES) wait, the socket is no longer
// read, so the sender's TCP window closes and its writes block: it slows down, nothing is
// dropped, and the work it can cause this process stays at the rate. Reading resumes once half
// of what waits has been handled. A stock y-websocket provider never reconnects after a 44xx
// close, so closing a fast but honest sender loses its edits; 4429 is kept for abuse: a
// connection that gets more than `abuseRateFactor` × the rate to us, sustained over
// `abuseWindowMs` (only possible with tiny messages, since at most HOLD_BYTES are read ahead).
import type { WebSocket } from 'ws';
import { TokenBucket } from '../auth/rateLimit.ts';

/** Bytes read ahead of the budget (beyond a single message larger than this) before reading stops. */
export const HOLD_BYTES = 256 * 1024;
/** The least time between two handling rounds of a throttled connection (a few messages each). */
const ROUND_MS = 20;
/** Arrivals are counted in slots of this length, over the abuse window. */
const SLOT_MS = 1000;

export interface PacerOptions {
  rate: number;
  burst: number;
  abuseRateFactor: number;
  abuseWindowMs: number;
}

/**
 * What a pacer calls, with its connection: one object for every connection, so that a pacer costs
 * no closures of its own (docs/benchmarks.md, memory per idle connection).
 */
export interface PacerHooks<T> {
  /** Handles one message of the connection (in order). */
  handle(connection: T, data: Buffer): void;
  /** Called once when the connection's rate is abuse (the owner closes it with 4429). */
  abuse(connection: T): void;
  /** Called each time reading stops. */
  paused(connection: T): void;
}

export class Pacer<T> {
  private readonly bucket: TokenBucket;
  /** Messages read and not handled yet, oldest first, from `head` on. */
  private waiting: Buffer[] = [];
  private head = 0;
  private waitingBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private paused = false;
  private stopped = false;
  /** Messages that arrived in each slot of the abuse window (a ring), and the newest slot's number. */
  private readonly slots: number[];
  private slot = 0;
  private arrivedInWindow = 0;
  private readonly abuseLimit: number;
  private readonly holdMessages: number;
  /** How many times reading stopped (for metrics and tests). */
  pauses = 0;

  constructor(
    private readonly ws: WebSocket,
    options: PacerOptions,
    private readonly hooks: PacerHooks<T>,
    /** The connection the hooks are called with. */
    private readonly connection: T,
  ) {
    this.bucket = new TokenBucket(options.rate, options.burst);
    this.slots = new Array<number>(Math.max(1, Math.ceil(options.abuseWindowMs / SLOT_MS))).fill(0);
    this.slot = Math.floor(performance.now() / SLOT_MS);
    this.abuseLimit = (options.rate * options.abuseRateFactor * options.abuseWindowMs) / 1000;
    // Never hold more messages than would prove abuse: past that the connection is closed anyway.
    this.holdMessages = Math.ceil(this.abuseLimit) + 1;
  }

  /** Whether reading this socket is stopped (its pongs and close frame wait too: it is alive). */
  get throttled(): boolean {
    return this.paused;
  }

  /** One message read off the socket. */
  receive(data: Buffer): void {
    if (this.stopped) return;
    const now = performance.now();
    if (this.count(now) > this.abuseLimit) {
      this.stop();
      this.hooks.abuse(this.connection);
      return;
    }
    if (this.head === this.waiting.length && this.bucket.take(now)) {
      this.hooks.handle(this.connection, data);
      return;
    }
    this.waiting.push(data);
    this.waitingBytes += data.length;
    if (
      !this.paused &&
      (this.waitingBytes >= HOLD_BYTES || this.waiting.length - this.head >= this.holdMessages)
    ) {
      this.paused = true;
      this.pauses += 1;
      this.ws.pause();
      this.hooks.paused(this.connection);
    }
    this.schedule(now);
  }

  /** The connection ended: drop what waits, stop the timer. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.waiting = [];
    this.head = 0;
    this.waitingBytes = 0;
  }

  /** Counts an arrival; returns the arrivals within the abuse window. */
  private count(now: number): number {
    const slot = Math.floor(now / SLOT_MS);
    const size = this.slots.length;
    if (slot !== this.slot) {
      // Slots that passed since the last arrival leave the window.
      const passed = Math.min(size, slot - this.slot);
      for (let i = 1; i <= passed; i++) {
        const index = (this.slot + i) % size;
        this.arrivedInWindow -= this.slots[index]!;
        this.slots[index] = 0;
      }
      this.slot = slot;
    }
    this.slots[slot % size]! += 1;
    this.arrivedInWindow += 1;
    return this.arrivedInWindow;
  }

  private schedule(now: number): void {
    if (this.timer || this.stopped) return;
    const wait = Math.max(ROUND_MS, this.bucket.msUntil(1, now));
    this.timer = setTimeout(() => this.round(), wait);
  }

  /** Handles what waits as far as the budget allows; reads again once half of it is handled. */
  private round(): void {
    this.timer = null;
    while (this.head < this.waiting.length && !this.stopped && this.bucket.take()) {
      const data = this.waiting[this.head]!;
      this.waiting[this.head] = EMPTY;
      this.head += 1;
      this.waitingBytes -= data.length;
      this.hooks.handle(this.connection, data);
    }
    if (this.stopped) return;
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    const left = this.waiting.length - this.head;
    if (this.paused && this.waitingBytes < HOLD_BYTES / 2 && left < this.holdMessages / 2) {
      this.paused = false;
      this.ws.resume();
    }
    if (left > 0) this.schedule(performance.now());
  }
}

const EMPTY = Buffer.alloc(0);
