// Presenting (docs/api.md §10, §14): `meta.presentation` says who presents and which frame is shown, so
// it survives reloads. Followers are local state: someone follows the presenter until they move
// the view themselves; "Bring everyone here" (a bumped `summon`) makes everyone follow again.
import { PRESENTATION_KEY, type PresentationState, PresentationState as Schema } from '@tandem/shared';
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

export function startPresenting(presenterId: string, frameId: string | null): PresentationState {
  return { presenterId, frameId, summon: 0 };
}

export const showFrame = (p: PresentationState, frameId: string | null): PresentationState => ({
  ...p,
  frameId,
});

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
