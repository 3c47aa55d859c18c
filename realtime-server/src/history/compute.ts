// Where the history computations run. Decoding a version of a big board, replaying thousands of
// log entries or diffing two boards takes from tens of milliseconds to seconds of CPU: done on
// the main thread it would stall every live board of the instance, so by default it runs in one
// worker thread per process (history/worker.ts). Compacting a big board's log (`merge`) runs there
// too. `inlineCompute` (history/inline.ts) runs the same functions in place: the worker's own
// implementation, kept out of this module so that the main thread does not load what only the
// worker runs (the SVG renderer).
import type { VersionStats } from '@tandem/shared';
import { OnDemandWorker, type WorkerReply, workerUrl } from '../threads/onDemandWorker.ts';
import { type HistoryEntry, IncompleteLogError } from './board.ts';
import type { RenderedSvg } from './render.ts';

export interface HistoryCompute {
  nextVersion(
    prev: Uint8Array | null,
    stored: Uint8Array[] | null,
    updates: Uint8Array[],
  ): Promise<{ data: Uint8Array; stats: VersionStats; shapes: number; assets: string[] }>;
  /**
   * A board (its stored parts, or one encoded state) as export.json, serialized: the text goes
   * back to the main thread as one string, so neither decoding the board, building its records
   * nor serializing them runs there. Records that fail the shape schema are kept as they are
   * (an export must not silently lose a shape) and their ids listed in `invalid`.
   */
  exportJson(parts: Uint8Array[]): Promise<{ json: string; invalid: string[] }>;
  /**
   * A board (its parts) as SVG (docs/api.md §16): decoding and drawing a 5,000-shape board takes
   * far too long for the main thread, which serves every live board.
   */
  renderSvg(parts: Uint8Array[], options: { frame?: string | undefined }): Promise<RenderedSvg>;
  /** Rejects with IncompleteLogError when the entries do not follow from the base. */
  revert(
    base: Uint8Array | null,
    entries: HistoryEntry[],
    userId: string,
    since: Date,
  ): Promise<Uint8Array | null>;
  /** The change that makes a board (its parts) equal to `target`, in slices (restoreChanges). */
  restoreChanges(live: Uint8Array[], target: Uint8Array): Promise<Uint8Array[]>;
  /** How many shapes `change` would add, change or remove on the board (its parts). */
  changedShapeCount(parts: Uint8Array[], change: Uint8Array): Promise<number>;
  /** The parts merged as one update (mergeInBulk): a compaction of a board's snapshot and log. */
  merge(parts: Uint8Array[]): Promise<Uint8Array>;
  close(): Promise<void>;
}

export type ComputeOp = Exclude<keyof HistoryCompute, 'close'>;
export interface ComputeRequest {
  rid: number;
  op: ComputeOp;
  args: unknown[];
}
export type ComputeReply = WorkerReply;

/**
 * How long a worker with nothing to do is kept before it exits. A worker thread is a second V8
 * heap with its own Yjs: about 28 MB of resident memory, held for what is, on most instances, one
 * version of a board every few minutes (HISTORY_INTERVAL_S) or when a board closes. Starting one
 * again takes tens of milliseconds, on the worker's own thread.
 */
export const WORKER_IDLE_MS = 30_000;

/** The nice value of a worker thread (history/worker.ts): below the main thread's 0. */
export const WORKER_NICE = 10;

/**
 * The computations in a worker thread, started on first use and stopped after WORKER_IDLE_MS
 * with nothing to do; idle, it does not keep Node alive.
 */
export class WorkerCompute implements HistoryCompute {
  private readonly worker: OnDemandWorker;

  constructor(idleMs = WORKER_IDLE_MS, nice = WORKER_NICE) {
    this.worker = new OnDemandWorker({
      url: workerUrl(import.meta.url, { bundled: './history-worker.js', source: './worker-entry.mjs' }),
      workerData: { nice },
      idleMs,
      name: 'history worker',
      toError: (reply) =>
        reply.name === 'IncompleteLogError' ? new IncompleteLogError() : new Error(reply.message),
    });
  }

  /** Whether a worker thread is running now. */
  get running(): boolean {
    return this.worker.running;
  }

  private call<T>(op: ComputeOp, args: unknown[]): Promise<T> {
    return this.worker.call<T>({ op, args } satisfies Omit<ComputeRequest, 'rid'>);
  }

  nextVersion(prev: Uint8Array | null, stored: Uint8Array[] | null, updates: Uint8Array[]) {
    return this.call<{ data: Uint8Array; stats: VersionStats; shapes: number; assets: string[] }>(
      'nextVersion',
      [prev, stored, updates],
    );
  }
  exportJson(parts: Uint8Array[]) {
    return this.call<{ json: string; invalid: string[] }>('exportJson', [parts]);
  }

  renderSvg(parts: Uint8Array[], options: { frame?: string | undefined }) {
    return this.call<RenderedSvg>('renderSvg', [parts, options]);
  }
  revert(base: Uint8Array | null, entries: HistoryEntry[], userId: string, since: Date) {
    return this.call<Uint8Array | null>('revert', [base, entries, userId, since]);
  }
  restoreChanges(live: Uint8Array[], target: Uint8Array) {
    return this.call<Uint8Array[]>('restoreChanges', [live, target]);
  }
  changedShapeCount(parts: Uint8Array[], change: Uint8Array) {
    return this.call<number>('changedShapeCount', [parts, change]);
  }
  merge(parts: Uint8Array[]) {
    return this.call<Uint8Array>('merge', [parts]);
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
