// Pure operations that create and change shapes in a board's Y.Doc. Each one is a single
// transaction tagged LOCAL_ORIGIN, so one user action is one undo step and one network update.
import {
  type ArrowEnd,
  buildShapeMap,
  type ColorName,
  defaultShapeSize,
  type FontFamily,
  MAX_ALT_TEXT,
  type NewShape,
  newShapeId,
  type ShapeRecord,
  type ShapeType,
  textShapeTypes,
} from '@tandem/shared';
import * as Y from 'yjs';
import { connectorPath, pathBounds } from './connectors.ts';
import { edit, type ShapeMap, shapesOf } from './doc.ts';
import { boundsOf, type Point, type Rect, rectOfPoints } from './geometry.ts';
import * as order from './order.ts';
import { readShape } from './read.ts';
import { fittedTextW, followsItsText, textHeight } from './textFit.ts';
import type { Measure } from './textLayout.ts';

// The builder of a new shape's map is shared with the server's content-API writes (one builder,
// the same defaults either way).
export { buildShapeMap, extraKeys, type NewShape, type ShapeExtras } from '@tandem/shared';

export const defaultSize = defaultShapeSize;

/** Creates one shape on top of the others; returns its id. */
export function createShape(doc: Y.Doc, s: NewShape, createdBy: string): string {
  return edit(doc, () => {
    const id = s.id ?? newShapeId();
    shapesOf(doc).set(id, buildShapeMap(s, createdBy, s.z ?? order.topKey(doc)));
    return id;
  });
}

/** A locked shape is not moved, resized, rotated, restyled or deleted until it is unlocked. */
export const isLocked = (m: ShapeMap | undefined): boolean => m?.get('locked') === true;

const num = (m: ShapeMap, k: string): number => {
  const v = m.get(k);
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
};

/** Moves shapes by (dx, dy); arrow ends bound to them follow, free arrow ends of moved arrows move too. */
export function moveShapes(doc: Y.Doc, ids: Iterable<string>, dx: number, dy: number): void {
  const set = new Set(ids);
  if (set.size === 0 || (dx === 0 && dy === 0)) return;
  edit(doc, () => {
    const shapes = shapesOf(doc);
    for (const id of set) {
      const m = shapes.get(id);
      if (!m || isLocked(m)) continue;
      m.set('x', num(m, 'x') + dx);
      m.set('y', num(m, 'y') + dy);
      if (m.get('type') === 'arrow') {
        for (const k of ['from', 'to'] as const) {
          const e = m.get(k) as ArrowEnd | undefined;
          if (e && (!e.shapeId || !set.has(e.shapeId))) m.set(k, { ...e, x: e.x + dx, y: e.y + dy });
        }
      }
    }
    followBoundArrows(doc, set);
  });
}

/** Gives an arrow an (empty) label to type into, once: a connector's text follows its midpoint. */
export function ensureLabel(doc: Y.Doc, id: string): void {
  const m = shapesOf(doc).get(id);
  if (m?.get('type') !== 'arrow' || isLocked(m) || m.get('text') instanceof Y.Text) return;
  edit(doc, () => m.set('text', new Y.Text()));
}

/** Sets a shape's box; freehand points scale with it. */
export function resizeShape(doc: Y.Doc, id: string, box: Rect): void {
  edit(doc, () => {
    const m = shapesOf(doc).get(id);
    if (!m || isLocked(m)) return;
    const w = Math.max(1, box.w);
    const h = Math.max(1, box.h);
    if (m.get('type') === 'freehand') {
      const ow = num(m, 'w') || 1;
      const oh = num(m, 'h') || 1;
      const pts = (m.get('points') as number[] | undefined) ?? [];
      m.set(
        'points',
        pts.map((v, i) => (i % 2 === 0 ? (v * w) / ow : (v * h) / oh)),
      );
    }
    m.set('x', box.x);
    m.set('y', box.y);
    m.set('w', w);
    m.set('h', h);
    followBoundArrows(doc, new Set([id]));
  });
}

/** Sets the rotation (radians) of shapes. */
export function rotateShapes(doc: Y.Doc, ids: Iterable<string>, rotation: number): void {
  edit(doc, () => {
    const set = new Set(ids);
    for (const id of set) {
      const m = shapesOf(doc).get(id);
      if (m && !isLocked(m)) m.set('rotation', rotation);
    }
    followBoundArrows(doc, set);
  });
}

