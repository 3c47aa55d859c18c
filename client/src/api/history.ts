// The version history calls of docs/api.md §12, through the REST client's one `call` (ApiError carrying
// the catalogue's code and sentence).
import { apiPaths, type BoardExport, type Version, type VersionList } from '@tandem/shared';
import { call } from './client.ts';

export const historyApi = {
  list: (boardId: string, before?: string, limit = 30) =>
    call<VersionList>('GET', apiPaths.versions(boardId, before ? { limit, before } : { limit })),
  save: (boardId: string, label: string) =>
    call<{ version: Version }>('POST', apiPaths.versions(boardId), { label }),
  exportAt: (boardId: string, versionId: string) =>
    call<BoardExport>('GET', apiPaths.versionExport(boardId, versionId)),
  restore: (boardId: string, versionId: string) =>
    call<{ version: Version }>('POST', apiPaths.versionRestore(boardId, versionId)),
  /** How many changes `revert` would undo (a dry run: nothing changes). */
  revertCount: (boardId: string, userId: string, since: string) =>
    call<{ changes: number }>('POST', apiPaths.revert(boardId), { userId, since, dryRun: true }),
  revert: (boardId: string, userId: string, since: string) =>
    call<{ version: Version }>('POST', apiPaths.revert(boardId), { userId, since }),
};
