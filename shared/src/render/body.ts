// The body of a shape (its outline and fill) and of an arrow, as primitives (primitives.ts). Exact
// geometry for the architect look with a plain fill, exactly as boards were drawn before the
// style fields existed; roughjs for the hand-drawn looks and for hatched fills, seeded by the
// shape's id so every screen and every export draws the same strokes. Each result is cached by the
// record object (the ShapeIndex keeps it while the shape is unchanged), so panning, and a shape
// scrolled out of view and back, never traces it again.

import roughImport from 'roughjs';
import type { Options } from 'roughjs/bin/core.js';
import type { RoughGenerator } from 'roughjs/bin/generator.js';
import type { ShapeRecord } from '../index.ts';
import type { ConnectorPath } from './connectors.ts';
import { strokePath } from './freehand.ts';
import type { Point } from './geometry.ts';
import { hatchSegments, insetOutline } from './hatch.ts';
import { fill as stickyFill } from './palette.ts';
import type { Attrs, Primitive } from './primitives.ts';
import { arrowGeometry, dashArray, type HeadShape, pointList } from './strokes.ts';
import { fillPaint, type ResolvedStyle, resolveStyle, seedOf } from './style.ts';

// roughjs ships CommonJS typings for an ES default export: the module object is typed by hand so
// the same line compiles for the client (bundler) and for Node (the server renders too).
const rough = roughImport as unknown as { generator(): RoughGenerator };
const generator = rough.generator();

const roughness = { architect: 0, artist: 1, cartoonist: 2 } as const;

/** True when the shape is drawn by roughjs rather than as exact SVG geometry. */
export const isSketched = (st: ResolvedStyle): boolean =>
  st.sloppiness !== 'architect' || st.fillStyle === 'hatched' || st.fillStyle === 'cross-hatched';

function dashAttrs(st: ResolvedStyle): Attrs {
  const dash = dashArray(st.dash, st.strokeWidth);
  return dash ? { strokeDasharray: dash, strokeLinecap: 'round' } : {};
}

/** Outline stroke of exact geometry: its colour, width and dash style. */
function strokeAttrs(st: ResolvedStyle): Attrs {
  return { stroke: st.stroke, strokeWidth: st.strokeWidth, ...dashAttrs(st) };
}

function roughOptions(s: ShapeRecord, st: ResolvedStyle, filled: boolean): Options {
  const sketchFill =
    st.fillStyle === 'hatched' ? 'hachure' : st.fillStyle === 'cross-hatched' ? 'cross-hatch' : 'solid';
  return {
    seed: seedOf(s.id),
    roughness: roughness[st.sloppiness],
    bowing: st.sloppiness === 'architect' ? 0 : 1,
    // Architect lines are drawn once: the doubled stroke is part of the hand-drawn looks only.
    disableMultiStroke: st.sloppiness === 'architect',
    stroke: st.stroke,
    strokeWidth: st.strokeWidth,
    ...(filled && st.fill !== 'none' ? { fill: st.fill, fillStyle: sketchFill } : {}),
    fillWeight: Math.max(1, st.strokeWidth / 2),
    hachureGap: Math.max(6, st.strokeWidth * 4),
    // One decimal is far below a pixel at any zoom the editor allows, and keeps the paths short.
    fixedDecimalPlaceDigits: 1,
    preserveVertices: true,
  };
}

/** A roughjs drawable as path primitives: fills first, the outline (dashed as asked) over them. */
function roughParts(drawable: ReturnType<typeof generator.path>, st: ResolvedStyle, o: Options): Primitive[] {
  const parts: Primitive[] = [];
  for (const set of drawable.sets) {
    const d = generator.opsToPath(set, 1);
    if (set.type === 'fillPath') parts.push({ tag: 'path', attrs: { d, fill: st.fill, stroke: 'none' } });
    else if (set.type === 'fillSketch')
      parts.push({
        tag: 'path',
        attrs: { d, fill: 'none', stroke: st.fill, strokeWidth: o.fillWeight ?? 1 },
      });
    else
      parts.push({
        tag: 'path',
        attrs: { d, fill: 'none', stroke: st.stroke, strokeWidth: st.strokeWidth, ...dashAttrs(st) },
      });
  }
  return parts;
}

