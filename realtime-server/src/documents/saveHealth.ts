// Whether this instance's boards are being stored, for /readyz. The Store's write probe rewrites
// one row in place, which on a full disk still fits in pages the database already holds, while
// storing edits needs new ones: every save failed and /readyz said ready. The persisters' own
// outcomes are the truer signal; the probe still catches a store that refuses every write
// before anyone edits.

export class SaveHealth {
  /** Boards whose last attempt to store failed, with when their failures began. */
  private readonly failingSince = new Map<string, number>();
  private lastStoredAt = 0;

  stored(boardId: string, now = Date.now()): void {
    this.failingSince.delete(boardId);
    this.lastStoredAt = now;
  }

  failed(boardId: string, now = Date.now()): void {
    if (!this.failingSince.has(boardId)) this.failingSince.set(boardId, now);
  }

  /** The board's persister stopped (closed, or the board deleted): its failures no longer count. */
  forget(boardId: string): void {
    this.failingSince.delete(boardId);
  }

  /**
   * True when some board's edits have failed to be stored for `forMs` and no board's were stored
   * in that time: the Store is not taking this instance's writes (one board failing while others
   * are stored is that board's problem, logged and retried, not the instance's).
   */
  failing(forMs: number, now = Date.now()): boolean {
    if (now - this.lastStoredAt < forMs) return false;
    for (const since of this.failingSince.values()) if (now - since >= forMs) return true;
    return false;
  }
}
