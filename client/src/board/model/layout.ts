// Layout operations, pure: snapping with guides, align and distribute, groups, locks, and resizing
// or rotating several shapes at once. The geometry works on plain records and rectangles (tested
// in Node); the `…Shapes` functions apply it to a Y.Doc as one transaction each.

import type { ArrowEnd, ShapeRecord } from '@tandem/shared';
import { newShapeId } from '@tandem/shared';
import type * as Y from 'yjs';
import { edit, shapesOf } from './doc.ts';
import { boundsOf, center, type Point, type Rect, rectOfPoints, unionRect } from './geometry.ts';
import { readShape } from './read.ts';
import { followBoundArrows, isLocked } from './shapes.ts';

// ---------------------------------------------------------------------------------------------
// Snapping

/** A guide line drawn while snapping: vertical (`axis: 'x'`, at x = `at`) or horizontal. */
export interface Guide {
  axis: 'x' | 'y';
  at: number;
  from: number;
  to: number;
}

export interface Snap {
  /** What to add to the raw position so it snaps (0 on an axis that did not snap). */
  dx: number;
  dy: number;
  guides: Guide[];
}

const lines = (r: Rect, axis: 'x' | 'y'): number[] =>
  axis === 'x' ? [r.x, r.x + r.w / 2, r.x + r.w] : [r.y, r.y + r.h / 2, r.y + r.h];

/** The smallest offset (within `threshold`) that puts one of `mine` on one of the others' lines. */
function bestOffset(mine: number[], others: Rect[], axis: 'x' | 'y', threshold: number): number | null {
  let best: number | null = null;
  for (const o of others) {
    for (const theirs of lines(o, axis)) {
      for (const m of mine) {
        const d = theirs - m;
        if (Math.abs(d) <= threshold && (best === null || Math.abs(d) < Math.abs(best))) best = d;
      }
    }
  }
  return best;
}

/** Guides for every other shape whose edge or centre line a (snapped) line of `moved` now lies on. */
function guidesFor(moved: Rect, mine: number[], others: Rect[], axis: 'x' | 'y'): Guide[] {
  const out = new Map<number, Guide>();
  const eps = 1e-6;
  for (const o of others) {
    for (const theirs of lines(o, axis)) {
      if (!mine.some((m) => Math.abs(m - theirs) < eps)) continue;
      const span =
        axis === 'x'
          ? [Math.min(moved.y, o.y), Math.max(moved.y + moved.h, o.y + o.h)]
          : [Math.min(moved.x, o.x), Math.max(moved.x + moved.w, o.x + o.w)];
      const key = Math.round(theirs * 1000) / 1000;
      const g = out.get(key);
      if (g) {
        g.from = Math.min(g.from, span[0]!);
        g.to = Math.max(g.to, span[1]!);
      } else out.set(key, { axis, at: theirs, from: span[0]!, to: span[1]! });
    }
  }
  return [...out.values()];
}

/**
 * Snaps a moving box to the edges and centres of `others`: each axis moves by the smallest offset
 * within `threshold` (board units) that lines up a left/centre/right (top/middle/bottom) of the box
 * with one of theirs, and answers the guides to draw.
 */
export function snapBox(box: Rect, others: Rect[], threshold: number): Snap {
  const dx = bestOffset(lines(box, 'x'), others, 'x', threshold) ?? 0;
  const dy = bestOffset(lines(box, 'y'), others, 'y', threshold) ?? 0;
  const moved = { ...box, x: box.x + dx, y: box.y + dy };
  return {
    dx,
    dy,
    guides: [
      ...guidesFor(moved, lines(moved, 'x'), others, 'x'),
      ...guidesFor(moved, lines(moved, 'y'), others, 'y'),
    ],
  };
}

/** Snaps one point (a corner being dragged while resizing) to the others' edges and centres. */
export function snapPoint(p: Point, others: Rect[], threshold: number): Snap {
  const dx = bestOffset([p.x], others, 'x', threshold) ?? 0;
  const dy = bestOffset([p.y], others, 'y', threshold) ?? 0;
  const q = { x: p.x + dx, y: p.y + dy, w: 0, h: 0 };
  return {
    dx,
    dy,
    guides: [...guidesFor(q, [q.x], others, 'x'), ...guidesFor(q, [q.y], others, 'y')],
  };
}

