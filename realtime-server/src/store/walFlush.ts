// SQLite's commits made durable off the event loop.
//
// better-sqlite3 runs on the main thread, so with `synchronous = FULL` every commit waited there for
// its fsync: 0.3 ms at the median on the reference machine, but 3–20 ms at the tail, and a
// compaction's commit (a whole board's snapshot) longer still. Each such wait held every live board
// of the instance: nobody's edit was relayed meanwhile (issue 25's benchmark). Now the connection
// commits with `synchronous = NORMAL`, which in WAL mode writes the commit to the WAL file without
// forcing it to disk, and every Store call that wrote waits for an fdatasync of the WAL file on
// libuv's thread pool before it resolves. The guarantee is the one FULL gave: no write is reported
// done (a board's edits "saved", a 201) before it is on disk, and after a power cut SQLite's WAL
// recovery replays every commit whose frames reached the disk. Calls that wrote meanwhile share
// the next flush (a group commit). Checkpoints keep NORMAL's own syncs: SQLite flushes the WAL
// before it copies it into the database file and the database file after.
import { type FileHandle, open, stat } from 'node:fs/promises';

export class WalFlusher {
  private handle: FileHandle | null = null;
  private handleIno = 0;
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  private closed = false;
  /** Flushes done (tests read it). */
  flushes = 0;

  constructor(
    private readonly walPath: string,
    /** Told the WAL's size after each flush (store/sqliteMaintenance.ts checkpoints past a size). */
    private readonly onFlushed?: (walBytes: number) => void,
  ) {}

  /** Resolves once everything committed before the call is on disk. */
  flush(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (!this.running) return this.start();
    // The flush under way may have started before the caller's commit: one more after it,
    // shared by every caller until it starts.
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<void> {
    const run: Promise<void> = this.flushOnce().finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  private async flushOnce(): Promise<void> {
    const file = await stat(this.walPath).catch((error: NodeJS.ErrnoException) => {
      // No WAL file: everything committed is in the database file, which SQLite synced when it
      // checkpointed the WAL away.
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!file) return;
    if (!this.handle || this.handleIno !== file.ino) {
      await this.handle?.close().catch(() => undefined);
      this.handle = await open(this.walPath, 'r+');
      this.handleIno = file.ino;
    }
    await this.handle.datasync();
    this.flushes += 1;
    this.onFlushed?.(file.size);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.next?.catch(() => undefined);
    await this.running?.catch(() => undefined);
    await this.handle?.close().catch(() => undefined);
    this.handle = null;
  }
}
