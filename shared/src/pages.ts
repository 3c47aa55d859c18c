// Pages (docs/api.md §17): a board holds 1–100 pages, each its own Yjs document. The page list is
// the top-level map `pages` in the board's first document (PAGES_MAP below); the first page's id is MAIN_PAGE_ID and its
// document is the board's own (`/yjs/:boardId`), so every board from before pages is its first
// page. Page `p`'s document is `/yjs/:boardId/p`. A document is named everywhere on the server
// (rooms, bus channels, the Store's document rows, history) by its document key, written once in
// docKeys.ts: the board id for the first page, `boardId/pageId` for the others.
import * as Y from 'yjs';
import { isPageId, MAIN_PAGE_ID } from './docKeys.ts';
import { META_KEY } from './shapes.ts';

export * from './docKeys.ts';

/** The key of the first format's list (`meta.pages`), read and migrated on the first change. */
export const PAGES_KEY = 'pages';
export const MAX_PAGES = 100;
export const MAX_PAGE_NAME = 100;

/** A new page's id: 10 URL-safe random characters (the editor's Add page and the content API's). */
export function newPageId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return Array.from(bytes, (b) => alphabet[b & 63]).join('');
}
/**
 * How long the server waits for a page to appear in the board's list before refusing a
 * connection to it (4404): the page just added travels on its adder's first-document connection,
 * which can arrive after the new page's own.
 */
export const PAGE_LISTED_WAIT_MS = 3000;

export interface PageEntry {
  id: string;
  name: string;
}

/**
 * The page list (docs/api.md §17) lives in the first document's top-level map `pages`: page id →
 * Y.Map `{name, order}`, listed by `order` (then id). Top-level types never conflict, so two
 * people adding, renaming, reordering or deleting pages at the same moment all keep their change:
 * a nested list created by both under one key (the first format, `meta.pages`) kept only one
 * writer's. The first page is implicit (order 0, no name) until it is itself renamed or moved, so
 * a board from before pages needs nothing written, and adding a page writes only that page.
 */
export const PAGES_MAP = 'pages';

/** The first format's list (`meta.pages`, a Y.Array of Y.Maps `{id, name}`), read and migrated. */
function legacyList(doc: Y.Doc): Y.Array<unknown> | null {
  const list = doc.getMap(META_KEY).get(PAGES_KEY);
  return list instanceof Y.Array ? list : null;
}

interface Ordered extends PageEntry {
  order: number;
}

function ordered(doc: Y.Doc): Ordered[] {
  const pages = new Map<string, Ordered>();
  legacyList(doc)
    ?.toArray()
    .forEach((item, position) => {
      if (!(item instanceof Y.Map)) return;
      const id = item.get('id');
      const name = item.get('name');
      if (typeof id !== 'string' || !isPageId(id) || pages.has(id)) return;
      pages.set(id, { id, name: typeof name === 'string' ? name : '', order: position });
    });
  doc.getMap<unknown>(PAGES_MAP).forEach((value, id) => {
    if (!(value instanceof Y.Map) || !isPageId(id)) return;
    const name = value.get('name');
    const order = value.get('order');
    pages.set(id, {
      id,
      name: typeof name === 'string' ? name : '',
      order: typeof order === 'number' && Number.isFinite(order) ? order : 0,
    });
  });
  if (!pages.has(MAIN_PAGE_ID)) pages.set(MAIN_PAGE_ID, { id: MAIN_PAGE_ID, name: '', order: 0 });
  return [...pages.values()].sort((a, b) =>
    a.order !== b.order
      ? a.order - b.order
      : a.id === MAIN_PAGE_ID
        ? -1
        : b.id === MAIN_PAGE_ID
          ? 1
          : a.id < b.id
            ? -1
            : 1,
  );
}

/**
 * The board's pages in order, from its first document. A board from before pages has only its
 * first page; the first page is always there.
 */
export function readPages(firstDoc: Y.Doc): PageEntry[] {
  return ordered(firstDoc).map(({ id, name }) => ({ id, name }));
}

/** Whether the document holds a page list at all (either format). */
export function hasPageList(doc: Y.Doc): boolean {
  return legacyList(doc) !== null || doc.getMap(PAGES_MAP).size > 0;
}

const cleanName = (name: string) => name.trim().slice(0, MAX_PAGE_NAME);

/** The name every page of a board without a page list shows: the board's first document. */
export const FIRST_PAGE_NAME = 'Page 1';
/** What an unnamed page other than the first shows (one stored by a version before names). */
export const UNNAMED_PAGE_NAME = 'Untitled page';

/**
 * The name a page shows: its stored name, the same in the Pages panel, the public view's page
 * picker, Find's other pages, comments and exports. Every page added since names were given at
 * once has one (nextPageName); a name is never taken from the page's position, so reordering the
 * list never renames a page (it did: `Page ${position + 1}`, so moving "Page 3" to the top made
 * the page holding the work "Page 2"). Two kinds of page have no stored name, and their label
 * depends on nothing that changes:
 * - the first page (MAIN_PAGE_ID) of a board whose first page was never renamed: "Page 1", what
 *   it has always shown (a board without a list is one page, and the first page is implicit);
 * - a page added unnamed by a version before this rule: "Untitled page", as an unnamed frame is
 *   "Untitled frame". Numbering these would take a number from somewhere, and the only one at
 *   hand is the position this removes; their first rename gives them a name of their own.
 */