// ---------------------------------------------------------------------------------------------
// Placing a shape from the keyboard

/** Board units between a shape placed from the keyboard and the shape it stepped away from. */
export const PLACE_GAP = 24;

/** Whether `a` and `b` share some area (touching edges do not count). */
const overlaps = (a: Rect, b: Rect): boolean =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Where a shape the size of `box` goes so that it hides none of `taken`: `box`'s own corner when
 * that is free, else the first free cell of a grid of `box`-sized steps (a `gap` between cells)
 * through `view`: to the right of `box`, then the rows below, from `box`'s column rightwards (as
 * one writes notes), then the rest of the view in reading order. Enter with the note tool put
 * every note mid-view, each one exactly on the one before, hiding it (a user trial); Miro's and
 * tldraw's keyboard-made notes go beside. With no free cell in view, the search goes on outward
 * past the view's edge, row by row below and above it in the view's columns, so the sixth note of
 * a row of Enters no longer lands on the first; a board with no room in fifty rows either way gets
 * the spot right of everything.
 */
export function freeSpot(box: Rect, taken: readonly Rect[], view: Rect, gap = PLACE_GAP): Point {
  const free = (r: Rect) => !taken.some((t) => overlaps(r, t));
  if (free(box)) return { x: box.x, y: box.y };
  const stepX = box.w + gap;
  const stepY = box.h + gap;
  const cellAt = ({ c, r }: Cell): Rect => ({
    x: box.x + c * stepX,
    y: box.y + r * stepY,
    w: box.w,
    h: box.h,
  });
  // The columns and rows of the grid that lie wholly in the view, as steps from `box`.
  const first = (lo: number, at: number, step: number) => Math.ceil((lo - at) / step);
  const last = (lo: number, size: number, at: number, len: number, step: number) =>
    Math.floor((lo + size - len - at) / step);
  const c0 = first(view.x, box.x, stepX);
  const c1 = last(view.x, view.w, box.x, box.w, stepX);
  const r0 = first(view.y, box.y, stepY);
  const r1 = last(view.y, view.h, box.y, box.h, stepY);
  const cells: Cell[] = [];
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) if (c !== 0 || r !== 0) cells.push({ c, r });
  // Below and right of `box` first, in reading order; then the rest, in reading order.
  cells.sort((a, b) => ahead(a) - ahead(b));
  for (const cell of cells) {
    const rect = cellAt(cell);
    if (free(rect)) return { x: rect.x, y: rect.y };
  }
  // Past the view: the rows below it, then above it, the nearest first, each across the view's
  // columns from the middle outwards (right before left); the caller brings the view to it.
  const columns: number[] = [];
  for (let c = Math.min(c0, 0); c <= Math.max(c1, 0); c++) columns.push(c);
  columns.sort((a, b) => Math.abs(a) - Math.abs(b) || b - a);
  for (let d = 1; d <= FREE_SPOT_ROWS; d++)
    for (const r of [Math.max(r1, 0) + d, Math.min(r0, 0) - d])
      for (const c of columns) {
        const rect = cellAt({ c, r });
        if (free(rect)) return { x: rect.x, y: rect.y };
      }
  const right = Math.max(...taken.map((t) => t.x + t.w));
  return { x: right + gap, y: box.y };
}

interface Cell {
  c: number;
  r: number;
}

/** 0 for a cell below and right of the start (or in its row or column), 1 for the rest. */
const ahead = ({ c, r }: Cell): number => (c >= 0 && r >= 0 ? 0 : 1);

/** How many rows past the view, each way, freeSpot tries before it goes right of everything. */
const FREE_SPOT_ROWS = 50;

// ---------------------------------------------------------------------------------------------
// Groups and locks

/** The selection grown to whole groups: selecting one member of a group selects the group. */
export function expandToGroups(records: Iterable<ShapeRecord>, ids: readonly string[]): string[] {
  const list = [...records];
  const byId = new Map(list.map((r) => [r.id, r]));
  const groups = new Set(ids.map((id) => byId.get(id)?.groupId).filter((g): g is string => !!g));
  if (groups.size === 0) return [...ids];
  const out = new Set(ids);
  for (const r of list) if (r.groupId && groups.has(r.groupId)) out.add(r.id);
  return [...out];
}