function roundedRectPath(w: number, h: number, r: number): string {
  if (r <= 0) return `M0 0 L${w} 0 L${w} ${h} L0 ${h} Z`;
  return `M${r} 0 L${w - r} 0 Q${w} 0 ${w} ${r} L${w} ${h - r} Q${w} ${h} ${w - r} ${h} L${r} ${h} Q0 ${h} 0 ${h - r} L0 ${r} Q0 0 ${r} 0 Z`;
}

const RECT_RADIUS = 8;

/**
 * The smaller of each semi-axis of the box and of the ellipse roughjs draws in it. roughjs 4.6
 * (renderer.js generateEllipseParams) stretches each by its first two seeded draws, by up to
 * (1 - curveFitting) × roughness, before the outline's wobble: 10 % either way for the cartoonist.
 */
function roughEllipseAxes(w: number, h: number, o: Options): { rx: number; ry: number } {
  // roughjs's seeded generator (bin/math.js Random), from the seed the outline is drawn with.
  let seed = o.seed ?? 0;
  const next = () => {
    seed = Math.imul(48271, seed);
    return ((2 ** 31 - 1) & seed) / 2 ** 31;
  };
  const spread = (1 - (o.curveFitting ?? 0.95)) * (o.roughness ?? 1);
  const stretch = (r: number) => r + spread * (next() * 2 * r - r);
  const rx = stretch(w / 2);
  const ry = stretch(h / 2);
  return { rx: Math.min(w / 2, rx), ry: Math.min(h / 2, ry) };
}

/** Where the hatch lines run, in screen degrees: roughjs's default hachure angle (-41°) turned a right angle, as its filler draws it. */
const HATCH_ANGLE = -49;

/**
 * A hatched or cross-hatched fill as roughjs strokes along segments clipped to the outline
 * (hatch.ts says why roughjs's filler is not used). The outline is brought in by half its stroke
 * so a hatch line ends under the outline's stroke, not past its outer edge.
 */
function hatchParts(
  kind: 'rect' | 'ellipse' | 'diamond',
  s: ShapeRecord,
  st: ResolvedStyle,
  o: Options,
  radius: number,
): Primitive[] {
  // A hand-drawn ellipse is drawn narrower or wider than its box: the hatch keeps inside both.
  const axes = kind === 'ellipse' ? roughEllipseAxes(s.w, s.h, o) : undefined;
  const outline = insetOutline(kind, s.w, s.h, radius, st.strokeWidth / 2, axes);
  const gap = o.hachureGap ?? st.strokeWidth * 4;
  const segments = hatchSegments(outline, gap, HATCH_ANGLE);
  if (st.fillStyle === 'cross-hatched') segments.push(...hatchSegments(outline, gap, HATCH_ANGLE + 90));
  if (segments.length === 0) return [];
  const round = (n: number) => Math.round(n * 10) / 10;
  const d = segments.map(([a, b]) => `M${round(a.x)} ${round(a.y)} L${round(b.x)} ${round(b.y)}`).join(' ');
  // Drawn twice over like roughjs's own hatch (its disableMultiStrokeFill is off), at its roughness.
  // Stroked in the fill colour: a sticky's outline colour is 'none', which roughjs would skip.
  const { fill: _fill, ...lineOptions } = o;
  const lines = generator.path(d, {
    ...lineOptions,
    stroke: st.fill,
    disableMultiStroke: false,
    strokeLineDash: [],
  });
  return lines.sets.map(
    (set): Primitive => ({
      tag: 'path',
      attrs: {
        d: generator.opsToPath(set, 1),
        fill: 'none',
        stroke: st.fill,
        strokeWidth: o.fillWeight ?? 1,
      },
    }),
  );
}

