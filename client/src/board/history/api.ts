// The version history calls of SPEC §12, with the same error handling as the rest of the REST
// client (ApiError carrying the catalogue's code and sentence).
import type { BoardExport, Version, VersionList } from '@tandem/shared';
import { ApiError } from '../../api/client.ts';

const enc = encodeURIComponent;

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Cannot reach the server. Check your connection and try again.');
  }
  const data = (await res.json().catch(() => null)) as
    | (T & { error?: { code: string; message: string } })
    | null;
  if (!res.ok) {
    const err = data?.error;
    throw new ApiError(
      res.status,
      (err?.code as ApiError['code']) ?? 'INTERNAL',
      err?.message ??
        (res.status === 403 ? 'You do not have permission to do that.' : 'Something went wrong. Try again.'),
    );
  }
  return data as T;
}

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
