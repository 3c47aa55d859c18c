// Connector routes (docs/api.md §10 `route`): pure geometry, tested in Node. A straight arrow aims
// at its shapes' centres, as arrows always have; an elbow arrow leaves each bound shape from the
// middle of the side facing the other end and runs in horizontal and vertical segments around both
// end shapes; a curved arrow leaves and enters the same way, along a cubic Bézier.
import type { Route, ShapeRecord } from '../index.ts';
import { ARROW_GAP, arrowEnds, boundsOf, center, type Point, type Rect, rectOfPoints } from './geometry.ts';

export type Side = 'top' | 'right' | 'bottom' | 'left';

/** One end of a connector: where it is, and the box of the shape it is bound to (null when free). */
export interface ConnectorEnd {
  point: Point;
  box: Rect | null;
}

/** A connector's drawn path. Straight and elbow: a polyline. Curved: [start, control, control, end]. */
export interface ConnectorPath {
  route: Route;
  points: Point[];
}

/** How far an elbow runs straight out of a shape before it turns, and how wide it keeps clear of it. */
export const ELBOW_STUB = 20;

const directions: Record<Side, Point> = {
  top: { x: 0, y: -1 },
  right: { x: 1, y: 0 },
  bottom: { x: 0, y: 1 },
  left: { x: -1, y: 0 },
};

/** The side of `box` that faces `toward` (the box's aspect taken into account). */
export function facingSide(box: Rect, toward: Point): Side {
  const c = center(box);
  const dx = (toward.x - c.x) / Math.max(box.w / 2, 1);
  const dy = (toward.y - c.y) / Math.max(box.h / 2, 1);
  if (Math.abs(dx) >= Math.abs(dy)) return dx >= 0 ? 'right' : 'left';
  return dy >= 0 ? 'bottom' : 'top';
}

/** The middle of a side, `gap` outside it. */
export function sideAnchor(box: Rect, side: Side, gap = ARROW_GAP): Point {
  const c = center(box);
  const d = directions[side];
  return { x: c.x + d.x * (box.w / 2 + gap), y: c.y + d.y * (box.h / 2 + gap) };
}

const inflate = (r: Rect, by: number): Rect => ({
  x: r.x - by,
  y: r.y - by,
  w: r.w + 2 * by,
  h: r.h + 2 * by,
});
const add = (p: Point, d: Point, k: number): Point => ({ x: p.x + d.x * k, y: p.y + d.y * k });

/** True when segment a–b (horizontal or vertical) passes through the inside of `r` (its edge is outside). */
export function segmentCrossesRect(a: Point, b: Point, r: Rect): boolean {
  const eps = 1e-6;
  const minX = Math.min(a.x, b.x);
  const maxX = Math.max(a.x, b.x);
  const minY = Math.min(a.y, b.y);
  const maxY = Math.max(a.y, b.y);
  if (maxX <= r.x + eps || minX >= r.x + r.w - eps) return false;
  if (maxY <= r.y + eps || minY >= r.y + r.h - eps) return false;
  // Axis-aligned segments only reach here when they overlap the open interior; a slanted one
  // (never produced by the router) is tested by sampling, so the check still holds for it.
  if (a.x === b.x || a.y === b.y) return true;
  for (let t = 0; t <= 1; t += 1 / 64) {
    const x = a.x + (b.x - a.x) * t;
    const y = a.y + (b.y - a.y) * t;
    if (x > r.x + eps && x < r.x + r.w - eps && y > r.y + eps && y < r.y + r.h - eps) return true;
  }
  return false;
}

/** Drops repeated points and the middle of three collinear ones. */
function simplify(points: Point[]): Point[] {
  const out: Point[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && Math.abs(last.x - p.x) < 1e-9 && Math.abs(last.y - p.y) < 1e-9) continue;
    const prev = out[out.length - 2];
    if (
      prev &&
      last &&
      ((Math.abs(prev.x - last.x) < 1e-9 && Math.abs(last.x - p.x) < 1e-9) ||
        (Math.abs(prev.y - last.y) < 1e-9 && Math.abs(last.y - p.y) < 1e-9))
    )
      out[out.length - 1] = p;
    else out.push(p);
  }
  return out;
}

function length(points: Point[]): number {
  let sum = 0;
  for (let i = 1; i < points.length; i++)
    sum += Math.abs(points[i]!.x - points[i - 1]!.x) + Math.abs(points[i]!.y - points[i - 1]!.y);
  return sum;
}

