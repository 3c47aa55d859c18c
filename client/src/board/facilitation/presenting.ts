// The presenter's steps through the frames of every page (docs/api.md §14, §17). The presentation
// is the board's (`meta.presentation` of its first document, with the page shown); a step that
// leaves the page writes the next page, goes there, and once that page has loaded shows its
// first frame (its last, going back). The others follow the presenter across pages as following
// does (Editor's Following: the presenter is found on the board's first document with their page).
import { MAIN_PAGE_ID, type PresentationState, readPages } from '@tandem/shared';
import type * as Y from 'yjs';
import { navigate } from '../../router.tsx';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { boundsOf, unionRect } from '../model/geometry.ts';
import { pagePath } from '../pages/model.ts';
import { fitRect, useEditor } from '../store.ts';
import { afterLoad } from '../sync/afterLoad.ts';
import type { BoardSession } from '../sync/provider.ts';
import { framesInOrder } from './frames.ts';
import { readPresentation, showFrame, stepAcrossPages, writePresentation } from './presentation.ts';

export interface PresentingPlace {
  boardId: string;
  /** The page shown. */
  pageId: string;
  /** The board's first document: the page list and the presentation. */
  boardDoc: Y.Doc;
  /** The page shown's shapes. */
  index: ShapeIndex;
}

/**
 * A step into another page, waiting for it to open (the editor of the page left is gone by then):
 * which of its frames to show. This tab's own, as the steps are this presenter's.
 */
let entering: { boardId: string; pageId: string; at: 'first' | 'last' } | null = null;

/** Fits frame `frameId` of the page shown on screen, or the whole page when null. */
export function showOnScreen(index: ShapeIndex, frameId: string | null): void {
  const snap = index.getSnapshot();
  const frame = frameId ? snap.byId.get(frameId) : undefined;
  const box = frame ? boundsOf(frame) : unionRect(snap.list.map((e) => e.bounds));
  if (!box) return;
  const st = useEditor.getState();
  st.setViewport(fitRect(box, st.screen));
}

const framesOf = (index: ShapeIndex) => framesInOrder(index.getSnapshot().list.map((e) => e.rec));

/** The presenter's next (or previous) step, on this page or into the next (or previous) one. */
export function stepPresentation(
  place: PresentingPlace,
  presentation: PresentationState,
  step: 1 | -1,
): void {
  const pageIds = readPages(place.boardDoc).map((page) => page.id);
  const next = stepAcrossPages(pageIds, place.pageId, framesOf(place.index), presentation.frameId, step);
  if (!next) return;
  writePresentation(place.boardDoc, showFrame(presentation, next.frameId, next.pageId));
  if (next.pageId === place.pageId) {
    showOnScreen(place.index, next.frameId);
    return;
  }
  entering = { boardId: place.boardId, pageId: next.pageId, at: next.enter ?? 'first' };
  navigate(pagePath(place.boardId, next.pageId));
}

/**
 * On the page a step led to: once its content has come from the server, shows its first (or last)
 * frame, or the whole page when it has none, and writes it as the presentation's. Returns the
 * cleanup; a step cancelled before the page loaded stays pending for the page's next editor.
 */
export function arriveOnPage(place: PresentingPlace, session: BoardSession): () => void {
  const pending = entering;
  if (!pending || pending.boardId !== place.boardId || pending.pageId !== place.pageId) return () => {};
  entering = null;
  let done = false;
  const cancel = afterLoad(session, () => {
    done = true;
    const presentation = readPresentation(place.boardDoc);
    if (!presentation || (presentation.pageId ?? MAIN_PAGE_ID) !== place.pageId) return;
    const frames = framesOf(place.index);
    const frame = pending.at === 'first' ? frames[0] : frames[frames.length - 1];
    writePresentation(place.boardDoc, showFrame(presentation, frame?.id ?? null, place.pageId));
    showOnScreen(place.index, frame?.id ?? null);
  });
  return () => {
    cancel();
    if (!done) entering = pending;
  };
}