export function restyle(doc: Y.Doc, ids: Iterable<string>, color: ColorName): void {
  edit(doc, () => {
    for (const id of ids) {
      const m = shapesOf(doc).get(id);
      if (!m || isLocked(m)) continue;
      m.set('color', color);
      // The shape's colour is its stroke's and fill's unless they were set apart; picked, it is
      // theirs too. Left set, they hid the pick: an arrow with a stroke colour of its own stayed
      // red under "Colour blue", the swatch marked as chosen. Each keeps its form (a fill set
      // stays solid; a shape with neither keeps the light tint of its colour).
      if (m.has('stroke')) m.set('stroke', color);
      if (m.has('fill')) m.set('fill', color);
    }
  });
}

/** Style fields of docs/api.md §10 that the style panel sets. */
export type StylePatch = Partial<
  Pick<
    ShapeRecord,
    | 'fontSize'
    | 'align'
    | 'strokeWidth'
    | 'dash'
    | 'startHead'
    | 'endHead'
    | 'stroke'
    | 'fill'
    | 'fillStyle'
    | 'opacity'
    | 'roundness'
    | 'fontFamily'
    | 'sloppiness'
    | 'route'
  >
>;
const outlined: ReadonlySet<ShapeType> = new Set(['rect', 'ellipse', 'diamond', 'arrow']);
const filled: ReadonlySet<ShapeType> = new Set(['rect', 'ellipse', 'diamond']);

/** Which style fields a type of shape carries (text fields for text-bearing shapes, and so on). */
export function styleKeysFor(type: ShapeType): (keyof StylePatch)[] {
  const keys: (keyof StylePatch)[] = [];
  if (textShapeTypes.has(type)) keys.push('fontSize', 'align', 'fontFamily');
  if (outlined.has(type)) keys.push('strokeWidth', 'dash', 'sloppiness');
  if (outlined.has(type) || type === 'text' || type === 'freehand') keys.push('stroke');
  if (filled.has(type)) keys.push('fillStyle', 'fill');
  if (type === 'sticky') keys.push('fill');
  if (type === 'rect' || type === 'diamond') keys.push('roundness');
  if (type === 'arrow') keys.push('startHead', 'endHead', 'route', 'fontFamily');
  if (type !== 'frame') keys.push('opacity');
  return keys;
}

/**
 * The styles a new shape of `type` starts with: those last picked in the style panel that such a
 * shape carries. As in Excalidraw and tldraw, picking Elbow or a hand-drawn look once makes every
 * next connector or shape the same; before, each new one came back to the defaults. A sticky note
 * keeps its note colour (a rectangle's fill is not a note colour).
 */
export function carriedStyle(type: ShapeType, last: StylePatch): StylePatch {
  const keys = styleKeysFor(type).filter(
    (k) => last[k] !== undefined && !(type === 'sticky' && k === 'fill'),
  );
  return Object.fromEntries(keys.map((k) => [k, last[k]])) as StylePatch;
}

/** Sets style fields on the shapes that carry them (a text size does not land on an arrow). */
export function setStyle(
  doc: Y.Doc,
  ids: Iterable<string>,
  patch: StylePatch,
  /** How text is measured in a font: given, a text that follows its text is fitted to the new font. */
  measureIn?: (family: FontFamily) => Measure,
): void {
  const refont = patch.fontSize !== undefined || patch.fontFamily !== undefined;
  edit(doc, () => {
    for (const id of ids) {
      const m = shapesOf(doc).get(id);
      if (!m || isLocked(m)) continue;
      const type = m.get('type') as ShapeType;
      // A text whose box follows its text (model/textFit.ts) keeps following it in a new font
      // size or family: "Hi" in XL would otherwise wrap letter by letter in the box fitted at M.
      // The person restyling writes the new box, in the same transaction.
      const was = type === 'text' && refont && measureIn ? readShape(id, m) : null;
      const follows = was ? followsItsText(was, measureIn!(was.fontFamily ?? 'sans')) : false;
      for (const k of styleKeysFor(type)) if (patch[k] !== undefined) m.set(k, patch[k]);
      const now = follows ? readShape(id, m) : null;
      if (now && measureIn) {
        const measure = measureIn(now.fontFamily ?? 'sans');
        const w = fittedTextW(now, measure);
        m.set('w', w);
        m.set('h', textHeight({ ...now, w }, measure));
      }
      // Another route covers other ground: the stored box (culling, bounds) follows it.
      if (type === 'arrow' && patch.route !== undefined) syncArrowBox(doc, id, m);
    }
  });
}

/**
 * Sets an image's alt text (docs/api.md §10), trimmed; empty removes the field. Cut at
 * MAX_ALT_TEXT, since a longer one would fail the schema and every reader would drop the image.
 * One transaction: one undo step, one update the others see.
 */
