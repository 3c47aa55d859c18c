// Pages (docs/api.md §17): a board holds 1–100 pages, each its own Yjs document. The page list is
// `meta.pages` in the board's first document; the first page's id is MAIN_PAGE_ID and its
// document is the board's own (`/yjs/:boardId`), so every board from before pages is its first
// page. Page `p`'s document is `/yjs/:boardId/p`. A document is named everywhere on the server
// (rooms, bus channels, the Store's document rows, history) by its document key, written here
// once: the board id for the first page, `boardId/pageId` for the others.
import * as Y from 'yjs';
import { isBoardId } from './ids.ts';
import { META_KEY } from './shapes.ts';

/** The first page's id: a thread placed on a board without pages (comments.ts) is on it too. */
export const MAIN_PAGE_ID = 'main';
/** The key of `meta.pages` inside the first document's `meta` map. */
export const PAGES_KEY = 'pages';
export const MAX_PAGES = 100;
export const MAX_PAGE_NAME = 100;

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

export interface PageEntry {
  id: string;
  name: string;
}

/**
 * The board's pages in order, from its first document's `meta.pages` (a Y.Array of Y.Maps
 * `{id, name}`). A board from before pages, or one whose list is empty, has only its first page.
 * Entries without a usable id are skipped; the first page is always there, first if not listed.
 */
export function readPages(firstDoc: Y.Doc): PageEntry[] {
  const list = firstDoc.getMap(META_KEY).get(PAGES_KEY);
  const pages: PageEntry[] = [];
  const seen = new Set<string>();
  if (list instanceof Y.Array) {
    for (const item of list.toArray()) {
      if (!(item instanceof Y.Map)) continue;
      const id = item.get('id');
      const name = item.get('name');
      if (typeof id !== 'string' || !isPageId(id) || seen.has(id)) continue;
      seen.add(id);
      pages.push({ id, name: typeof name === 'string' ? name : '' });
    }
  }
  if (!seen.has(MAIN_PAGE_ID)) pages.unshift({ id: MAIN_PAGE_ID, name: '' });
  return pages;
}
