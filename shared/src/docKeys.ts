// Document keys (docs/api.md §17): a board's page is named on the server (rooms, bus channels, the
// Store's document rows, history) by its document key, the board id for the first page and
// `boardId/pageId` for the others. Kept apart from pages.ts, which needs Yjs and the shape schemas,
// so that what only names documents (the SQLite worker's statements) loads nothing else.
import { isBoardId } from './ids.ts';

/** The first page's id: a thread placed on a board without pages (comments.ts) is on it too. */
export const MAIN_PAGE_ID = 'main';
/** Page ids are short URL-safe strings (the client makes 10-character random ones). */
export const pageIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
export const isPageId = (s: string): boolean => pageIdPattern.test(s);

export interface PageRef {
  boardId: string;
  pageId: string;
}

/** The document key of a board's page: the board id for its first page. */
export function docKey(boardId: string, pageId: string = MAIN_PAGE_ID): string {
  return pageId === MAIN_PAGE_ID ? boardId : `${boardId}/${pageId}`;
}

/** The board and page of a document key; null for a key no board's page has. */
export function parseDocKey(key: string): PageRef | null {
  const slash = key.indexOf('/');
  const boardId = slash < 0 ? key : key.slice(0, slash);
  const pageId = slash < 0 ? MAIN_PAGE_ID : key.slice(slash + 1);
  if (!isBoardId(boardId) || !isPageId(pageId)) return null;
  if (slash >= 0 && pageId === MAIN_PAGE_ID) return null; // one key per document
  return { boardId, pageId };
}

/** The board and page of a key made by docKey (unchecked: the gateway checks what clients send). */
export function pageOf(key: string): PageRef {
  const slash = key.indexOf('/');
  return slash < 0
    ? { boardId: key, pageId: MAIN_PAGE_ID }
    : { boardId: key.slice(0, slash), pageId: key.slice(slash + 1) };
}