/**
 * The units that align, distribute and multi-resize treat as one: each group among `ids` is one
 * unit, every other shape its own. Bounds include rotation.
 */
export function unitsOf(records: ShapeRecord[], ids: readonly string[]): { ids: string[]; box: Rect }[] {
  const chosen = new Set(ids);
  const byKey = new Map<string, ShapeRecord[]>();
  for (const r of records) {
    if (!chosen.has(r.id)) continue;
    const key = r.groupId ? `g:${r.groupId}` : `s:${r.id}`;
    const list = byKey.get(key);
    if (list) list.push(r);
    else byKey.set(key, [r]);
  }
  return [...byKey.values()].map((rs) => ({
    ids: rs.map((r) => r.id),
    box: unionRect(rs.map(recordBounds))!,
  }));
}

/** Bounds of a record; an arrow's come from its stored ends. */
export function recordBounds(r: ShapeRecord): Rect {
  if (r.type === 'arrow' && r.from && r.to) return rectOfPoints([r.from, r.to]);
  return boundsOf(r);
}

/** What a person is told when they try to move or delete a locked shape. */
export const LOCKED_SENTENCE =
  'Locked shapes cannot be moved, changed or deleted. Unlock them first (Shift+L).';

/** Puts the shapes in one new group (leaving any group they were in); answers its id. */
export function groupShapes(doc: Y.Doc, ids: readonly string[]): string | null {
  if (ids.length < 2) return null;
  const groupId = newShapeId();
  edit(doc, () => {
    for (const id of ids) shapesOf(doc).get(id)?.set('groupId', groupId);
  });
  return groupId;
}

export function ungroupShapes(doc: Y.Doc, ids: readonly string[]): void {
  edit(doc, () => {
    for (const id of ids) {
      const m = shapesOf(doc).get(id);
      if (m?.has('groupId')) m.delete('groupId');
    }
  });
}

