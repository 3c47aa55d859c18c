// Writes a room's edits to the Store: debounced (an edit is stored within persistDebounceMs of
// the last one, and within persistMaxDelayMs under constant load), batched, retried with backoff
// while the store is down (edits stay in memory, never dropped), and compacted past the limits.
// Each queued update keeps who sent it; a write appends one merged entry per author, and tells
// the room what it stored (so it can confirm it to the other instances and to clients).
import { limits } from '@tandem/shared';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics.ts';
import { BoardGoneError, type DocEntry, type DocStore, type LogSize } from '../store/store.ts';
import type { SaveHealth } from './saveHealth.ts';
import { mapInTurns } from './turns.ts';
import { joinOrMerge, mergeInBulk } from './updates.ts';

/**
 * A compaction whose parts weigh this much is merged off the main thread when the room has a way
 * to (PersisterOptions.mergeOffThread): merging a 1 MB board took 50–80 ms, a stall of every
 * board on the instance, while a small board's merge takes less than starting a thread would.
 */
export const OFF_THREAD_MERGE_BYTES = 256 * 1024;

/** The longest wait between two attempts to store a board's edits while the store fails. */
export const RETRY_MAX_MS = 5000;

export interface PersisterOptions {
  debounceMs: number;
  maxDelayMs: number;
  /** Called after a write with the updates it stored, in the order they were queued. */
  onStored?: (stored: readonly QueuedUpdate[]) => void;
  /** Merges a big compaction's parts off the main thread (the history worker); in place without it. */
  mergeOffThread?: (parts: Uint8Array[]) => Promise<Uint8Array>;
  /** Told of every write's outcome (for /readyz). */
  saves?: SaveHealth;
}

/** One update waiting to be stored, with what the room needs to know once it is. */
export interface QueuedUpdate {
  update: Uint8Array;
  /** Who sent it (the user of the connection it came from); null when unknown. */
  userId: string | null;
  /** When it was received (ms since the epoch). */
  at: number;
  /** The room's bus sequence number of the update (0 when it was not published). */
  seq: number;
  /** The room's local mark for it (see Room's saved-mark bookkeeping). */
  mark: number;
}

/** A board's log has grown past what is kept uncompacted (docs/api.md §9). */
export function logNeedsCompaction(size: LogSize): boolean {
  return size.entries > limits.compactEntries || size.bytes > limits.compactBytes;
}

/** The updates of one batch by author, in first-seen order: one log entry each (toEntry). */
export function authorGroups(batch: readonly QueuedUpdate[]): QueuedUpdate[][] {
  const byUser = new Map<string | null, QueuedUpdate[]>();
  for (const item of batch) {
    const group = byUser.get(item.userId);
    if (group) group.push(item);
    else byUser.set(item.userId, [item]);
  }
  return [...byUser.values()];
}

/** One author's updates of a batch as one log entry. */
export function toEntry(group: readonly QueuedUpdate[]): DocEntry {
  return {
    update: joinOrMerge(group.map((i) => i.update)),
    userId: group[0]!.userId,
    // The earliest receipt of the group: history must not place an edit later than it was made.
    at: new Date(group[0]!.at),
  };
}

/**
 * How long joining a batch's entries may hold the event loop in one turn. A board edited by 20
 * people and a bot writing 50 changes a second has ~1,000 updates a batch; joined at once they
 * held it ~2–3 ms per store, during which nobody's edit was relayed.
 */
export const JOIN_BUDGET_MS = 1;

export class DocPersister {
  private queue: QueuedUpdate[] = [];
  private firstQueuedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private failures = 0;
  private closed = false;

  constructor(
    private readonly boardId: string,
    private readonly store: DocStore,
    private readonly options: PersisterOptions,
    private readonly log: Logger,
    private readonly metrics: Metrics,
    /** Called once the Store says the board is deleted (its connections must close). */
    private readonly onGone?: () => void,
  ) {}

  get pending(): number {
    return this.queue.length;
  }

  /** Nothing queued and nothing being written: every edit handed to this persister is stored. */
  get settled(): boolean {
    return this.queue.length === 0 && this.writing === null;
  }

  enqueue(item: QueuedUpdate): void {
    if (this.queue.length === 0) this.firstQueuedAt = Date.now();
    this.queue.push(item);
    this.schedule();
  }

  /** The updates queued or being written, oldest first (for the room's saved mark). */
  get unstored(): readonly QueuedUpdate[] {
    return this.inFlight.length > 0 ? this.inFlight.concat(this.queue) : this.queue;
  }

  private inFlight: QueuedUpdate[] = [];

  private schedule(): void {
    if (this.closed || this.writing) return;
    this.lastQueuedAt = Date.now();
    // A debounce timer already set looks at lastQueuedAt when it fires: an edit costs no timer
    // of its own (clearing and setting one per edit showed in ingest profiles). A retry's backoff
    // timer stays too: replacing it with the debounce (whose maxDelayMs had long passed for the
    // batch put back) made every edit retry at once, so a full disk under people typing meant
    // dozens of failed writes and warnings a second per board instead of one per backoff.
    if (this.timer) return;
    this.armDebounce();
  }

  private lastQueuedAt = 0;
  /** The timer set is a retry's backoff, not the debounce. */
  private backingOff = false;
  /** When someone first waited for the queue to be stored (hurry); 0 when no one waits. */
  private hurriedAt = 0;

  /**
   * When the queue is due: debounceMs after the last edit, no later than maxDelayMs after the
   * first, and no later than debounceMs after someone started waiting for it (hurry).
   */
  private get writeDue(): number {
    const due = Math.min(
      this.lastQueuedAt + this.options.debounceMs,
      this.firstQueuedAt + this.options.maxDelayMs,
    );
    return this.hurriedAt > 0 ? Math.min(due, this.hurriedAt + this.options.debounceMs) : due;
  }

