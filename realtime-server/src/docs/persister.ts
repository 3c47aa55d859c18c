// Writes a room's edits to the Store: debounced (an edit is stored within persistDebounceMs of
// the last one, and within persistMaxDelayMs under constant load), batched, retried with backoff
// while the store is down (edits stay in memory, never dropped), and compacted past the limits.
import { limits } from '@tandem/shared';
import type { Logger } from 'pino';
import * as Y from 'yjs';
import type { Metrics } from '../metrics.ts';
import type { Store } from '../store/store.ts';

export interface PersisterOptions {
  debounceMs: number;
  maxDelayMs: number;
}

export class DocPersister {
  private queue: Uint8Array[] = [];
  private firstQueuedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private failures = 0;
  private closed = false;

  constructor(
    private readonly boardId: string,
    private readonly store: Store,
    private readonly options: PersisterOptions,
    private readonly log: Logger,
    private readonly metrics: Metrics,
  ) {}

  get pending(): number {
    return this.queue.length;
  }

  enqueue(update: Uint8Array): void {
    if (this.queue.length === 0) this.firstQueuedAt = Date.now();
    this.queue.push(update);
    this.schedule();
  }

  private schedule(): void {
    if (this.closed || this.writing) return;
    const waited = Date.now() - this.firstQueuedAt;
    const delay = Math.max(0, Math.min(this.options.debounceMs, this.options.maxDelayMs - waited));
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.write();
    }, delay);
  }

  /** Writes everything queued now; resolves when it is stored (or rejects if the store failed). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.writing) await this.writing.catch(() => undefined);
    if (this.queue.length > 0) await this.write(true);
  }

  private write(throwOnFailure = false): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    const batch = this.queue;
    this.queue = [];
    const started = performance.now();
    const attempt = (async () => {
      // One merged update per write keeps the log short and the transaction small.
      const merged = batch.length === 1 ? batch[0]! : Y.mergeUpdates(batch);
      const size = await this.store.appendUpdates(this.boardId, [merged]);
      this.metrics.storeLatency.observe({ op: 'append' }, (performance.now() - started) / 1000);
      this.failures = 0;
      void this.store.touchBoard(this.boardId, new Date()).catch(() => undefined);
      if (size.entries > limits.compactEntries || size.bytes > limits.compactBytes) await this.compact();
    })();
    this.writing = attempt
      .catch((error: unknown) => {
        // Keep the edits: put the batch back in front of whatever arrived meanwhile.
        this.queue = batch.concat(this.queue);
        this.failures += 1;
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
    const backoff = Math.min(30_000, 250 * 2 ** Math.min(this.failures, 7));
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.write();
    }, backoff);
  }

  private async compact(): Promise<void> {
    const started = performance.now();
    try {
      await this.store.compact(this.boardId, (parts) => Y.mergeUpdates(parts));
      this.metrics.storeLatency.observe({ op: 'compact' }, (performance.now() - started) / 1000);
    } catch (error) {
      // The log is intact; compaction is retried after a later write.
      this.metrics.storeErrors.inc({ op: 'compact' });
      this.log.warn({ err: error, boardId: this.boardId }, 'compaction failed');
    }
  }

  /** Stops timers; the caller flushes first. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
