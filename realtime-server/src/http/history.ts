// Version history over REST (docs/api.md §12), one fastify plugin: list versions (any member), save a
// named one and restore one (owners and editors), a version's export.json (any member), and
// revert one person's edits since a time (owners).
import {
  CreateVersionBody,
  docKey,
  PageQuery,
  pageOf,
  RevertBody,
  type Version,
  VersionListQuery,
} from '@tandem/shared';
import type { StoredVersion } from '../store/store.ts';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { notFound } from './errors.ts';
import { listedPageKey as listedPage } from './pageKey.ts';
import { parseBody, signedIn } from './request.ts';

type Params = { id: string; versionId: string };

const userOf = (request: Parameters<typeof signedIn>[0]): string => signedIn(request).id;
/** The page whose history a call is about (`?page=`, docs/api.md §17): its document's key. */
const pageKey = (boardId: string, request: { query?: unknown }): string =>
  docKey(boardId, parseBody(PageQuery, request.query ?? {}).page);

export const historyRoutes: ResourcePlugin = async (app, { store, history, rooms, live }) => {
  /**
   * pageKey for a call that writes the page (save, restore, revert): a page the board does not
   * list is not found, so no stored document is ever made for it (as for a connection, §17).
   */
  const listedPageKey = (boardId: string, request: { query?: unknown }): Promise<string> =>
    listedPage(rooms, boardId, request.query);
  const shown = async (v: StoredVersion): Promise<Version> => (await history.versions.present([v]))[0]!;

  app.get<{ Params: Params }>('/api/boards/:id/versions', async (request) => {
    const { board } = await requireRole(store, request.params.id, userOf(request), 'viewer');
    const query = parseBody(VersionListQuery, request.query ?? {});
    const key = docKey(board.id, query.page);
    if (query.before) return { versions: await history.versions.list(key, query.before, query.limit) };
    // With the first page: who edited since the latest version (the History panel's People).
    return history.versions.firstPage(key, query.limit);
  });

  app.post<{ Params: Params }>('/api/boards/:id/versions', async (request, reply) => {
    const userId = userOf(request);
    const { board } = await requireRole(store, request.params.id, userId, 'editor');
    const body = parseBody(CreateVersionBody, request.body);
    const version = await history.save(await listedPageKey(board.id, request), body.label, userId);
    reply.code(201);
    return { version: await shown(version) };
  });

  app.get<{ Params: Params }>('/api/boards/:id/versions/:versionId/export.json', async (request, reply) => {
    const { board } = await requireRole(store, request.params.id, userOf(request), 'viewer');
    const exported = await history.versions.exportAt(pageKey(board.id, request), request.params.versionId);
    if (!exported) throw notFound('version');
    if (exported.invalid.length > 0)
      request.log.warn(
        { boardId: board.id, invalid: exported.invalid },
        'shape records failed the schema (exported as they are)',
      );
    const filename = board.title.replace(/[^\w -]+/g, '').trim() || 'board';
    reply.header('Content-Disposition', `attachment; filename="${filename} (version).json"`);
    reply.type('application/json; charset=utf-8');
    return exported.json;
  });

  app.post<{ Params: Params }>('/api/boards/:id/versions/:versionId/restore', async (request) => {
    const userId = userOf(request);
    const { board } = await requireRole(store, request.params.id, userId, 'editor');
    const version = await history.restore(
      await listedPageKey(board.id, request),
      request.params.versionId,
      userId,
    );
    if (!version) throw notFound('version');
    return { version: await shown(version) };
  });

  app.post<{ Params: Params }>('/api/boards/:id/revert', async (request) => {
    const userId = userOf(request);
    const { board } = await requireRole(store, request.params.id, userId, 'owner');
    const body = parseBody(RevertBody, request.body);
    const target = await store.getUser(body.userId);
    if (!target) throw notFound('user');
    if (body.dryRun)
      return {
        changes: await history.revertCount(pageKey(board.id, request), target.id, new Date(body.since)),
      };
    const key = await listedPageKey(board.id, request);
    const version = await history.revert(key, target.id, target.name, new Date(body.since), userId);
    // The person whose work was taken back is told who did it and how much, live (the workspace
    // channel, as a mention): otherwise their shapes just change under them. The revert's version
    // is recorded right after the version of the board before it, so its stats are the revert's.
    const changes = version.stats.added + version.stats.changed + version.stats.removed;
    if (target.id !== userId && changes > 0)
      live.changesUndone(target.id, {
        boardId: board.id,
        pageId: pageOf(key).pageId,
        by: { id: userId, name: signedIn(request).name },
        changes,
        since: new Date(body.since).toISOString(),
      });
    return { version: await shown(version) };
  });
};
