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

/** One shape one person changed, on one page of a board. */
export interface ShapeChange {
  userId: string;
  pageId: string;
  shapeId: string;
}

/** The changes one instance noted and has not yet added to the Store. */
export class ChangeNotes {
  /** Per board, per person: how many shapes noted, and which on each page. */
  private readonly boards = new Map<
    string,
    Map<string, { count: number; pages: Map<string, Set<string>> }>
  >();

  note(boardId: string, pageId: string, userId: string, shapeIds: readonly string[]): void {
    if (shapeIds.length === 0) return;
    let users = this.boards.get(boardId);
    if (!users) {
      users = new Map();
      this.boards.set(boardId, users);
    }
    let noted = users.get(userId);
    if (!noted) {
      noted = { count: 0, pages: new Map() };
      users.set(userId, noted);
    }
    let ids = noted.pages.get(pageId);
    if (!ids) {
      ids = new Set();
      noted.pages.set(pageId, ids);
    }
    // Past the most one event lists, one more id is enough to say "and more".
    for (const id of shapeIds) {
      if (noted.count > webhookLimits.shapeIdsPerEvent) break;
      if (ids.has(id)) continue;
      ids.add(id);
      noted.count += 1;
    }
  }

  /** Everything noted, per board; the notes are emptied. */
  take(): Map<string, ShapeChange[]> {
    const out = new Map<string, ShapeChange[]>();
    for (const [boardId, users] of this.boards) {
      const changes: ShapeChange[] = [];
      for (const [userId, { pages }] of users)
        for (const [pageId, ids] of pages)
          for (const shapeId of ids) changes.push({ userId, pageId, shapeId });
      out.set(boardId, changes);
    }
    this.boards.clear();
    return out;
  }

  /** Puts back what could not be stored, for the next try. */
  restore(boardId: string, changes: readonly ShapeChange[]): void {
    for (const { userId, pageId, shapeId } of changes) this.note(boardId, pageId, userId, [shapeId]);
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
  changes: readonly ShapeChange[],
  names: ReadonlyMap<string, string>,
): BoardUpdatedData {
  const byUser = new Map<string, Set<string>>();
  const byPage = new Map<string, Set<string>>();
  const all = new Set<string>();
  const add = (into: Map<string, Set<string>>, key: string, id: string) => {
    let ids = into.get(key);
    if (!ids) {
      ids = new Set();
      into.set(key, ids);
    }
    ids.add(id);
  };
  for (const { userId, pageId, shapeId } of changes) {
    add(byUser, userId, shapeId);
    add(byPage, pageId, shapeId);
    all.add(shapeId);
  }
  const cap = webhookLimits.shapeIdsPerEvent;
  return {
    pages: [...byPage].map(([pageId, ids]) => ({ pageId, shapeIds: [...ids].slice(0, cap * 4) })),
    changes: [...byUser].map(([userId, ids]) => ({
      userId,
      name: names.get(userId) ?? 'Someone',
      shapeIds: [...ids].slice(0, cap),
      ...(ids.size > cap ? { truncated: true as const } : {}),
    })),
    shapeIds: [...all].slice(0, cap * 4),
  };
}
