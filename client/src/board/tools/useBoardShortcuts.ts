// Keyboard and clipboard for the whole page while a board is open: bound once per board session
// (not on every render), reading the lock state at event time.
import { useEffect } from 'react';
import type { Actions } from '../actions.ts';
import { onKeydown } from '../shortcuts.ts';
import { handleKeyDown, handleKeyUp } from './keyboard.ts';

const typing = (t: EventTarget | null) => t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement;

export function useBoardShortcuts(
  actions: Actions,
  /** True while the board cannot be changed (viewer, access lost, a version previewed). */
  locked: () => boolean,
  /** Called on every key press (presence: the person is active). */
  onActivity: () => void,
): void {
  useEffect(() => {
    const down = (e: KeyboardEvent) => {
      onActivity();
      handleKeyDown(e, actions, locked());
    };
    const copy = (e: ClipboardEvent) => {
      if (typing(e.target)) return;
      const text = actions.copyText();
      if (!text || !e.clipboardData) return;
      e.clipboardData.setData('text/plain', text);
      e.preventDefault();
      void actions.copy();
    };
    const cut = (e: ClipboardEvent) => {
      if (typing(e.target)) return;
      copy(e);
      if (e.defaultPrevented) actions.deleteSelection();
    };
    const paste = (e: ClipboardEvent) => {
      if (typing(e.target)) return;
      e.preventDefault();
      void actions.paste(e.clipboardData?.getData('text/plain') || undefined);
    };
    const stopKeys = onKeydown(down);
    window.addEventListener('keyup', handleKeyUp);
    document.addEventListener('copy', copy);
    document.addEventListener('cut', cut);
    document.addEventListener('paste', paste);
    return () => {
      stopKeys();
      window.removeEventListener('keyup', handleKeyUp);
      document.removeEventListener('copy', copy);
      document.removeEventListener('cut', cut);
      document.removeEventListener('paste', paste);
    };
  }, [actions, locked, onActivity]);
}
