// Automatic versions (docs/api.md §9 HISTORY_INTERVAL_S): the first edit this instance receives after a
// version starts a timer, and when it fires the board as stored becomes a version. A board that
// closes here with edits since the last version gets its version at once, so an hour of work
// followed by everyone leaving is never left out of the timeline.
import type { Logger } from 'pino';
import type { Versions } from './versions.ts';

/** What a Room tells history about its board. */
export interface HistoryHooks {
  /** The board was edited (the edit is on its way to the Store). */
  edited(boardId: string): void;
  /** The board is closing on this instance (its edits are stored). */
  closing(boardId: string): Promise<void>;
}

export class HistoryRecorder implements HistoryHooks {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly versions: Versions,
    private readonly intervalMs: number,
    private readonly log: Logger,
    /**
     * Resolves once what the board's room on this instance holds now is in the Store. A version
     * is the board as stored: recorded before the edits that started its timer are stored (a
     * slow or unreachable Store, a persist delay longer than the interval), it would find
     * nothing new and be skipped, and the edits would get no version until someone edits again.
     */
    private readonly whenStored: (boardId: string) => Promise<void> = async () => {},
  ) {}

  edited(boardId: string): void {
    if (this.timers.has(boardId)) return;
    const timer = setTimeout(() => {
      this.timers.delete(boardId);
      void this.whenStored(boardId).then(() => this.record(boardId));
    }, this.intervalMs);
    timer.unref();
    this.timers.set(boardId, timer);
  }

  async closing(boardId: string): Promise<void> {
    const timer = this.timers.get(boardId);
    if (!timer) return;
    clearTimeout(timer);
    this.timers.delete(boardId);
    await this.record(boardId);
  }

  private async record(boardId: string): Promise<void> {
    try {
      await this.versions.record(boardId, 'auto');
    } catch (err) {
      // The edits are stored; the next version will cover them.
      this.log.warn({ err, boardId }, 'recording a version failed');
    }
  }

  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
