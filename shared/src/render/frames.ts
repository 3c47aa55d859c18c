// Which frame clips which shape (docs/api.md §14), for the canvas and for every rendering of a board.
import type { ShapeRecord } from '../shapes.ts';
import { boundsOf, center, type Point, type Rect } from './geometry.ts';

export const isFrame = (s: Pick<ShapeRecord, 'type'>): boolean => s.type === 'frame';

/** What a frame stored without a name (blank, by a version that let a name be emptied) shows. */
export const UNNAMED_FRAME_NAME = 'Untitled frame';

/**
 * The name a frame shows, the one source for every label built from it: its title on the canvas
 * and in exports, the Frames panel's export buttons, presenting, the integrations' frame picker
 * and Delete's notice. A blank name is "Untitled frame" (the canvas said "Frame", the export
 * buttons "Export  as PNG").
 */
export const frameLabel = (f: Pick<ShapeRecord, 'name'>): string =>
  f.name?.trim() ? f.name : UNNAMED_FRAME_NAME;

/** Whether the point lies inside the rectangle, edges included. */
export const inside = (r: Rect, p: Point): boolean =>
  p.x >= r.x && p.x <= r.x + r.w && p.y >= r.y && p.y <= r.y + r.h;

/**
 * The ids of the shapes whose centre lies inside the frame (other frames are never members). A
 * connector is a member when both its ends lie inside (a bound end is its shape's centre), the
 * test that decides which frame clips it (clippingFrames): an arrow from a note in the frame to
 * one outside is no frame's, drawn whole, and a frame's export (or a move, copy or Delete of it)
 * leaves it out; it was carried along by the middle of its box, and the export showed it reaching
 * out of the picture to a note that was not there (docs/client.md, Frames and connectors).
 */
export function frameMembers(frame: ShapeRecord, shapes: Iterable<ShapeRecord>): string[] {
  const area: Rect = { x: frame.x, y: frame.y, w: frame.w, h: frame.h };
  const list = [...shapes];
  let byId: Map<string, ShapeRecord> | null = null;
  const out: string[] = [];
  for (const s of list) {
    if (s.id === frame.id || isFrame(s)) continue;
    if (s.type === 'arrow') {
      byId ??= new Map(list.map((r) => [r.id, r]));
      if (connectorEnds(s, byId).every((p) => inside(area, p))) out.push(s.id);
    } else if (inside(area, center(boundsOf(s)))) out.push(s.id);
  }
  return out;
}

/**
 * Which frame clips each shape: the smallest frame holding the shape's centre (a frame drawn
 * inside another is the one its notes belong to). Frames clip what they hold on the canvas and
 * in exports, so a note half out of its column does not spill over the next one. A connector is
 * clipped only by a frame that holds both its ends (a bound end is its shape's centre): one from
 * a note in one frame to a note in another is drawn whole, not cut off at a frame's edge.
 */
export function clippingFrames(list: readonly ShapeRecord[]): Map<string, ShapeRecord> {
  const frames = list.filter(isFrame).sort((a, b) => b.w * b.h - a.w * a.h);
  const out = new Map<string, ShapeRecord>();
  if (frames.length === 0) return out;
  const byId = new Map(list.map((s) => [s.id, s]));
  for (const s of list) {
    if (isFrame(s)) continue;
    const points = s.type === 'arrow' ? connectorEnds(s, byId) : [center(boundsOf(s))];
    // Largest first, so the last frame that holds the points is the smallest.
    for (const f of frames) if (points.every((p) => inside(f, p))) out.set(s.id, f);
  }
  return out;
}

/** A connector's two ends: a bound end at its shape's centre, a free one where it is. */
function connectorEnds(s: ShapeRecord, byId: Map<string, ShapeRecord>): Point[] {
  const end = (e: ShapeRecord['from'], free: Point): Point => {
    const bound = e?.shapeId ? byId.get(e.shapeId) : undefined;
    if (bound) return center(boundsOf(bound));
    return e ? { x: e.x, y: e.y } : free;
  };
  return [end(s.from, { x: s.x, y: s.y }), end(s.to, { x: s.x + s.w, y: s.y + s.h })];
}
