// The version history calls of SPEC §12, through the REST client's one `call` (ApiError carrying
// the catalogue's code and sentence).
import type { BoardExport, Version, VersionList } from '@tandem/shared';
import { call } from '../../api/client.ts';

const enc = encodeURIComponent;

export const historyApi = {
  list: (boardId: string, before?: string, limit = 30) =>
    call<VersionList>(
      'GET',
      `/boards/${enc(boardId)}/versions?limit=${limit}${before ? `&before=${enc(before)}` : ''}`,
    ),
  save: (boardId: string, label: string) =>
    call<{ version: Version }>('POST', `/boards/${enc(boardId)}/versions`, { label }),
  exportAt: (boardId: string, versionId: string) =>
    call<BoardExport>('GET', `/boards/${enc(boardId)}/versions/${enc(versionId)}/export.json`),
  restore: (boardId: string, versionId: string) =>
    call<{ version: Version }>('POST', `/boards/${enc(boardId)}/versions/${enc(versionId)}/restore`),
  revert: (boardId: string, userId: string, since: string) =>
    call<{ version: Version }>('POST', `/boards/${enc(boardId)}/revert`, { userId, since }),
};
