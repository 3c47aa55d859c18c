// The hatch of a hatched or cross-hatched fill: straight segments clipped exactly to the shape's
// outline. roughjs's own hachure filler (hachure-fill 0.5) is not used for it: its scan line takes
// an edge's x where the edge starts rather than where the line crosses it, and with a rough look it
// steps by the whole gap (roughjs picks that at random, 3 times in 10), so a line's end drifts by up
// to a gap times the edge's slope past the outline (6 to 12 px on a 400 px rectangle). The segments
// are drawn by roughjs as strokes, so they keep the hand-drawn wobble; only where they end changes.

import type { Point } from './geometry.ts';

/** A hatch segment's two ends. */
export type Segment = readonly [Point, Point];

/** Sides of a polygon sampled from an ellipse: under a tenth of a pixel off the curve for w, h <= 4000. */
const ELLIPSE_SIDES = 256;
/** Points along each quadratic corner of a rounded rectangle. */
const CORNER_STEPS = 8;

/**
 * The outline of a rectangle, rounded rectangle, ellipse or diamond of size w × h, brought in by
 * `inset` on every side, as a convex polygon. The rounded corner is the quadratic curve the body
 * draws (body.ts roundedRectPath), not a circular arc.
 */
export function insetOutline(
  kind: 'rect' | 'ellipse' | 'diamond',
  w: number,
  h: number,
  radius: number,
  inset: number,
  /** An ellipse's semi-axes when it is drawn other than w/2 × h/2 (its centre stays put). */
  axes?: { rx: number; ry: number },
): Point[] {
  const d = Math.max(0, Math.min(inset, w / 2, h / 2));
  if (kind === 'ellipse') {
    // An ellipse with semi-axes less by d lies inside the curve d in from the outline.
    const rx = Math.max(0, (axes?.rx ?? w / 2) - d);
    const ry = Math.max(0, (axes?.ry ?? h / 2) - d);
    return Array.from({ length: ELLIPSE_SIDES }, (_, i) => {
      const a = (i / ELLIPSE_SIDES) * 2 * Math.PI;
      return { x: w / 2 + rx * Math.cos(a), y: h / 2 + ry * Math.sin(a) };
    });
  }
  if (kind === 'diamond') {
    // Each side moves in by d: the half-diagonals shrink by the same factor.
    const a = w / 2;
    const b = h / 2;
    const k = a > 0 && b > 0 ? Math.max(0, 1 - (d * Math.hypot(a, b)) / (a * b)) : 0;
    return [
      { x: a, y: b - b * k },
      { x: a + a * k, y: b },
      { x: a, y: b + b * k },
      { x: a - a * k, y: b },
    ];
  }
  const x0 = d;
  const y0 = d;
  const x1 = w - d;
  const y1 = h - d;
  const r = Math.max(0, Math.min(radius - d, (x1 - x0) / 2, (y1 - y0) / 2));
  if (r <= 0)
    return [
      { x: x0, y: y0 },
      { x: x1, y: y0 },
      { x: x1, y: y1 },
      { x: x0, y: y1 },
    ];
  // Each corner from the end of one side to the start of the next, around its corner point.
  const corners: [Point, Point, Point][] = [
    [
      { x: x1 - r, y: y0 },
      { x: x1, y: y0 },
      { x: x1, y: y0 + r },
    ],
    [
      { x: x1, y: y1 - r },
      { x: x1, y: y1 },
      { x: x1 - r, y: y1 },
    ],
    [
      { x: x0 + r, y: y1 },
      { x: x0, y: y1 },
      { x: x0, y: y1 - r },
    ],
    [
      { x: x0, y: y0 + r },
      { x: x0, y: y0 },
      { x: x0 + r, y: y0 },
    ],
  ];
  const out: Point[] = [];
  for (const [p0, c, p2] of corners)
    for (let i = 0; i <= CORNER_STEPS; i++) {
      const t = i / CORNER_STEPS;
      const u = 1 - t;
      out.push({
        x: u * u * p0.x + 2 * u * t * c.x + t * t * p2.x,
        y: u * u * p0.y + 2 * u * t * c.y + t * t * p2.y,
      });
    }
  return out;
}

/**
 * Parallel lines `gap` apart at `angleDeg` (screen degrees, y down) across a polygon, each clipped
 * to it where it actually crosses the sides. The lines are centred on the polygon, so the margins
 * at both ends are equal. Segments shorter than half a pixel are left out.
 */
export function hatchSegments(polygon: readonly Point[], gap: number, angleDeg: number): Segment[] {
  if (polygon.length < 3 || !(gap > 0)) return [];
  const a = (angleDeg * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  // In a frame turned so the hatch runs along u: u along the line, v across it.
  const uv = polygon.map((p) => ({ u: p.x * cos + p.y * sin, v: -p.x * sin + p.y * cos }));
  let vMin = Number.POSITIVE_INFINITY;
  let vMax = Number.NEGATIVE_INFINITY;
  for (const p of uv) {
    vMin = Math.min(vMin, p.v);
    vMax = Math.max(vMax, p.v);
  }
  const span = vMax - vMin;
  const count = Math.floor(span / gap);
  const first = vMin + (span - count * gap) / 2;
  const segments: Segment[] = [];
  for (let i = 0; i <= count; i++) {
    const v = first + i * gap;
    const us: number[] = [];
    for (let j = 0; j < uv.length; j++) {
      const p = uv[j]!;
      const q = uv[(j + 1) % uv.length]!;
      // Half-open on v, so a line through a vertex counts it once.
      if (p.v <= v !== q.v <= v) us.push(p.u + ((v - p.v) * (q.u - p.u)) / (q.v - p.v));
    }
    us.sort((x, y) => x - y);
    for (let k = 0; k + 1 < us.length; k += 2) {
      const u0 = us[k]!;
      const u1 = us[k + 1]!;
      if (u1 - u0 < 0.5) continue;
      segments.push([
        { x: u0 * cos - v * sin, y: u0 * sin + v * cos },
        { x: u1 * cos - v * sin, y: u1 * sin + v * cos },
      ]);
    }
  }
  return segments;
}
