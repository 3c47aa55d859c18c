// The document export (SPEC §7): a board's content as JSON, read from its open room when this
// instance has one, else from the Store.
import { exportBoard } from '@tandem/shared';
import * as Y from 'yjs';
import { partsOf } from '../store/store.ts';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { signedIn } from './request.ts';

export const exportRoutes: ResourcePlugin = async (app, { store, rooms }) => {
  app.get<{ Params: { id: string } }>('/api/boards/:id/export.json', async (request, reply) => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'viewer');
    const open = rooms.get(board.id);
    let doc = open?.doc;
    if (!doc) {
      const stored = await store.loadDoc(board.id);
      doc = new Y.Doc();
      for (const part of partsOf(stored)) {
        Y.applyUpdate(doc, part);
      }
    }
    const { board: exported, invalid } = exportBoard(doc);
    if (invalid.length > 0)
      request.log.warn({ boardId: board.id, invalid }, 'shape records failed the schema');
    if (!open) doc.destroy();
    const filename = board.title.replace(/[^\w -]+/g, '').trim() || 'board';
    reply.header('Content-Disposition', `attachment; filename="${filename}.json"`);
    return exported;
  });
};
