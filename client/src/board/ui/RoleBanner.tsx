// The note that tells a commenter or a viewer, on opening the board, that only editors can change
// it. It does not stay over the board: it can be dismissed, and it leaves by itself after the
// person's first action on the canvas (a press, a wheel turn, a key) or after ROLE_BANNER_MS,
// whichever comes first, as Miro's and Figma's do. The status bar keeps saying the role
// ("Can comment", "Read-only") with its sentence. A new role shows it again.
import { canComment, type Role } from '@tandem/shared';
import { useEffect, useState } from 'react';
import { Icon } from './icons.tsx';
import { useLeavesByItself } from './Notice.tsx';

/** How long the note stays when nothing is done on the board. */
export const ROLE_BANNER_MS = 8000;

/**
 * The role whose note has left, per board: the editor is mounted anew for each page, and a note
 * dismissed on one page is not shown again on the next. A different role shows it again.
 */
const leftFor = new Map<string, Role>();

/** What counts as an action on the board: a press, a wheel turn (pan or zoom), a key. */
const ACTIONS = ['pointerdown', 'wheel', 'keydown'] as const;

/**
 * The board's canvas: an action counts there (or, for a key, while it has focus). A press on the
 * bars around it (Follow someone, open Share, the zoom) is not yet an action on the board, and
 * would take the note away before it was read.
 */
const onBoard = (target: EventTarget | null) =>
  target instanceof Element && target.closest('[role="application"][aria-label="Board canvas"]') !== null;

/** Keys that move focus or are only held, not an action on the board. */
const NOT_AN_ACTION = new Set(['Tab', 'Shift', 'Control', 'Alt', 'Meta', 'CapsLock']);

export function roleBannerSentence(role: Role): string {
  return canComment(role)
    ? 'You can comment on this board (C). Only editors can change it.'
    : 'You are viewing this board. Only editors can change it.';
}

/** Mount with `key={role}`: a new role starts it over. */
export function RoleBanner({ boardId, role }: { boardId: string; role: Role }) {
  const [shown, setShown] = useState(() => leftFor.get(boardId) !== role);
  const leave = () => {
    leftFor.set(boardId, role);
    setShown(false);
  };
  // Shown (so not left for this role): what left for an earlier role is forgotten, so going back
  // to it tells it again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount (the parent keys it by role)
  useEffect(() => {
    if (shown) leftFor.delete(boardId);
  }, []);
  const hold = useLeavesByItself(shown ? roleBannerSentence(role) : null, leave, ROLE_BANNER_MS);
  // The first action on the board's canvas (the note's Dismiss is its own).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `leave` is made anew on each render
  useEffect(() => {
    if (!shown) return;
    const act = (e: Event) => {
      if (!onBoard(e.target)) return;
      if (e instanceof KeyboardEvent && NOT_AN_ACTION.has(e.key)) return;
      leave();
    };
    const options = { capture: true, passive: true };
    for (const type of ACTIONS) document.addEventListener(type, act, options);
    return () => {
      for (const type of ACTIONS) document.removeEventListener(type, act, options);
    };
  }, [shown]);
  if (!shown) return null;
  return (
    <div className="banner" role="note" {...hold}>
      <span>{roleBannerSentence(role)}</span>
      <button type="button" className="tool" aria-label="Dismiss note" title="Dismiss" onClick={leave}>
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}
