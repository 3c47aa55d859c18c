// Access to the two top-level maps of a board's Y.Doc (docs/api.md §10), and the origin that marks
// this user's own edits so the undo manager tracks them and nobody else's.
import { META_KEY, SHAPES_KEY } from '@tandem/shared';
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

export function createUndoManager(doc: Y.Doc): Y.UndoManager {
  return new Y.UndoManager([shapesOf(doc), metaOf(doc)], {
    trackedOrigins: new Set([LOCAL_ORIGIN]),
    captureTimeout: 400,
  });
}
