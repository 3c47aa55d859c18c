// The history computations run in place: the history worker thread's implementation of
// HistoryCompute (history/worker.ts). Only the worker imports this module, so the main thread
// never loads the SVG renderer (history/render.ts) and its libraries.
import { mergeInBulk } from '../documents/updates.ts';
import { changedShapeCount, exportJson, nextVersion, restoreChanges, revertChanges } from './board.ts';
import type { HistoryCompute } from './compute.ts';
import { renderSvg } from './render.ts';

export const inlineCompute: HistoryCompute = {
  nextVersion: async (prev, stored, updates) => nextVersion(prev, stored, updates),
  exportJson: async (parts) => exportJson(parts),
  renderSvg: async (parts, options) => renderSvg(parts, options),
  revert: async (base, entries, userId, since) => (await revertChanges(base, entries, userId, since)).update,
  restoreChanges: async (live, target) => restoreChanges(live, target),
  changedShapeCount: async (parts, change) => changedShapeCount(parts, change),
  merge: async (parts) => mergeInBulk(parts),
  close: async () => {},
};
