// Keyboard shortcuts of docs/api.md §11. Ignored while typing in a field, so text editing is untouched.
import type { Actions } from '../actions.ts';
import { type Command, commandKey, matchesCommand } from '../commandKeys.ts';
import type { Alignment } from '../model/layout.ts';
import { ownsKey } from '../shortcuts.ts';
import { type Tool, useEditor } from '../store.ts';

export const toolKeys: Record<string, Tool> = {
  v: 'select',
  h: 'hand',
  n: 'sticky',
  r: 'rect',
  o: 'ellipse',
  d: 'diamond',
  t: 'text',
  a: 'arrow',
  p: 'pen',
  e: 'eraser',
  l: 'laser',
  // Also the context menu's Comment, which shows it from there.
  [commandKey('comment').toLowerCase()]: 'comment',
};

/**
 * Tools that change nothing on the board, so a viewer may pick them too. Comments are not board
 * content: a commenter comments on a read-only board, and a viewer is told they cannot (§18).
 */
const viewerTools: ReadonlySet<Tool> = new Set(['select', 'hand', 'laser', 'comment']);

type Placeable = 'sticky' | 'rect' | 'ellipse' | 'diamond' | 'text';
/** The tools whose shape Enter places in the middle of the view (a click's default shape): each is named as its shape. */
const placeableTools: ReadonlySet<Tool> = new Set<Placeable>([
  'sticky',
  'rect',
  'ellipse',
  'diamond',
  'text',
]);
const isPlaceable = (tool: Tool): tool is Placeable => placeableTools.has(tool);

/** Alt+letter aligns (tldraw's keys); with Shift, H and V distribute. */
export const alignKeys: Record<string, Alignment> = {
  KeyA: 'left',
  KeyH: 'center',
  KeyD: 'right',
  KeyW: 'top',
  KeyV: 'middle',
  KeyS: 'bottom',
};

/** The key that picks `tool`, as people read it ("V"), when it has one. */
export function toolKeyOf(tool: Tool): string | undefined {
  const key = Object.keys(toolKeys).find((k) => toolKeys[k] === tool);
  return key?.toUpperCase();
}

/** The keys that align a selection by `how` ("Alt+A"). */
export function alignKeyOf(how: Alignment): string {
  const code = Object.keys(alignKeys).find((c) => alignKeys[c] === how)!;
  return `Alt+${code.replace(/^Key/, '')}`;
}

/** The keys that distribute a selection along `axis` (Shift with centre's or middle's key). */
export function distributeKeyOf(axis: 'x' | 'y'): string {
  return alignKeyOf(axis === 'x' ? 'center' : 'middle').replace('Alt+', 'Alt+Shift+');
}

/** The commands pressed with Ctrl (or ⌘), each run by its keys in COMMAND_KEYS (commandKeys.ts). */
const modCommands = [
  'undo',
  'redo',
  'duplicate',
  'selectAll',
  'group',
  'ungroup',
  'lock',
  'forward',
  'backward',
  'toFront',
  'toBack',
] as const satisfies ActionCommand[];

/**
 * The view's commands, with or without Ctrl (or ⌘), each run by its keys in COMMAND_KEYS: + and
 * −, Ctrl+0, and Shift+1 and Shift+2 as in tldraw (by the physical key, since Shift+2 types " or @
 * by layout).
 */
const viewCommands = [
  'zoomIn',
  'zoomOut',
  'zoomReset',
  'zoomToFit',
  'zoomToSelection',
] as const satisfies ActionCommand[];

/** The commands that are one editor action each, with no argument: the keys' and the context menu's. */
export type ActionCommand = Exclude<
  Command,
  'copy' | 'cut' | 'paste' | 'copyPng' | 'comment' | 'contextMenu'
>;

/** What each of those commands runs (the keys here, the context menu's items). */
export const commandActions = (actions: Actions): Record<ActionCommand, () => unknown> => ({
  undo: actions.undo,
  redo: actions.redo,
  duplicate: actions.duplicate,
  delete: actions.deleteSelection,
  selectAll: actions.selectAll,
  group: actions.group,
  ungroup: actions.ungroup,
  lock: actions.toggleLock,
  forward: actions.forward,
  backward: actions.backward,
  toFront: actions.toFront,
  toBack: actions.toBack,
  zoomIn: actions.zoomIn,
  zoomOut: actions.zoomOut,
  zoomReset: actions.zoomReset,
  zoomToFit: actions.zoomToFit,
  zoomToSelection: actions.zoomToSelection,
});

/** How far an arrow key pans the view with nothing selected, in screen pixels (with Shift: far). */
export const PAN_STEP_PX = { near: 50, far: 300 } as const;

/** The board canvas (the SVG with role="application"), the one place Tab walks through shapes. */
const isCanvas = (t: EventTarget | null): boolean => t instanceof Element && t.matches('svg.canvas');

