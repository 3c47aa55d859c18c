// A board's Y.Doc as plain JSON (docs/api.md §10), for export.json on the server and export/import in
// the client. Records that do not match the schema are left out and reported, never a crash.
import type * as Y from 'yjs';
import { hasPageList, readPages } from './pages.ts';
import { type BoardExport, META_KEY, type PageExport, SHAPES_KEY, ShapeRecord } from './shapes.ts';

export interface ExportResult {
  board: BoardExport;
  /** Ids of shape records that failed the schema (left out, or kept as they are with keepInvalid). */
  invalid: string[];
}

export interface ExportOptions {
  /**
   * Keep records that fail the schema, as they are, instead of leaving them out: the server's
   * export.json is the board's content, and must not silently lose a shape (a note with more
   * text than the schema's limit is still someone's note). Importers check each record.
   */
  keepInvalid?: boolean;
}

function plain(value: unknown): unknown {
  if (value && typeof value === 'object' && 'toJSON' in value && typeof value.toJSON === 'function') {
    return value.toJSON();
  }
  return value;
}

export function exportBoard(doc: Y.Doc, options: ExportOptions = {}): ExportResult {
  const shapes: ShapeRecord[] = [];
  const invalid: string[] = [];
  doc.getMap(SHAPES_KEY).forEach((value, id) => {
    const record: Record<string, unknown> = { id };
    if (value && typeof value === 'object' && 'forEach' in value && typeof value.forEach === 'function') {
      (value as Y.Map<unknown>).forEach((field, key) => {
        record[key] = plain(field);
      });
    }
    const parsed = ShapeRecord.safeParse(record);
    if (parsed.success) shapes.push(parsed.data);
    else {
      invalid.push(id);
      if (options.keepInvalid) shapes.push(record as ShapeRecord);
    }
  });
  shapes.sort((a, b) => (a.z < b.z ? -1 : a.z > b.z ? 1 : 0));
  const meta = doc.getMap(META_KEY).toJSON() as Record<string, unknown>;
  // The page list (a top-level map in the document, pages.ts) is exported as `meta.pages`, in order.
  if (hasPageList(doc)) meta.pages = readPages(doc);
  return { board: { version: 1, shapes, meta }, invalid };
}

/**
 * A board's export with every page (docs/api.md §17): the first page's export, with `pages` (each
 * page's id, name and shapes, in order, the first included) when the board has more than one.
 * The server's export.json and the client's "Board as JSON" both have this shape (`BoardExport`).
 */
export function withPageList(first: BoardExport, pages: PageExport[]): BoardExport {
  return pages.length > 1 ? { ...first, pages } : first;
}
