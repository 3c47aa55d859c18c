// Templates on the board (docs/api.md §19), as pure functions over a Y.Doc and plain records:
// what "Save as template" keeps of a frame or of the whole board, and where an inserted template
// goes (centred where the user is looking). Tested in Node; the React side only dispatches.
import { type ShapeRecord, TEMPLATE_MAX_SHAPES, type TemplateContent } from '@tandem/shared';
import type * as Y from 'yjs';
import { frameMembers, isFrame } from '../facilitation/frames.ts';
import { recordsOf } from '../model/clipboard.ts';
import { boundsOf, type Point, type Rect, unionRect } from '../model/geometry.ts';
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

/** Space kept between an inserted template and what is already on the board. */
export const TEMPLATE_GAP = 40;

/**
 * Where an inserted template goes, as an offset for its records: centred on `at` (where the user
 * is looking) when nothing in `occupied` (the bounds of the shapes and frames already on the page)
 * is within TEMPLATE_GAP of it; else shifted right and/or down to the nearest spot that is clear,
 * as Miro places a template, so it never lands over an existing frame. The candidates are the
 * centred spot moved past the right or bottom edges of what is there, so a clear one always exists
 * (past the rightmost edge). Columns are tried nearest first, each against only what lies across
 * it, and the search stops once a column is farther than the best spot found: a board of 5,000
 * shapes answers at once (trying every pair of edges against every shape took minutes there).
 */
export function placeTemplate(records: ShapeRecord[], at: Point, occupied: readonly Rect[]): Point {
  const centred = offsetToCentre(records, at);
  const box = unionRect(records.map(boundsOf));
  if (!box) return centred;
  const x0 = box.x + centred.x;
  const y0 = box.y + centred.y;
  /** What lies across the column of the template's width at `x`, gap included. */
  const across = (x: number) =>
    occupied.filter((r) => x < r.x + r.w + TEMPLATE_GAP && r.x < x + box.w + TEMPLATE_GAP);
  /** The nearest clear top in column `x` at or below y0, among `column`'s bottom edges. */
  const clearTop = (column: readonly Rect[]): number => {
    const clear = (y: number) =>
      !column.some((r) => y < r.y + r.h + TEMPLATE_GAP && r.y < y + box.h + TEMPLATE_GAP);
    const tops = [y0, ...column.map((r) => Math.ceil(r.y + r.h + TEMPLATE_GAP)).filter((y) => y > y0)];
    // The lowest bottom edge is always clear, so this finds one.
    return [...new Set(tops)].sort((a, b) => a - b).find(clear) ?? y0;
  };
  const xs = [x0, ...occupied.map((r) => Math.ceil(r.x + r.w + TEMPLATE_GAP)).filter((x) => x > x0)];
  let best = { x: x0, y: clearTop(across(x0)) };
  let bestDistance = best.y - y0;
  for (const x of [...new Set(xs)].sort((a, b) => a - b)) {
    if (x - x0 >= bestDistance) break;
    const y = clearTop(across(x));
    const distance = Math.hypot(x - x0, y - y0);
    if (distance < bestDistance) {
      best = { x, y };
      bestDistance = distance;
    }
  }
  return { x: centred.x + (best.x - x0), y: centred.y + (best.y - y0) };
}
