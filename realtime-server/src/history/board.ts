// Version history over Y.Doc, pure: no Store, no Room, no clock. The board at a point of the
// attributed log, what changed between two points (stats, authors), restoring a version as one
// forward change, and reverting one user's edits since a time. docs/architecture.md
// ("Version history") explains the semantics, and who wins when edits overlap.
import { exportBoard, META_KEY, RESTORED_AT_KEY, SHAPES_KEY } from '@tandem/shared';
import * as Y from 'yjs';
import { itemOf } from '../documents/internals.ts';
import { nextTurn } from '../documents/turns.ts';
import { hasPendingUpdates, mergeInBulk, withOrderedDeletes } from '../documents/updates.ts';

/** One stored batch of a board's updates: who sent it (null: unknown) and when. */
export interface HistoryEntry {
  update: Uint8Array;
  userId: string | null;
  at: Date;
}

export interface VersionStats {
  added: number;
  changed: number;
  removed: number;
}

/**
 * Applies one entry of the stored log. The Store gives the log as stored (store/facade.ts), and an
 * entry an older server wrote can name its deletions out of clock order, which Yjs garbles when
 * they come before what they delete (documents/updates.ts, withOrderedDeletes): put in order
 * here, in the history worker, rather than on the main thread for every read of the log.
 */
function applyLogged(doc: Y.Doc, update: Uint8Array, origin?: unknown): void {
  Y.applyUpdate(doc, withOrderedDeletes(update), origin);
}

/** A doc holding `base` (a version's snapshot, or nothing) and then the entries, in order. */
export function docAt(base: Uint8Array | null, entries: Iterable<HistoryEntry> = []): Y.Doc {
  const doc = new Y.Doc();
  if (base) Y.applyUpdate(doc, base);
  for (const e of entries) applyLogged(doc, e.update);
  return doc;
}

/** Each shape's content as comparable text. */
function shapeTexts(doc: Y.Doc | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!doc) return out;
  doc.getMap(SHAPES_KEY).forEach((value, id) => {
    out.set(id, JSON.stringify(value instanceof Y.AbstractType ? value.toJSON() : value));
  });
  return out;
}

/** Shapes added, changed and removed going from `before` (null: an empty board) to `after`. */
export function shapeStats(before: Y.Doc | null, after: Y.Doc): VersionStats {
  const a = shapeTexts(before);
  const b = shapeTexts(after);
  const stats: VersionStats = { added: 0, changed: 0, removed: 0 };
  for (const [id, text] of b) {
    const old = a.get(id);
    if (old === undefined) stats.added += 1;
    else if (old !== text) stats.changed += 1;
  }
  for (const id of a.keys()) if (!b.has(id)) stats.removed += 1;
  return stats;
}

/** The distinct known users of some entries, in the order they first appear. */
export function authorsOf(entries: Iterable<HistoryEntry>): string[] {
  const seen = new Set<string>();
  for (const e of entries) if (e.userId !== null) seen.add(e.userId);
  return [...seen];
}

/**
 * The next version: the previous one's board (or, for a board's first version, its stored
 * snapshot and log) with the updates since applied; its content and its stats against the
 * previous one.
 */
export function nextVersion(
  prev: Uint8Array | null,
  stored: Uint8Array[] | null,
  updates: Uint8Array[],
): { data: Uint8Array; stats: VersionStats; shapes: number; assets: string[] } {
  const before = prev ? docAt(prev) : null;
  const doc = new Y.Doc();
  for (const part of prev ? [prev] : (stored ?? [])) Y.applyUpdate(doc, part);
  for (const u of updates) applyLogged(doc, u);
  const result = {
    data: Y.encodeStateAsUpdate(doc),
    stats: shapeStats(before, doc),
    shapes: doc.getMap(SHAPES_KEY).size,
    assets: assetsOf(doc),
  };
  before?.destroy();
  doc.destroy();
  return result;
}

/** The images a board's shapes show. */
function assetsOf(doc: Y.Doc): string[] {
  const ids = new Set<string>();
  doc.getMap(SHAPES_KEY).forEach((shape) => {
    const id = shape instanceof Y.Map ? shape.get('assetId') : undefined;
    if (typeof id === 'string') ids.add(id);
  });
  return [...ids];
}

/** A board (a snapshot and log, or one state) as export.json text; see HistoryCompute.exportJson. */
export function exportJson(parts: Uint8Array[]): { json: string; invalid: string[] } {
  const doc = docOfParts(parts);
  const { board, invalid } = exportBoard(doc, { keepInvalid: true });
  doc.destroy();
  return { json: JSON.stringify(board), invalid };
}

