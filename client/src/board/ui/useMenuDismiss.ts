// A popup menu puts focus on its first item as it opens, closes on Escape (focus goes back to its
// button) and on a press outside it, and the up and down arrows move through its items, as menus
// do everywhere (Home and End: the first and last item). A popup panel of controls (the facilitation bar's) is dismissed the same way,
// with the differences `DismissOptions.panel` lists.
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { isTyping, onKeydown } from '../shortcuts.ts';

const ITEMS = '[role^="menuitem"]:not(:disabled)';
/** A panel's controls, the first of which takes focus as it opens. */
const CONTROLS = 'button:not(:disabled), input, select, textarea, a[href]';

export interface DismissOptions {
  /**
   * A popup panel of controls rather than a menu of items (the facilitation bar's timer, vote…):
   * `wrap` is the panel, not its button; its first control takes focus as it opens; a press
   * outside leaves it open (its controls are used beside the board); and only an Escape pressed
   * in it closes it here, the key going on to the board's handlers (elsewhere Escape is the
   * board's alone, and the owner closes it then, focus unmoved).
   */
  panel?: boolean;
  /** The button to give focus back to on Escape; else the one in `wrap` with aria-haspopup. */
  button?: RefObject<HTMLOrSVGElement | null>;
}

/** Gives focus back to the menu's own button (the element `useMenu`'s trigger props are on). */
export const focusMenuButton = (wrap: RefObject<HTMLElement | null>): void =>
  wrap.current?.querySelector<HTMLElement>('[aria-haspopup]')?.focus();

/**
 * `open` is true, or which of several popups sharing `wrap` is open (the facilitation bar's: one
 * replacing another takes focus again), or false or null for none.
 */
export function useMenuDismiss(
  open: boolean | string | null,
  wrap: RefObject<HTMLElement | null>,
  close: () => void,
  { panel = false, button }: DismissOptions = {},
): void {
  // Its own effect, run only as the menu opens: `close` may be new on every render (Mentions), and
  // focus must not jump back to the first item then.
  useEffect(() => {
    // ARIA's menu button: opened, focus is on the first item, so Enter picks it and the arrows
    // move on from it. Focus stayed on the button, and a keyboard user had to Tab into the menu.
    // A panel is drawn after its whole bar, so Tab from its button went on along the bar.
    // A panel whose first control is a text field (the Frames panel's names) has its heading take
    // focus instead (tabindex -1, as the side panels' do): a focused field showed a long name
    // scrolled to its end, with a focus ring, as the panel opened.
    if (!open) return;
    const head = panel ? wrap.current?.querySelector<HTMLElement>('h2[tabindex="-1"]') : null;
    (head ?? wrap.current?.querySelector<HTMLElement>(panel ? CONTROLS : ITEMS))?.focus();
  }, [open, wrap, panel]);
  useEffect(() => {
    if (!open) return;
    const inWrap = (e: Event) =>
      !!wrap.current && e.target instanceof Node && wrap.current.contains(e.target);
    const key = (e: KeyboardEvent) => {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp' || e.key === 'Home' || e.key === 'End') {
        // Arrows move through the items, as in every menu (ARIA's menu button): a screen reader
        // in a menu offers the arrows, and they did nothing (on the board they nudged the selection).
        const root = wrap.current;
        if (!root || !(e.target instanceof Node) || !root.contains(e.target)) return;
        if ((e.key === 'Home' || e.key === 'End') && isTyping(e.target)) return;
        const items = [...root.querySelectorAll<HTMLElement>(ITEMS)];
        if (items.length === 0) return;
        e.preventDefault();
        e.stopPropagation();
        const at = items.indexOf(e.target as HTMLElement);
        // Home and End: the first and the last item.
        const step = e.key === 'ArrowDown' || e.key === 'Home' ? 1 : -1;
        const next =
          e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? items.length - 1
              : at < 0
                ? step > 0
                  ? 0
                  : items.length - 1
                : (at + step + items.length) % items.length;
        items[next]!.focus();
        return;
      }
      if (e.key !== 'Escape' || (panel && !inWrap(e))) return;
      // A menu keeps its Escape from the board's own (clear the selection). A panel passes it on,
      // as the facilitation bar always has: its Escape clears the selection too.
      if (!panel) {
        e.preventDefault();
        e.stopPropagation();
      }
      close();
      if (button) button.current?.focus();
      else focusMenuButton(wrap);
    };
    const press = (e: PointerEvent) => {
      if (wrap.current && !inWrap(e)) close();
    };
    // Capture, so the editor's own Escape (clear the selection) does not see this one.
    const stopKeys = onKeydown(key, { capture: true });
    if (!panel) window.addEventListener('pointerdown', press, true);
    return () => {
      stopKeys();
      window.removeEventListener('pointerdown', press, true);
    };
  }, [open, wrap, close, panel, button]);
}

/**
 * A popup menu's state: whether it is open, the element that wraps its button and it, `close`,
 * and `trigger`, the props of the button that opens and closes it (spread on a <button>).
 */
export function useMenu<T extends HTMLElement>() {
  const [open, setOpen] = useState(false);
  const wrap = useRef<T>(null);
  const close = useCallback(() => setOpen(false), []);
  useMenuDismiss(open, wrap, close);
  const trigger = {
    type: 'button',
    'aria-haspopup': 'menu',
    'aria-expanded': open,
    onClick: () => setOpen((was) => !was),
  } as const;
  return { open, setOpen, wrap, close, trigger };
}
