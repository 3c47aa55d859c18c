// Typed REST client for SPEC §7. Every failure is an ApiError carrying the catalogue's code,
// its sentence and per-field messages, so forms and pages show sentences, never raw statuses.
import type {
  BoardAnswer,
  BoardsAnswer,
  BoardWithRoleAnswer,
  ErrorBody,
  ErrorCode,
  JoinAnswer,
  LinkAnswer,
  LinkRole,
  LinksAnswer,
  MembersAnswer,
  Role,
  UserAnswer,
} from '@tandem/shared';

export type ApiErrorCode = ErrorCode | 'NETWORK';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const fallbackSentence: Record<number, string> = {
  401: 'You are signed out. Sign in again.',
  403: 'You do not have permission to do that.',
  404: 'That could not be found.',
  429: 'Too many attempts. Wait a minute and try again.',
};

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
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
  if (res.status === 204) return undefined as T;
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    // An empty or non-JSON body; handled below by status.
  }
  if (!res.ok) {
    const err = (data as Partial<ErrorBody> | null)?.error;
    throw new ApiError(
      res.status,
      err?.code ?? 'INTERNAL',
      err?.message ?? fallbackSentence[res.status] ?? 'Something went wrong on the server. Try again.',
      err?.fields ?? {},
    );
  }
  return data as T;
}

const enc = encodeURIComponent;

export const api = {
  me: () => call<UserAnswer>('GET', '/me'),
  signup: (body: { email: string; name: string; password: string }) =>
    call<UserAnswer>('POST', '/auth/signup', body),
  login: (body: { email: string; password: string }) => call<UserAnswer>('POST', '/auth/login', body),
  guest: (body: { name: string }) => call<UserAnswer>('POST', '/auth/guest', body),
  logout: () => call<void>('POST', '/auth/logout'),
  upgrade: (body: { email: string; password: string; name?: string }) =>
    call<UserAnswer>('POST', '/auth/upgrade', body),
  boards: () => call<BoardsAnswer>('GET', '/boards'),
  createBoard: (title: string) => call<BoardAnswer>('POST', '/boards', { title }),
  board: (id: string) => call<BoardWithRoleAnswer>('GET', `/boards/${enc(id)}`),
  renameBoard: (id: string, title: string) => call<BoardAnswer>('PATCH', `/boards/${enc(id)}`, { title }),
  deleteBoard: (id: string) => call<void>('DELETE', `/boards/${enc(id)}`),
  members: (id: string) => call<MembersAnswer>('GET', `/boards/${enc(id)}/members`),
  setMemberRole: (id: string, userId: string, role: Role) =>
    call<unknown>('PATCH', `/boards/${enc(id)}/members/${enc(userId)}`, { role }),
  removeMember: (id: string, userId: string) =>
    call<void>('DELETE', `/boards/${enc(id)}/members/${enc(userId)}`),
  links: (id: string) => call<LinksAnswer>('GET', `/boards/${enc(id)}/links`),
  createLink: (id: string, role: LinkRole) => call<LinkAnswer>('POST', `/boards/${enc(id)}/links`, { role }),
  revokeLink: (id: string, token: string) => call<void>('DELETE', `/boards/${enc(id)}/links/${enc(token)}`),
  join: (token: string) => call<JoinAnswer>('POST', `/join/${enc(token)}`),
};

export const errorSentence = (e: unknown): string =>
  e instanceof ApiError ? e.message : 'Something went wrong. Try again.';
