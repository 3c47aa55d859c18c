// Copy/paste, duplicate, import and export. All of them go through plain ShapeRecords checked
// with the shared schema, so a paste from another board (or another Tandem) and an import are
// the same code path, and a malformed record is skipped instead of breaking the board.
import {
  BoardExport,
  MAX_PAGE_NAME,
  MAX_PAGES,
  newShapeId,
  ShapeRecord,
  exportBoard as sharedExport,
} from '@tandem/shared';
import type * as Y from 'yjs';
import { edit, shapesOf } from './doc.ts';
import { boundsOf, type Point, unionRect } from './geometry.ts';
import { keyBetween, topKey, zOrder } from './order.ts';
import { byZ, readShape } from './read.ts';
import { buildShapeMap, extraKeys, type ShapeExtras } from './shapes.ts';

/** Marks our clipboard text so an unrelated paste is not mistaken for shapes. */
export const CLIPBOARD_KIND = 'tandem/shapes';

export function recordsOf(doc: Y.Doc, ids: Iterable<string>): ShapeRecord[] {
  const shapes = shapesOf(doc);
  const out: ShapeRecord[] = [];
  for (const id of new Set(ids)) {
    const r = readShape(id, shapes.get(id));
    if (r) out.push(r);
  }
  return out.sort(byZ);
}

export function serializeShapes(doc: Y.Doc, ids: Iterable<string>): string {
  return JSON.stringify({ kind: CLIPBOARD_KIND, version: 1, shapes: recordsOf(doc, ids) });
}

/** A page of an imported board (docs/api.md §17): its name and the records that passed the schema. */
export interface ImportedPage {
  name: string;
  shapes: ShapeRecord[];
}

/** The records of `list` that pass the schema, and how many did not. */
export function validRecords(list: unknown[]): { shapes: ShapeRecord[]; skipped: number } {
  const shapes: ShapeRecord[] = [];
  let skipped = 0;
  for (const raw of list) {
    const one = ShapeRecord.safeParse(raw);
    if (one.success) shapes.push(one.data);
    else skipped++;
  }
  return { shapes, skipped };
}

/**
 * Parses clipboard or import text; answers the valid records and how many were skipped, or null if
 * it is not ours. An export of several pages (`pages`, docs/api.md §17) also answers each page;
 * `shapes` is then the first page's.
 */
export function parseShapes(input: unknown): {
  shapes: ShapeRecord[];
  skipped: number;
  meta?: Record<string, unknown>;
  pages?: ImportedPage[];
} | null {
  let data = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch {
      return null;
    }
  }
  if (!data || typeof data !== 'object') return null;
  const o = data as { version?: unknown; shapes?: unknown; meta?: unknown; pages?: unknown };
  if (o.version !== 1 || !Array.isArray(o.shapes)) return null;
  const metaParsed = BoardExport.shape.meta.safeParse(o.meta);
  const meta = metaParsed.success && metaParsed.data ? { meta: metaParsed.data } : {};
  const listed = Array.isArray(o.pages) ? o.pages.slice(0, MAX_PAGES) : [];
  if (listed.length > 1) {
    let skipped = 0;
    const pages = listed.map((raw: unknown) => {
      const { name, shapes } = (raw ?? {}) as { name?: unknown; shapes?: unknown };
      const valid = validRecords(Array.isArray(shapes) ? shapes : []);
      skipped += valid.skipped;
      return { name: typeof name === 'string' ? name.slice(0, MAX_PAGE_NAME) : '', shapes: valid.shapes };
    });
    return { shapes: pages[0]!.shapes, skipped, ...meta, pages };
  }
  return { ...validRecords(o.shapes), ...meta };
}

/**
 * Inserts copies of `records` with fresh ids above everything, moved by `offset`. Arrow ends
 * bound to a shape that is part of the paste are re-bound to its copy; others become free.
 */
export function insertRecords(
  doc: Y.Doc,
  records: ShapeRecord[],
  createdBy: string,
  offset: Point = { x: 0, y: 0 },
): string[] {
  const plan = planInsert(doc, records, offset);
  return edit(doc, () => plan.insert(plan.sorted, createdBy));
}

/**
 * Prepares inserting copies of `records`: fresh ids for all of them up front, so arrows bound
 * inside the set are re-bound even when the records go in over several transactions.
 */
