// Every keyboard shortcut of the board, grouped as the Keyboard shortcuts dialog lists them (opened
// with `?`, as in Excalidraw, tldraw and Miro). The tool and alignment keys are read from the
// keyboard's own tables (tools/keyboard.ts) and the commands' from COMMAND_KEYS (commandKeys.ts),
// which their handlers match events against; the rest are written here beside the handlers they
// describe (handleKeyDown, Facilitation, ImageInput, HistoryButton), and client/test/shortcutList
// checks that every key the keyboard's tables bind is listed.
import { COMMAND_KEYS } from '../commandKeys.ts';
import { alignKeyOf, distributeKeyOf, toolKeyOf } from '../tools/keyboard.ts';
import { alignments, distributions, paletteTools } from './controls.ts';

export interface Shortcut {
  /** What to press, as people read it: "Ctrl+Shift+Z", "Shift+drag". Alternatives are separate. */
  keys: string[];
  what: string;
}

export interface ShortcutGroup {
  title: string;
  shortcuts: Shortcut[];
}

/** The key that opens the list. */
export const SHORTCUTS_KEY = '?';

/** The commands' keys, from the table their handlers match against (commandKeys.ts). */
const K = COMMAND_KEYS;

const key = (keys: string | readonly string[], what: string): Shortcut => ({
  keys: typeof keys === 'string' ? [keys] : [...keys],
  what,
});

export function shortcutGroups(): ShortcutGroup[] {
  const toolKey = (tool: Parameters<typeof toolKeyOf>[0]) => toolKeyOf(tool) ?? '';
  return [
    {
      title: 'Tools',
      shortcuts: [
        ...paletteTools.map((t) => key(toolKey(t.tool), t.label)),
        key(toolKey('comment'), 'Comment'),
        key(toolKey('laser'), 'Laser pointer'),
        key('I', 'Image'),
        key('F', 'Frame (around the selection, else draw one)'),
        key('Q', 'Keep the tool after each use'),
        key(['Space+drag', 'Middle-drag'], 'Pan the board'),
      ],
    },
    {
      title: 'Edit',
      shortcuts: [
        key(K.undo, 'Undo your last change'),
        key(K.redo, 'Redo'),
        key(K.copy, 'Copy'),
        key(K.cut, 'Cut'),
        key(K.paste, 'Paste'),
        key(K.duplicate, 'Duplicate'),
        key(K.copyPng, 'Copy the selection, or the page, as a picture (PNG)'),
        key('Alt+drag', 'Drag a copy of the selection'),
        key(K.selectAll, 'Select all'),
        key(K.delete, 'Delete the selection'),
        key(
          'Enter',
          'Edit the selected shape’s text; with a shape tool, place its shape mid-view; with nothing selected, select the first shape',
        ),
        key('Tab', 'With a shape selected: select the next one, in reading order (rows, left to right)'),
        key('Shift+Tab', 'With a shape selected: select the previous one'),
        key('Escape', 'Select nothing, and pick Select (Tab then leaves the canvas)'),
        key(
          ['Arrow keys', 'Shift+arrow keys'],
          'Nudge the selection by 1 or 10; with nothing selected, pan the view (Shift: further)',
        ),
        key(K.contextMenu, 'Open the context menu of the selection (or right-click)'),
      ],
    },
    {
      title: 'Arrange',
      shortcuts: [
        ...alignments.map((a) => key(alignKeyOf(a.how), a.label)),
        ...distributions.map((d) => key(distributeKeyOf(d.axis), d.label)),
        key(K.group, 'Group'),
        key(K.ungroup, 'Ungroup'),
        key(K.lock, 'Lock or unlock'),
        key(K.forward, 'Bring forward'),
        key(K.backward, 'Send back'),
        key(K.toFront, 'Bring to front'),
        key(K.toBack, 'Send to back'),
      ],
    },
    {
      title: 'View',
      shortcuts: [
        key(K.zoomIn, 'Zoom in'),
        key(K.zoomOut, 'Zoom out'),
        key(K.zoomReset, 'Zoom to 100%'),
        key(K.zoomToFit, 'Zoom to fit the board'),
        key(K.zoomToSelection, 'Zoom to the selection'),
        key('Ctrl+F', 'Find on this page (Enter: next match, Shift+Enter: previous)'),
        key('Ctrl+Alt+H', 'Open or close History'),
        key(SHORTCUTS_KEY, 'This list'),
      ],
    },
    {
      title: 'With others',
      shortcuts: [
        key('/', 'Chat at your cursor'),
        key('Arrow keys', 'While presenting: the next or previous frame'),
      ],
    },
  ];
}
