// Where the main thread's SQLite writes wait, without blocking the event loop, while the SQLite
// worker (store/sqliteWorker.ts) writes a compaction on its own connection. Without it a write
// begun meanwhile would find the database locked, and better-sqlite3 would wait for the lock
// (busy_timeout) asleep on the main thread: the very stall the worker exists to avoid.

export class WriteGate {
  private holders = 0;
  private opened: Promise<void> | null = null;
  private release: (() => void) | null = null;

  /** Whether a holder has the gate now. */
  get held(): boolean {
    return this.holders > 0;
  }

  /** Resolves once no one holds the gate (at once when no one does). */
  async open(): Promise<void> {
    while (this.opened) await this.opened;
  }

  /** Holds the gate until the returned function is called (once; calling it again does nothing). */
  hold(): () => void {
    if (this.holders++ === 0) this.opened = new Promise((resolve) => (this.release = resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holders > 0) return;
      const release = this.release;
      this.opened = null;
      this.release = null;
      release?.();
    };
  }
}
