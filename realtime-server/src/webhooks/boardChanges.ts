// board.updated (docs/api.md §15): at most one per window (WEBHOOK_UPDATE_WINDOW_MS, 10 s) per
// board, naming who changed which shapes, whichever instances the edits reached.
//
// Each instance notes the shapes changed by the edits it stores itself (a Room's changes whose
// route is "stored here": every edit is stored by exactly one instance, so none is counted
// twice), and adds them to the Store every so often. The window lives in the Store, not in an
// instance: whichever instance finds a board's window due claims it (a compare-and-set on the
// board's row) and turns the waiting changes into one event, so two instances never send two
// events for one window and a window outlives the instance that opened it.
import type { BoardUpdatedData } from '@tandem/shared';
import { webhookLimits } from '@tandem/shared';
import type * as Y from 'yjs';
import { itemOf } from '../documents/internals.ts';

/** Shape ids a transaction changed: keys of the shapes map, and shapes whose fields or text changed. */
export function changedShapeIds(transaction: Y.Transaction, shapes: Y.Map<unknown>): string[] {
  const ids = new Set<string>();
  const root: unknown = shapes;
  for (const [type, keys] of transaction.changed) {
    if (type === root) {
      for (const key of keys) if (key !== null) ids.add(key);
      continue;
    }
    // A field or the text of a shape (or something nested deeper): climb to the shape.
    let item = itemOf(type);
    while (item) {
      const parent = item.parent as Y.AbstractType<unknown>;
      if (parent === root) {
        if (item.parentSub !== null) ids.add(item.parentSub);
        break;
      }
      item = itemOf(parent);
    }
  }
  return [...ids];
}

/** The changes one instance noted and has not yet added to the Store. */
export class ChangeNotes {
  private readonly boards = new Map<string, Map<string, Set<string>>>();

  note(boardId: string, userId: string, shapeIds: readonly string[]): void {
    if (shapeIds.length === 0) return;
    let users = this.boards.get(boardId);
    if (!users) {
      users = new Map();
      this.boards.set(boardId, users);
    }
    let ids = users.get(userId);
    if (!ids) {
      ids = new Set();
      users.set(userId, ids);
    }
    // Past the most one event lists, one more id is enough to say "and more".
    for (const id of shapeIds) {
      if (ids.size > webhookLimits.shapeIdsPerEvent) break;
      ids.add(id);
    }
  }

  /** Everything noted, per board, as (user, shape) pairs; the notes are emptied. */
  take(): Map<string, { userId: string; shapeId: string }[]> {
    const out = new Map<string, { userId: string; shapeId: string }[]>();
    for (const [boardId, users] of this.boards) {
      const pairs: { userId: string; shapeId: string }[] = [];
      for (const [userId, ids] of users) for (const shapeId of ids) pairs.push({ userId, shapeId });
      out.set(boardId, pairs);
    }
    this.boards.clear();
    return out;
  }

  /** Puts back what could not be stored, for the next try. */
  restore(boardId: string, pairs: { userId: string; shapeId: string }[]): void {
    for (const { userId, shapeId } of pairs) this.note(boardId, userId, [shapeId]);
  }

  get size(): number {
    return this.boards.size;
  }
}

/** When a board's window is due: a window after its first waiting change, and after the last event. */
export function windowDueAt(firstChangeAt: Date, lastSentAt: Date | null, windowMs: number): number {
  return Math.max(firstChangeAt.getTime(), lastSentAt?.getTime() ?? 0) + windowMs;
}

/** board.updated's data from the waiting changes: each person's shapes, with their names. */
export function boardUpdatedData(
  changes: readonly { userId: string; shapeId: string }[],
  names: ReadonlyMap<string, string>,
): BoardUpdatedData {
  const byUser = new Map<string, Set<string>>();
  const all = new Set<string>();
  for (const { userId, shapeId } of changes) {
    let ids = byUser.get(userId);
    if (!ids) {
      ids = new Set();
      byUser.set(userId, ids);
    }
    ids.add(shapeId);
    all.add(shapeId);
  }
  const cap = webhookLimits.shapeIdsPerEvent;
  return {
    changes: [...byUser].map(([userId, ids]) => ({
      userId,
      name: names.get(userId) ?? 'Someone',
      shapeIds: [...ids].slice(0, cap),
      ...(ids.size > cap ? { truncated: true as const } : {}),
    })),
    shapeIds: [...all].slice(0, cap * 4),
  };
}