function sketchedBody(s: ShapeRecord, st: ResolvedStyle): Primitive[] {
  const hatched = (st.fillStyle === 'hatched' || st.fillStyle === 'cross-hatched') && st.fill !== 'none';
  // A hatch is drawn apart (hatchParts); roughjs draws the outline, or the outline and a solid fill.
  const o = roughOptions(s, st, !hatched);
  const r = st.roundness === 'round' ? Math.min(RECT_RADIUS, s.w / 2, s.h / 2) : 0;
  const hatch = (kind: 'rect' | 'ellipse' | 'diamond', radius = 0) =>
    hatched ? hatchParts(kind, s, st, o, radius) : [];
  switch (s.type) {
    case 'rect':
    case 'sticky':
      return [
        ...hatch('rect', r),
        ...roughParts(
          r > 0 ? generator.path(roundedRectPath(s.w, s.h, r), o) : generator.rectangle(0, 0, s.w, s.h, o),
          st,
          o,
        ),
      ];
    case 'ellipse':
      return [...hatch('ellipse'), ...roughParts(generator.ellipse(s.w / 2, s.h / 2, s.w, s.h, o), st, o)];
    case 'diamond':
      return [
        ...hatch('diamond'),
        ...roughParts(
          generator.polygon(
            [
              [s.w / 2, 0],
              [s.w, s.h / 2],
              [s.w / 2, s.h],
              [0, s.h / 2],
            ],
            o,
          ),
          st,
          o,
        ),
      ];
    default:
      return exactBody(s, st);
  }
}

function exactBody(s: ShapeRecord, st: ResolvedStyle): Primitive[] {
  switch (s.type) {
    case 'sticky':
      return [{ tag: 'rect', attrs: { width: s.w, height: s.h, rx: 6, fill: stickyFillOf(s) } }];
    case 'rect':
      return [
        {
          tag: 'rect',
          attrs: {
            width: s.w,
            height: s.h,
            rx: st.roundness === 'round' ? RECT_RADIUS : 0,
            fill: st.fill,
            ...strokeAttrs(st),
          },
        },
      ];
    case 'ellipse':
      return [
        {
          tag: 'ellipse',
          attrs: { cx: s.w / 2, cy: s.h / 2, rx: s.w / 2, ry: s.h / 2, fill: st.fill, ...strokeAttrs(st) },
        },
      ];
    case 'diamond':
      return [
        {
          tag: 'polygon',
          attrs: {
            points: `${s.w / 2},0 ${s.w},${s.h / 2} ${s.w / 2},${s.h} 0,${s.h / 2}`,
            fill: st.fill,
            ...strokeAttrs(st),
            strokeLinejoin: st.roundness === 'round' ? 'round' : 'miter',
          },
        },
      ];
    case 'freehand':
      return [{ tag: 'path', attrs: { d: strokePath(s.points ?? []), fill: st.stroke } }];
    default:
      return [];
  }
}

/** A sticky is one solid colour: its fill colour when set, else its colour's note tone. */
const stickyFillOf = (s: ShapeRecord): string => (s.fill ? fillPaint(s.fill) : stickyFill[s.color]);

/**
 * The zoom (screen pixels per board unit) below which shapes are drawn without their hand-drawn
 * detail (bodyOf's `detail`): the board's canvas, the minimap and the dashboard thumbnail.
 */
export const DETAIL_ZOOM = 0.3;

const bodies = new WeakMap<ShapeRecord, Primitive[]>();
const farBodies = new WeakMap<ShapeRecord, Primitive[]>();

/** How a hatch reads from far away: its colour, as a light solid fill. */
const hatchTone = (st: ResolvedStyle): string =>
  st.fill === 'none' ? 'none' : `${st.fill}${st.fillStyle === 'cross-hatched' ? '80' : '59'}`;

/**
 * The outline and fill of a shape (not an arrow, a frame, an image or text), in its own frame.
 * `detail` is off when the view is zoomed far out (below DETAIL_ZOOM, 30 %): a sketched shape is then drawn as
 * its exact outline with its hatch as a light tone. At that scale a stroke's wobble is a fraction
 * of a pixel and hatch lines merge into a tone anyway, and thousands of roughjs paths would cost
 * the first render and every redraw of a zoomed-out board (docs/benchmarks-client.md).
 */
export function bodyOf(s: ShapeRecord, detail = true): Primitive[] {
  const cache = detail ? bodies : farBodies;
  const known = cache.get(s);
  if (known) return known;
  const st = resolveStyle(s);
  // A sticky is a note, not a drawing: it takes the hand-drawn look only when asked for outright.
  const sticky = s.type === 'sticky' ? { ...st, fill: stickyFillOf(s), stroke: 'none' } : st;
  let parts: Primitive[];
  if (!isSketched(st)) parts = exactBody(s, st);
  else if (detail) parts = sketchedBody(s, sticky);
  else
    parts = exactBody(s, {
      ...st,
      fill: st.fillStyle === 'hatched' || st.fillStyle === 'cross-hatched' ? hatchTone(st) : st.fill,
    });
  cache.set(s, parts);
  return parts;
}