export function setLocked(doc: Y.Doc, ids: readonly string[], locked: boolean): void {
  edit(doc, () => {
    for (const id of ids) {
      const m = shapesOf(doc).get(id);
      if (!m) continue;
      if (locked) m.set('locked', true);
      else if (m.has('locked')) m.delete('locked');
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Align and distribute

export type Alignment = 'left' | 'center' | 'right' | 'top' | 'middle' | 'bottom';

export interface Offset {
  ids: string[];
  dx: number;
  dy: number;
}

/** Offsets that line units up on the edge or centre of their common bounds. */
export function alignUnits(units: { ids: string[]; box: Rect }[], how: Alignment): Offset[] {
  const all = unionRect(units.map((u) => u.box));
  if (!all || units.length < 2) return [];
  return units.map(({ ids, box }) => {
    let dx = 0;
    let dy = 0;
    if (how === 'left') dx = all.x - box.x;
    else if (how === 'center') dx = all.x + all.w / 2 - (box.x + box.w / 2);
    else if (how === 'right') dx = all.x + all.w - (box.x + box.w);
    else if (how === 'top') dy = all.y - box.y;
    else if (how === 'middle') dy = all.y + all.h / 2 - (box.y + box.h / 2);
    else dy = all.y + all.h - (box.y + box.h);
    return { ids, dx, dy };
  });
}

/**
 * Offsets that space units evenly along an axis: the first and last (by position) stay, the
 * gaps between neighbours become equal. Needs three units or more.
 */
export function distributeUnits(units: { ids: string[]; box: Rect }[], axis: 'x' | 'y'): Offset[] {
  if (units.length < 3) return [];
  const pos = (r: Rect) => (axis === 'x' ? r.x : r.y);
  const size = (r: Rect) => (axis === 'x' ? r.w : r.h);
  const sorted = [...units].sort((a, b) => pos(a.box) - pos(b.box) || size(a.box) - size(b.box));
  const first = sorted[0]!.box;
  const last = sorted.at(-1)!.box;
  const span = pos(last) + size(last) - pos(first);
  const total = sorted.reduce((n, u) => n + size(u.box), 0);
  const gap = (span - total) / (sorted.length - 1);
  let at = pos(first);
  return sorted.map(({ ids, box }) => {
    const d = at - pos(box);
    at += size(box) + gap;
    return axis === 'x' ? { ids, dx: d, dy: 0 } : { ids, dx: 0, dy: d };
  });
}

// ---------------------------------------------------------------------------------------------
// Resizing and rotating several shapes at once

/** New values for some fields of a shape. */
export type Patch = { id: string } & Partial<
  Pick<ShapeRecord, 'x' | 'y' | 'w' | 'h' | 'rotation' | 'points' | 'from' | 'to'>
>;

const mapPoint = (p: Point, from: Rect, to: Rect): Point => ({
  x: to.x + (from.w === 0 ? 0 : ((p.x - from.x) * to.w) / from.w),
  y: to.y + (from.h === 0 ? 0 : ((p.y - from.y) * to.h) / from.h),
});

const mapEnd = (e: ArrowEnd, from: Rect, to: Rect): ArrowEnd => ({ ...e, ...mapPoint(e, from, to) });

/**
 * Scales shapes as one picture from the box `from` to the box `to`: every shape's box (and a
 * freehand stroke's points, an arrow's free ends) maps proportionally. A rotated shape keeps its
 * rotation; its centre moves with the picture and its size scales. Patches are absolute, computed
 * from the records as they were when the gesture began, so repeated calls never drift.
 */
export function scaleRecords(originals: ShapeRecord[], from: Rect, to: Rect): Patch[] {
  const sx = from.w === 0 ? 1 : to.w / from.w;
  const sy = from.h === 0 ? 1 : to.h / from.h;
  return originals.map((r) => {
    if (r.type === 'arrow') {
      return {
        id: r.id,
        ...(r.from ? { from: mapEnd(r.from, from, to) } : {}),
        ...(r.to ? { to: mapEnd(r.to, from, to) } : {}),
      };
    }
    const c = mapPoint(center(r), from, to);
    const w = Math.max(1, r.w * sx);
    const h = Math.max(1, r.h * sy);
    const patch: Patch = { id: r.id, x: c.x - w / 2, y: c.y - h / 2, w, h };
    if (r.type === 'freehand' && r.points) {
      const kx = w / (r.w || 1);
      const ky = h / (r.h || 1);
      patch.points = r.points.map((v, i) => (i % 2 === 0 ? v * kx : v * ky));
    }
    return patch;
  });
}

const turn = (p: Point, c: Point, angle: number): Point => {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return { x: c.x + (p.x - c.x) * cos - (p.y - c.y) * sin, y: c.y + (p.x - c.x) * sin + (p.y - c.y) * cos };
};

/**
 * Whether shapes may be turned: not when a frame is among them. A frame does not rotate (as in Miro
 * and Excalidraw: it is a region of the board, its shapes are clipped to its box), and turning the
 * rest of a selection about it would carry them out of it.
 */
export const turnable = (recs: readonly ShapeRecord[]): boolean => !recs.some((r) => r.type === 'frame');

/** Rotates shapes as one picture by `angle` (radians) around `pivot`; absolute, from the originals. */
export function rotateRecords(originals: ShapeRecord[], pivot: Point, angle: number): Patch[] {
  return originals.map((r) => {
    if (r.type === 'arrow') {
      return {
        id: r.id,
        ...(r.from ? { from: { ...r.from, ...turn(r.from, pivot, angle) } } : {}),
        ...(r.to ? { to: { ...r.to, ...turn(r.to, pivot, angle) } } : {}),
      };
    }
    const c = turn(center(r), pivot, angle);
    return { id: r.id, x: c.x - r.w / 2, y: c.y - r.h / 2, rotation: normalise(r.rotation + angle) };
  });
}

const normalise = (a: number): number => {
  const full = Math.PI * 2;
  const v = a % full;
  return v < 0 ? v + full : v;
};

/**
 * Where on the board the `handle` corner of `box` is, the box turned by `rotation` about its
 * centre: the point a corner handle stands for.
 */
export function boxCorner(box: Rect, handle: 'nw' | 'ne' | 'sw' | 'se', rotation = 0): Point {
  const corner = {
    x: handle.includes('w') ? box.x : box.x + box.w,
    y: handle.includes('n') ? box.y : box.y + box.h,
  };
  return rotation === 0 ? corner : turn(corner, center(box), rotation);
}

/** The box a corner handle drags `box` to, with the opposite corner fixed; `keepAspect` keeps proportions. */
export function dragCorner(
  box: Rect,
  handle: 'nw' | 'ne' | 'sw' | 'se',
  p: Point,
  keepAspect: boolean,
): Rect {
  const fixed = {
    x: handle.includes('w') ? box.x + box.w : box.x,
    y: handle.includes('n') ? box.y + box.h : box.y,
  };
  let w = Math.abs(p.x - fixed.x);
  let h = Math.abs(p.y - fixed.y);
  if (keepAspect && box.w > 0 && box.h > 0) {
    const k = Math.max(w / box.w, h / box.h);
    w = box.w * k;
    h = box.h * k;
  }
  const right = handle.includes('w') ? p.x <= fixed.x : p.x >= fixed.x;
  const down = handle.includes('n') ? p.y <= fixed.y : p.y >= fixed.y;
  // Direction away from the fixed corner (flipping past it is allowed, as in most editors).
  const dirX = handle.includes('w') ? (right ? -1 : 1) : right ? 1 : -1;
  const dirY = handle.includes('n') ? (down ? -1 : 1) : down ? 1 : -1;
  return {
    x: dirX > 0 ? fixed.x : fixed.x - w,
    y: dirY > 0 ? fixed.y : fixed.y - h,
    w: Math.max(1, w),
    h: Math.max(1, h),
  };
}

/**
 * Resizing a rotated shape by a corner: the pointer is read in the shape's own (unrotated) frame,
 * and the box is placed so that the opposite corner stays where it is on the board.
 */
export function dragRotatedCorner(
  box: Rect,
  rotation: number,
  handle: 'nw' | 'ne' | 'sw' | 'se',
  p: Point,
  keepAspect: boolean,
): Rect {
  const c0 = center(box);
  const r = dragCorner(box, handle, turn(p, c0, -rotation), keepAspect);
  const c = turn(center(r), c0, rotation);
  return { x: c.x - r.w / 2, y: c.y - r.h / 2, w: r.w, h: r.h };
}

/** Applies patches as one transaction; arrows bound to the changed shapes follow. */
export function applyPatches(doc: Y.Doc, patches: Patch[]): void {
  if (patches.length === 0) return;
  edit(doc, () => {
    const shapes = shapesOf(doc);
    const touched = new Set<string>();
    for (const { id, ...fields } of patches) {
      const m = shapes.get(id);
      if (!m || isLocked(m)) continue;
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) m.set(k, v);
      if (m.get('type') === 'arrow' && (fields.from || fields.to)) {
        const r = readShape(id, m);
        if (r?.from && r.to) {
          const box = rectOfPoints([r.from, r.to]);
          m.set('x', box.x);
          m.set('y', box.y);
          m.set('w', box.w);
          m.set('h', box.h);
        }
      }
      touched.add(id);
    }
    followBoundArrows(doc, touched);
  });
}

/** Moves units by their offsets (align, distribute) as one transaction. */
export function offsetPatches(records: Map<string, ShapeRecord>, offsets: Offset[]): Patch[] {
  const out: Patch[] = [];
  for (const { ids, dx, dy } of offsets) {
    if (dx === 0 && dy === 0) continue;
    for (const id of ids) {
      const r = records.get(id);
      if (!r) continue;
      if (r.type === 'arrow') {
        const shift = (e: ArrowEnd | undefined) => (e ? { ...e, x: e.x + dx, y: e.y + dy } : undefined);
        const from = shift(r.from);
        const to = shift(r.to);
        out.push({ id, ...(from ? { from } : {}), ...(to ? { to } : {}) });
      } else out.push({ id, x: r.x + dx, y: r.y + dy });
    }
  }
  return out;
}
