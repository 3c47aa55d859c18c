// The board operations of the content API and the MCP tools (docs/api.md §15), as pure functions
// over a board's Y.Doc: `plan…` checks a whole write against the board as it is (every shape, the
// frame scope) without touching it, and `apply…` makes it. The caller runs both inside one
// Room.change, so a write is one change, all or nothing.
import {
  buildShapeMap,
  exportBoard,
  newShapeBox,
  newShapeId,
  type PageEntry,
  pageLabel,
  readPages,
  SHAPES_KEY,
  type ShapeInput,
  type ShapePatch,
  type ShapeRecord,
  textShapeTypes,
} from '@tandem/shared';
import { frameMembers, inside } from '@tandem/shared/render/frames.ts';
import { center } from '@tandem/shared/render/geometry.ts';
import { generateKeyBetween } from 'fractional-indexing';
import * as Y from 'yjs';

type ShapeMap = Y.Map<unknown>;
const shapesOf = (doc: Y.Doc) => doc.getMap<ShapeMap>(SHAPES_KEY);

/** A write the board refuses: which shapes and why, with the catalogue code the route answers. */
export class ContentError extends Error {
  constructor(
    readonly code: 'VALIDATION' | 'OUT_OF_SCOPE' | 'TOO_MANY',
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ContentError';
  }
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const boxOf = (m: ShapeMap): Box => ({
  x: num(m.get('x')),
  y: num(m.get('y')),
  w: num(m.get('w')),
  h: num(m.get('h')),
});
/** A frame holds the shapes whose centre lies inside it (docs/api.md §10). */
const centreInside = (shape: Box, frame: Box): boolean => inside(frame, center(shape));

/** Whether a frame holds this shape (its centre lies inside the frame's box). */
export const insideFrame = (shape: ShapeMap, frame: ShapeMap): boolean =>
  centreInside(boxOf(shape), boxOf(frame));

/** The frame a scoped key may work in; null when it has no scope. Missing: every write is out of scope. */
function scopeBox(doc: Y.Doc, frameId: string | null): Box | null | 'missing' {
  if (frameId === null) return null;
  const frame = shapesOf(doc).get(frameId);
  if (!(frame instanceof Y.Map) || frame.get('type') !== 'frame') return 'missing';
  return boxOf(frame);
}

function checkScope(
  doc: Y.Doc,
  frameId: string | null,
  boxes: { index: number; box: Box; id?: string }[],
): void {
  const frame = scopeBox(doc, frameId);
  if (frame === null) return;
  const fields: Record<string, string> = {};
  for (const { index, box, id } of boxes) {
    if (frame === 'missing' || id === frameId || !centreInside(box, frame))
      fields[`shapes[${index}]`] = 'Outside the frame this key is limited to.';
  }
  if (Object.keys(fields).length > 0) {
    throw new ContentError(
      'OUT_OF_SCOPE',
      frame === 'missing'
        ? 'The frame this key is limited to is gone, so it can change nothing.'
        : 'This key may only change shapes inside its frame; nothing was changed.',
      fields,
    );
  }
}

/** The highest paint-order key of every shape: a full scan. */
function scanTopKey(doc: Y.Doc): string | null {
  let top: string | null = null;
  for (const m of shapesOf(doc).values()) {
    const z = m instanceof Y.Map ? m.get('z') : undefined;
    if (typeof z === 'string' && (top === null || z > top)) top = z;
  }
  return top;
}

/**
 * The top paint-order key per board doc, kept by an observer instead of a scan per write: the scan
 * was a sixth of the server's CPU in the benchmark of 50 writes a second into a board of
 * thousands of shapes (docs/benchmarks.md). A new shape or a raised z lifts it; a deletion, or a
 * change to the z that was on top, makes the next write scan again.
 */
const tops = new WeakMap<Y.Doc, { top: string | null; valid: boolean }>();

function topKey(doc: Y.Doc): string | null {
  let cache = tops.get(doc);
  if (!cache) {
    const kept = { top: null as string | null, valid: false };
    const shapes = shapesOf(doc);
    const raise = (z: unknown) => {
      if (typeof z === 'string' && (kept.top === null || z > kept.top)) kept.top = z;
    };
    shapes.observeDeep((events) => {
      if (!kept.valid) return;
      for (const event of events) {
        if (event.target === shapes) {
          for (const [key, change] of event.changes.keys) {
            if (change.action !== 'add') {
              kept.valid = false;
              return;
            }
            const m = shapes.get(key);
            raise(m instanceof Y.Map ? m.get('z') : undefined);
          }
        } else if (event.target instanceof Y.Map && event.changes.keys.has('z')) {
          if (event.changes.keys.get('z')?.oldValue === kept.top) {
            kept.valid = false;
            return;
          }
          raise(event.target.get('z'));
        }
      }
    });
    tops.set(doc, kept);
    cache = kept;
  }
  if (!cache.valid) {
    cache.top = scanTopKey(doc);
    cache.valid = true;
  }
  return cache.top;
}

/** Next paint-order key above `below`; a stored key we cannot parse is stepped over. */
function keyAbove(below: string | null): string {
  try {
    return generateKeyBetween(below, null);
  } catch {
    return generateKeyBetween(null, null);
  }
}

/** Checks an add against the board: ids free and unique, every shape inside the key's frame. */
export function planAdd(doc: Y.Doc, shapes: ShapeInput[], frameId: string | null): void {
  const shapesMap = shapesOf(doc);
  const seen = new Set<string>();
  const fields: Record<string, string> = {};
  shapes.forEach((s, index) => {
    // Refused as a patch refuses it, rather than dropped: the caller meant it for something.
    if (s.alt !== undefined && s.type !== 'image')
      fields[`shapes[${index}].alt`] = 'Only an image has alt text.';
    if (s.id === undefined) return;
    if (shapesMap.has(s.id) || seen.has(s.id)) fields[`shapes[${index}].id`] = 'A shape with this id exists.';
    seen.add(s.id);
  });
  if (Object.keys(fields).length > 0)
    throw new ContentError('VALIDATION', 'Some shapes need attention.', fields);
  checkScope(
    doc,
    frameId,
    shapes.map((s, index) => ({ index, box: newShapeBox(s) })),
  );
}

/** An arrow's coordinate a write left out, to be found from the shape an end is bound to. */
export interface Unplaced {
  /** The shape's index in the write. */
  index: number;
  /** An end without x and y (bound to a shape), or the arrow's own x and y (from its start). */
  what: 'from' | 'to' | 'start';
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A write's shapes with the coordinates an attached arrow may leave out held at 0, and which
 * they are: an end bound to a shape (`{shapeId}`) needs no x and y (it sits at that shape's
 * centre, as MCP's connect puts it), and an arrow needs no x and y of its own (it starts at its
 * `from` end). A script had to work out six numbers the board already knows, and got six
 * "expected number" refusals when it did not (a trial). Run before the schema check; the
 * coordinates are found in the write (placeUnplaced), where the board is.
 */
export function holdUnplaced(list: unknown[]): { list: unknown[]; unplaced: Unplaced[] } {
  const unplaced: Unplaced[] = [];
  const out = list.map((item, index) => {
    if (!isObject(item) || item.type !== 'arrow') return item;
    const shape: Record<string, unknown> = { ...item };
    for (const what of ['from', 'to'] as const) {
      const end = shape[what];
      if (isObject(end) && typeof end.shapeId === 'string' && end.x === undefined && end.y === undefined) {
        shape[what] = { ...end, x: 0, y: 0 };
        unplaced.push({ index, what });
      }
    }
    if (shape.x === undefined && shape.y === undefined && isObject(shape.from)) {
      shape.x = 0;
      shape.y = 0;
      unplaced.push({ index, what: 'start' });
    }
    return shape;
  });
  return { list: out, unplaced };
}

/**
 * Fills what holdUnplaced held: a bound end at its shape's centre, the shape on the board or
 * one the same write adds; an arrow's x and y at its `from` end. A bound end whose shape is
 * nowhere is refused, naming the field.
 */
export function placeUnplaced(doc: Y.Doc, shapes: ShapeInput[], unplaced: readonly Unplaced[]): void {
  if (unplaced.length === 0) return;
  const added = new Map(shapes.flatMap((s) => (s.id === undefined ? [] : [[s.id, s] as const])));
  const fields: Record<string, string> = {};
  const centreOf = (id: string) => {
    const own = added.get(id);
    if (own && own.type !== 'arrow') return center(newShapeBox(own));
    return shapesOf(doc).get(id) instanceof Y.Map ? focusOf(doc, [id]) : null;
  };
  for (const { index, what } of unplaced) {
    const shape = shapes[index]!;
    if (what === 'start') {
      if (shape.from) Object.assign(shape, { x: shape.from.x, y: shape.from.y });
      continue;
    }
    const end = shape[what]!;
    const centre = centreOf(end.shapeId!);
    if (centre) shape[what] = { ...end, ...centre };
    else fields[`shapes[${index}].${what}.shapeId`] = 'No such shape on this page.';
  }
  if (Object.keys(fields).length > 0)
    throw new ContentError('VALIDATION', 'Some shapes need attention.', fields);
}

/** Adds the shapes on top of the others; answers them as stored (§10 records). */
export function applyAdd(doc: Y.Doc, shapes: ShapeInput[], createdBy: string): ShapeRecord[] {
  const map = shapesOf(doc);
  let z = topKey(doc);
  const ids: string[] = [];
  for (const s of shapes) {
    const id = s.id ?? newShapeId();
    z = s.z ?? keyAbove(z);
    map.set(id, buildShapeMap(s, createdBy, z));
    ids.push(id);
  }
  return recordsOf(doc, ids);
}

/** A shape a change moves because the frame holding it moves: by the frame's (dx, dy). */
export interface Carried {
  id: string;
  dx: number;
  dy: number;
  /** The index, in the change, of the frame that carries it: a refusal names it. */
  index: number;
}

/**
 * The shapes a change carries along with the frames it moves (docs/api.md §10: moving a frame moves
 * the shapes whose centre lies inside it; resizing it does not). Members are found as the editor
 * finds them (frameMembers: other frames never are, a connector only when both its ends lie
 * inside), on the board as it is before the change. A shape the change places itself stays where
 * it puts it, and a locked one stays, as under the editor's move.
 */
function carriedAlong(doc: Y.Doc, patches: ShapePatch[]): Carried[] {
  const map = shapesOf(doc);
  const moves = patches.flatMap((p, index) => {
    const m = map.get(p.id);
    if (!(m instanceof Y.Map) || m.get('type') !== 'frame') return [];
    const { x, y } = boxOf(m);
    const dx = (p.x ?? x) - x;
    const dy = (p.y ?? y) - y;
    return dx === 0 && dy === 0 ? [] : [{ frameId: p.id, dx, dy, index }];
  });
  if (moves.length === 0) return [];
  const { shapes } = exportBoard(doc, { keepInvalid: true }).board;
  const byId = new Map(shapes.map((s) => [s.id, s]));
  const placed = new Set(patches.map((p) => p.id));
  const carried = new Map<string, Carried>();
  for (const { frameId, dx, dy, index } of moves) {
    const frame = byId.get(frameId);
    if (!frame) continue;
    for (const id of frameMembers(frame, shapes)) {
      if (placed.has(id) || carried.has(id) || byId.get(id)?.locked) continue;
      carried.set(id, { id, dx, dy, index });
    }
  }
  return [...carried.values()];
}

/**
 * Checks a change: every id exists, and each shape, and each shape a moved frame carries along,
 * is inside the key's frame before and after. Answers what the frames carry, for applyPatch.
 */
export function planPatch(doc: Y.Doc, patches: ShapePatch[], frameId: string | null): Carried[] {
  const map = shapesOf(doc);
  const fields: Record<string, string> = {};
  const boxes: { index: number; box: Box; id: string }[] = [];
  patches.forEach((p, index) => {
    const m = map.get(p.id);
    if (!(m instanceof Y.Map)) {
      fields[`shapes[${index}].id`] = 'No such shape.';
      return;
    }
    if (p.points !== undefined && m.get('type') !== 'freehand')
      fields[`shapes[${index}].points`] = 'Only a freehand shape has points.';
    // An arrow's text is its label (made when first given, as the editor's ensureLabel does).
    if (p.text !== undefined && !textShapeTypes.has(m.get('type') as never) && m.get('type') !== 'arrow')
      fields[`shapes[${index}].text`] = 'This shape has no text.';
    if (p.alt !== undefined && m.get('type') !== 'image')
      fields[`shapes[${index}].alt`] = 'Only an image has alt text.';
    const before = boxOf(m);
    boxes.push({ index, box: before, id: p.id });
    boxes.push({
      index,
      box: { x: p.x ?? before.x, y: p.y ?? before.y, w: p.w ?? before.w, h: p.h ?? before.h },
      id: p.id,
    });
  });
  if (Object.keys(fields).length > 0)
    throw new ContentError('VALIDATION', 'Some shapes need attention.', fields);
  const carried = carriedAlong(doc, patches);
  // A carried shape is named by the index of the frame that carries it.
  for (const { id, dx, dy, index } of carried) {
    const before = boxOf(map.get(id) as ShapeMap);
    boxes.push({ index, box: before, id });
    boxes.push({ index, box: { ...before, x: before.x + dx, y: before.y + dy }, id });
  }
  checkScope(doc, frameId, boxes);
  return carried;
}

/**
 * Sets the given fields (a text field replaces the text), and moves what the moved frames carry
 * (`carried`, from planPatch): a connector's ends move with it.
 */
export function applyPatch(
  doc: Y.Doc,
  patches: ShapePatch[],
  carried: readonly Carried[] = [],
): ShapeRecord[] {
  const map = shapesOf(doc);
  for (const p of patches) {
    const m = map.get(p.id) as ShapeMap;
    for (const [key, value] of Object.entries(p)) {
      if (key === 'id' || value === undefined) continue;
      if (key === 'text' || key === 'name') {
        const text = m.get(key);
        if (text instanceof Y.Text) {
          text.delete(0, text.length);
          text.insert(0, value as string);
        } else m.set(key, new Y.Text(value as string));
        continue;
      }
      m.set(key, value);
    }
  }
  for (const { id, dx, dy } of carried) {
    const m = map.get(id) as ShapeMap;
    const { x, y } = boxOf(m);
    m.set('x', x + dx);
    m.set('y', y + dy);
    // Both ends of a carried connector lie in the frame (frameMembers), and whatever they are bound
    // to moves by the same distance, so its ends move with it.
    for (const end of ['from', 'to'] as const) {
      const e = m.get(end) as { x: number; y: number } | undefined;
      if (e && typeof e.x === 'number' && typeof e.y === 'number')
        m.set(end, { ...e, x: e.x + dx, y: e.y + dy });
    }
  }
  return recordsOf(doc, [...patches.map((p) => p.id), ...carried.map((c) => c.id)]);
}

/**
 * Checks a deletion: every id must name a shape on the board (an unknown one is 422 naming it,
 * `ids[3]`, as a change names `shapes[3].id`, and nothing is deleted), and each must be inside the
 * key's frame.
 */
export function planDelete(doc: Y.Doc, ids: string[], frameId: string | null): void {
  const map = shapesOf(doc);
  const fields: Record<string, string> = {};
  const boxes: { index: number; box: Box; id: string }[] = [];
  ids.forEach((id, index) => {
    const m = map.get(id);
    if (m instanceof Y.Map) boxes.push({ index, box: boxOf(m), id });
    else fields[`ids[${index}]`] = 'No such shape.';
  });
  if (Object.keys(fields).length > 0)
    throw new ContentError('VALIDATION', 'Some shapes need attention.', fields);
  checkScope(doc, frameId, boxes);
}

export function applyDelete(doc: Y.Doc, ids: string[]): number {
  const map = shapesOf(doc);
  let deleted = 0;
  for (const id of ids) {
    if (!map.has(id)) continue;
    map.delete(id);
    deleted += 1;
  }
  return deleted;
}

/** The bounding box of these shapes (those that exist); null when none does. */
export function extentOf(
  doc: Y.Doc,
  ids: Iterable<string>,
): { x: number; y: number; w: number; h: number } | null {
  const map = shapesOf(doc);
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const id of ids) {
    const m = map.get(id);
    if (!(m instanceof Y.Map)) continue;
    const b = boxOf(m);
    minX = Math.min(minX, b.x);
    minY = Math.min(minY, b.y);
    maxX = Math.max(maxX, b.x + b.w);
    maxY = Math.max(maxY, b.y + b.h);
  }
  return Number.isFinite(minX) ? { x: minX, y: minY, w: maxX - minX, h: maxY - minY } : null;
}

/**
 * Where a writer last worked: the centre of these shapes' bounding box (those that exist), for
 * its cursor; null when none does.
 */
export function focusOf(doc: Y.Doc, ids: string[]): { x: number; y: number } | null {
  const box = extentOf(doc, ids);
  return box && { x: box.x + box.w / 2, y: box.y + box.h / 2 };
}

/** The records of these shapes as they are now (§10 JSON). */
export function recordsOf(doc: Y.Doc, ids: string[]): ShapeRecord[] {
  const map = shapesOf(doc);
  return ids.map((id) => {
    const record: Record<string, unknown> = { id };
    (map.get(id) as ShapeMap).forEach((value, key) => {
      record[key] = value instanceof Y.AbstractType ? value.toJSON() : value;
    });
    return record as ShapeRecord;
  });
}

/** The board's pages in order, each under the name it shows (a first page never named is "Page 1"). */
export const pagesOf = (firstDoc: Y.Doc): PageEntry[] =>
  readPages(firstDoc).map((page) => ({ id: page.id, name: pageLabel(page) }));

/** The board as the content API answers it: every shape (§10 JSON, paint order) and its frames. */
export function readContent(doc: Y.Doc): {
  shapes: ShapeRecord[];
  frames: { id: string; name: string; x: number; y: number; w: number; h: number }[];
} {
  const { shapes } = exportBoard(doc, { keepInvalid: true }).board;
  const frames = shapes
    .filter((s) => s.type === 'frame')
    .map((f) => ({ id: f.id, name: f.name ?? '', x: f.x, y: f.y, w: f.w, h: f.h }));
  return { shapes, frames };
}
