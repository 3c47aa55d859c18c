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
import type { ResourcePlugin } from './deps.ts';
import { signedIn } from './request.ts';

export const exportRoutes: ResourcePlugin = async (app, { store, rooms, history }) => {
  app.get<{ Params: { id: string } }>('/api/boards/:id/export.json', async (request, reply) => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'viewer');
    // Each page's document (docs/api.md §17) from its open room here, else from the Store.
    const pageParts = async (key: string): Promise<Uint8Array[]> => {
      const open = rooms.get(key);
      return open ? [Y.encodeStateAsUpdate(open.doc)] : partsOf(await store.loadDocAsStored(key));
    };
    const [{ json, invalid }, threads] = await Promise.all([
      history.versions.compute.exportJson(await pageParts(board.id)),
      store.comments.listThreads(board.id),
    ]);
    // The first page is the export's own `shapes` (as before pages); with more than one page,
    // `pages` lists every page with its shapes, the first included. A board without a page list
    // is not parsed for one.
    const first = json.includes('"pages"') ? (JSON.parse(json) as ExportedPage & { meta?: unknown }) : null;
    const listed = first ? listedPages(first.meta) : [];
    const pages: string[] = [];
    if (first && listed.some((page) => page.id !== MAIN_PAGE_ID)) {
      for (const page of listed) {
        let shapes = first.shapes;
        if (page.id !== MAIN_PAGE_ID) {
          const exported = await history.versions.compute.exportJson(
            await pageParts(docKey(board.id, page.id)),
          );
          invalid.push(...exported.invalid);
          shapes = (JSON.parse(exported.json) as ExportedPage).shapes;
        }
        pages.push(JSON.stringify({ id: page.id, name: page.name, shapes }));
      }
    }
    const comments = await store.comments.commentsOf(threads.map((t) => t.id));
    if (invalid.length > 0)
      request.log.warn(
        { boardId: board.id, invalid },
        'shape records failed the schema (exported as they are)',
      );
    const filename = board.title.replace(/[^\w -]+/g, '').trim() || 'board';
    reply.header('Content-Disposition', `attachment; filename="${filename}.json"`);
    reply.type('application/json; charset=utf-8');
    const withPages = pages.length > 0 ? withMember(json, 'pages', `[${pages.join(',')}]`) : json;
    return withThreads(withPages, threadsWithComments(threads, comments));
  });
};

interface ExportedPage {
  shapes: unknown[];
}

/** The page list an export's `meta` carries (`meta.pages`, docs/api.md §17). */
function listedPages(meta: unknown): PageEntry[] {
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