function planInsert(doc: Y.Doc, records: ShapeRecord[], offset: Point) {
  const sorted = [...records].sort(byZ);
  const idMap = new Map(sorted.map((r) => [r.id, newShapeId()]));
  let z = topKey(doc);
  // Copied frames go beneath everything, as a frame drawn does (facilitation/frames.ts): on top,
  // a copy covered whatever it landed on, the original frame's notes among them. The rest go on
  // top, each above the one before.
  const frameZ = new Map<string, string>();
  let bottom = zOrder(doc)[0]?.z ?? null;
  for (const r of [...sorted].reverse()) {
    if (r.type !== 'frame') continue;
    bottom = keyBetween(null, bottom);
    frameZ.set(r.id, bottom);
  }
  const remap = (e: ShapeRecord['from']) => {
    if (!e) return undefined;
    const bound = e.shapeId ? idMap.get(e.shapeId) : undefined;
    return bound
      ? { shapeId: bound, x: e.x + offset.x, y: e.y + offset.y }
      : { x: e.x + offset.x, y: e.y + offset.y };
  };
  const insert = (part: ShapeRecord[], createdBy: string): string[] => {
    const out: string[] = [];
    for (const r of part) {
      const id = idMap.get(r.id)!;
      const from = remap(r.from);
      const to = remap(r.to);
      const m = buildShapeMap(
        {
          ...styleOf(r),
          type: r.type,
          x: r.x + offset.x,
          y: r.y + offset.y,
          w: r.w,
          h: r.h,
          rotation: r.rotation,
          color: r.color,
          ...(r.text !== undefined ? { text: r.text } : {}),
          ...(r.points ? { points: r.points } : {}),
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
          ...(r.groupId ? { groupId: groupIds(r.groupId) } : {}),
          ...(r.assetId !== undefined ? { assetId: r.assetId } : {}),
          ...(r.alt !== undefined ? { alt: r.alt } : {}),
          ...(r.name !== undefined ? { name: r.name } : {}),
        },
        createdBy,
        frameZ.get(r.id) ?? z,
      );
      shapesOf(doc).set(id, m);
      out.push(id);
      if (!frameZ.has(r.id)) z = keyBetween(z, null);
    }
    return out;
  };
  // Groups are copied as new groups: a pasted copy must not join the original's group.
  const groups = new Map<string, string>();
  const groupIds = (g: string) => {
    const known = groups.get(g);
    if (known) return known;
    const fresh = newShapeId();
    groups.set(g, fresh);
    return fresh;
  };
  return { sorted, insert };
}

/** The optional style fields of a record (its group is remapped separately). */
function styleOf(r: ShapeRecord): ShapeExtras {
  const out: Record<string, unknown> = {};
  for (const k of extraKeys) if (k !== 'groupId' && r[k] !== undefined) out[k] = r[k];
  return out as ShapeExtras;
}

/** How many shapes go in one transaction of a large import: small enough to send in one piece. */
export const IMPORT_PIECE = 500;

/**
 * Inserts `records` in pieces of `IMPORT_PIECE`, one transaction each, waiting on `pause` between
 * them so the page stays responsive, each piece is sent on its own, and progress can be shown.
 * Answers the new ids.
 */
export async function insertRecordsInPieces(
  doc: Y.Doc,
  records: ShapeRecord[],
  createdBy: string,
  opts: { offset?: Point; onProgress?(done: number, total: number): void; pause?(): Promise<void> } = {},
): Promise<string[]> {
  const plan = planInsert(doc, records, opts.offset ?? { x: 0, y: 0 });
  const out: string[] = [];
  const total = plan.sorted.length;
  for (let i = 0; i < total; i += IMPORT_PIECE) {
    out.push(...edit(doc, () => plan.insert(plan.sorted.slice(i, i + IMPORT_PIECE), createdBy)));
    opts.onProgress?.(Math.min(total, i + IMPORT_PIECE), total);
    if (i + IMPORT_PIECE < total) await (opts.pause ?? (() => new Promise((r) => setTimeout(r, 0))))();
  }
  return out;
}

/** Pastes clipboard text; `at` centres the pasted group there, else it lands offset by 24 units. */
export function pasteShapes(doc: Y.Doc, text: string, createdBy: string, at?: Point): string[] {
  const parsed = parseShapes(text);
  if (!parsed || parsed.shapes.length === 0) return [];
  let offset = { x: 24, y: 24 };
  if (at) {
    const box = unionRect(parsed.shapes.map(boundsOf))!;
    offset = { x: at.x - (box.x + box.w / 2), y: at.y - (box.y + box.h / 2) };
  }
  return insertRecords(doc, parsed.shapes, createdBy, offset);
}

/**
 * Copies of the shapes, `offset` from them (Ctrl+D's copies step aside; an Alt-drag's start in
 * place). Answers the copies' ids in the order of `recordsOf(doc, ids)`, the originals' z order.
 */
export function duplicateShapes(
  doc: Y.Doc,
  ids: Iterable<string>,
  createdBy: string,
  offset: { x: number; y: number } = { x: 24, y: 24 },
): string[] {
  return insertRecords(doc, recordsOf(doc, ids), createdBy, offset);
}

/** The board as the shared export JSON (the same code the server's export.json runs). */
export function exportBoard(doc: Y.Doc): BoardExport {
  return sharedExport(doc).board;
}

/** Imports a board's JSON next to the existing content; answers counts so the UI can say what happened. */
export function importBoard(
  doc: Y.Doc,
  data: unknown,
  createdBy: string,
): { imported: number; skipped: number } | null {
  const parsed = parseShapes(data);
  if (!parsed) return null;
  const ids = insertRecords(doc, parsed.shapes, createdBy);
  return { imported: ids.length, skipped: parsed.skipped };
}