export const pageLabel = (page: PageEntry): string =>
  page.name || (page.id === MAIN_PAGE_ID ? FIRST_PAGE_NAME : UNNAMED_PAGE_NAME);

/**
 * The stored name of a page added to `pages` without one ("Add page"): "Page N", N the smallest
 * number from 2 that no page's name (as shown, so an unnamed first page's "Page 1" counts, and
 * letter case aside) uses, as tldraw names its new pages. A new board's pages are "Page 1, Page 2,
 * Page 3"; a gap left by a deletion or a rename is filled first. From 2: "Page 1" is the first
 * page's name, and a page added is never the first.
 */
export function nextPageName(pages: readonly PageEntry[]): string {
  const used = new Set(pages.map((page) => pageLabel(page).trim().toLowerCase()));
  let n = 2;
  while (used.has(`page ${n}`)) n++;
  return `Page ${n}`;
}

/**
 * The name Duplicate stores for a copy of `source` among `pages`: "<name> copy", then "<name> copy
 * 2", "<name> copy 3"… (the smallest free number, letter case aside), as file managers name copies.
 * A copy of a copy counts with the original ("Retro copy" duplicated is "Retro copy 2", not "Retro
 * copy copy"). The name is cut to fit MAX_PAGE_NAME with its " copy N" kept.
 */
export function copyPageName(pages: readonly PageEntry[], source: PageEntry): string {
  const used = new Set(pages.map((page) => pageLabel(page).trim().toLowerCase()));
  const label = pageLabel(source).trim();
  const root = /^(.*\S) copy(?: \d+)?$/i.exec(label)?.[1] ?? label;
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? ' copy' : ` copy ${n}`;
    const name = `${root.slice(0, MAX_PAGE_NAME - suffix.length).trimEnd()}${suffix}`;
    if (!used.has(name.toLowerCase())) return name;
  }
}

/**
 * The entry of page `id`, written when missing. A board in the first format has its list copied
 * into the map (same ids, names and order) and the old list removed, inside the caller's
 * transaction, before its first change.
 */
function entryOf(doc: Y.Doc, id: string, current: Ordered[]): Y.Map<unknown> {
  const map = doc.getMap<Y.Map<unknown>>(PAGES_MAP);
  if (legacyList(doc)) {
    for (const page of current)
      if (!map.has(page.id) && page.id !== MAIN_PAGE_ID)
        map.set(page.id, new Y.Map<unknown>(Object.entries({ name: page.name, order: page.order })));
    const main = current.find((page) => page.id === MAIN_PAGE_ID);
    if (main && (main.name || main.order !== 0) && !map.has(MAIN_PAGE_ID))
      map.set(MAIN_PAGE_ID, new Y.Map<unknown>(Object.entries({ name: main.name, order: main.order })));
    doc.getMap(META_KEY).delete(PAGES_KEY);
  }
  const existing = map.get(id);
  if (existing instanceof Y.Map) return existing;
  const page = current.find((p) => p.id === id);
  const created = new Y.Map<unknown>(Object.entries({ name: page?.name ?? '', order: page?.order ?? 0 }));
  map.set(id, created);
  return created;
}

/** The order key between the page at `index - 1` and the one at `index` of `pages`. */
function orderAt(pages: Ordered[], index: number): number {
  const before = pages[index - 1];
  const after = pages[index];
  if (!before) return after ? after.order - 1 : 0;
  if (!after) return before.order + 1;
  return (before.order + after.order) / 2;
}

/**
 * Adds page `id` after `after` (or at the end), with `origin` on its transaction; false at
 * MAX_PAGES. A blank `name` stores nextPageName's: a page has its name from the start.
 */
export function addPageEntry(
  doc: Y.Doc,
  id: string,
  name: string,
  after?: string,
  origin?: unknown,
): boolean {
  const pages = ordered(doc);
  if (pages.length >= MAX_PAGES || pages.some((p) => p.id === id)) return false;
  const at = after === undefined ? -1 : pages.findIndex((p) => p.id === after);
  const order = orderAt(pages, at < 0 ? pages.length : at + 1);
  doc.transact(() => {
    const entry = entryOf(doc, id, [...pages, { id, name: '', order }]);
    entry.set('name', cleanName(name) || nextPageName(pages));
    entry.set('order', order);
  }, origin);
  return true;
}

/**
 * Renames a page; false, and nothing written, for a blank name (a page keeps its name: the Pages
 * panel says "Enter a page name.") or a page not listed.
 */
export function renamePageEntry(doc: Y.Doc, id: string, name: string, origin?: unknown): boolean {
  const pages = ordered(doc);
  const clean = cleanName(name);
  if (!clean || !pages.some((p) => p.id === id)) return false;
  doc.transact(() => entryOf(doc, id, pages).set('name', clean), origin);
  return true;
}

