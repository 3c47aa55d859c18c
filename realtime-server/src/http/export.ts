// The document export (docs/api.md §7): a board's content as JSON, read from its open room when this
// instance has one, else from the Store. Decoding a big board, building its records and
// serializing them takes hundreds of milliseconds: that runs in the history worker
// (HistoryCompute.exportJson), so an export stalls no live board. Only encoding an open room's
// state (a few milliseconds for thousands of shapes) stays on the main thread. The board's comment
// threads (§18) are added to the worker's text, which is not parsed again for them.
import { docKey, MAIN_PAGE_ID, type PageEntry, type ThreadWithComments } from '@tandem/shared';
import * as Y from 'yjs';
import { threadsWithComments } from '../comments/json.ts';
import { partsOf } from '../store/store.ts';
import { requireRole } from './access.ts';
import type { HttpDeps, ResourcePlugin } from './deps.ts';
import { signedIn } from './request.ts';

export const exportRoutes: ResourcePlugin = async (app, { store, rooms, history }) => {
  app.get<{ Params: { id: string } }>('/api/boards/:id/export.json', async (request, reply) => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'viewer');
    const [{ json, invalid, pages }, threads] = await Promise.all([
      readBoardPages({ store, rooms, history }, board.id),
      store.comments.listThreads(board.id),
    ]);
    const comments = await store.comments.commentsOf(threads.map((t) => t.id));
    if (invalid.length > 0)
      request.log.warn(
        { boardId: board.id, invalid },
        'shape records failed the schema (exported as they are)',
      );
    const filename = board.title.replace(/[^\w -]+/g, '').trim() || 'board';
    reply.header('Content-Disposition', `attachment; filename="${filename}.json"`);
    reply.type('application/json; charset=utf-8');
    const withPages =
      pages.length > 0
        ? withMember(json, 'pages', `[${pages.map((p) => JSON.stringify(p)).join(',')}]`)
        : json;
    return withThreads(withPages, threadsWithComments(threads, comments));
  });
};

interface ExportedPage {
  shapes: unknown[];
}

/** One page of a board as its export carries it (`BoardExport.pages`), shapes as stored. */
export interface PageShapes {
  id: string;
  name: string;
  shapes: unknown[];
}

export interface BoardPages {
  /** The first page's export.json text: its shapes and meta (with `meta.pages` when it lists pages). */
  json: string;
  /** Ids of records that failed the schema (kept as they are), on every page read. */
  invalid: string[];
  /** Every page in order with its shapes, the first included, when the board has more than one; else none. */
  pages: PageShapes[];
}

/**
 * Every page of a board (docs/api.md §17) as the export reads it: each page's document from its
 * open room on this instance (edits not yet stored included), else from the Store, decoded in the
 * history worker. The export and the board search (http/search.ts) both read pages this way.
 */
export async function readBoardPages(
  { store, rooms, history }: Pick<HttpDeps, 'store' | 'rooms' | 'history'>,
  boardId: string,
): Promise<BoardPages> {
  const pageParts = async (key: string): Promise<Uint8Array[]> => {
    const open = rooms.get(key);
    return open ? [Y.encodeStateAsUpdate(open.doc)] : partsOf(await store.loadDocAsStored(key));
  };
  const { json, invalid } = await history.versions.compute.exportJson(await pageParts(boardId));
  // A board without a page list is not parsed for one.
  const first = json.includes('"pages"') ? (JSON.parse(json) as ExportedPage & { meta?: unknown }) : null;
  const listed = first ? listedPages(first.meta) : [];
  const pages: PageShapes[] = [];
  if (first && listed.some((page) => page.id !== MAIN_PAGE_ID)) {
    for (const page of listed) {
      let shapes = first.shapes;
      if (page.id !== MAIN_PAGE_ID) {
        const exported = await history.versions.compute.exportJson(await pageParts(docKey(boardId, page.id)));
        invalid.push(...exported.invalid);
        shapes = (JSON.parse(exported.json) as ExportedPage).shapes;
      }
      pages.push({ id: page.id, name: page.name, shapes });
    }
  }
  return { json, invalid, pages };
}

/** The page list an export's `meta` carries (`meta.pages`, docs/api.md §17). */
export function listedPages(meta: unknown): PageEntry[] {
  const pages = (meta as { pages?: unknown } | undefined)?.pages;
  if (!Array.isArray(pages)) return [];
  return pages.flatMap((p: unknown) => {
    const { id, name } = (p ?? {}) as { id?: unknown; name?: unknown };
    return typeof id === 'string' ? [{ id, name: typeof name === 'string' ? name : '' }] : [];
  });
}

/** An export's JSON text (one object) with one more member, `raw` being its JSON text. */
function withMember(json: string, name: string, raw: string): string {
  const end = json.lastIndexOf('}');
  if (end < 0) throw new Error('an export is a JSON object');
  return `${json.slice(0, end)},${JSON.stringify(name)}:${raw}}`;
}

/** An export's JSON text (one object) with `threads` added as its last member. */
export function withThreads(json: string, threads: ThreadWithComments[]): string {
  return withMember(json, 'threads', JSON.stringify(threads));
}
