// The REST paths of docs/api.md §7 in one place, so the client (and tests) never build a URL by hand.
// Each builder answers the whole path, `/api` included, with every id encoded: ids have their own
// alphabets today, but a path built from user input must not be able to reach another route.

import { MAIN_PAGE_ID } from './pages.ts';

const enc = encodeURIComponent;

/** Every REST route lives under this prefix; the server answers anything else with the client. */
export const API_PREFIX = '/api';

const board = (id: string) => `${API_PREFIX}/boards/${enc(id)}`;
const query = (parts: string[]) => (parts.length > 0 ? `?${parts.join('&')}` : '');
const pageParam = (pageId: string | undefined) =>
  pageId === undefined || pageId === MAIN_PAGE_ID ? [] : [`page=${enc(pageId)}`];

/** The content API for scripts, bots and agents (docs/api.md §15), versioned apart from the app's own calls. */
export const CONTENT_API_PREFIX = `${API_PREFIX}/v1`;
const contentBoard = (id: string) => `${CONTENT_API_PREFIX}/boards/${enc(id)}`;

/** The MCP endpoint (docs/api.md §15): Streamable HTTP, the same bearer key as the content API. */
export const MCP_PATH = '/mcp';

/** The client's pages a share link leads to (docs/api.md §16: public view and embed). */
export const linkPages = {
  join: (token: string) => `/join/${enc(token)}`,
  publicView: (token: string) => `/p/${enc(token)}`,
  embed: (token: string) => `/embed/${enc(token)}`,
};

export const apiPaths = {
  me: () => `${API_PREFIX}/me`,
  myColor: () => `${API_PREFIX}/me/color`,
  time: () => `${API_PREFIX}/time`,
  signup: () => `${API_PREFIX}/auth/signup`,
  login: () => `${API_PREFIX}/auth/login`,
  guest: () => `${API_PREFIX}/auth/guest`,
  logout: () => `${API_PREFIX}/auth/logout`,
  session: () => `${API_PREFIX}/auth/session`,
  upgrade: () => `${API_PREFIX}/auth/upgrade`,
  join: (token: string) => `${API_PREFIX}/join/${enc(token)}`,
  publicToken: (token: string) => `${API_PREFIX}/public/${enc(token)}/token`,
  publicSvg: (token: string) => `${API_PREFIX}/public/${enc(token)}/board.svg`,
  publicPng: (token: string) => `${API_PREFIX}/public/${enc(token)}/board.png`,
  publicAsset: (token: string, assetId: string) =>
    `${API_PREFIX}/public/${enc(token)}/assets/${enc(assetId)}`,
  boards: () => `${API_PREFIX}/boards`,
  board,
  boardToken: (id: string) => `${board(id)}/token`,
  boardExport: (id: string) => `${board(id)}/export.json`,
  /** Find on every page of the board (docs/api.md §17). */
  boardSearch: (id: string, q: string) => `${board(id)}/search?q=${enc(q)}`,
  members: (id: string) => `${board(id)}/members`,
  member: (id: string, userId: string) => `${board(id)}/members/${enc(userId)}`,
  links: (id: string) => `${board(id)}/links`,
  link: (id: string, token: string) => `${board(id)}/links/${enc(token)}`,
  boardAssets: (id: string) => `${board(id)}/assets`,
  asset: (id: string, assetId: string) => `${board(id)}/assets/${enc(assetId)}`,
  thumbnail: (id: string) => `${board(id)}/thumbnail`,
  // Version history is per page (docs/api.md §17): `pageId` other than the first adds `page=`.
  versions: (id: string, page?: { limit: number; before?: string }, pageId?: string) =>
    `${board(id)}/versions${query([
      ...(page ? [`limit=${page.limit}`, ...(page.before ? [`before=${enc(page.before)}`] : [])] : []),
      ...pageParam(pageId),
    ])}`,
  versionExport: (id: string, versionId: string, pageId?: string) =>
    `${board(id)}/versions/${enc(versionId)}/export.json${query(pageParam(pageId))}`,
  versionRestore: (id: string, versionId: string, pageId?: string) =>
    `${board(id)}/versions/${enc(versionId)}/restore${query(pageParam(pageId))}`,
  revert: (id: string, pageId?: string) => `${board(id)}/revert${query(pageParam(pageId))}`,
  votes: (id: string) => `${board(id)}/votes`,
  votesCurrent: (id: string) => `${board(id)}/votes/current`,
  voteBallot: (id: string, sessionId: string) => `${board(id)}/votes/${enc(sessionId)}/ballot`,
  voteClose: (id: string, sessionId: string) => `${board(id)}/votes/${enc(sessionId)}/close`,
  templates: () => `${API_PREFIX}/templates`,
  template: (templateId: string) => `${API_PREFIX}/templates/${enc(templateId)}`,
  threads: (id: string) => `${board(id)}/threads`,
  thread: (id: string, threadId: string) => `${board(id)}/threads/${enc(threadId)}`,
  threadComments: (id: string, threadId: string) => `${board(id)}/threads/${enc(threadId)}/comments`,
  comment: (id: string, threadId: string, commentId: string) =>
    `${board(id)}/threads/${enc(threadId)}/comments/${enc(commentId)}`,
  mentions: () => `${API_PREFIX}/me/mentions`,
  mentionsRead: () => `${API_PREFIX}/me/mentions/read`,
  integrations: (id: string) => `${board(id)}/integrations`,
  integration: (id: string, integrationId: string) => `${board(id)}/integrations/${enc(integrationId)}`,
  webhooks: (id: string) => `${board(id)}/webhooks`,
  webhook: (id: string, webhookId: string) => `${board(id)}/webhooks/${enc(webhookId)}`,
  webhookDeliveries: (id: string, webhookId: string) => `${board(id)}/webhooks/${enc(webhookId)}/deliveries`,
} as const;

/** The content API's paths (docs/api.md §15). */
export const contentPaths = {
  board: contentBoard,
  shapes: (id: string) => `${contentBoard(id)}/shapes`,
  pages: (id: string) => `${contentBoard(id)}/pages`,
  events: (id: string, since?: string) =>
    `${contentBoard(id)}/events${since === undefined ? '' : `?since=${enc(since)}`}`,
} as const;
