// SQLite's long writes, off the event loop.
//
// better-sqlite3 runs every statement on the thread that calls it, and two of the store's writes
// are long (a 5,000-sticky board with a 1 MiB log; scripts/sqlite-compaction-bench.ts):
// - A compaction: reading the snapshot and the log (3–4 ms), then retiring the entries and
//   writing the merged snapshot (10–12 ms of statements, then the commit). Only the merge ran off
//   the main thread; the rest held every live board of the instance for ~30 ms (57 ms on a
//   20,000-sticky board), every megabyte of edits.
// - A WAL checkpoint, which SQLite runs inside whichever commit takes the WAL past 1,000 pages:
//   copying the WAL into the database file and syncing both. A compaction's commit nearly always
//   took it there: its commit was 6–9 ms without the checkpoint, 17–20 ms with it.
// Both now run in one worker thread on a second connection to the same file, and so does the
// compaction's read: the main thread only hands the parts to the merge (the history worker, for a
// big board), which ran off the thread already. The main connection
// never checkpoints by itself (wal_autocheckpoint = 0): once the WAL has grown
// past CHECKPOINT_WAL_BYTES, a flush (store/walFlush.ts) asks the worker for a passive checkpoint,
// which copies what no reader still needs without taking the write lock.
//
// A checkpoint takes no write lock, but a compaction's write needs the file's one write lock. So
// while the worker writes one, the main thread holds its WriteGate: its own writes begun meanwhile
// wait on it (awaiting, the event loop free) instead of finding the file locked and sleeping on
// busy_timeout. If the worker cannot run, the engine does both itself, as before
// (SqliteEngine.compact, and wal_autocheckpoint back on).
import { OnDemandWorker, type WorkerReply, workerUrl } from '../threads/onDemandWorker.ts';
import type { CompactionInput } from './sqliteCompaction.ts';
import type { WriteGate } from './writeGate.ts';

/** A checkpoint, or a compaction's read or write (the main thread merges in between). */
type Job =
  | { op: 'checkpoint' }
  | { op: 'read'; key: string }
  | { op: 'compact'; key: string; seqs: unknown[]; merged: Uint8Array };
export type MaintenanceRequest = Job & { rid: number };
export type MaintenanceReply = WorkerReply;

/** The WAL size past which a flush asks for a checkpoint: SQLite's own threshold, 1,000 pages of 4 KiB. */
export const CHECKPOINT_WAL_BYTES = 1000 * 4096;
/** At most one checkpoint a second, when the writes outrun them or readers hold one back. */
export const CHECKPOINT_EVERY_MS = 1000;
/**
 * The size a WAL file is cut back to when SQLite starts it over after a checkpoint
 * (`journal_size_limit`). SQLite reuses the file from its beginning and keeps its size, and the
 * size is all a flush reads: a WAL that once grew past CHECKPOINT_WAL_BYTES asked for a
 * checkpoint every second from then on, keeping the worker awake for a few KB of writes. Half the
 * threshold: commits overwrite the first half (no file growth for fdatasync to record) and the
 * size passes the threshold again after about CHECKPOINT_WAL_BYTES of new frames.
 */
export const WAL_KEPT_BYTES = CHECKPOINT_WAL_BYTES / 2;
/** A worker with nothing to do exits after this long (a V8 heap and the driver: ~11 MB). */
export const MAINTENANCE_IDLE_MS = 30_000;
/** Below the main thread's priority (history/compute.ts's WORKER_NICE says why). */
export const MAINTENANCE_NICE = 10;

export class SqliteMaintenance {
  private readonly worker: OnDemandWorker;
  private checkpointing = false;
  private lastCheckpoint = Number.NEGATIVE_INFINITY;
  private broken = false;
  /** Checkpoints done (tests read it). */
  checkpoints = 0;

  constructor(
    file: string,
    private readonly gate: WriteGate,
    /** Called once if the worker fails: the engine takes both jobs back. */
    onBroken: (error: Error) => void,
    idleMs = MAINTENANCE_IDLE_MS,
    nice = MAINTENANCE_NICE,
  ) {
    this.worker = new OnDemandWorker({
      url: workerUrl(import.meta.url, { bundled: './sqlite-worker.js', source: './sqlite-worker-entry.mjs' }),
      workerData: { file, nice, walKeptBytes: WAL_KEPT_BYTES },
      idleMs,
      name: 'sqlite worker',
      onFailure: (error) => {
        if (this.broken) return;
        this.broken = true;
        onBroken(error);
      },
    });
  }

  /** False once the worker has failed to start or died. */
  get usable(): boolean {
    return !this.broken;
  }

  /** Reads what a compaction merges, in the worker (store/sqliteCompaction.ts's readCompaction). */
  readCompaction(key: string): Promise<CompactionInput | null> {
    return this.call<CompactionInput | null>({ op: 'read', key });
  }

  /**
   * Writes a compaction in the worker (store/sqliteCompaction.ts's writeCompaction), the main
   * thread's writes held at the gate until it has ended.
   */
  async writeCompaction(key: string, seqs: unknown[], merged: Uint8Array): Promise<void> {
    const release = this.gate.hold();
    try {
      await this.call({ op: 'compact', key, seqs, merged });
    } finally {
      release();
    }
  }

  /** Called after each WAL flush with the WAL's size: starts a checkpoint when one is due. */
  walFlushed(walBytes: number): void {
    if (this.broken || this.checkpointing || walBytes < CHECKPOINT_WAL_BYTES) return;
    const now = performance.now();
    if (now - this.lastCheckpoint < CHECKPOINT_EVERY_MS) return;
    this.lastCheckpoint = now;
    this.checkpointing = true;
    this.call({ op: 'checkpoint' })
      .then(
        () => {
          this.checkpoints += 1;
        },
        // A checkpoint that fails (the file busy for long) is retried after a later flush.
        () => undefined,
      )
      .finally(() => {
        this.checkpointing = false;
      });
  }

  private call<T>(job: Job): Promise<T> {
    if (this.broken) return Promise.reject(new Error('sqlite worker unavailable'));
    return this.worker.call<T>(job satisfies Omit<MaintenanceRequest, 'rid'>);
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
