// The page list (docs/api.md §17) as the client uses it: shared/pages.ts's changes with the Pages
// origin (their own undo). Each page's content is its own document (sync/provider.ts).
import {
  addPageEntry,
  DELETED_PAGES_MAP,
  type DeletedPage,
  deletedPageNote,
  deletePageEntry,
  MAIN_PAGE_ID,
  META_KEY,
  movePageEntry,
  newPageId,
  PAGES_MAP,
  type PageEntry,
  pageLabel,
  readDeletedPages,
  readPages,
  renamePageEntry,
  restorePageEntry,
} from '@tandem/shared';
import * as Y from 'yjs';
import { clockTime, dayLabel } from '../history/times.ts';
import { forgetOnRestore } from '../model/doc.ts';

/** Page list changes carry this origin: their own undo (the Pages panel's), not the canvas's. */
export const PAGES_ORIGIN = Symbol('tandem-pages');

export type { DeletedPage, PageEntry };
export { deletedPageNote, pageLabel, readDeletedPages, readPages };

/**
 * Adds a page after `after` (or at the end); its id, or null at MAX_PAGES. A blank `name` stores
 * "Page N" (shared/pages.ts nextPageName), so the page keeps its name wherever it is moved.
 */
export function addPage(doc: Y.Doc, name: string, after?: string, id = newPageId()): string | null {
  return addPageEntry(doc, id, name, after, PAGES_ORIGIN) ? id : null;
}

/** Renames a page; false for a blank name, which leaves the page's name as it was. */
export const renamePage = (doc: Y.Doc, id: string, name: string): boolean =>
  renamePageEntry(doc, id, name, PAGES_ORIGIN);

/** Moves a page to position `to` (0-based, in the list as it is before the move). */
export const movePage = (doc: Y.Doc, id: string, to: number): void =>
  movePageEntry(doc, id, to, PAGES_ORIGIN);

/**
 * Takes a page out of the list (never the first); its document stays stored for an undo or a
 * restore. `by` (who deletes it) is kept with it, so the people on it are told who did it.
 */
export const deletePage = (doc: Y.Doc, id: string, by: { id: string; name: string }): boolean =>
  deletePageEntry(doc, id, PAGES_ORIGIN, { id: by.id, name: by.name });

/** Brings a deleted page back into the list ("Recently deleted"), whole: its document was kept. */
export const restorePage = (doc: Y.Doc, id: string): boolean => restorePageEntry(doc, id, PAGES_ORIGIN);

/** The sentence telling someone on a page that another person deleted it. */
export const pageDeletedSentence = (note: DeletedPage): string =>
  `${note.by?.name ?? 'Someone'} deleted the page “${pageLabel(note)}”.`;

/** When a page was deleted, as a sentence's end: "at 09:14" today, else "on Nov 3 at 09:14". */
export function deletedWhen(at: number): string {
  if (!at) return '';
  const iso = new Date(at).toISOString();
  const day = dayLabel(iso);
  return `${day ? ` on ${day}` : ''} at ${clockTime(iso)}`;
}

/**
 * What someone who opens a link to a page the board no longer lists is told (the server refuses
 * it; the first page is shown): who deleted it and when, from the note the deletion left in the
 * first document, and, for the owner, where it can be brought back. Without a note (a mistyped
 * link, or a note since forgotten) it says only that the page is not on the board.
 */
export function pageGoneSentence(note: DeletedPage | null, meId: string, isOwner: boolean): string {
  if (!note) return 'That page is no longer on the board, so its first page is shown.';
  const who = note.by ? (note.by.id === meId ? 'You' : note.by.name) : 'Someone';
  const restore = isOwner ? ' You can restore it from “Recently deleted” in the Pages panel.' : '';
  return `${who} deleted the page “${pageLabel(note)}”${deletedWhen(note.at)}, so the first page is shown.${restore}`;
}

/** The page list's own undo: a page deletion undone brings the page back for everyone. */
export function createPagesUndo(doc: Y.Doc): Y.UndoManager {
  // Both formats' homes: a first change to a board of the first format moves its list (shared/pages.ts).
  // A restore of the first page sets the page list back too (it is part of that document).
  return forgetOnRestore(
    doc,
    // The deleted pages' notes too: an undone deletion takes its note back with it.
    new Y.UndoManager([doc.getMap(PAGES_MAP), doc.getMap(META_KEY), doc.getMap(DELETED_PAGES_MAP)], {
      trackedOrigins: new Set([PAGES_ORIGIN]),
      captureTimeout: 0,
    }),
  );
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

/** Names as a sentence reads them: "Ben", "Ben and Cy", "Ben, Cy and 2 others". */
function namesInSentence(names: readonly string[]): string {
  if (names.length <= 2) return names.join(' and ');
  if (names.length === 3) return `${names[0]}, ${names[1]} and ${names[2]}`;
  return `${names[0]}, ${names[1]} and ${names.length - 2} others`;
}

/**
 * What deleting a page would take from people, as the confirmation's sentence, or null when it
 * takes nothing (the open page, empty, with nobody else on it: deleted at once, Undo at hand).
 * `shapes` is the page's shape count when its document is open here, null when it is not (its
 * content is not known without loading it: everything on it is said to go).
 */
export function pageDeletionQuestion(
  label: string,
  shapes: number | null,
  othersOnIt: readonly string[],
): { title: string; body: string } | null {
  if (shapes === 0 && othersOnIt.length === 0) return null;
  const content =
    shapes === null
      ? 'Everything on it is deleted with it'
      : shapes === 0
        ? 'It is empty'
        : `It holds ${shapes} ${shapes === 1 ? 'shape' : 'shapes'}`;
  const people =
    othersOnIt.length === 0
      ? ''
      : `, and ${namesInSentence(othersOnIt)} ${othersOnIt.length === 1 ? 'is' : 'are'} on it`;
  return {
    title: `Delete “${label}”?`,
    body: `${content}${people}. Undo in the Pages panel brings it back; later, the board’s owner can restore it from “Recently deleted”.`,
  };
}

/**
 * What an Undo or Redo of the keys or the toolbar did to the page list, said as a notice: the
 * list is usually closed, and the step changes it for everyone, so a rename taken back or a page
 * removed by Ctrl+Z on the canvas was otherwise seen by nobody who pressed it. Null when the list
 * is as it was (the step was the canvas's).
 */
export function pageListStepNotice(
  before: readonly PageEntry[],
  after: readonly PageEntry[],
  step: 'Undo' | 'Redo',
): string | null {
  const was = new Map(before.map((p) => [p.id, p]));
  const now = new Map(after.map((p) => [p.id, p]));
  const name = (p: PageEntry) => `“${pageLabel(p)}”`;
  const removed = before.filter((p) => !now.has(p.id));
  const added = after.filter((p) => !was.has(p.id));
  const other = step === 'Undo' ? 'Redo' : 'Undo';
  if (removed.length > 0)
    return `${step} removed the page ${removed.map(name).join(', ')}. ${other} brings it back.`;
  if (added.length > 0) return `${step} brought back the page ${added.map(name).join(', ')}.`;
  const renamed = after.find((p) => {
    const old = was.get(p.id);
    return old && pageLabel(old) !== pageLabel(p);
  });
  if (renamed) return `${step} renamed the page ${name(was.get(renamed.id)!)} to ${name(renamed)}.`;
  const order = (list: readonly PageEntry[]) => list.map((p) => p.id).join();
  if (order(before) !== order(after)) {
    const moved = after.find((p, i) => before[i]?.id !== p.id);
    if (moved) return `${step} moved the page ${name(moved)} in the list.`;
  }
  return null;
}
