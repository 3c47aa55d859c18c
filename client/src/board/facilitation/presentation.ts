// Presenting (docs/api.md §10, §14): `meta.presentation` says who presents and which frame is shown, so
// it survives reloads. Followers are local state: someone follows the presenter until they move
// the view themselves; "Bring everyone here" (a bumped `summon`) makes everyone follow again.
import {
  MAIN_PAGE_ID,
  PRESENTATION_KEY,
  type PresentationState,
  PresentationState as Schema,
  type ShapeRecord,
} from '@tandem/shared';
import type * as Y from 'yjs';
import { edit, metaOf } from '../model/doc.ts';

export function readPresentation(doc: Y.Doc): PresentationState | null {
  const parsed = Schema.safeParse(metaOf(doc).get(PRESENTATION_KEY));
  return parsed.success ? parsed.data : null;
}

export function writePresentation(doc: Y.Doc, state: PresentationState | null): void {
  edit(doc, () => {
    if (state === null) metaOf(doc).delete(PRESENTATION_KEY);
    else metaOf(doc).set(PRESENTATION_KEY, state);
  });
}

export function startPresenting(
  presenterId: string,
  frameId: string | null,
  pageId: string = MAIN_PAGE_ID,
): PresentationState {
  return { presenterId, frameId, pageId, summon: 0 };
}

export const showFrame = (
  p: PresentationState,
  frameId: string | null,
  pageId: string = MAIN_PAGE_ID,
): PresentationState => ({ ...p, frameId, pageId });

/** Where a step of the presentation goes: a frame (null: the page whole) on a page. */
export interface PresentationStop {
  pageId: string;
  frameId: string | null;
  /** Set when the step leaves the page: which of the next page's frames to show once it is open. */
  enter?: 'first' | 'last';
}

/**
 * The step after (or before) frame `currentId` of page `pageId`, whose frames in presentation
 * order are `frames`, through every page in order (docs/api.md §17): past a page's last frame
 * comes the next page's first, before its first the previous page's last. A page without frames
 * is one step, shown whole. Null at either end of the board.
 */
export function stepAcrossPages(
  pageIds: readonly string[],
  pageId: string,
  frames: readonly ShapeRecord[],
  currentId: string | null,
  step: 1 | -1,
): PresentationStop | null {
  const at = frames.findIndex((f) => f.id === currentId);
  // Not on one of this page's frames (the page shown whole, the frame gone, or the presenter came
  // here through the Pages panel): its first frame going forward, its last going back.
  if (at < 0 && frames.length > 0)
    return { pageId, frameId: (step === 1 ? frames[0] : frames[frames.length - 1])?.id ?? null };
  const within = at >= 0 ? frames[at + step] : undefined;
  if (within) return { pageId, frameId: within.id };
  const here = pageIds.indexOf(pageId);
  const next = here < 0 ? undefined : pageIds[here + step];
  if (next === undefined) return null;
  return { pageId: next, frameId: null, enter: step === 1 ? 'first' : 'last' };
}

export const summonEveryone = (p: PresentationState): PresentationState => ({
  ...p,
  summon: (p.summon ?? 0) + 1,
});

/**
 * Whether this client should (re)start following the presenter after the presentation changed
 * from `before` to `after`: a new presentation, a new presenter, or a summons — but never the
 * presenter themself.
 */
export function shouldFollow(
  before: PresentationState | null,
  after: PresentationState | null,
  myUserId: string,
): boolean {
  if (!after || after.presenterId === myUserId) return false;
  if (!before || before.presenterId !== after.presenterId) return true;
  return (after.summon ?? 0) > (before.summon ?? 0);
}
