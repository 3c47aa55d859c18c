// Templates on the board (docs/api.md §19), as pure functions over a Y.Doc and plain records:
// what "Save as template" keeps of a frame or of the whole board, and where an inserted template
// goes (centred where the user is looking). Tested in Node; the React side only dispatches.
import { type ShapeRecord, TEMPLATE_MAX_SHAPES, type TemplateContent } from '@tandem/shared';
import type * as Y from 'yjs';
import { frameMembers, isFrame } from '../facilitation/frames.ts';
import { recordsOf } from '../model/clipboard.ts';
import { boundsOf, type Point, unionRect } from '../model/geometry.ts';
import { readAll } from '../model/read.ts';

export interface TemplateDraft {
  content: TemplateContent | null;
  /** Images left out (their bytes belong to this board); the dialog says so. */
  imagesLeftOut: number;
  /** Why nothing can be saved, as a sentence; null when `content` is there. */
  problem: string | null;
}

function draftOf(records: ShapeRecord[]): TemplateDraft {
  const kept = records.filter((r) => r.type !== 'image');
  const imagesLeftOut = records.length - kept.length;
  if (kept.length === 0)
    return {
      content: null,
      imagesLeftOut,
      problem: imagesLeftOut
        ? 'Templates cannot hold images, and there is nothing else to keep.'
        : 'There is nothing to keep yet.',
    };
  if (kept.length > TEMPLATE_MAX_SHAPES)
    return {
      content: null,
      imagesLeftOut,
      problem: `A template holds at most ${TEMPLATE_MAX_SHAPES} shapes; this has ${kept.length}. Save a frame instead.`,
    };
  // Arrows bound to a shape that is left out become free ends, as a paste would make them.
  const ids = new Set(kept.map((r) => r.id));
  const free = (e: ShapeRecord['from']) => (e?.shapeId && !ids.has(e.shapeId) ? { x: e.x, y: e.y } : e);
  const shapes = kept.map((r) => {
    const { locked: _locked, ...rest } = r;
    const out: ShapeRecord = { ...rest };
    if (r.from) out.from = free(r.from)!;
    if (r.to) out.to = free(r.to)!;
    return out;
  });
  return { content: { version: 1, shapes }, imagesLeftOut, problem: null };
}

/** The whole board as a template. */
export const boardTemplate = (doc: Y.Doc): TemplateDraft => draftOf(readAll(doc));

/** One frame and the shapes inside it, as a template. */
export function frameTemplate(doc: Y.Doc, frameId: string): TemplateDraft {
  const all = readAll(doc);
  const frame = all.find((s) => s.id === frameId && isFrame(s));
  if (!frame) return { content: null, imagesLeftOut: 0, problem: 'Select a frame to save it as a template.' };
  return draftOf(recordsOf(doc, [frame.id, ...frameMembers(frame, all)]));
}

/** The offset that centres `records` on `at`: a template lands where the user is looking. */
export function offsetToCentre(records: ShapeRecord[], at: Point): Point {
  const box = unionRect(records.map(boundsOf));
  if (!box) return { x: 0, y: 0 };
  return { x: Math.round(at.x - (box.x + box.w / 2)), y: Math.round(at.y - (box.y + box.h / 2)) };
}
