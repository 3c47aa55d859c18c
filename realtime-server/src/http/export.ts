// The document export (docs/api.md §7): a board's content as JSON, read from its open room when this
// instance has one, else from the Store. Decoding a big board, building its records and
// serializing them takes hundreds of milliseconds: that runs in the history worker
// (HistoryCompute.exportJson), so an export stalls no live board. Only encoding an open room's
// state (a few milliseconds for thousands of shapes) stays on the main thread. The board's comment
// threads (§18) are added to the worker's text, which is not parsed again for them.
import type { ThreadWithComments } from '@tandem/shared';
import * as Y from 'yjs';
import { threadsWithComments } from '../comments/json.ts';
import { partsOf } from '../store/store.ts';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { signedIn } from './request.ts';

export const exportRoutes: ResourcePlugin = async (app, { store, rooms, history }) => {
  app.get<{ Params: { id: string } }>('/api/boards/:id/export.json', async (request, reply) => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'viewer');
    const open = rooms.get(board.id);
    let parts: Uint8Array[];
    if (open) parts = [Y.encodeStateAsUpdate(open.doc)];
    else {
      const stored = await store.loadDoc(board.id);
      parts = partsOf(stored);
    }
    const [{ json, invalid }, threads] = await Promise.all([
      history.versions.compute.exportJson(parts),
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
    return withThreads(json, threadsWithComments(threads, comments));
  });
};

/** An export's JSON text (one object) with `threads` added as its last member. */
export function withThreads(json: string, threads: ThreadWithComments[]): string {
  const end = json.lastIndexOf('}');
  if (end < 0) throw new Error('an export is a JSON object');
  return `${json.slice(0, end)},"threads":${JSON.stringify(threads)}}`;
}
