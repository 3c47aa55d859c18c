// The board's one keyboard registry. Every window-level keydown handler of the board registers
// here instead of on `window`: one listener for the capture phase and one for the bubble phase
// call the handlers in the order they were registered, as separate window listeners did. A
// handler that stops propagation (a menu's Escape, the presenter's arrow keys) stops the
// handlers after it in its phase, and the bubble phase altogether, as it did on `window`.

import { ROVING_TOOLBAR } from './ui/rovingToolbar.ts';

export type KeyHandler = (e: KeyboardEvent) => void;

/** A key typed into a field (or a contenteditable) is text, never a board shortcut. */
export const isTyping = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement &&
  (t.isContentEditable || t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');

/** Keys pressed in a dialog or an open menu belong to it (Delete there must not delete shapes). */
export const inDialogOrMenu = (t: EventTarget | null, withMenus = true): boolean =>
  t instanceof Element &&
  t.closest(withMenus ? 'dialog, [role="menu"], [role="alertdialog"]' : 'dialog, [role="alertdialog"]') !==
    null;

/** The keys that move focus along a bar of buttons (or a caret in a field). */
const MOVING_KEYS: ReadonlySet<string> = new Set([
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
]);

/**
 * The one rule every window-level key handler of the board asks first: whether the key pressed
 * belongs to the control it was pressed on, not to the board. So it is for any key typed in a
 * field, or pressed in a dialog or an open menu, and for the arrow keys, Home and End on a button
 * of a bar that moves along by them (the tools, the Align and group bar, the zoom controls:
 * rovingToolbar.ts). On a focused tool the presenter's arrows stepped the frames (a capture
 * handler, before the bar saw the key), and the board's nudged the selection.
 */
export const ownsKey = (e: KeyboardEvent): boolean =>
  isTyping(e.target) ||
  inDialogOrMenu(e.target) ||
  (MOVING_KEYS.has(e.key) && e.target instanceof Element && e.target.closest(`[${ROVING_TOOLBAR}]`) !== null);

const phases = { capture: [] as KeyHandler[], bubble: [] as KeyHandler[] };

function dispatch(list: KeyHandler[], e: KeyboardEvent): void {
  // A copy: a handler may register or remove handlers (a menu closing) while keys are handled.
  for (const handler of [...list]) {
    if (!list.includes(handler)) continue;
    handler(e);
    if (e.cancelBubble) return;
  }
}

const onCapture = (e: KeyboardEvent) => dispatch(phases.capture, e);
const onBubble = (e: KeyboardEvent) => dispatch(phases.bubble, e);

/**
 * Registers a keydown handler for the whole page; returns the function that removes it (an
 * effect's cleanup). `capture` runs it before the bubble-phase handlers, and before the page's
 * own elements see the key.
 */
export function onKeydown(handler: KeyHandler, options: { capture?: boolean } = {}): () => void {
  const phase = options.capture ? 'capture' : 'bubble';
  const list = phases[phase];
  if (list.length === 0)
    window.addEventListener('keydown', options.capture ? onCapture : onBubble, options.capture);
  list.push(handler);
  return () => {
    const at = list.indexOf(handler);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0)
      window.removeEventListener('keydown', options.capture ? onCapture : onBubble, options.capture);
  };
}
