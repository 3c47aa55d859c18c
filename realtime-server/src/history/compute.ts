// Where the history computations run. Decoding a version of a big board, replaying thousands of
// log entries or diffing two boards takes from tens of milliseconds to seconds of CPU: done on
// the main thread it would stall every live board of the instance, so by default it runs in one
// worker thread per process (history/worker.ts). `inlineCompute` runs the same functions in
// place (for the pure unit tests and as the worker's own implementation).
import { Worker } from 'node:worker_threads';
import type { BoardExport, VersionStats } from '@tandem/shared';
import {
  exportOf,
  type HistoryEntry,
  IncompleteLogError,
  nextVersion,
  restoreChange,
  revertChanges,
} from './board.ts';

export interface HistoryCompute {
  nextVersion(
    prev: Uint8Array | null,
    stored: Uint8Array[] | null,
    updates: Uint8Array[],
  ): Promise<{ data: Uint8Array; stats: VersionStats; shapes: number; assets: string[] }>;
  exportOf(data: Uint8Array): Promise<BoardExport>;
  /** Rejects with IncompleteLogError when the entries do not follow from the base. */
  revert(
    base: Uint8Array | null,
    entries: HistoryEntry[],
    userId: string,
    since: Date,
  ): Promise<Uint8Array | null>;
  restoreChange(live: Uint8Array, target: Uint8Array): Promise<Uint8Array | null>;
  close(): Promise<void>;
}

export const inlineCompute: HistoryCompute = {
  nextVersion: async (prev, stored, updates) => nextVersion(prev, stored, updates),
  exportOf: async (data) => exportOf(data),
  revert: async (base, entries, userId, since) => (await revertChanges(base, entries, userId, since)).update,
  restoreChange: async (live, target) => restoreChange(live, target),
  close: async () => {},
};

export type ComputeOp = Exclude<keyof HistoryCompute, 'close'>;
export interface ComputeRequest {
  rid: number;
  op: ComputeOp;
  args: unknown[];
}
export type ComputeReply =
  | { rid: number; ok: true; result: unknown }
  | { rid: number; ok: false; name: string; message: string };

/** The computations in a worker thread, started on first use; idle, it does not keep Node alive. */
export class WorkerCompute implements HistoryCompute {
  private worker: Worker | null = null;
  private rid = 0;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  private start(): Worker {
    if (this.worker) return this.worker;
    // From sources (tsx), worker-entry.mjs registers tsx's loader, which worker threads do not
    // inherit on every Node version; the bundle (scripts/build-server.mjs) has history-worker.js
    // next to the module that holds this code.
    const bundled = !import.meta.url.endsWith('.ts');
    const worker = new Worker(
      new URL(bundled ? './history-worker.js' : './worker-entry.mjs', import.meta.url),
    );
    worker.on('message', (reply: ComputeReply) => {
      const p = this.pending.get(reply.rid);
      if (!p) return;
      this.pending.delete(reply.rid);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) p.resolve(reply.result);
      else
        p.reject(reply.name === 'IncompleteLogError' ? new IncompleteLogError() : new Error(reply.message));
    });
    const fail = (error: Error) => {
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
      this.worker = null;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`history worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private call<T>(op: ComputeOp, args: unknown[]): Promise<T> {
    const worker = this.start();
    const rid = ++this.rid;
    worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(rid, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ rid, op, args } satisfies ComputeRequest);
    });
  }

  nextVersion(prev: Uint8Array | null, stored: Uint8Array[] | null, updates: Uint8Array[]) {
    return this.call<{ data: Uint8Array; stats: VersionStats; shapes: number; assets: string[] }>(
      'nextVersion',
      [prev, stored, updates],
    );
  }
  exportOf(data: Uint8Array) {
    return this.call<BoardExport>('exportOf', [data]);
  }
  revert(base: Uint8Array | null, entries: HistoryEntry[], userId: string, since: Date) {
    return this.call<Uint8Array | null>('revert', [base, entries, userId, since]);
  }
  restoreChange(live: Uint8Array, target: Uint8Array) {
    return this.call<Uint8Array | null>('restoreChange', [live, target]);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
