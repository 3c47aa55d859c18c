// A popup menu closes on Escape (focus goes back to its button) and on a press outside it, as
// menus do everywhere.
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { onKeydown } from '../shortcuts.ts';

export function useMenuDismiss(open: boolean, wrap: RefObject<HTMLElement | null>, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const key = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      close();
      wrap.current?.querySelector<HTMLElement>('[aria-haspopup]')?.focus();
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
