// Following a presentation, and the presenter's chip and arrow keys (docs/api.md §14, §17).
import { MAIN_PAGE_ID, type PresentationState } from '@tandem/shared';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useRemotes } from '../presence/remote.ts';
import { onKeydown, ownsKey } from '../shortcuts.ts';
import { useEditor } from '../store.ts';
import { shouldFollow, summonEveryone, writePresentation } from './presentation.ts';
import { arriveOnPage, type PresentingPlace, stepPresentation } from './presenting.ts';
import type { FacilitationProps } from './props.ts';

/**
 * The presentation last seen on each board in this tab. The editor is made anew for every page
 * shown, so this outlives it: someone who stopped following and opens another page is not taken
 * back to the presenter, which a fresh start would do.
 */
const lastSeen = new Map<string, PresentationState | null>();

/**
 * Everyone but the presenter follows the presenter's viewport (the avatars' follow mechanism,
 * across pages), until they move the view themselves; "Follow again" and "Bring everyone here"
 * re-follow. The presenter steps through the frames of every page with the arrow keys and can
 * bring everyone along.
 */
export function PresentationFollow(props: FacilitationProps & { presentation: PresentationState | null }) {
  const { presentation, session, user, index, boardId } = props;
  // The presenter is found on the board's first document, where everyone is with their page.
  const remotes = useRemotes(props.boardAwareness ?? session.awareness);
  const followId = useEditor((s) => s.followClientId);
  const wantFollow = useRef(false);
  const presenter = presentation
    ? (remotes.find((r) => r.state.user.id === presentation.presenterId && !r.state.idle) ??
      remotes.find((r) => r.state.user.id === presentation.presenterId))
    : undefined;
  const mine = presentation?.presenterId === user.id;
  const boardDoc = props.boardDoc ?? session.doc;
  const pageId = props.pageId ?? MAIN_PAGE_ID;
  const place: PresentingPlace = useMemo(
    () => ({ boardId, pageId, boardDoc, index }),
    [boardId, pageId, boardDoc, index],
  );

  useEffect(() => {
    const previous = lastSeen.get(boardId) ?? null;
    if (shouldFollow(previous, presentation, user.id)) wantFollow.current = true;
    if (!presentation) {
      wantFollow.current = false;
      if (previous && previous.presenterId !== user.id) useEditor.getState().follow(null);
    }
    lastSeen.set(boardId, presentation);
  }, [presentation, user.id, boardId]);
  useEffect(() => {
    if (wantFollow.current && presenter) {
      wantFollow.current = false;
      useEditor.getState().follow(presenter.clientId);
    }
  });

  // The presenter, arriving on the page a step led to, shows its first (or last) frame.
  useEffect(() => (mine ? arriveOnPage(place, session) : undefined), [mine, place, session]);

  // The presenter's arrow keys step through the frames; captured before the editor's own keys,
  // which would move the selection. Not in a text field, a dialog (a confirmation, Share, the
  // shortcuts list), a menu or on a tool bar's button, whose arrow keys are their own, by the rule
  // the editor's keys follow (ownsKey, shortcuts.ts): they stepped the frames from under an open
  // dialog, and from a focused tool.
  useEffect(() => {
    if (!mine || !presentation) return;
    const down = (e: KeyboardEvent) => {
      if (ownsKey(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      const step =
        e.key === 'ArrowRight' || e.key === 'ArrowDown'
          ? 1
          : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
            ? -1
            : 0;
      if (step === 0) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      stepPresentation(place, presentation, step);
    };
    return onKeydown(down, { capture: true });
  }, [mine, presentation, place]);

  const column = props.bannerColumn;
  if (!presentation || !column) return null;
  // In the editor's column of notes, above a "Following" banner: laid out with them, never over
  // them, the bars or the messages (which that column pushes up).
  const inBannerColumn = (chip: ReactNode) => createPortal(chip, column);
  if (mine) {
    return inBannerColumn(
      <div className="panel presenting-chip" role="status">
        <span>You are presenting</span>
        <button
          type="button"
          className="btn small primary"
          onClick={() => writePresentation(boardDoc, summonEveryone(presentation))}
        >
          Bring everyone here
        </button>
        <button type="button" className="btn small ghost" onClick={() => writePresentation(boardDoc, null)}>
          Stop
        </button>
      </div>,
    );
  }
  const following = presenter !== undefined && followId === presenter.clientId;
  return inBannerColumn(
    <div className="panel presenting-chip" role="status">
      <span>{presenter ? `${presenter.state.user.name} is presenting` : 'A presentation is on'}</span>
      {!following && presenter && (
        <button
          type="button"
          className="btn small primary"
          onClick={() => useEditor.getState().follow(presenter.clientId)}
        >
          Follow again
        </button>
      )}
    </div>,
  );
}
