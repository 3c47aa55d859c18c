// Hit tests over plain records: which shape is under a point (arrows along their routed path).
import type { ShapeRecord } from '@tandem/shared';
import { connectorPath, pathPolyline } from './connectors.ts';
import { boundsOf, center, intersects, type Point, type Rect, rotate } from './geometry.ts';

export function distToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** True when `p` (board units) touches the shape; `tolerance` widens thin shapes. */
export function hitShape(
  s: ShapeRecord,
  p: Point,
  tolerance: number,
  all?: Map<string, ShapeRecord>,
): boolean {
  if (s.type === 'arrow') {
    const pts = pathPolyline(connectorPath(s, all));
    for (let i = 1; i < pts.length; i++)
      if (distToSegment(p, pts[i - 1]!, pts[i]!) <= tolerance + 4) return true;
    return false;
  }
  const local = s.rotation ? rotate(p, center(s), -s.rotation) : p;
  if (s.type === 'freehand') {
    const pts = s.points ?? [];
    for (let i = 0; i + 3 < pts.length; i += 2) {
      const a = { x: s.x + pts[i]!, y: s.y + pts[i + 1]! };
      const b = { x: s.x + pts[i + 2]!, y: s.y + pts[i + 3]! };
      if (distToSegment(local, a, b) <= tolerance + 4) return true;
    }
    return pts.length === 2 && Math.hypot(local.x - s.x - pts[0]!, local.y - s.y - pts[1]!) <= tolerance + 4;
  }
  // Ellipses and diamonds are hit inside their own outline, not in their box's empty corners.
  const a = s.w / 2 + tolerance;
  const b = s.h / 2 + tolerance;
  const dx = Math.abs(local.x - (s.x + s.w / 2));
  const dy = Math.abs(local.y - (s.y + s.h / 2));
  if (s.type === 'ellipse') return (dx / a) ** 2 + (dy / b) ** 2 <= 1;
  if (s.type === 'diamond') return dx / a + dy / b <= 1;
  return dx <= a && dy <= b;
}

/** The topmost shape under `p`; `shapes` is in paint order. */
export function topmostAt(shapes: ShapeRecord[], p: Point, tolerance: number): ShapeRecord | null {
  const byId = new Map(shapes.map((s) => [s.id, s]));
  for (let i = shapes.length - 1; i >= 0; i--) {
    const s = shapes[i]!;
    if (hitShape(s, p, tolerance, byId)) return s;
  }
  return null;
}

/** Whether segment a–b passes through or ends in `r` (Liang–Barsky: clip the segment to the box). */
export function segmentTouchesRect(a: Point, b: Point, r: Rect): boolean {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let enter = 0;
  let leave = 1;
  for (const [p, q] of [
    [-dx, a.x - r.x],
    [dx, r.x + r.w - a.x],
    [-dy, a.y - r.y],
    [dy, r.y + r.h - a.y],
  ] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) enter = Math.max(enter, t);
    else leave = Math.min(leave, t);
    if (enter > leave) return false;
  }
  return true;
}

const polylineTouchesRect = (points: readonly Point[], r: Rect): boolean =>
  points.length === 1
    ? segmentTouchesRect(points[0]!, points[0]!, r)
    : points.some((p, i) => i > 0 && segmentTouchesRect(points[i - 1]!, p, r));

/** A drawing's stroke in board units (unrotated drawings only; see marqueeTakes). */
function freehandPoints(s: ShapeRecord): Point[] {
  const pts = s.points ?? [];
  const out: Point[] = [];
  for (let i = 0; i + 1 < pts.length; i += 2) out.push({ x: s.x + pts[i]!, y: s.y + pts[i + 1]! });
  return out;
}

/**
 * Whether a selection rectangle takes `s` (tldraw's rule: what it touches): an arrow or a drawing
 * when its line passes through `r`, not merely its box (a long diagonal connector's box covers
 * shapes it never goes near, and a marquee round two notes took it); any other shape when its box
 * meets `r`. A rotated drawing is judged by its box.
 */
export function marqueeTakes(
  s: ShapeRecord,
  r: Rect,
  all?: Map<string, ShapeRecord>,
  line: Point[] | null = marqueeLine(s, all),
): boolean {
  return line ? polylineTouchesRect(line, r) : intersects(boundsOf(s), r);
}

/**
 * The line a marquee judges `s` by: an arrow's routed path, an unrotated drawing's stroke; null
 * for a shape judged by its box. Apart from marqueeTakes so that a marquee can route each arrow
 * once per board state rather than on every pointer move.
 */
export function marqueeLine(s: ShapeRecord, all?: Map<string, ShapeRecord>): Point[] | null {
  if (s.type === 'arrow') return pathPolyline(connectorPath(s, all));
  if (s.type === 'freehand' && !s.rotation) return freehandPoints(s);
  return null;
}