/** The opacity attribute of a shape's group, or none at full opacity (older boards' markup). */
export function opacityAttrs(s: ShapeRecord): Attrs {
  const o = s.opacity ?? 1;
  return o < 1 ? { opacity: o } : {};
}

/** An arrow's group attributes and its parts (line and heads). */
export interface ArrowDrawing {
  group: Attrs;
  parts: Primitive[];
}

function exactHeads(heads: HeadShape[], color: string): Primitive[] {
  return heads.map(
    (h): Primitive =>
      h.kind === 'open'
        ? { tag: 'polyline', attrs: { points: pointList(h.points) } }
        : h.kind === 'filled'
          ? { tag: 'polygon', attrs: { points: pointList(h.points), fill: color, strokeLinejoin: 'round' } }
          : { tag: 'circle', attrs: { cx: h.c.x, cy: h.c.y, r: h.r, fill: color } },
  );
}

function linePart(route: ConnectorPath['route'], line: Point[], dash: Attrs): Primitive {
  if (route === 'straight') {
    const [a, b] = line as [Point, Point];
    return { tag: 'line', attrs: { x1: a.x, y1: a.y, x2: b.x, y2: b.y, ...dash } };
  }
  if (route === 'elbow') return { tag: 'polyline', attrs: { points: pointList(line), ...dash } };
  return { tag: 'path', attrs: { d: curveD(line), ...dash } };
}

const curveD = (p: Point[]) => {
  const [a, c1, c2, b] = p as [Point, Point, Point, Point];
  return `M${a.x} ${a.y} C${c1.x} ${c1.y} ${c2.x} ${c2.y} ${b.x} ${b.y}`;
};

function sketchedArrow(
  s: ShapeRecord,
  st: ResolvedStyle,
  route: ConnectorPath['route'],
  line: Point[],
  heads: HeadShape[],
) {
  const o = roughOptions(s, st, false);
  const solid: Options = { ...o, fill: st.stroke, fillStyle: 'solid' };
  const shapeOf = (d: ReturnType<typeof generator.path>, filled = false) =>
    roughParts(d, { ...st, fill: st.stroke, dash: filled ? 'solid' : st.dash }, o);
  const parts: Primitive[] = shapeOf(
    route === 'curved'
      ? generator.path(curveD(line), o)
      : generator.linearPath(
          line.map((p) => [p.x, p.y] as [number, number]),
          o,
        ),
  );
  for (const h of heads) {
    if (h.kind === 'open')
      parts.push(
        ...shapeOf(
          generator.linearPath(
            h.points.map((p) => [p.x, p.y] as [number, number]),
            { ...o, strokeLineDash: [] },
          ),
          true,
        ),
      );
    else if (h.kind === 'filled')
      parts.push(
        ...shapeOf(
          generator.polygon(
            h.points.map((p) => [p.x, p.y] as [number, number]),
            solid,
          ),
          true,
        ),
      );
    else parts.push(...shapeOf(generator.circle(h.c.x, h.c.y, h.r * 2, solid), true));
  }
  return parts;
}

const arrows = new WeakMap<ShapeRecord, { key: string; drawing: ArrowDrawing }>();

/** What an arrow draws along its resolved path; cached by record, path and detail (see bodyOf). */
export function arrowDrawing(s: ShapeRecord, path: ConnectorPath, detail = true): ArrowDrawing {
  const key = `${detail ? 'd' : 'f'}${path.points.map((p) => `${p.x},${p.y}`).join(' ')}`;
  const known = arrows.get(s);
  if (known && known.key === key) return known.drawing;
  const st = resolveStyle(s);
  const { line, heads } = arrowGeometry(s, path.points);
  const group: Attrs = {
    stroke: st.stroke,
    strokeWidth: st.strokeWidth,
    strokeLinecap: 'round',
    strokeLinejoin: 'round',
    fill: 'none',
    ...opacityAttrs(s),
  };
  const dash = dashArray(st.dash, st.strokeWidth);
  const parts =
    st.sloppiness !== 'architect' && detail
      ? sketchedArrow(s, st, path.route, line, heads)
      : [linePart(path.route, line, dash ? { strokeDasharray: dash } : {}), ...exactHeads(heads, st.stroke)];
  const drawing = { group, parts };
  arrows.set(s, { key, drawing });
  return drawing;
}