export function setAltText(doc: Y.Doc, id: string, alt: string): void {
  const m = shapesOf(doc).get(id);
  if (!m || isLocked(m) || m.get('type') !== 'image') return;
  const next = alt.trim().slice(0, MAX_ALT_TEXT);
  if ((m.get('alt') ?? '') === next) return;
  edit(doc, () => {
    if (next) m.set('alt', next);
    else m.delete('alt');
  });
}

/** Deletes shapes; arrows bound to them keep their last position and become free. */
export function deleteShapes(doc: Y.Doc, ids: Iterable<string>): void {
  const set = new Set(ids);
  if (set.size === 0) return;
  edit(doc, () => {
    const shapes = shapesOf(doc);
    for (const id of [...set]) {
      if (isLocked(shapes.get(id))) set.delete(id);
      else shapes.delete(id);
    }
    for (const m of shapes.values()) {
      if (m.get('type') !== 'arrow') continue;
      for (const k of ['from', 'to'] as const) {
        const e = m.get(k) as ArrowEnd | undefined;
        if (e?.shapeId && set.has(e.shapeId)) m.set(k, { x: e.x, y: e.y });
      }
    }
  });
}

/** Sets both ends of an arrow (optionally bound to shapes) and keeps its box in step. */
export function setArrowEnds(doc: Y.Doc, id: string, from: ArrowEnd, to: ArrowEnd): void {
  edit(doc, () => {
    const m = shapesOf(doc).get(id);
    if (!m) return;
    m.set('from', clean(from));
    m.set('to', clean(to));
    syncArrowBox(doc, id, m);
  });
}

const clean = (e: ArrowEnd): ArrowEnd =>
  e.shapeId ? { shapeId: e.shapeId, x: e.x, y: e.y } : { x: e.x, y: e.y };

/**
 * Rewrites the stored ends of arrows bound to `moved` shapes (and the box of each such arrow),
 * so stored coordinates match what renderers draw; renderers also resolve bound ends live.
 */
export function followBoundArrows(doc: Y.Doc, moved: Set<string>): void {
  const shapes = shapesOf(doc);
  for (const [id, m] of shapes.entries()) {
    if (m.get('type') !== 'arrow') continue;
    const from = m.get('from') as ArrowEnd | undefined;
    const to = m.get('to') as ArrowEnd | undefined;
    const bound =
      (from?.shapeId && moved.has(from.shapeId)) || (to?.shapeId && moved.has(to.shapeId)) || moved.has(id);
    if (bound) syncArrowBox(doc, id, m);
  }
}

function syncArrowBox(doc: Y.Doc, id: string, m: ShapeMap): void {
  const rec = readShape(id, m);
  if (!rec) return;
  const all = new Map<string, ReturnType<typeof readShape> & object>();
  for (const k of [rec.from?.shapeId, rec.to?.shapeId]) {
    if (!k) continue;
    const r = readShape(k, shapesOf(doc).get(k));
    if (r) all.set(k, r);
  }
  const path = connectorPath(rec, all);
  const a = path.points[0]!;
  const b = path.points[path.points.length - 1]!;
  if (rec.from) m.set('from', { ...rec.from, x: a.x, y: a.y });
  if (rec.to) m.set('to', { ...rec.to, x: b.x, y: b.y });
  const r = pathBounds(path);
  m.set('x', r.x);
  m.set('y', r.y);
  m.set('w', r.w);
  m.set('h', r.h);
}

/** Replaces a shape's text with `next` by the smallest edit (common prefix/suffix kept), so concurrent typists merge by character. */
export function replaceText(doc: Y.Doc, id: string, next: string): void {
  const t = shapesOf(doc).get(id)?.get('text');
  if (!(t instanceof Y.Text)) return;
  const prev = t.toString();
  if (prev === next) return;
  let start = 0;
  while (start < prev.length && start < next.length && prev[start] === next[start]) start++;
  let endPrev = prev.length;
  let endNext = next.length;
  while (endPrev > start && endNext > start && prev[endPrev - 1] === next[endNext - 1]) {
    endPrev--;
    endNext--;
  }
  edit(doc, () => {
    if (endPrev > start) t.delete(start, endPrev - start);
    if (endNext > start) t.insert(start, next.slice(start, endNext));
  });
}

/** Freehand stroke from absolute points: origin at the stroke's top-left, points relative to it. */
export function freehandFrom(points: Point[]): Pick<NewShape, 'x' | 'y' | 'w' | 'h' | 'points'> {
  const r = rectOfPoints(points);
  return {
    x: r.x,
    y: r.y,
    w: Math.max(1, r.w),
    h: Math.max(1, r.h),
    points: points.flatMap((p) => [round(p.x - r.x), round(p.y - r.y)]),
  };
}
const round = (v: number): number => Math.round(v * 100) / 100;

export { boundsOf };
