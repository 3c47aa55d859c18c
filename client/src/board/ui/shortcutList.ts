// Every keyboard shortcut of the board, grouped as the Keyboard shortcuts dialog lists them (opened
// with `?`, as in Excalidraw, tldraw and Miro). The tool and alignment keys are read from the
// keyboard's own tables (tools/keyboard.ts); the rest are written here beside the handlers they
// describe (handleKeyDown, Facilitation, ImageInput, HistoryButton), and client/test/shortcutList
// checks that every key the keyboard's tables bind is listed.
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

const key = (keys: string | string[], what: string): Shortcut => ({
  keys: Array.isArray(keys) ? keys : [keys],
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
        key('Ctrl+Z', 'Undo your last change'),
        key(['Ctrl+Shift+Z', 'Ctrl+Y'], 'Redo'),
        key('Ctrl+C', 'Copy'),
        key('Ctrl+X', 'Cut'),
        key('Ctrl+V', 'Paste'),
        key('Ctrl+D', 'Duplicate'),
        key('Shift+Alt+C', 'Copy the selection, or the page, as a picture (PNG)'),
        key('Alt+drag', 'Drag a copy of the selection'),
        key('Ctrl+A', 'Select all'),
        key(['Delete', 'Backspace'], 'Delete the selection'),
        key(
          'Enter',
          'Edit the selected shape’s text; with a shape tool, place its shape mid-view; with nothing selected, select the first shape',
        ),
        key('Tab', 'With a shape selected: select the next one, in reading order (rows, left to right)'),
        key('Shift+Tab', 'With a shape selected: select the previous one'),
        key('Escape', 'Select nothing, and pick Select (Tab then leaves the canvas)'),
        key(['Arrow keys', 'Shift+arrow keys'], 'Nudge the selection by 1 or 10'),
      ],
    },
    {
      title: 'Arrange',
      shortcuts: [
        ...alignments.map((a) => key(alignKeyOf(a.how), a.label)),
        ...distributions.map((d) => key(distributeKeyOf(d.axis), d.label)),
        key('Ctrl+G', 'Group'),
        key('Ctrl+Shift+G', 'Ungroup'),
        key(['Shift+L', 'Ctrl+Shift+L'], 'Lock or unlock'),
        key('Ctrl+]', 'Bring forward'),
        key('Ctrl+[', 'Send back'),
        key('Ctrl+Shift+]', 'Bring to front'),
        key('Ctrl+Shift+[', 'Send to back'),
      ],
    },
    {
      title: 'View',
      shortcuts: [
        key(['+', 'Ctrl+='], 'Zoom in'),
        key(['−', 'Ctrl+−'], 'Zoom out'),
        key('Ctrl+0', 'Zoom to 100%'),
        key('Shift+1', 'Zoom to fit the board'),
        key('Shift+2', 'Zoom to the selection'),
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
