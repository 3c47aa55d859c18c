// The keys of the board's commands, in one table: the key handlers (tools/keyboard.ts, the
// context menu, Copy as PNG) match events against it with `matchesCommand`, the Keyboard
// shortcuts dialog lists it and the context menu shows each item's first key. A key changed here
// changes in all of them. Keys are written as people read them ("Ctrl+Shift+Z"): Ctrl is Ctrl or
// ⌘ (either one matches, on every platform, as the board has always taken both); the modifiers
// written must be held and no other (Shift, Alt, Ctrl), so Ctrl+Z is not Ctrl+Shift+Z.

/** Each command's keys; the first is the one a menu shows beside it. */
export const COMMAND_KEYS = {
  undo: ['Ctrl+Z'],
  redo: ['Ctrl+Shift+Z', 'Ctrl+Y'],
  copy: ['Ctrl+C'],
  cut: ['Ctrl+X'],
  paste: ['Ctrl+V'],
  duplicate: ['Ctrl+D'],
  copyPng: ['Shift+Alt+C'],
  selectAll: ['Ctrl+A'],
  delete: ['Delete', 'Backspace'],
  group: ['Ctrl+G'],
  ungroup: ['Ctrl+Shift+G'],
  lock: ['Shift+L', 'Ctrl+Shift+L'],
  forward: ['Ctrl+]'],
  backward: ['Ctrl+['],
  toFront: ['Ctrl+Shift+]'],
  toBack: ['Ctrl+Shift+['],
  zoomIn: ['+', '=', 'Ctrl+=', 'Ctrl++'],
  zoomOut: ['−', 'Ctrl+−'],
  zoomReset: ['Ctrl+0'],
  zoomToFit: ['Shift+1'],
  zoomToSelection: ['Shift+2'],
  /** Picks the Comment tool; the context menu's Comment starts a thread where it was opened. */
  comment: ['C'],
  contextMenu: ['Shift+F10', 'Menu key'],
} as const satisfies Record<string, readonly string[]>;

export type Command = keyof typeof COMMAND_KEYS;

/** The key shown beside a command (a menu item's). */
export const commandKey = (command: Command): string => COMMAND_KEYS[command][0];

/** What a key event carries that a match reads (a KeyboardEvent, or React's). */
export interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** Keys named in words (or written as read: − the minus sign) in the table, and the event's `key` for each. */
const named: Record<string, string> = { 'Menu key': 'ContextMenu', '−': '-' };
/**
 * Characters typed with Shift on some layouts and not on others (+ on a US one but not on a keypad,
 * = on a German one): for them Shift is not asked.
 */
const anyShift: ReadonlySet<string> = new Set(['+', '=', '−']);
/** The character Shift types with a digit on a US layout: matched as well as the physical key. */
const shifted: Record<string, string> = { '1': '!', '2': '@' };
/** The physical key of each punctuation key in the table. */
const codes: Record<string, string> = { ']': 'BracketRight', '[': 'BracketLeft' };

/** Whether `e` is the key combination `combo` ("Ctrl+Shift+Z", "Shift+1", "Delete"). */
export function matchesCombo(e: KeyLike, combo: string): boolean {
  // The key itself may be +: "+", "Ctrl++".
  const plus = combo === '+' || combo.endsWith('++');
  const parts = plus ? [...combo.slice(0, -1).split('+').filter(Boolean), '+'] : combo.split('+');
  const main = parts.pop()!;
  const ctrl = parts.includes('Ctrl');
  const shift = parts.includes('Shift');
  const alt = parts.includes('Alt');
  if ((e.ctrlKey || e.metaKey) !== ctrl || e.altKey !== alt) return false;
  if (e.shiftKey !== shift && !anyShift.has(main)) return false;
  const key = named[main] ?? main;
  if (e.key.toLowerCase() === key.toLowerCase()) return true;
  // By the physical key where a modifier changes the character typed: Alt changes the letter on
  // a Mac (Shift+Alt+C types Ç), Shift turns 1 into ! and ] into }.
  if (/^[A-Z]$/.test(key)) return alt && e.code === `Key${key}`;
  if (/^[0-9]$/.test(key)) return shift && (e.code === `Digit${key}` || e.key === shifted[key]);
  if (codes[key]) return shift && e.code === codes[key];
  return false;
}

/** Whether `e` is one of `command`'s keys. */
export const matchesCommand = (e: KeyLike, command: Command): boolean =>
  COMMAND_KEYS[command].some((combo) => matchesCombo(e, combo));

/**
 * A Mac (macOS, not iPad), where Ctrl+click is the right-click. Read at the time of the event,
 * so a test can stand in for a Mac.
 */
export const isMac = (): boolean => typeof navigator !== 'undefined' && /^Mac/i.test(navigator.platform);
