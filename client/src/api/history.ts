// The version history calls of docs/api.md §12, through the REST client's one `call` (ApiError carrying
// the catalogue's code and sentence).
import { apiPaths, type BoardExport, pageOf, type Version, type VersionList } from '@tandem/shared';
import { call } from './client.ts';

const board = (doc: string) => pageOf(doc).boardId;
const page = (doc: string) => pageOf(doc).pageId;

// Each names the page by its document key (docs/api.md §17: one history per page).
export const historyApi = {
  list: (doc: string, before?: string, limit = 30) =>
    call<VersionList>(
      'GET',
      apiPaths.versions(board(doc), before ? { limit, before } : { limit }, page(doc)),
    ),
  save: (doc: string, label: string) =>
    call<{ version: Version }>('POST', apiPaths.versions(board(doc), undefined, page(doc)), { label }),
  exportAt: (doc: string, versionId: string) =>
    call<BoardExport>('GET', apiPaths.versionExport(board(doc), versionId, page(doc))),
  restore: (doc: string, versionId: string) =>
    call<{ version: Version }>('POST', apiPaths.versionRestore(board(doc), versionId, page(doc))),
  revert: (doc: string, userId: string, since: string) =>
    call<{ version: Version }>('POST', apiPaths.revert(board(doc), page(doc)), { userId, since }),
  /** How many changes `revert` would undo (a dry run: nothing changes). */
  revertCount: (doc: string, userId: string, since: string) =>
    call<{ changes: number }>('POST', apiPaths.revert(board(doc), page(doc)), {
      userId,
      since,
      dryRun: true,
    }),
};
