// The page list (docs/api.md §17) as plain functions over the board's first document: `meta.pages`
// is a Y.Array of Y.Maps `{id, name}`. A board from before pages has no list; the first change
// writes one with its first page in it. Each page's content is its own document (sync/provider.ts).
import {
  MAIN_PAGE_ID,
  MAX_PAGE_NAME,
  MAX_PAGES,
  META_KEY,
  PAGES_KEY,
  type PageEntry,
  readPages,
} from '@tandem/shared';
import * as Y from 'yjs';

/** Page list changes carry this origin: their own undo (the Pages panel's), not the canvas's. */
export const PAGES_ORIGIN = Symbol('tandem-pages');

export type { PageEntry };
export { readPages };

/** A new page's id: 10 URL-safe random characters. */
export function newPageId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return Array.from(bytes, (b) => alphabet[b & 63]).join('');
}

const clean = (name: string) => name.trim().slice(0, MAX_PAGE_NAME);

/** The default name of a page at `position` (0-based) when it has none. */
export const pageLabel = (page: PageEntry, position: number): string => page.name || `Page ${position + 1}`;

/** The list, written with the first page when the board has none yet. */
function list(doc: Y.Doc): Y.Array<Y.Map<unknown>> {
  const meta = doc.getMap<unknown>(META_KEY);
  const existing = meta.get(PAGES_KEY);
  if (existing instanceof Y.Array) return existing as Y.Array<Y.Map<unknown>>;
  const created = new Y.Array<Y.Map<unknown>>();
  meta.set(PAGES_KEY, created);
  created.push([entry(MAIN_PAGE_ID, '')]);
  return created;
}

const entry = (id: string, name: string) => new Y.Map<unknown>(Object.entries({ id, name }));

const indexOf = (pages: Y.Array<Y.Map<unknown>>, id: string) =>
  pages.toArray().findIndex((page) => page.get('id') === id);

/** Adds a page after `after` (or at the end); its id, or null at MAX_PAGES. */
export function addPage(doc: Y.Doc, name: string, after?: string, id = newPageId()): string | null {
  if (readPages(doc).length >= MAX_PAGES) return null;
  doc.transact(() => {
    const pages = list(doc);
    const at = after === undefined ? -1 : indexOf(pages, after);
    pages.insert(at < 0 ? pages.length : at + 1, [entry(id, clean(name))]);
  }, PAGES_ORIGIN);
  return id;
}

export function renamePage(doc: Y.Doc, id: string, name: string): void {
  doc.transact(() => {
    const pages = list(doc);
    pages.get(indexOf(pages, id))?.set('name', clean(name));
  }, PAGES_ORIGIN);
}

/** Moves a page to position `to` (0-based, in the list as it is before the move). */
export function movePage(doc: Y.Doc, id: string, to: number): void {
  doc.transact(() => {
    const pages = list(doc);
    const from = indexOf(pages, id);
    if (from < 0 || from === to) return;
    const name = pages.get(from).get('name');
    pages.delete(from, 1);
    pages.insert(Math.max(0, Math.min(to, pages.length)), [entry(id, typeof name === 'string' ? name : '')]);
  }, PAGES_ORIGIN);
}

/**
 * Takes a page out of the list; its document stays stored, so an undo brings it back whole. The
 * first page (the board's own document) and a board's last page are never deleted.
 */
export function deletePage(doc: Y.Doc, id: string): boolean {
  if (id === MAIN_PAGE_ID || readPages(doc).length <= 1) return false;
  let deleted = false;
  doc.transact(() => {
    const pages = list(doc);
    const at = indexOf(pages, id);
    if (at < 0) return;
    pages.delete(at, 1);
    deleted = true;
  }, PAGES_ORIGIN);
  return deleted;
}

/** The page list's own undo: a page deletion undone brings the page back for everyone. */
export function createPagesUndo(doc: Y.Doc): Y.UndoManager {
  return new Y.UndoManager(doc.getMap(META_KEY), {
    trackedOrigins: new Set([PAGES_ORIGIN]),
    captureTimeout: 0,
  });
}

/** The path of a page: the first page is the board's own. */
export const pagePath = (boardId: string, pageId: string): string =>
  pageId === MAIN_PAGE_ID
    ? `/b/${encodeURIComponent(boardId)}`
    : `/b/${encodeURIComponent(boardId)}/p/${encodeURIComponent(pageId)}`;

/**
 * Content waiting for a page just made by "Duplicate": the copied page's whole state, applied to
 * the new page's document once it has loaded (Editor), then forgotten.
 */
export const pendingSeeds = new Map<string, Uint8Array>();