/** Moves a page to position `to` (0-based, in the list as it is before the move). */
export function movePageEntry(doc: Y.Doc, id: string, to: number, origin?: unknown): void {
  const pages = ordered(doc);
  const from = pages.findIndex((p) => p.id === id);
  if (from < 0 || from === to) return;
  const others = pages.filter((p) => p.id !== id);
  const order = orderAt(others, Math.max(0, Math.min(to, others.length)));
  doc.transact(() => entryOf(doc, id, pages).set('order', order), origin);
}

/**
 * The top-level map of the first document where each deleted page leaves a note: page id →
 * `{name, order, by: {id, name}, at}` (DeletedPage). Written in the same transaction as the
 * deletion itself, so every client that sees a page go, on any instance and however late (a
 * reconnect, a reload), sees in the same update who deleted it and what it was called: the
 * deleter's presence is gone once they close their tab, and the server's record of who sent an
 * update is not sent to the clients. The note is also what "Recently deleted" brings a page back
 * from: the page's document stays stored (below), but its name and place left the list.
 */
export const DELETED_PAGES_MAP = 'deletedPages';
/** How many deleted pages are remembered; the oldest note goes when a newer deletion passes it. */
export const MAX_DELETED_PAGES = 20;

export interface DeletedPage extends PageEntry {
  order: number;
  /** Who deleted it (as their presence named them), when the deleting client said. */
  by: { id: string; name: string } | null;
  /** When, in ms since the epoch (the deleting client's clock). */
  at: number;
}

function readNote(id: string, value: unknown): DeletedPage | null {
  if (!isPageId(id) || typeof value !== 'object' || value === null) return null;
  const note = value as Record<string, unknown>;
  const by = note.by as Record<string, unknown> | null | undefined;
  return {
    id,
    name: typeof note.name === 'string' ? note.name : '',
    order: typeof note.order === 'number' && Number.isFinite(note.order) ? note.order : 0,
    by: by && typeof by.id === 'string' && typeof by.name === 'string' ? { id: by.id, name: by.name } : null,
    at: typeof note.at === 'number' ? note.at : 0,
  };
}

/** The note page `id` left when it was deleted, or null (never deleted, or forgotten). */
export function deletedPageNote(doc: Y.Doc, id: string): DeletedPage | null {
  return readNote(id, doc.getMap<unknown>(DELETED_PAGES_MAP).get(id));
}

/** The pages deleted and not back in the list, newest first. */
export function readDeletedPages(doc: Y.Doc): DeletedPage[] {
  const listed = new Set(ordered(doc).map((p) => p.id));
  const notes: DeletedPage[] = [];
  doc.getMap<unknown>(DELETED_PAGES_MAP).forEach((value, id) => {
    const note = readNote(id, value);
    if (note && !listed.has(id)) notes.push(note);
  });
  return notes.sort((a, b) => b.at - a.at || (a.id < b.id ? -1 : 1));
}

/**
 * Takes a page out of the list; its document stays stored, so an undo, or "Recently deleted"
 * (restorePageEntry), brings it back whole. The first page (the board's own document) and a
 * board's last page are never deleted. `by` is who deletes it, kept in the page's note
 * (DELETED_PAGES_MAP) for the others to be told.
 */
export function deletePageEntry(
  doc: Y.Doc,
  id: string,
  origin?: unknown,
  by: { id: string; name: string } | null = null,
  at = Date.now(),
): boolean {
  const pages = ordered(doc);
  const page = pages.find((p) => p.id === id);
  if (id === MAIN_PAGE_ID || pages.length <= 1 || !page) return false;
  doc.transact(() => {
    entryOf(doc, id, pages);
    doc.getMap(PAGES_MAP).delete(id);
    const notes = doc.getMap<unknown>(DELETED_PAGES_MAP);
    notes.set(id, { name: page.name, order: page.order, by, at });
    const kept = [...notes.entries()]
      .map(([key, value]) => readNote(key, value) ?? { id: key, at: 0 })
      .sort((a, b) => b.at - a.at);
    for (const old of kept.slice(MAX_DELETED_PAGES)) notes.delete(old.id);
  }, origin);
  return true;
}

/**
 * Puts a deleted page back in the list with its name, where it stood (its old order key; a page
 * since placed there sorts beside it), and forgets its note. Its document was kept, so the page
 * comes back whole; the server accepts connections to it again as it lists it (docs/api.md §17).
 * False when the page is listed, has no note, or the board holds MAX_PAGES.
 */
export function restorePageEntry(doc: Y.Doc, id: string, origin?: unknown): boolean {
  const pages = ordered(doc);
  const note = deletedPageNote(doc, id);
  if (!note || pages.length >= MAX_PAGES || pages.some((p) => p.id === id)) return false;
  doc.transact(() => {
    const entry = entryOf(doc, id, [...pages, { id, name: note.name, order: note.order }]);
    entry.set('name', note.name || nextPageName(pages));
    entry.set('order', note.order);
    doc.getMap(DELETED_PAGES_MAP).delete(id);
  }, origin);
  return true;
}
