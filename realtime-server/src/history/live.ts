// Restore and revert (docs/api.md §12): a change to the board on the user's behalf, attributed to
// them, stored, seen live by everyone on every instance. A version is recorded just before (what
// the board was) and just after (the change itself).
//   - Open on this instance: the change is applied to the board's Room, so every client here gets
//     it at once, the other instances over the Bus like any edit, and it is stored like any edit.
//     A restore's change comes in slices applied one per event-loop turn (Room.changeInTurns),
//     computed in the history worker from the Store.
//   - Not open here: the change is computed from the Store and appended to it, and the instances
//     that have the board open get it over the Bus in slices (Rooms.changedInStore). Opening the board's Room only
//     to apply the change would decode the whole board on the main thread, which stalled every
//     board of the instance for 100–950 ms on a 4,000-shape board.
import { logNeedsCompaction } from '../documents/persister.ts';
import type { Rooms } from '../documents/rooms.ts';
import { partsOf, type RevertedEdits, type StoredVersion } from '../store/store.ts';
import type { Versions } from './versions.ts';

const timeOf = (d: Date) => d.toISOString().slice(11, 16);

/** A change computed from the board as it is now (its parts, read only when asked for). */
type ComputeChange = (
  board: () => Promise<Uint8Array[]>,
) => Promise<{ updates: Uint8Array[]; label: string; reverted?: RevertedEdits }>;

export class LiveHistory {
  constructor(
    private readonly rooms: Rooms,
    readonly versions: Versions,
  ) {}

  /** Records a named version of the board as it is now (what clients sent is stored first). */
  async save(boardId: string, label: string, userId: string): Promise<StoredVersion> {
    const room = this.rooms.get(boardId);
    await room?.flush();
    const version = await this.versions.record(boardId, 'named', label, userId);
    if (!version) throw new Error('version not recorded');
    return version;
  }

  /** Makes the live board equal to a version; null when there is no such version. */
  async restore(boardId: string, versionId: string, userId: string): Promise<StoredVersion | null> {
    const target = await this.versions.store.getVersion(boardId, versionId);
    if (!target) return null;
    return this.changeBoard(boardId, 'restore', userId, async (board) => ({
      // Computed away from the live doc, on a copy of its state; edits that arrive meanwhile
      // merge with the change like any concurrent edit.
      updates: await this.versions.compute.restoreChanges(await board(), target.data),
      label: `Restored ${target.label ?? `the version of ${timeOf(target.createdAt)} UTC`}`,
    }));
  }

  /** Undoes every edit `targetUserId` made since `since`, keeping everyone else's. */
  async revert(
    boardId: string,
    targetUserId: string,
    targetName: string,
    since: Date,
    userId: string,
  ): Promise<StoredVersion> {
    const version = await this.changeBoard(boardId, 'revert', userId, async () => {
      const update = await this.versions.revertChange(boardId, targetUserId, since);
      return {
        updates: update ? [update] : [],
        label: `Undid ${targetName}'s changes since ${timeOf(since)} UTC`,
        reverted: { userId: targetUserId, since },
      };
    });
    if (!version) throw new Error('version not recorded');
    return version;
  }

  /**
   * How many shapes a revert of `targetUserId`'s changes since `since` would change (add back,
   * remove or set back), without changing anything: what the History panel's confirmation says.
   * Computed as the revert is, then applied to a copy of the stored board and compared, in the
   * worker: decoding a big board twice would stall the instance's live boards.
   */
  async revertCount(boardId: string, targetUserId: string, since: Date): Promise<number> {
    await this.rooms.get(boardId)?.flush();
    const update = await this.versions.revertChange(boardId, targetUserId, since);
    if (!update) return 0;
    const parts = partsOf(await this.versions.store.loadDoc(boardId));
    return this.versions.compute.changedShapeCount(parts, update);
  }

  private async changeBoard(
    boardId: string,
    kind: 'restore' | 'revert',
    userId: string,
    compute: ComputeChange,
  ): Promise<StoredVersion | null> {
    if (!this.rooms.get(boardId)) return this.changeStoredBoard(boardId, kind, userId, compute);
    const { room, release } = await this.rooms.acquire(boardId);
    try {
      // What clients sent is stored, then the board as it is now becomes a version of its own.
      await room.flush();
      await this.versions.record(boardId, 'auto');
      // The Store holds what the room holds now (flushed above; what arrives meanwhile merges with
      // the change like any concurrent edit): read from it, the board is not encoded on the main
      // thread (160 ms for 4,000 shapes on a busy machine).
      const { updates, label, reverted } = await compute(async () =>
        partsOf(await this.versions.store.loadDoc(boardId)),
      );
      await room.changeInTurns(userId, updates);
      await room.flush();
      return await this.versions.record(boardId, kind, label, userId, reverted);
    } finally {
      release();
    }
  }

  private async changeStoredBoard(
    boardId: string,
    kind: 'restore' | 'revert',
    userId: string,
    compute: ComputeChange,
  ): Promise<StoredVersion | null> {
    const { store } = this.versions;
    await this.versions.record(boardId, 'auto');
    const { updates, label, reverted } = await compute(async () => partsOf(await store.loadDoc(boardId)));
    if (updates.length > 0) {
      const at = new Date();
      const size = await store.append(
        boardId,
        updates.map((update) => ({ update, userId, at })),
      );
      await this.rooms.changedInStore(boardId, updates, kind);
      // No room's persister writes here to compact the log afterwards: done here, merged in the
      // worker. A failure leaves the log intact; the next write compacts it.
      if (logNeedsCompaction(size))
        await store.compact(boardId, (parts) => this.versions.compute.merge(parts)).catch(() => undefined);
    }
    return await this.versions.record(boardId, kind, label, userId, reverted);
  }
}
