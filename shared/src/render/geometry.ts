// Pure geometry over plain records: bounds and arrow end resolution (hit tests: hit.ts).
import type { ArrowEnd, ShapeRecord } from '../index.ts';

export interface Point {
  x: number;
  y: number;
}
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const center = (r: Rect): Point => ({ x: r.x + r.w / 2, y: r.y + r.h / 2 });

export function rotate(p: Point, c: Point, angle: number): Point {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const dx = p.x - c.x;
  const dy = p.y - c.y;
  return { x: c.x + dx * cos - dy * sin, y: c.y + dx * sin + dy * cos };
}

/** Where a shape's own top-left corner is drawn, its rotation (about its centre) applied. */
export function drawnTopLeft(s: Pick<ShapeRecord, 'x' | 'y' | 'w' | 'h' | 'rotation'>): Point {
  return s.rotation ? rotate({ x: s.x, y: s.y }, center(s), s.rotation) : { x: s.x, y: s.y };
}

/**
 * The box of `s` resized to `w` × `h` with its drawn top-left corner where it was: a text or a
 * note that grows as it is typed into grows right and down in its own turned frame. Keeping x and
 * y instead moves a turned shape's centre, about which it turns, so its first letter jumped.
 */
export function resizedInPlace(
  s: Pick<ShapeRecord, 'x' | 'y' | 'w' | 'h' | 'rotation'>,
  w: number,
  h: number,
): Rect {
  if (!s.rotation) return { x: s.x, y: s.y, w, h };
  const corner = drawnTopLeft(s);
  const c = rotate({ x: corner.x + w / 2, y: corner.y + h / 2 }, corner, s.rotation);
  return { x: c.x - w / 2, y: c.y - h / 2, w, h };
}

/** Axis-aligned bounds of a shape including its rotation. */
export function boundsOf(s: Pick<ShapeRecord, 'x' | 'y' | 'w' | 'h' | 'rotation'>): Rect {
  if (!s.rotation) return { x: s.x, y: s.y, w: s.w, h: s.h };
  const c = center(s);
  const corners = [
    { x: s.x, y: s.y },
    { x: s.x + s.w, y: s.y },
    { x: s.x, y: s.y + s.h },
    { x: s.x + s.w, y: s.y + s.h },
  ].map((p) => rotate(p, c, s.rotation));
  return rectOfPoints(corners);
}

export function rectOfPoints(points: Point[]): Rect {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  }
  if (!Number.isFinite(minX)) return { x: 0, y: 0, w: 0, h: 0 };
  return { x: minX, y: minY, w: maxX - minX, h: maxY - minY };
}

export function unionRect(rects: Rect[]): Rect | null {
  if (rects.length === 0) return null;
  return rectOfPoints(rects.flatMap((r) => [r, { x: r.x + r.w, y: r.y + r.h }]));
}

/** The part of `a` inside `b` (null: they do not overlap). */
export function intersection(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.w, b.x + b.w);
  const bottom = Math.min(a.y + a.h, b.y + b.h);
  return right < x || bottom < y ? null : { x, y, w: right - x, h: bottom - y };
}

export const intersects = (a: Rect, b: Rect): boolean =>
  a.x <= b.x + b.w && b.x <= a.x + a.w && a.y <= b.y + b.h && b.y <= a.y + a.h;

export const contains = (outer: Rect, inner: Rect): boolean =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.w <= outer.x + outer.w &&
  inner.y + inner.h <= outer.y + outer.h;

/** Normalises a rectangle dragged from `a` to `b` in any direction. */
export const rectFromCorners = (a: Point, b: Point): Rect => ({
  x: Math.min(a.x, b.x),
  y: Math.min(a.y, b.y),
  w: Math.abs(b.x - a.x),
  h: Math.abs(b.y - a.y),
});

/** The gap left between a bound arrow end and the outline it points at (board units). */
export const ARROW_GAP = 6;

/**
 * Where an arrow end bound to `target` meets the target's outline, aiming from its centre toward
 * `toward`: the true outline of an ellipse or a diamond (not its bounding box), rotation included,
 * with a small gap outside it.
 */
export function attachPoint(
  target: Pick<ShapeRecord, 'x' | 'y' | 'w' | 'h'> & Partial<Pick<ShapeRecord, 'type' | 'rotation'>>,
  toward: Point,
): Point {
  const c = center(target);
  const rotation = target.rotation ?? 0;
  // Work in the shape's own frame (unrotated), then turn the answer back.
  const local = rotation ? rotate(toward, c, -rotation) : toward;
  const dx = local.x - c.x;
  const dy = local.y - c.y;
  const len = Math.hypot(dx, dy);
  if (len === 0) return c;
  const ux = dx / len;
  const uy = dy / len;
  const a = target.w / 2;
  const b = target.h / 2;
  // Distance from the centre to the outline along (ux, uy).
  let r: number;
  if (target.type === 'ellipse') {
    r = a === 0 || b === 0 ? 0 : 1 / Math.sqrt((ux * ux) / (a * a) + (uy * uy) / (b * b));
  } else if (target.type === 'diamond') {
    const k = (a === 0 ? 0 : Math.abs(ux) / a) + (b === 0 ? 0 : Math.abs(uy) / b);
    r = k === 0 ? 0 : 1 / k;
  } else {
    r = Math.min(
      ux === 0 ? Number.POSITIVE_INFINITY : a / Math.abs(ux),
      uy === 0 ? Number.POSITIVE_INFINITY : b / Math.abs(uy),
    );
  }
  r += ARROW_GAP;
  // The aim point lies inside the shape (outline gap included): the end sits at the centre.
  if (r >= len) return c;
  const p = { x: c.x + ux * r, y: c.y + uy * r };
  return rotation ? rotate(p, c, rotation) : p;
}

/**
 * The two ends of an arrow. A bound end follows its shape: it is recomputed from the shape's
 * current geometry, so an arrow follows a shape moved by anyone, even before the mover's client
 * rewrote the stored end.
 */
export function arrowEnds(a: ShapeRecord, all?: Map<string, ShapeRecord>): [Point, Point] {
  const from = a.from ?? { x: a.x, y: a.y };
  const to = a.to ?? { x: a.x + a.w, y: a.y + a.h };
  const fromShape = from.shapeId ? all?.get(from.shapeId) : undefined;
  const toShape = to.shapeId ? all?.get(to.shapeId) : undefined;
  const fromAim = toShape ? center(toShape) : { x: to.x, y: to.y };
  const toAim = fromShape ? center(fromShape) : { x: from.x, y: from.y };
  const p1 = fromShape ? attachPoint(fromShape, fromAim) : { x: from.x, y: from.y };
  const p2 = toShape ? attachPoint(toShape, toAim) : { x: to.x, y: to.y };
  return [p1, p2];
}

export const endPoint = (e: ArrowEnd): Point => ({ x: e.x, y: e.y });
