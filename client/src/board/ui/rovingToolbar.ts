// One Tab stop for a bar of buttons, the WAI-ARIA toolbar pattern (as in tldraw and Excalidraw),
// shared by the editor's bars: the tools (Toolbar), the selection's Align and group bar
// (ArrangeBar) and the zoom controls (ZoomControls). A trial's keyboard user tabbed through
// fifteen tool buttons to get past the tool bar, then through every arrange and zoom button.
// The stop is the bar's preferred button (the picked tool) while focus is elsewhere, the button
// last focused in the bar while focus is in it (in a bar with no preferred one, also after), else
// its first; arrows, Home and End move between the buttons, Enter and
// Space press them as ever. The board's own keys leave the bar's arrows alone (ownsKey,
// shortcuts.ts, reads the mark `ROVING_TOOLBAR` this puts on the bar).
import { type FocusEvent, type KeyboardEvent, useState } from 'react';

/** The attribute on a bar whose arrow keys move between its buttons (see shortcuts.ts, ownsKey). */
export const ROVING_TOOLBAR = 'data-roving-toolbar';

export interface RovingToolbar {
  /** 0 for the bar's one Tab stop, -1 for its other buttons (by accessible name). */
  tabIndexOf(label: string): 0 | -1;
  /** Spread on the element with role="toolbar". */
  barProps: {
    [ROVING_TOOLBAR]: true;
    onFocus(e: FocusEvent<HTMLElement>): void;
    onBlur(e: FocusEvent<HTMLElement>): void;
    onKeyDown(e: KeyboardEvent<HTMLElement>): void;
  };
}

/**
 * The roving tabindex of a bar whose buttons are named `labels` (their aria-labels, in order; only
 * the ones that can take focus: a greyed button cannot be the stop), `preferred` its stop while
 * focus is elsewhere when it is one of them (without one, the button last focused stays the stop).
 */
export function useRovingToolbar(labels: readonly string[], preferred?: string): RovingToolbar {
  const [roving, setRoving] = useState<string | null>(null);
  const stop = [roving, preferred].find((l) => l && labels.includes(l)) ?? labels[0];
  return {
    tabIndexOf: (label) => (label === stop ? 0 : -1),
    barProps: {
      [ROVING_TOOLBAR]: true,
      onFocus: (e) => {
        const label = e.target.getAttribute('aria-label');
        if (label && labels.includes(label)) setRoving(label);
      },
      onBlur: (e) => {
        // Left for the rest of the page: the next Tab into the bar lands on its preferred button
        // (the picked tool); a bar without one keeps the button last focused, as WAI-ARIA suggests.
        if (preferred !== undefined && !e.currentTarget.contains(e.relatedTarget)) setRoving(null);
      },
      onKeyDown: toolbarKeys,
    },
  };
}

/** The keys that move focus along the bar, to the previous or next button, or to either end. */
const moves: Record<string, (at: number, count: number) => number> = {
  ArrowLeft: (at, n) => (at - 1 + n) % n,
  ArrowUp: (at, n) => (at - 1 + n) % n,
  ArrowRight: (at, n) => (at + 1) % n,
  ArrowDown: (at, n) => (at + 1) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
};

/**
 * Arrows (either pair, whichever way the bar runs), Home and End on a button of the bar focus
 * another, wrapping at the ends and passing over greyed ones (Redo with nothing to redo) and
 * hidden ones (a phone's bar leaves some out). Kept from the board's keys: with a shape selected,
 * an arrow here nudged it.
 */
function toolbarKeys(e: KeyboardEvent<HTMLElement>): void {
  const move = moves[e.key];
  if (!move || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
  // The bar's own buttons: a menu opened from the bar (a phone's "More tools") has its own keys.
  if ((e.target as Element).closest('[role="menu"]')) return;
  const buttons = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')].filter(
    (button) => !button.closest('[role="menu"]') && button.getClientRects().length > 0,
  );
  const at = buttons.indexOf(e.target as HTMLButtonElement);
  if (at < 0) return;
  e.preventDefault();
  e.stopPropagation();
  buttons[move(at, buttons.length)]?.focus();
}