/** A board's stored parts applied to a fresh doc (each put in order as a log entry is: applyLogged). */
export function docOfParts(parts: Uint8Array[]): Y.Doc {
  const doc = new Y.Doc();
  for (const part of parts) applyLogged(doc, part);
  return doc;
}

/**
 * How many shapes `change` would add, change or remove on the board made of `parts`: the count a
 * revert's confirmation states before anything changes (docs/api.md §12, `dryRun`).
 */
export function changedShapeCount(parts: Uint8Array[], change: Uint8Array): number {
  const now = docOfParts(parts);
  const after = docOfParts([...parts, change]);
  const stats = shapeStats(now, after);
  now.destroy();
  after.destroy();
  return stats.added + stats.changed + stats.removed;
}

// ---------------------------------------------------------------------------------------------
// Restore: make a live doc equal to a version through one ordinary change.

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function cloneValue(value: unknown): unknown {
  return value instanceof Y.AbstractType ? value.clone() : value;
}

/** Edits `live` text in place into `target` (common prefix and suffix kept, so cursors survive). */
function syncText(live: Y.Text, target: Y.Text): void {
  const a = live.toString();
  const b = target.toString();
  if (a === b && sameJson(live.toDelta(), target.toDelta())) return;
  if (!sameJson(target.toDelta(), b === '' ? [] : [{ insert: b }])) {
    // Formatted text: replace it whole rather than diffing attributes.
    live.delete(0, live.length);
    live.applyDelta(target.toDelta());
    return;
  }
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  if (a.length - p - s > 0) live.delete(p, a.length - p - s);
  if (b.length - p - s > 0) live.insert(p, b.slice(p, b.length - s));
}

/** Edits `live`'s entry `key` into `target`'s (deleted when `target` has none), touching nothing that is equal. */
function syncEntry(live: Y.Map<unknown>, target: Y.Map<unknown>, key: string): void {
  if (!target.has(key)) {
    if (live.has(key)) live.delete(key);
    return;
  }
  const t = target.get(key);
  const l = live.get(key);
  if (t instanceof Y.Map && l instanceof Y.Map) syncMap(l, t);
  else if (t instanceof Y.Text && l instanceof Y.Text) syncText(l, t);
  else if (t instanceof Y.AbstractType || l instanceof Y.AbstractType) {
    const same =
      t instanceof Y.AbstractType &&
      l instanceof Y.AbstractType &&
      t.constructor === l.constructor &&
      sameJson(t.toJSON(), l.toJSON());
    if (!same) live.set(key, cloneValue(t));
  } else if (!live.has(key) || !sameJson(l, t)) live.set(key, t);
}

/** Every key of either map: what is deleted first, then the target's, in its order. */
function keysOf(live: Y.Map<unknown>, target: Y.Map<unknown>): string[] {
  return [...[...live.keys()].filter((key) => !target.has(key)), ...target.keys()];
}

/** Edits `live` into `target`, touching only what differs. */
function syncMap(live: Y.Map<unknown>, target: Y.Map<unknown>): void {
  for (const key of keysOf(live, target)) syncEntry(live, target, key);
}

/** How many entries of a top-level map one slice of a restore changes (see restoreChanges). */
export const RESTORE_SLICE_ENTRIES = 25;

/**
 * The change that makes a board holding `live` (its stored parts, or one encoded state) equal to
 * `target` (every top-level map: shapes, meta, …), as slices: one update per transaction of at most `perSlice` top-level entries (shapes),
 * each following the one before, so that the room can apply them a few per event-loop turn
 * (Room.changeInTurns): one update of a 4,000-shape restore took 85–270 ms to apply, a slice of
 * 25 shapes 1–3 ms (10–15 on a loaded machine). Empty when they are equal already. Computed on a
 * copy, so it can run away from the live doc (in a worker); applied to the live doc it is a
 * forward change like any other: nothing is rewritten, so it merges with concurrent and offline
 * edits. Entries that did not change are not touched, so no one's selection or text cursor in
 * them is disturbed.
 */
export function restoreChanges(
  live: readonly Uint8Array[],
  target: Uint8Array,
  perSlice = RESTORE_SLICE_ENTRIES,
): Uint8Array[] {
  const copy = new Y.Doc();
  for (const part of live) Y.applyUpdate(copy, part);
  const goal = docAt(target);
  const slices: Uint8Array[] = [];
  copy.on('update', (update: Uint8Array) => slices.push(update));
  const names = new Set([...goal.share.keys(), ...copy.share.keys()]);
  // A board's top level holds only maps (docs/api.md §10).
  for (const name of names) {
    const into = copy.getMap(name);
    const from = goal.getMap(name);
    const keys = keysOf(into, from);
    for (let start = 0; start < keys.length; start += perSlice) {
      copy.transact(() => {
        for (const key of keys.slice(start, start + perSlice)) syncEntry(into, from, key);
      });
    }
  }
  // Last, the stamp on which every client empties its undo history: Ctrl+Z would otherwise take
  // back edits the restore has already replaced, on a board that no longer exists.
  if (slices.length > 0) copy.getMap(META_KEY).set(RESTORED_AT_KEY, Date.now());
  copy.destroy();
  goal.destroy();
  return slices;
}

