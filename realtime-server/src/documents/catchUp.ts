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

/** The earlier of two log positions to read from; null (the whole board) wins. */
const earliest = (a: number | null, b: number | null): number | null =>
  a === null || b === null ? null : Math.min(a, b);

export class StoreCatchUp {
  private running = false;
  /** A read asked for while one ran: from which log position (null: the whole board). */
  private again: { since: number | null } | null = null;
  /** A read gave up: the next reads the whole board, whatever it is asked (it may have missed some). */
  private wholeNext = false;

  constructor(
    private readonly boardId: string,
    private readonly doc: Y.Doc,
    private readonly store: DocStore,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    private readonly isClosed: () => boolean,
  ) {}

  /**
   * Reads the board from the Store and applies what the doc lacks: the whole board, or with
   * `since` (a log position everything up to which this room already read) only the entries
   * after it, which costs what was written since rather than the board. A request while one read
   * runs costs one more read after it (the first may have begun before the write it is meant to
   * see). Retries while the Store is unreachable.
   */
  request(reason: string, since: number | null = null): void {
    if (this.isClosed()) return;
    if (this.running) {
      // Two reads asked for while one runs: one read, from the earlier position of the two.
      const earlier = this.again;
      this.again = { since: earlier === null ? since : earliest(earlier.since, since) };
      return;
    }
    this.running = true;
    this.metrics.storeCatchUps.inc({ reason });
    void this.read(this.wholeNext ? null : since)
      .catch((err: unknown) => {
        this.wholeNext = true;
        this.log.warn({ err, boardId: this.boardId, reason }, 'catching up from the Store failed');
      })
      .finally(() => {
        this.running = false;
        const again = this.again;
        if (!again) return;
        this.again = null;
        this.request(reason, again.since);
      });
  }

  private async read(since: number | null): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (this.isClosed()) return;
      let parts: Uint8Array[];
      try {
        parts =
          since === null
            ? partsOf(await this.store.loadDoc(this.boardId))
            : (await this.store.logSince(this.boardId, since)).map((entry) => entry.update);
      } catch (error) {
        if (attempt >= CATCH_UP_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MAX_MS, 500 * 2 ** attempt)));
        continue;
      }
      if (since === null) this.wholeNext = false;
      if (this.isClosed()) return;
      if (parts.length === 0) return;
      const missing = Y.diffUpdate(mergeInBulk(parts), Y.encodeStateVector(this.doc));
      applyUpdate(this.doc, missing, hasPendingUpdates(this.doc) ? BUS_RESOLVING : CATCH_UP);
      return;
    }
  }
}
