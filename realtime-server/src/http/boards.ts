// Boards (docs/api.md §7): the list, create, read, rename, delete, and the short-lived access token a
// client may use for the document socket.
import { BoardTitleBody, limits } from '@tandem/shared';
import { newBoardId, signAccessToken } from '../auth/tokens.ts';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { notFound } from './errors.ts';
import { parseBody, signedIn } from './request.ts';
import { toBoard } from './serialize.ts';

type BoardParams = { Params: { id: string } };

export const boardRoutes: ResourcePlugin = async (app, { config, store, live }) => {
  app.get('/api/boards', async (request) => ({ boards: await store.listBoards(signedIn(request).id) }));

  app.post('/api/boards', async (request, reply) => {
    const me = signedIn(request);
    const body = parseBody(BoardTitleBody, request.body);
    const board = await store.createBoard({ id: newBoardId(), title: body.title, ownerId: me.id });
    live.membershipAdded(board.id, me.id);
    live.boardChanged(toBoard(board));
    return reply.code(201).send({ board: toBoard(board) });
  });

  app.get<BoardParams>('/api/boards/:id', async (request) => {
    const { board, role } = await requireRole(store, request.params.id, signedIn(request).id, 'viewer');
    return { board: toBoard(board), role };
  });

  app.patch<BoardParams>('/api/boards/:id', async (request) => {
    const me = signedIn(request);
    await requireRole(store, request.params.id, me.id, 'editor');
    const body = parseBody(BoardTitleBody, request.body);
    const board = await store.renameBoard(request.params.id, body.title);
    if (!board) throw notFound();
    live.boardChanged(toBoard(board));
    return { board: toBoard(board) };
  });

  app.delete<BoardParams>('/api/boards/:id', async (request, reply) => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'owner');
    const members = await store.listMembers(board.id);
    await store.deleteBoard(board.id);
    live.boardRemoved(
      board.id,
      members.map((m) => m.userId),
    );
    return reply.code(204).send();
  });

  app.post<BoardParams>('/api/boards/:id/token', async (request) => {
    const me = signedIn(request);
    const { board, role } = await requireRole(store, request.params.id, me.id, 'viewer');
    const expiresAt = Date.now() + limits.accessTokenMinutes * 60_000;
    const token = signAccessToken(config.secret, { boardId: board.id, userId: me.id, role, expiresAt });
    return { token, expiresAt: new Date(expiresAt).toISOString() };
  });
};
