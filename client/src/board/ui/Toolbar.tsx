// The tool palette (SPEC §11): each button's accessible name is its tool name, its shortcut in the tooltip.
import type { Actions } from '../actions.ts';
import { pickImages } from '../images/ImageInput.tsx';
import { type Tool, useEditor } from '../store.ts';
import { Icon, type IconName } from './icons.tsx';

const tools: { tool: Tool; label: string; key: string; icon: IconName }[] = [
  { tool: 'select', label: 'Select', key: 'V', icon: 'select' },
  { tool: 'hand', label: 'Hand', key: 'H', icon: 'hand' },
  { tool: 'sticky', label: 'Sticky note', key: 'N', icon: 'sticky' },
  { tool: 'rect', label: 'Rectangle', key: 'R', icon: 'rect' },
  { tool: 'ellipse', label: 'Ellipse', key: 'O', icon: 'ellipse' },
  { tool: 'diamond', label: 'Diamond', key: 'D', icon: 'diamond' },
  { tool: 'text', label: 'Text', key: 'T', icon: 'text' },
  { tool: 'arrow', label: 'Arrow', key: 'A', icon: 'arrow' },
  { tool: 'pen', label: 'Pen', key: 'P', icon: 'pen' },
  { tool: 'eraser', label: 'Eraser', key: 'E', icon: 'eraser' },
];

export function Toolbar({ actions, readOnly }: { actions: Actions; readOnly: boolean }) {
  const current = useEditor((s) => s.tool);
  const setTool = useEditor((s) => s.setTool);
  const toolLocked = useEditor((s) => s.toolLocked);
  const setToolLocked = useEditor((s) => s.setToolLocked);
  const shown = readOnly ? tools.slice(0, 2) : tools;
  return (
    <div className="toolbar panel" role="toolbar" aria-label="Tools">
      {shown.map((t) => (
        <button
          key={t.tool}
          type="button"
          className={`tool ${current === t.tool ? 'active' : ''}`}
          aria-label={t.label}
          aria-pressed={current === t.tool}
          title={`${t.label} — ${t.key}`}
          onClick={() => setTool(t.tool)}
          // Double-click keeps the tool on for several shapes (the tool lock, also Q).
          onDoubleClick={() => {
            setTool(t.tool);
            setToolLocked(true);
          }}
        >
          <Icon name={t.icon} />
          <span className="kbd">{t.key}</span>
        </button>
      ))}
      {!readOnly && (
        <button
          type="button"
          className={`tool narrow ${toolLocked ? 'active' : ''}`}
          aria-label="Tool lock"
          aria-pressed={toolLocked}
          title="Tool lock: keep the tool after each shape — Q (or double-click a tool)"
          onClick={() => setToolLocked(!toolLocked)}
        >
          <Icon name="toolLock" size={18} />
        </button>
      )}
      {!readOnly && (
        <button type="button" className="tool" aria-label="Image" title="Image — I" onClick={pickImages}>
          <Icon name="image" />
          <span className="kbd">I</span>
        </button>
      )}
      {!readOnly && (
        // Pinned to the end of the bar, so on a phone (where the tools scroll sideways) Undo and
        // Redo are always in reach.
        <span className="history-tools">
          <span className="sep" />
          <button
            type="button"
            className="tool"
            aria-label="Undo"
            title="Undo — Ctrl+Z"
            onClick={actions.undo}
          >
            <Icon name="undo" />
          </button>
          <button
            type="button"
            className="tool"
            aria-label="Redo"
            title="Redo — Ctrl+Shift+Z"
            onClick={actions.redo}
          >
            <Icon name="redo" />
          </button>
        </span>
      )}
    </div>
  );
}
