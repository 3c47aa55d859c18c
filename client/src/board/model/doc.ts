// Access to the two top-level maps of a board's Y.Doc (docs/api.md §10), and the origin that marks
// this user's own edits so the undo manager tracks them and nobody else's.
import { META_KEY, RESTORED_AT_KEY, SHAPES_KEY } from '@tandem/shared';
import * as Y from 'yjs';

/** Transaction origin of every edit this user makes; Y.UndoManager tracks only this origin. */
export const LOCAL_ORIGIN = Symbol('tandem-local-edit');

export type ShapeMap = Y.Map<unknown>;

export const shapesOf = (doc: Y.Doc): Y.Map<ShapeMap> => doc.getMap<ShapeMap>(SHAPES_KEY);
export const metaOf = (doc: Y.Doc): Y.Map<unknown> => doc.getMap(META_KEY);

/** Runs `fn` as one transaction tagged as this user's edit. */
export function edit<T>(doc: Y.Doc, fn: () => T): T {
  let out!: T;
  doc.transact(() => {
    out = fn();
  }, LOCAL_ORIGIN);
  return out;
}

/**
 * Runs one history step (`step`: an undo or a redo) and returns the shapes it brought onto the
 * board: a deletion taken back, or a creation redone. The editor selects them, as tldraw and
 * Excalidraw do, so what came back is what the next key acts on. Shapes are keys of the shapes
 * map, and a step is one synchronous transaction, so what is there after and was not before is
 * exactly what the step restored; a step that only moved or restyled returns nothing.
 */
export function shapesBroughtBack(doc: Y.Doc, step: () => unknown): string[] {
  const shapes = shapesOf(doc);
  const before = new Set(shapes.keys());
  step();
  return [...shapes.keys()].filter((id) => !before.has(id));
}

export function createUndoManager(doc: Y.Doc): Y.UndoManager {
  return forgetOnRestore(
    doc,
    new Y.UndoManager([shapesOf(doc), metaOf(doc)], {
      trackedOrigins: new Set([LOCAL_ORIGIN]),
      captureTimeout: 400,
    }),
  );
}

/**
 * Empties `undo` whenever someone restores this document to a version (docs/api.md §12): the
 * restore rewrote the board under it, so what Ctrl+Z would take back next is an edit the restore
 * already replaced, and taking it back would bring an older edit back onto the restored board. A
 * restore is taken back in History (the board before it is kept as a version), as in Google Docs.
 */
export function forgetOnRestore(doc: Y.Doc, undo: Y.UndoManager): Y.UndoManager {
  metaOf(doc).observe((event) => {
    if (event.keysChanged.has(RESTORED_AT_KEY) && !event.transaction.local) undo.clear();
  });
  return undo;
}