/** Where an end leaves from and the direction it leaves in. */
function departure(end: ConnectorEnd, other: ConnectorEnd): { at: Point; dir: Point } {
  const aim = other.box ? center(other.box) : other.point;
  if (end.box) {
    const side = facingSide(end.box, aim);
    return { at: sideAnchor(end.box, side), dir: directions[side] };
  }
  const dx = aim.x - end.point.x;
  const dy = aim.y - end.point.y;
  const side: Side = Math.abs(dx) >= Math.abs(dy) ? (dx >= 0 ? 'right' : 'left') : dy >= 0 ? 'bottom' : 'top';
  return { at: end.point, dir: directions[side] };
}

/**
 * Two bound ends whose facing sides face each other and whose spans along those sides overlap by
 * half the smaller span or more: one straight segment through the middle of the overlap. Each side
 * is left a little off its middle, as tldraw and Miro draw shapes that are nearly in line, rather
 * than a jog of a few pixels between two stubs (two stickies 13 px apart in height drew a step).
 */
function alignedRun(
  a: ConnectorEnd,
  b: ConnectorEnd,
  da: { at: Point; dir: Point },
  db: { at: Point; dir: Point },
): Point[] | null {
  if (!a.box || !b.box || da.dir.x !== -db.dir.x || da.dir.y !== -db.dir.y) return null;
  const across = da.dir.x !== 0 ? 'y' : 'x';
  const span = across === 'y' ? 'h' : 'w';
  const from = Math.max(a.box[across], b.box[across]);
  const to = Math.min(a.box[across] + a.box[span], b.box[across] + b.box[span]);
  if (to - from < Math.min(a.box[span], b.box[span]) / 2) return null;
  const middle = (from + to) / 2;
  const start = { ...da.at, [across]: middle };
  const end = { ...db.at, [across]: middle };
  // The sides must have room between them, the start before the end in the direction it leaves.
  if ((end.x - start.x) * da.dir.x + (end.y - start.y) * da.dir.y <= 0) return null;
  return [start, end];
}

/**
 * An orthogonal route from `a` to `b`, around the boxes of both ends. Candidates with up to three
 * turns between the two stubs are tried over a handful of channels (the stubs, their middle, and
 * lanes just outside each box); the shortest that keeps clear of both boxes wins, a turn counting
 * as some extra length so a simple route is preferred.
 */
export function elbowRoute(a: ConnectorEnd, b: ConnectorEnd): Point[] {
  const da = departure(a, b);
  const db = departure(b, a);
  const aligned = alignedRun(a, b, da, db);
  if (aligned) return aligned;
  const boxes = [a.box, b.box].filter((r): r is Rect => r !== null);
  // The stubs end just outside the lanes the route keeps clear.
  const clear = boxes.map((r) => inflate(r, ELBOW_STUB - 1));
  const qa = a.box ? add(da.at, da.dir, ELBOW_STUB) : da.at;
  const qb = b.box ? add(db.at, db.dir, ELBOW_STUB) : db.at;
  const xs = new Set([qa.x, qb.x, (qa.x + qb.x) / 2]);
  const ys = new Set([qa.y, qb.y, (qa.y + qb.y) / 2]);
  for (const r of clear) {
    xs.add(r.x - 1);
    xs.add(r.x + r.w + 1);
    ys.add(r.y - 1);
    ys.add(r.y + r.h + 1);
  }
  // Lanes in the gap between the two boxes, when there is one.
  if (clear.length === 2) {
    const [r1, r2] = clear as [Rect, Rect];
    xs.add((Math.max(r1.x, r2.x) + Math.min(r1.x + r1.w, r2.x + r2.w)) / 2);
    ys.add((Math.max(r1.y, r2.y) + Math.min(r1.y + r1.h, r2.y + r2.h)) / 2);
  }
  const middles: Point[][] = [
    [qa, { x: qb.x, y: qa.y }, qb],
    [qa, { x: qa.x, y: qb.y }, qb],
  ];
  for (const x of xs) middles.push([qa, { x, y: qa.y }, { x, y: qb.y }, qb]);
  for (const y of ys) middles.push([qa, { x: qa.x, y }, { x: qb.x, y }, qb]);
  for (const x of xs)
    for (const y of ys) {
      middles.push([qa, { x: qa.x, y }, { x, y }, { x, y: qb.y }, qb]);
      middles.push([qa, { x, y: qa.y }, { x, y }, { x: qb.x, y }, qb]);
    }
  const TURN = 24;
  let best: Point[] | null = null;
  let bestCost = Number.POSITIVE_INFINITY;
  for (const middle of middles) {
    const full = simplify([da.at, ...middle, db.at]);
    let ok = true;
    for (let i = 1; i < middle.length && ok; i++)
      for (const r of clear) if (segmentCrossesRect(middle[i - 1]!, middle[i]!, r)) ok = false;
    // The stubs themselves must not turn back through their own box either.
    for (let i = 1; i < full.length && ok; i++)
      for (const r of boxes) if (segmentCrossesRect(full[i - 1]!, full[i]!, r)) ok = false;
    if (!ok) continue;
    const cost = length(full) + TURN * (full.length - 2);
    if (cost < bestCost) {
      bestCost = cost;
      best = full;
    }
  }
  // Overlapping boxes leave no clear lane: run through the middle rather than draw nothing.
  return best ?? simplify([da.at, qa, { x: qb.x, y: qa.y }, qb, db.at]);
}

