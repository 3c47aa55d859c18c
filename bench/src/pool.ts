// The orchestrator's side of the generator: worker threads that host the clients, and calls to them.
import { Worker } from 'node:worker_threads';
import type {
  ClientSpec,
  Command,
  ConnectCommand,
  ConnectResult,
  Counts,
  Reply,
  Report,
  SentCounts,
  StartCommand,
} from './protocol.ts';

export class Pool {
  private readonly workers: Worker[];
  private rid = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(size: number) {
    this.workers = Array.from({ length: Math.max(1, size) }, () => {
      const w = new Worker(new URL('./worker-entry.mjs', import.meta.url));
      w.on('message', (reply: Reply) => {
        const p = this.pending.get(reply.rid);
        if (!p) return;
        this.pending.delete(reply.rid);
        if (reply.ok) p.resolve(reply.result);
        else p.reject(new Error(reply.error));
      });
      w.on('error', (err) => {
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      });
      return w;
    });
  }

  get size(): number {
    return this.workers.length;
  }

  private call<T>(worker: Worker, body: Command): Promise<T> {
    const rid = ++this.rid;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(rid, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ rid, body });
    });
  }

  private all<T>(body: Command | ((i: number) => Command)): Promise<T[]> {
    return Promise.all(
      this.workers.map((w, i) => this.call<T>(w, typeof body === 'function' ? body(i) : body)),
    );
  }

  /**
   * Spreads clients round-robin over the workers, so each board's clients land on every worker;
   * `on` keeps them to those workers (by index).
   */
  async connect(
    clients: ClientSpec[],
    opts: Omit<ConnectCommand, 'cmd' | 'clients'>,
    on: readonly number[] = this.workers.map((_, i) => i),
  ): Promise<ConnectResult> {
    const shares: ClientSpec[][] = this.workers.map(() => []);
    clients.forEach((c, i) => {
      shares[on[i % on.length] ?? 0]?.push(c);
    });
    const results = await this.all<ConnectResult>((i) => ({
      cmd: 'connect',
      clients: shares[i] ?? [],
      ...opts,
    }));
    return {
      synced: results.reduce((n, r) => n + r.synced, 0),
      failed: results.reduce((n, r) => n + r.failed, 0),
      syncMs: concatSamples(results.map((r) => r.syncMs)),
      arrivedMs: concatSamples(results.map((r) => r.arrivedMs)),
    };
  }

  async start(cmd: Omit<StartCommand, 'cmd'>): Promise<SentCounts> {
    const results = await this.all<SentCounts>({ cmd: 'start', ...cmd });
    const merged: SentCounts = { updates: {}, cursors: {} };
    for (const r of results) {
      Object.assign(merged.updates, r.updates);
      Object.assign(merged.cursors, r.cursors);
    }
    return merged;
  }

  async counts(): Promise<Counts> {
    const results = await this.all<Counts>({ cmd: 'counts' });
    return {
      docDelivered: results.reduce((n, r) => n + r.docDelivered, 0),
      awDelivered: results.reduce((n, r) => n + r.awDelivered, 0),
      disconnects: results.reduce((n, r) => n + r.disconnects, 0),
    };
  }

  /** The first worker's times to apply `state` to a fresh doc (DecodeCommand), ms. */
  decode(state: Uint8Array, times: number): Promise<number[]> {
    return this.call<number[]>(this.workers[0] as Worker, { cmd: 'decode', state, times });
  }

  reports(): Promise<Report[]> {
    return this.all<Report>({ cmd: 'report' });
  }

  async close(): Promise<void> {
    await this.all<null>({ cmd: 'close' });
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

function concatSamples(parts: Float64Array[]): Float64Array {
  const all = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}
