// The tool palette's and the arrange bar's controls, in order, as data: their buttons
// (Toolbar.tsx, ArrangeBar.tsx) and the keyboard shortcuts list (shortcutList.ts) read them here.
// Their keys are the keyboard's own (tools/keyboard.ts).
import type { Alignment } from '../model/layout.ts';
import type { Tool } from '../store.ts';
import type { IconName } from './icons.tsx';

export const paletteTools: { tool: Tool; label: string; icon: IconName }[] = [
  { tool: 'select', label: 'Select', icon: 'select' },
  { tool: 'hand', label: 'Hand', icon: 'hand' },
  { tool: 'sticky', label: 'Sticky note', icon: 'sticky' },
  { tool: 'rect', label: 'Rectangle', icon: 'rect' },
  { tool: 'ellipse', label: 'Ellipse', icon: 'ellipse' },
  { tool: 'diamond', label: 'Diamond', icon: 'diamond' },
  { tool: 'text', label: 'Text', icon: 'text' },
  { tool: 'arrow', label: 'Arrow', icon: 'arrow' },
  { tool: 'pen', label: 'Pen', icon: 'pen' },
  { tool: 'eraser', label: 'Eraser', icon: 'eraser' },
];

/**
 * The tools a phone's bar keeps, the most used (Comment where one may comment): with every tool
 * it was wider than the screen and scrolled sideways, hiding the rest past its edge with nothing
 * to say they were there. The others (and Tool lock, Image) are under its "More tools" menu
 * (Toolbar.tsx), as tldraw does on a phone.
 */
export const phoneBarTools: ReadonlySet<Tool> = new Set<Tool>([
  'select',
  'sticky',
  'rect',
  'text',
  'arrow',
  'pen',
  'comment',
]);

export const alignments: { how: Alignment; label: string; icon: IconName }[] = [
  { how: 'left', label: 'Align left', icon: 'alignLeft' },
  { how: 'center', label: 'Align centre', icon: 'alignCenter' },
  { how: 'right', label: 'Align right', icon: 'alignRight' },
  { how: 'top', label: 'Align top', icon: 'alignTop' },
  { how: 'middle', label: 'Align middle', icon: 'alignMiddle' },
  { how: 'bottom', label: 'Align bottom', icon: 'alignBottom' },
];

export const distributions = [
  { axis: 'x', label: 'Distribute horizontally', icon: 'distributeX' },
  { axis: 'y', label: 'Distribute vertically', icon: 'distributeY' },
] as const;
