// Restore and revert on the live board (docs/api.md §12): the change is applied to the board's Room on
// this instance (opened for the purpose when nobody here has it open), so every client connected
// here gets it at once, the other instances get it over the Bus like any edit, and it is stored
// like any edit, attributed to the user who asked. A version is recorded just before (what the
// board was) and just after (the change itself).
import * as Y from 'yjs';
import type { Room } from '../documents/room.ts';
import type { Rooms } from '../documents/rooms.ts';
import type { StoredVersion } from '../store/store.ts';
import type { Versions } from './versions.ts';

const timeOf = (d: Date) => d.toISOString().slice(11, 16);

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
    return this.onLiveBoard(
      boardId,
      async (room) => {
        // Computed away from the live doc on a copy of its state; edits that arrive meanwhile
        // merge with the change like any concurrent edit.
        const update = await this.versions.compute.restoreChange(
          Y.encodeStateAsUpdate(room.doc),
          target.data,
        );
        if (update) room.change(userId, (live) => Y.applyUpdate(live, update));
        return `Restored ${target.label ?? `the version of ${timeOf(target.createdAt)} UTC`}`;
      },
      'restore',
      userId,
    );
  }

  /** Undoes every edit `targetUserId` made since `since`, keeping everyone else's. */
  async revert(
    boardId: string,
    targetUserId: string,
    targetName: string,
    since: Date,
    userId: string,
  ): Promise<StoredVersion> {
    const version = await this.onLiveBoard(
      boardId,
      async (room) => {
        const update = await this.versions.revertChange(boardId, targetUserId, since);
        if (update) room.change(userId, (live) => Y.applyUpdate(live, update));
        return `Undid ${targetName}'s changes since ${timeOf(since)} UTC`;
      },
      'revert',
      userId,
    );
    if (!version) throw new Error('version not recorded');
    return version;
  }

  private async onLiveBoard(
    boardId: string,
    change: (room: Room) => Promise<string>,
    kind: 'restore' | 'revert',
    userId: string,
  ): Promise<StoredVersion | null> {
    const { room, release } = await this.rooms.acquire(boardId);
    try {
      // What clients sent is stored, then the board as it is now becomes a version of its own.
      await room.flush();
      await this.versions.record(boardId, 'auto');
      const label = await change(room);
      await room.flush();
      return await this.versions.record(boardId, kind, label, userId);
    } finally {
      release();
    }
  }
}
