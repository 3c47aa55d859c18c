// A popup menu puts focus on its first item as it opens, closes on Escape (focus goes back to its
// button) and on a press outside it, and the up and down arrows move through its items, as menus
// do everywhere.
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { onKeydown } from '../shortcuts.ts';

const ITEMS = '[role^="menuitem"]:not(:disabled)';

/** Gives focus back to the menu's own button (the element `useMenu`'s trigger props are on). */
export const focusMenuButton = (wrap: RefObject<HTMLElement | null>): void =>
  wrap.current?.querySelector<HTMLElement>('[aria-haspopup]')?.focus();

export function useMenuDismiss(open: boolean, wrap: RefObject<HTMLElement | null>, close: () => void): void {
  // Its own effect, run only as the menu opens: `close` may be new on every render (Mentions), and
  // focus must not jump back to the first item then.
  useEffect(() => {
    // ARIA's menu button: opened, focus is on the first item, so Enter picks it and the arrows
    // move on from it. Focus stayed on the button, and a keyboard user had to Tab into the menu.
    if (open) wrap.current?.querySelector<HTMLElement>(ITEMS)?.focus();
  }, [open, wrap]);
  useEffect(() => {
    if (!open) return;
    const key = (e: KeyboardEvent) => {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        // Arrows move through the items, as in every menu (ARIA's menu button): a screen reader
        // in a menu offers the arrows, and they did nothing (on the board they nudged the selection).
        const root = wrap.current;
        if (!root || !(e.target instanceof Node) || !root.contains(e.target)) return;
        const items = [...root.querySelectorAll<HTMLElement>(ITEMS)];
        if (items.length === 0) return;
        e.preventDefault();
        e.stopPropagation();
        const at = items.indexOf(e.target as HTMLElement);
        const step = e.key === 'ArrowDown' ? 1 : -1;
        const next = at < 0 ? (step > 0 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
        items[next]!.focus();
        return;
      }
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      close();
      focusMenuButton(wrap);
    };
    const press = (e: PointerEvent) => {
      if (wrap.current && e.target instanceof Node && !wrap.current.contains(e.target)) close();
    };
    // Capture, so the editor's own Escape (clear the selection) does not see this one.
    const stopKeys = onKeydown(key, { capture: true });
    window.addEventListener('pointerdown', press, true);
    return () => {
      stopKeys();
      window.removeEventListener('pointerdown', press, true);
    };
  }, [open, wrap, close]);
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
