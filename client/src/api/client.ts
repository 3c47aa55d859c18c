// Typed REST client for docs/api.md §7. Every failure is an ApiError carrying the catalogue's code,
// its sentence and per-field messages, so forms and pages show sentences, never raw statuses.
import {
  apiPaths,
  type BoardAnswer,
  type BoardContentAnswer,
  type BoardSearchResult,
  type BoardsAnswer,
  type BoardWithRoleAnswer,
  type CommentAnswer,
  type CreatedIntegrationAnswer,
  type CreatedWebhookAnswer,
  type CreateIntegrationBody,
  type CreateWebhookBody,
  contentPaths,
  type ErrorBody,
  type ErrorCode,
  type IntegrationsAnswer,
  type JoinAnswer,
  type JoinPreviewAnswer,
  type LinkAnswer,
  type LinkRole,
  type LinksAnswer,
  type MembersAnswer,
  type MentionsAnswer,
  type PublicTokenAnswer,
  type Role,
  type ServerTime,
  type TemplateAnswer,
  type TemplateCreateBody,
  type TemplatesAnswer,
  type ThreadAnchor,
  type ThreadAnswer,
  type ThreadCreatedAnswer,
  type ThreadsAnswer,
  type UserAnswer,
  type VotesCurrentAnswer,
  type WebhookDeliveriesAnswer,
  type WebhooksAnswer,
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

/** `path` is one of shared's `apiPaths`, `/api` included. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
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

export const api = {
  /** Who is signed in, null for a signed-out visitor (200 either way: no 401 in the console). */
  session: () => call<{ user: UserAnswer['user'] | null }>('GET', apiPaths.session()),
  setMyColor: (color: string) => call<UserAnswer>('PUT', apiPaths.myColor(), { color }),
  signup: (body: { email: string; name: string; password: string }) =>
    call<UserAnswer>('POST', apiPaths.signup(), body),
  login: (body: { email: string; password: string }) => call<UserAnswer>('POST', apiPaths.login(), body),
  guest: (body: { name: string }) => call<UserAnswer>('POST', apiPaths.guest(), body),
  logout: () => call<void>('POST', apiPaths.logout()),
  upgrade: (body: { email: string; password: string; name?: string }) =>
    call<UserAnswer>('POST', apiPaths.upgrade(), body),
  boards: () => call<BoardsAnswer>('GET', apiPaths.boards()),
  createBoard: (title: string) => call<BoardAnswer>('POST', apiPaths.boards(), { title }),
  board: (id: string) => call<BoardWithRoleAnswer>('GET', apiPaths.board(id)),
  /** The board as stored on the server, every page (docs/api.md §7, §17); checked by its reader. */
  boardExport: (id: string) => call<unknown>('GET', apiPaths.boardExport(id)),
  /** The board's pages with matches of `q` (docs/api.md §17), for Find on the other pages. */
  boardSearch: (id: string, q: string) => call<BoardSearchResult>('GET', apiPaths.boardSearch(id, q)),
  renameBoard: (id: string, title: string) => call<BoardAnswer>('PATCH', apiPaths.board(id), { title }),
  deleteBoard: (id: string) => call<void>('DELETE', apiPaths.board(id)),
  members: (id: string) => call<MembersAnswer>('GET', apiPaths.members(id)),
  setMemberRole: (id: string, userId: string, role: Role) =>
    call<unknown>('PATCH', apiPaths.member(id, userId), { role }),
  removeMember: (id: string, userId: string) => call<void>('DELETE', apiPaths.member(id, userId)),
  links: (id: string) => call<LinksAnswer>('GET', apiPaths.links(id)),
  createLink: (id: string, role: LinkRole) => call<LinkAnswer>('POST', apiPaths.links(id), { role }),
  revokeLink: (id: string, token: string) => call<void>('DELETE', apiPaths.link(id, token)),
  join: (token: string) => call<JoinAnswer>('POST', apiPaths.join(token)),
  publicToken: (token: string) => call<PublicTokenAnswer>('POST', apiPaths.publicToken(token)),
  integrations: (id: string) => call<IntegrationsAnswer>('GET', apiPaths.integrations(id)),
  createIntegration: (id: string, body: CreateIntegrationBody) =>
    call<CreatedIntegrationAnswer>('POST', apiPaths.integrations(id), body),
  revokeIntegration: (id: string, integrationId: string) =>
    call<void>('DELETE', apiPaths.integration(id, integrationId)),
  webhooks: (id: string) => call<WebhooksAnswer>('GET', apiPaths.webhooks(id)),
  createWebhook: (id: string, body: CreateWebhookBody) =>
    call<CreatedWebhookAnswer>('POST', apiPaths.webhooks(id), body),
  deleteWebhook: (id: string, webhookId: string) => call<void>('DELETE', apiPaths.webhook(id, webhookId)),
  webhookDeliveries: (id: string, webhookId: string) =>
    call<WebhookDeliveriesAnswer>('GET', apiPaths.webhookDeliveries(id, webhookId)),
  /** The board's frames (the content API, with the session), for an integration's scope. */
  boardContent: (id: string) => call<BoardContentAnswer>('GET', contentPaths.board(id)),
  joinPreview: (token: string) => call<JoinPreviewAnswer>('GET', apiPaths.join(token)),
  /** The server's clock, for the clock-offset estimate of timers. */
  time: () => call<ServerTime>('GET', apiPaths.time()),
  votesCurrent: (id: string) => call<VotesCurrentAnswer>('GET', apiPaths.votesCurrent(id)),
  startVote: (id: string, votesPerPerson: number) =>
    call<unknown>('POST', apiPaths.votes(id), { votesPerPerson }),
  closeVote: (id: string, sessionId: string) => call<unknown>('POST', apiPaths.voteClose(id, sessionId)),
  castBallot: (id: string, sessionId: string, votes: Record<string, number>) =>
    call<unknown>('PUT', apiPaths.voteBallot(id, sessionId), { votes }),
  templates: () => call<TemplatesAnswer>('GET', apiPaths.templates()),
  template: (id: string) => call<TemplateAnswer>('GET', apiPaths.template(id)),
  saveTemplate: (body: TemplateCreateBody) => call<TemplateAnswer>('POST', apiPaths.templates(), body),
  shareTemplate: (id: string, shared: boolean) =>
    call<TemplateAnswer>('PATCH', apiPaths.template(id), { shared }),
  deleteTemplate: (id: string) => call<void>('DELETE', apiPaths.template(id)),
  threads: (id: string) => call<ThreadsAnswer>('GET', apiPaths.threads(id)),
  createThread: (id: string, anchor: ThreadAnchor, body: string, pageId: string) =>
    call<ThreadCreatedAnswer>('POST', apiPaths.threads(id), { anchor, body, pageId }),
  resolveThread: (id: string, threadId: string, resolved: boolean) =>
    call<ThreadAnswer>('PATCH', apiPaths.thread(id, threadId), { resolved }),
  deleteThread: (id: string, threadId: string) => call<void>('DELETE', apiPaths.thread(id, threadId)),
  reply: (id: string, threadId: string, body: string) =>
    call<CommentAnswer>('POST', apiPaths.threadComments(id, threadId), { body }),
  editComment: (id: string, threadId: string, commentId: string, body: string) =>
    call<CommentAnswer>('PATCH', apiPaths.comment(id, threadId, commentId), { body }),
  deleteComment: (id: string, threadId: string, commentId: string) =>
    call<void>('DELETE', apiPaths.comment(id, threadId, commentId)),
  mentions: () => call<MentionsAnswer>('GET', apiPaths.mentions()),
  markMentionsRead: (boardId: string, threadId?: string) =>
    call<{ updated: number }>(
      'POST',
      apiPaths.mentionsRead(),
      threadId ? { boardId, threadId } : { boardId },
    ),
};

export const errorSentence = (e: unknown): string =>
  e instanceof ApiError ? e.message : 'Something went wrong. Try again.';

/**
 * The sentence for a form of one or two fields that shows no message at each field (the Share
 * dialog's Integrations and Webhooks): a 422's reasons themselves ("This is not a URL."), not
 * only "Some fields need attention.", which left people guessing (trial).
 */
export const errorWithReasons = (e: unknown): string =>
  e instanceof ApiError && Object.keys(e.fields).length > 0
    ? Object.values(e.fields).join(' ')
    : errorSentence(e);