/** A curved route: it leaves and enters like an elbow, along a cubic Bézier. */
export function curvedRoute(a: ConnectorEnd, b: ConnectorEnd): Point[] {
  const da = departure(a, b);
  const db = departure(b, a);
  const reach = Math.max(40, Math.hypot(db.at.x - da.at.x, db.at.y - da.at.y) / 3);
  return [da.at, add(da.at, da.dir, reach), add(db.at, db.dir, reach), db.at];
}

/** The box a bound end attaches to (its shape's bounds, rotation included), or null for a free or dangling end. */
function boxOf(id: string | undefined, all: Map<string, ShapeRecord> | undefined): Rect | null {
  const s = id ? all?.get(id) : undefined;
  return s ? boundsOf(s) : null;
}

/** The path an arrow draws, its ends resolved against the current shapes (a bound end follows its shape). */
export function connectorPath(s: ShapeRecord, all?: Map<string, ShapeRecord>): ConnectorPath {
  const route = s.route ?? 'straight';
  if (route === 'straight') return { route, points: arrowEnds(s, all) };
  const from = s.from ?? { x: s.x, y: s.y };
  const to = s.to ?? { x: s.x + s.w, y: s.y + s.h };
  const a: ConnectorEnd = { point: { x: from.x, y: from.y }, box: boxOf(from.shapeId, all) };
  const b: ConnectorEnd = { point: { x: to.x, y: to.y }, box: boxOf(to.shapeId, all) };
  return { route, points: route === 'elbow' ? elbowRoute(a, b) : curvedRoute(a, b) };
}

/** Points along the path, for hit tests and bounds (a curve sampled into a polyline). */
export function pathPolyline(p: ConnectorPath): Point[] {
  if (p.route !== 'curved') return p.points;
  const [p0, c1, c2, p3] = p.points as [Point, Point, Point, Point];
  const out: Point[] = [];
  for (let i = 0; i <= 24; i++) {
    const t = i / 24;
    const u = 1 - t;
    out.push({
      x: u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p3.x,
      y: u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p3.y,
    });
  }
  return out;
}

/** The middle of the path (where a label sits): half way along its length. */
export function pathMidpoint(p: ConnectorPath): Point {
  const pts = pathPolyline(p);
  let total = 0;
  for (let i = 1; i < pts.length; i++)
    total += Math.hypot(pts[i]!.x - pts[i - 1]!.x, pts[i]!.y - pts[i - 1]!.y);
  let left = total / 2;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1]!;
    const b = pts[i]!;
    const seg = Math.hypot(b.x - a.x, b.y - a.y);
    if (seg >= left && seg > 0)
      return { x: a.x + ((b.x - a.x) * left) / seg, y: a.y + ((b.y - a.y) * left) / seg };
    left -= seg;
  }
  return pts[0] ?? { x: 0, y: 0 };
}

/**
 * Where a connector's label sits. A straight or curved arrow: the middle of its path. An elbow: the
 * middle of its longest straight segment (the one nearest the path's middle when two tie), so the
 * label sits on a straight run and never on a bend, as Excalidraw places an elbow arrow's text.
 * The canvas, the text editor and every export place it by this one function.
 */
export function labelPoint(p: ConnectorPath): Point {
  if (p.route !== 'elbow' || p.points.length < 3) return pathMidpoint(p);
  const mid = pathMidpoint(p);
  let best = mid;
  let bestLen = -1;
  let bestOff = Number.POSITIVE_INFINITY;
  for (let i = 1; i < p.points.length; i++) {
    const a = p.points[i - 1]!;
    const b = p.points[i]!;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    const m = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    const off = Math.hypot(m.x - mid.x, m.y - mid.y);
    if (len > bestLen + 1e-6 || (Math.abs(len - bestLen) <= 1e-6 && off < bestOff)) {
      best = m;
      bestLen = len;
      bestOff = off;
    }
  }
  return best;
}

export const pathBounds = (p: ConnectorPath): Rect => rectOfPoints(pathPolyline(p));

/** The box a connector's label is laid out in: centred on its label point. */
export const LABEL_BOX = { w: 160, h: 36 } as const;
export function labelBox(p: ConnectorPath): Rect {
  const m = labelPoint(p);
  return { x: m.x - LABEL_BOX.w / 2, y: m.y - LABEL_BOX.h / 2, w: LABEL_BOX.w, h: LABEL_BOX.h };
}
