// Stroke styles and arrowheads as plain geometry, shared by the canvas and the SVG/PNG export so
// both draw the same line (tested in Node with the layout model).
import type { ArrowHead, Dash, ShapeRecord } from '../index.ts';
import type { Point } from './geometry.ts';

/** The stroke width a shape is drawn with: its own, or the default of its type. */
export const strokeWidthOf = (s: Pick<ShapeRecord, 'type' | 'strokeWidth'>): number => s.strokeWidth ?? 2;

/** An SVG stroke-dasharray for a dash style at a stroke width (null for a solid line). */
export function dashArray(dash: Dash | undefined, width: number): string | null {
  if (dash === 'dashed') return `${width * 4} ${width * 3}`;
  // Zero-length dashes with round caps draw as dots.
  if (dash === 'dotted') return `0 ${width * 2.5}`;
  return null;
}

export type HeadShape =
  | { kind: 'open'; points: Point[] }
  | { kind: 'filled'; points: Point[] }
  | { kind: 'dot'; c: Point; r: number };

/**
 * The heads of an arrow and its line, shortened where a filled head or a dot takes its end. `path`
 * is the arrow's polyline (straight: its two ends) or its Bézier [start, control, control, end]:
 * either way a head points along the first or last leg.
 */
export function arrowGeometry(
  s: Pick<ShapeRecord, 'type' | 'strokeWidth' | 'startHead' | 'endHead'>,
  path: Point[],
): { line: Point[]; heads: HeadShape[] } {
  const width = strokeWidthOf(s);
  const size = 10 + width * 2;
  const heads: HeadShape[] = [];
  const ends = [...path];
  const last = path.length - 1;
  /** The point a head at `at` points away from: the nearest distinct point along the path. */
  const tailOf = (at: number, step: 1 | -1): Point => {
    const tip = path[at]!;
    for (let i = at + step; i >= 0 && i <= last; i += step) {
      const p = path[i]!;
      if (p.x !== tip.x || p.y !== tip.y) return p;
    }
    return tip;
  };
  const place = (head: ArrowHead, which: number, step: 1 | -1) => {
    if (head === 'none') return;
    const tip = path[which]!;
    const tail = tailOf(which, step);
    const len = Math.hypot(tip.x - tail.x, tip.y - tail.y);
    if (len === 0) return;
    const ux = (tip.x - tail.x) / len;
    const uy = (tip.y - tail.y) / len;
    const at = (back: number, side: number): Point => ({
      x: tip.x - ux * back - uy * side,
      y: tip.y - uy * back + ux * side,
    });
    const spread = size * 0.45;
    if (head === 'arrow') heads.push({ kind: 'open', points: [at(size, spread), tip, at(size, -spread)] });
    else if (head === 'triangle') {
      heads.push({ kind: 'filled', points: [at(size, spread), tip, at(size, -spread)] });
      ends[which] = at(Math.min(size * 0.8, len / 2), 0);
    } else {
      const r = Math.max(3, width * 1.6);
      heads.push({ kind: 'dot', c: at(r, 0), r });
      ends[which] = at(Math.min(r, len / 2), 0);
    }
  };
  if (path.length < 2) return { line: ends, heads };
  place(s.startHead ?? 'none', 0, 1);
  place(s.endHead ?? 'arrow', last, -1);
  return { line: ends, heads };
}

const pts = (ps: Point[]) => ps.map((p) => `${p.x},${p.y}`).join(' ');

export const pointList = pts;
