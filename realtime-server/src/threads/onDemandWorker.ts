// A worker thread started on first use and stopped after a while with nothing to do, answering one
// reply per request. The history worker (history/compute.ts) and the SQLite worker
// (store/sqliteMaintenance.ts) are both one: each is a V8 heap of its own (tens of MB once it has
// loaded Yjs or a driver), held only while there is work for it. Idle, it does not keep Node alive.
import { type TransferListItem, Worker } from 'node:worker_threads';

/** What a worker answers: `rid` names the request; an error travels as its name and message. */
export type WorkerReply =
  | { rid: number; ok: true; result: unknown }
  | { rid: number; ok: false; name: string; message: string };

/**
 * The URL of a worker module beside `base` (the caller's import.meta.url): from sources (tsx) an
 * entry that registers tsx's loader, which worker threads do not inherit on every Node version;
 * in the bundle (scripts/build-server.mjs) the worker's own file, next to the module that starts it.
 */
export function workerUrl(base: string, files: { bundled: string; source: string }): URL {
  return new URL(base.endsWith('.ts') ? files.source : files.bundled, base);
}

export interface OnDemandWorkerOptions {
  /** The worker's module: from sources an entry that registers tsx's loader, else the bundle's file. */
  url: URL;
  workerData: unknown;
  /** How long a worker with nothing to do is kept. */
  idleMs: number;
  /** Names the worker in the error its unexpected exit gives. */
  name: string;
  /** The error a failed reply rejects with (by default an Error with the worker's message). */
  toError?: (reply: { name: string; message: string }) => Error;
  /** Told when a worker fails or exits while it has work (not when it is stopped). */
  onFailure?: (error: Error) => void;
}

export class OnDemandWorker {
  private worker: Worker | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private rid = 0;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  constructor(private readonly options: OnDemandWorkerOptions) {}

  /** Whether a worker thread is running now. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Sends `message` with a new `rid`; resolves with the worker's result for it. */
  call<T>(message: object, transfer: readonly TransferListItem[] = []): Promise<T> {
    const worker = this.start();
    const rid = ++this.rid;
    worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(rid, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...message, rid }, transfer);
    });
  }

  private start(): Worker {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.worker) return this.worker;
    const worker = new Worker(this.options.url, { workerData: this.options.workerData });
    worker.on('message', (reply: WorkerReply) => {
      const p = this.pending.get(reply.rid);
      if (!p) return;
      this.pending.delete(reply.rid);
      if (this.pending.size === 0) {
        worker.unref();
        this.stopWhenIdle(worker);
      }
      if (reply.ok) p.resolve(reply.result);
      else p.reject(this.options.toError?.(reply) ?? new Error(reply.message));
    });
    const fail = (error: Error) => {
      // A worker stopped when idle, or by close(), had nothing pending; a newer one may have.
      if (this.worker !== worker) return;
      this.worker = null;
      this.rejectAll(error);
      this.options.onFailure?.(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`${this.options.name} exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private rejectAll(error: Error): void {
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }

  private stopWhenIdle(worker: Worker): void {
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.worker !== worker || this.pending.size > 0) return;
      this.worker = null;
      void worker.terminate();
    }, this.options.idleMs);
    this.idleTimer.unref();
  }

  /** Stops the worker; what it still had to do is rejected. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker;
    this.worker = null;
    this.rejectAll(new Error(`${this.options.name} closed`));
    await worker?.terminate();
  }
}
