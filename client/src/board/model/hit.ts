// Hit tests over plain records: which shape is under a point (arrows along their routed path).
import type { ShapeRecord } from '@tandem/shared';
import { connectorPath, pathPolyline } from './connectors.ts';
import { center, type Point, rotate } from './geometry.ts';

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