export function handleKeyDown(e: KeyboardEvent, actions: Actions, readOnly: boolean): void {
  // Keys typed in a field, pressed in the share dialog or a menu (Delete there must not delete
  // shapes), or an arrow on a tool bar's button belong to them.
  if (ownsKey(e)) return;
  // Enter and Space on a focused button press that button, nothing else.
  if ((e.key === 'Enter' || e.key === ' ') && e.target instanceof HTMLButtonElement) return;
  const st = useEditor.getState();
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.toLowerCase();
  if (st.keyGuard) {
    // The note being typed in was deleted under the typist: their next letters are not commands.
    if (e.key === 'Escape') st.setKeyGuard(false);
    else if (
      !mod &&
      (e.key.length === 1 || e.key === 'Backspace' || e.key === 'Delete' || e.key === 'Enter')
    ) {
      e.preventDefault();
      return;
    }
  }
  // Tab and Shift+Tab on the canvas move the selection to the next or previous shape in reading
  // order (rows top to bottom, left to right: model/describe.ts), as tldraw does: only while
  // something is selected, so with nothing selected (Escape) Tab leaves the canvas for the rest
  // of the page as it always did, and the canvas is never a keyboard trap. Enter with nothing
  // selected is the way in (below). Alt+Tab is the system's window switcher, never ours.
  if (e.key === 'Tab' && !mod && !e.altKey && isCanvas(e.target) && st.selection.length > 0) {
    e.preventDefault();
    actions.selectAdjacent(e.shiftKey ? -1 : 1);
    return;
  }
  if (e.key === ' ' && !e.repeat) {
    st.setSpace(true);
    e.preventDefault();
    return;
  }
  // Zoom, by the keys of the one table (with Ctrl too: kept from the browser's own page zoom).
  const view = viewCommands.find((c) => matchesCommand(e, c));
  if (view) {
    e.preventDefault();
    commandActions(actions)[view]();
    return;
  }
  if (mod) {
    // Copy, cut and paste go through the clipboard events (see Board), which carry the data.
    const command = modCommands.find((c) => matchesCommand(e, c));
    if (command) {
      e.preventDefault();
      commandActions(actions)[command]();
    }
    return;
  }
  if (e.altKey) {
    // Align and distribute, as in tldraw (by physical key: Alt changes the letter on a Mac).
    const how = alignKeys[e.code];
    if (how && st.selection.length > 1) {
      e.preventDefault();
      if (e.shiftKey && (how === 'center' || how === 'middle'))
        actions.distribute(how === 'center' ? 'x' : 'y');
      else if (!e.shiftKey) actions.align(how);
    }
    return;
  }
  const step = e.shiftKey ? 10 : 1;
  const arrows: Record<string, [number, number]> = {
    ArrowLeft: [-step, 0],
    ArrowRight: [step, 0],
    ArrowUp: [0, -step],
    ArrowDown: [0, step],
  };
  const nudge = arrows[e.key];
  if (nudge && st.selection.length > 0) {
    e.preventDefault();
    actions.nudge(nudge[0], nudge[1]);
    return;
  }
  // With nothing selected the arrows pan the view, as in Miro and tldraw: before, they did
  // nothing, and a keyboard user had no way to move around the board but zooming. Only from the
  // canvas (or nothing focused): on a button or a slider the arrows are that control's.
  if (nudge && (isCanvas(e.target) || e.target === document.body)) {
    e.preventDefault();
    const px = e.shiftKey ? PAN_STEP_PX.far : PAN_STEP_PX.near;
    actions.panBy(Math.sign(nudge[0]) * px, Math.sign(nudge[1]) * px);
    return;
  }
  if (matchesCommand(e, 'delete')) {
    e.preventDefault();
    actions.deleteSelection();
    return;
  }
  if (e.key === 'Escape') {
    st.follow(null);
    st.select([]);
    st.setTool('select');
    return;
  }
  // Enter with a shape tool picked places its shape mid-view: without it, shapes were made only
  // by a click or drag on the canvas, so a keyboard user could pick N and never make a note.
  const picked = st.tool;
  if (e.key === 'Enter' && isPlaceable(picked) && !readOnly) {
    e.preventDefault();
    actions.placeAtCentre(picked);
    return;
  }
  if (e.key === 'Enter' && st.selection.length === 1 && !readOnly && !actions.isLocked(st.selection[0]!)) {
    e.preventDefault();
    // Through the action, which gives a connector its (empty) label first: setting the editing
    // id alone opened a box on an unlabelled arrow with nothing to type into, and the letters
    // typed became tool shortcuts (E picked the eraser).
    actions.editText(st.selection[0]!);
    return;
  }
  // Enter on the canvas with nothing selected selects the first shape in reading order: the way
  // into the shapes for the keyboard, after which Tab walks on through them.
  if (e.key === 'Enter' && st.selection.length === 0 && st.tool === 'select' && isCanvas(e.target)) {
    if (actions.selectAdjacent(1)) e.preventDefault();
    return;
  }
  if (key === 'q' && !e.shiftKey) {
    st.setToolLocked(!st.toolLocked);
    return;
  }
  if (matchesCommand(e, 'lock') && st.selection.length > 0) {
    actions.toggleLock();
    return;
  }
  const tool = toolKeys[key];
  if (tool && !e.shiftKey) {
    if (readOnly && !viewerTools.has(tool)) return;
    st.setTool(tool);
  }
}

export function handleKeyUp(e: KeyboardEvent): void {
  if (e.key === ' ') useEditor.getState().setSpace(false);
}