  /**
   * Someone answers only once what is queued is stored (a content-API write's 201): store it within
   * debounceMs, however busy the board. Without it, a board edited without pause is written every
   * maxDelayMs, so such a caller waited up to 5 s, and the write that answered 250 of them at once
   * held the event loop for 100–200 ms (issue 25's benchmark). One timer change per batch.
   */
  hurry(): void {
    if (this.queue.length === 0 || this.hurriedAt > 0) return;
    this.hurriedAt = Date.now();
    if (this.timer && !this.backingOff && !this.writing && !this.closed) this.armDebounce();
  }

  /** A timer for writeDue; edits queued meanwhile move it on when it fires. */
  private armDebounce(): void {
    if (this.timer) clearTimeout(this.timer);
    this.backingOff = false;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (this.writeDue > Date.now() && !this.closed && !this.writing) this.armDebounce();
        else void this.write();
      },
      Math.max(0, this.writeDue - Date.now()),
    );
  }

  /**
   * Writes everything queued now; resolves when it is stored (or rejects if the store failed),
   * and any compaction those writes started has ended.
   */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    // Loop: another caller's write may fail and put its batch back while this one waits, and two
    // callers flushing at once must both see the edits stored before they resolve. A compaction the
    // writes started ends too (a flushed board is as compact as it gets); the debounce may start a
    // write while it runs, so the loop goes on until nothing is queued, written or compacted: a
    // flush that resolved with a write in flight let its room unload and close with the write
    // failing, and the close's rejection went unhandled (Rooms.release).
    for (;;) {
      if (this.writing) {
        await this.writing.catch(() => undefined);
        continue;
      }
      if (this.queue.length > 0) {
        await this.write(true);
        continue;
      }
      if (this.compacting) {
        await this.compacting;
        continue;
      }
      break;
    }
  }

  private write(throwOnFailure = false): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    const batch = this.queue;
    this.queue = [];
    this.hurriedAt = 0;
    this.inFlight = batch;
    const started = performance.now();
    const attempt = (async () => {
      // One merged entry per author and write keeps the log short and the transaction small.
      const entries = await mapInTurns(authorGroups(batch), JOIN_BUDGET_MS, toEntry);
      const size = await this.store.append(this.boardId, entries);
      this.metrics.storeLatency.observe({ op: 'append' }, (performance.now() - started) / 1000);
      this.failures = 0;
      this.options.saves?.stored(this.boardId);
      this.inFlight = [];
      this.options.onStored?.(batch);
      // Not awaited: the next write must not wait for a merge (tens of ms to seconds for a big
      // board, off the main thread or not); the Store keeps what is appended while it merges.
      if (logNeedsCompaction(size)) this.startCompaction();
    })();
    this.writing = attempt
      .catch((error: unknown) => {
        if (error instanceof BoardGoneError) {
          // The board was deleted: its content must not be stored, now or later.
          this.queue = [];
          this.closed = true;
          this.options.saves?.forget(this.boardId);
          this.log.info({ boardId: this.boardId }, 'board deleted; its unstored edits are dropped');
          this.onGone?.();
          return;
        }
        // Keep the edits: put the batch back in front of whatever arrived meanwhile.
        this.inFlight = [];
        this.queue = batch.concat(this.queue);
        this.failures += 1;
        this.options.saves?.failed(this.boardId);
        this.metrics.storeErrors.inc({ op: 'append' });
        this.log.warn(
          { err: error, boardId: this.boardId, failures: this.failures },
          'storing edits failed; retrying',
        );
        if (throwOnFailure) throw error;
      })
      .finally(() => {
        this.writing = null;
        if (this.queue.length > 0 && !this.closed) this.retryLater();
      });
    return this.writing;
  }

  private retryLater(): void {
    if (this.failures === 0) {
      this.schedule();
      return;
    }
    // Capped low, so a board is stored within seconds of the database coming back.
    const backoff =
      Math.min(RETRY_MAX_MS, 250 * 2 ** Math.min(this.failures, 7)) * (0.75 + Math.random() / 2);
    if (this.timer) clearTimeout(this.timer);
    this.backingOff = true;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.backingOff = false;
      void this.write();
    }, backoff);
  }

  /** The compaction running now, if any: one at a time per board in this process. */
  private compacting: Promise<void> | null = null;

  private startCompaction(): void {
    if (this.compacting) return;
    this.compacting = this.compact().finally(() => {
      this.compacting = null;
    });
  }

  private async compact(): Promise<void> {
    const started = performance.now();
    try {
      await this.store.compact(this.boardId, (parts) => this.merge(parts));
      this.metrics.storeLatency.observe({ op: 'compact' }, (performance.now() - started) / 1000);
    } catch (error) {
      // The log is intact; compaction is retried after a later write.
      this.metrics.storeErrors.inc({ op: 'compact' });
      this.log.warn({ err: error, boardId: this.boardId }, 'compaction failed');
    }
  }

  private merge(parts: Uint8Array[]): Uint8Array | Promise<Uint8Array> {
    const offThread = this.options.mergeOffThread;
    if (!offThread) return mergeInBulk(parts);
    let bytes = 0;
    for (const part of parts) bytes += part.byteLength;
    return bytes >= OFF_THREAD_MERGE_BYTES ? offThread(parts) : mergeInBulk(parts);
  }

  /** Stops timers; the caller flushes first. */
  close(): void {
    this.closed = true;
    this.options.saves?.forget(this.boardId);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
