// Catch-up from the Store: the repair for edits that are in the Store but never reached this
// instance over the bus (published into a bus outage, at either end, by an instance that has since
// unloaded the board or died, so no sync request can reach them).
import type { Logger } from 'pino';
import * as Y from 'yjs';
import type { Metrics } from '../metrics.ts';
import { type DocStore, partsOf } from '../store/store.ts';
import { hasPendingUpdates } from './internals.ts';
import { applyUpdate, BUS_RESOLVING, CATCH_UP } from './origins.ts';
import { RETRY_MAX_MS } from './persister.ts';
import { mergeInBulk } from './updates.ts';

/** Reads a catch-up from the Store retries (with backoff) before it gives up. */
const CATCH_UP_ATTEMPTS = 6;

export class StoreCatchUp {
  private running = false;
  private again = false;

  constructor(
    private readonly boardId: string,
    private readonly doc: Y.Doc,
    private readonly store: DocStore,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    private readonly isClosed: () => boolean,
  ) {}

  /**
   * Reads the board from the Store and applies what the doc lacks. A request while one read runs
   * costs one more read after it (the first may have begun before the write it is meant to see).
   * Retries while the Store is unreachable.
   */
  request(reason: string): void {
    if (this.isClosed()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.metrics.storeCatchUps.inc({ reason });
    void this.read()
      .catch((err: unknown) =>
        this.log.warn({ err, boardId: this.boardId, reason }, 'catching up from the Store failed'),
      )
      .finally(() => {
        this.running = false;
        if (!this.again) return;
        this.again = false;
        this.request(reason);
      });
  }

  private async read(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (this.isClosed()) return;
      let stored: Awaited<ReturnType<DocStore['loadDoc']>>;
      try {
        stored = await this.store.loadDoc(this.boardId);
      } catch (error) {
        if (attempt >= CATCH_UP_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MAX_MS, 500 * 2 ** attempt)));
        continue;
      }
      if (this.isClosed()) return;
      const parts = partsOf(stored);
      if (parts.length === 0) return;
      const missing = Y.diffUpdate(mergeInBulk(parts), Y.encodeStateVector(this.doc));
      applyUpdate(this.doc, missing, hasPendingUpdates(this.doc) ? BUS_RESOLVING : CATCH_UP);
      return;
    }
  }
}