// ---------------------------------------------------------------------------------------------
// Revert: undo one user's edits since a time, keeping everyone else's.

const REVERTED = Symbol('reverted user');
const OTHERS = Symbol('everyone else');

/** The id of the shape an item belongs to (at any depth), or null for items outside shapes. */
function shapeOf(item: Y.Item, shapes: Y.Map<unknown>): string | null {
  let current: Y.Item | null = item;
  while (current) {
    const parent: Y.AbstractType<unknown> | Y.ID | null = current.parent;
    if (parent === shapes) return current.parentSub;
    current = parent instanceof Y.AbstractType ? itemOf(parent) : null;
  }
  return null;
}

/** The entries do not follow from the base: part of the log in between is missing. */
export class IncompleteLogError extends Error {
  constructor() {
    super('the log does not follow from the base');
    this.name = 'IncompleteLogError';
  }
}

export interface RevertResult {
  /** The forward change to apply to the live doc, or null when there was nothing to undo. */
  update: Uint8Array | null;
  /** How many of the user's entries since `since` were replayed as theirs. */
  entries: number;
}

/**
 * The change that undoes every edit `userId` made at or after `since`: the log is replayed from
 * `base` with each entry's user as its transaction origin, and a Y.UndoManager that tracks only
 * that user undoes all of it. Everyone else's edits stay, including edits on top of the user's:
 * a shape the user created and someone else then edited is kept as it is (they adopted it); a
 * value the user set and someone else set again keeps the later value (Yjs never lets an undo
 * overwrite another client's newer map value). The change is a forward edit on top of the log,
 * to be applied to the live doc, which holds the log and possibly edits not yet stored.
 */
export async function revertChanges(
  base: Uint8Array | null,
  entries: Iterable<HistoryEntry>,
  userId: string,
  since: Date,
  options: { sliceMs?: number } = {},
): Promise<RevertResult> {
  const doc = docAt(base);
  const shapes = doc.getMap<unknown>(SHAPES_KEY);
  const adopted = new Set<string>();
  // The whole doc is the scope: top-level maps that appear only later in the log count too.
  const undo = new Y.UndoManager(doc, {
    trackedOrigins: new Set([REVERTED]),
    // Everything in one stack item: undone at once, and nothing the user both made and removed
    // comes back.
    captureTimeout: Number.POSITIVE_INFINITY,
    deleteFilter: (item) => {
      const shape = shapeOf(item, shapes);
      return shape === null || !adopted.has(shape);
    },
  });
  const created = new Set<string>();
  const sinceMs = since.getTime();
  let replayed = 0;
  const watch = (events: Y.YEvent<Y.AbstractType<unknown>>[], tx: Y.Transaction) => {
    for (const event of events) {
      const touched =
        event.target === shapes ? [...event.keys.keys()] : [String(event.path[0] ?? '')].filter(Boolean);
      for (const id of touched) {
        if (tx.origin === REVERTED) {
          const action = event.target === shapes ? event.keys.get(id)?.action : undefined;
          if (action === 'add' || action === 'update') created.add(id);
        } else if (tx.origin === OTHERS && created.has(id)) adopted.add(id);
      }
    }
  };
  shapes.observeDeep(watch);
  // The replay of a long log is sliced, so the live rooms of this process keep serving while
  // it runs (the doc is private to this call; nothing else sees it between slices).
  const sliceMs = options.sliceMs ?? 10;
  let sliceStart = performance.now();
  for (const e of entries) {
    const theirs = e.userId === userId && e.at.getTime() >= sinceMs;
    if (theirs) replayed += 1;
    applyLogged(doc, e.update, theirs ? REVERTED : OTHERS);
    if (performance.now() - sliceStart > sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  shapes.unobserveDeep(watch);
  if (hasPendingUpdates(doc)) {
    undo.destroy();
    doc.destroy();
    throw new IncompleteLogError();
  }
  const changes: Uint8Array[] = [];
  const collect = (update: Uint8Array) => changes.push(update);
  doc.on('update', collect);
  while (undo.undoStack.length > 0) undo.undo();
  doc.off('update', collect);
  undo.destroy();
  doc.destroy();
  const update = changes.length === 0 ? null : mergeInBulk(changes);
  return { update, entries: replayed };
}
