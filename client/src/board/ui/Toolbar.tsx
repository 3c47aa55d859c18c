// The tool palette (docs/api.md §11): each button's accessible name is its tool name, its shortcut in the tooltip.
import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type { Actions } from '../actions.ts';
import { pickImages } from '../images/ImageInput.tsx';
import type { JointUndo } from '../pages/jointUndo.ts';
import { useEditor } from '../store.ts';
import { toolKeyOf } from '../tools/keyboard.ts';
import { paletteTools } from './controls.ts';
import { ToolButton } from './ToolButton.tsx';

const tools = paletteTools.map((t) => ({ ...t, key: toolKeyOf(t.tool) }));

export function Toolbar({
  actions,
  history,
  readOnly,
  canComment,
}: {
  actions: Actions;
  /** Ctrl+Z's history: Undo and Redo are greyed while it has nothing to undo or redo. */
  history: Pick<JointUndo, 'canUndo' | 'canRedo' | 'subscribe'>;
  readOnly: boolean;
  /** docs/api.md §18: the Comment tool, also on a commenter's read-only board. */
  canComment: boolean;
}) {
  const current = useEditor((s) => s.tool);
  const setTool = useEditor((s) => s.setTool);
  const toolLocked = useEditor((s) => s.toolLocked);
  const setToolLocked = useEditor((s) => s.setToolLocked);
  const shown = readOnly ? tools.slice(0, 2) : tools;
  const canUndo = useSyncExternalStore(history.subscribe, history.canUndo);
  const canRedo = useSyncExternalStore(history.subscribe, history.canRedo);
  // The top bar's panels keep out from under the centred palette: its width is --toolbar-w on the
  // editor (editor.css).
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    const host = el?.closest<HTMLElement>('.editor');
    if (!el || !host) return;
    const measure = () => host.style.setProperty('--toolbar-w', `${el.offsetWidth}px`);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => {
      observer.disconnect();
      host.style.removeProperty('--toolbar-w');
    };
  }, []);
  // Whether more tools are past either end of the scrolled bar (editor.css fades the tools at that
  // end then): its scrollbar is hidden to keep the bar narrow, and at 1024×600 the lower tools of
  // the column looked unreachable.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const after =
        el.scrollTop + el.clientHeight < el.scrollHeight - 1 ||
        el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      el.toggleAttribute('data-more-after', after);
      el.toggleAttribute('data-more-before', el.scrollTop > 1 || el.scrollLeft > 1);
    };
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(el);
    // Tools come and go (a board turned read-only) while the bar, at its greatest height, keeps its size.
    const changed = new MutationObserver(measure);
    changed.observe(el, { childList: true });
    el.addEventListener('scroll', measure, { passive: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
      el.removeEventListener('scroll', measure);
    };
  }, []);
  return (
    <div className="toolbar panel" role="toolbar" aria-label="Tools" ref={ref}>
      {shown.map((t) => (
        <ToolButton
          key={t.tool}
          label={t.label}
          icon={t.icon}
          shortcut={t.key}
          pressed={current === t.tool}
          active={current === t.tool}
          onClick={() => setTool(t.tool)}
          // Double-click keeps the tool on for several shapes (the tool lock, also Q).
          onDoubleClick={() => {
            setTool(t.tool);
            setToolLocked(true);
          }}
        >
          <span className="kbd">{t.key}</span>
        </ToolButton>
      ))}
      {canComment && (
        <ToolButton
          label="Comment"
          icon="comment"
          shortcut="C"
          pressed={current === 'comment'}
          active={current === 'comment'}
          onClick={() => setTool('comment')}
        >
          <span className="kbd">C</span>
        </ToolButton>
      )}
      {!readOnly && (
        <ToolButton
          label="Tool lock"
          icon="toolLock"
          iconSize={18}
          className="narrow"
          title="Tool lock: keep the tool after each shape — Q (or double-click a tool)"
          pressed={toolLocked}
          active={toolLocked}
          onClick={() => setToolLocked(!toolLocked)}
        />
      )}
      {!readOnly && (
        <ToolButton label="Image" icon="image" shortcut="I" onClick={pickImages}>
          <span className="kbd">I</span>
        </ToolButton>
      )}
      {!readOnly && (
        // Pinned to the end of the bar, so on a phone (where the tools scroll sideways) Undo and
        // Redo are always in reach.
        <span className="history-tools">
          <span className="sep" />
          <ToolButton label="Undo" icon="undo" shortcut="Ctrl+Z" onClick={actions.undo} disabled={!canUndo} />
          <ToolButton
            label="Redo"
            icon="redo"
            shortcut="Ctrl+Shift+Z"
            onClick={actions.redo}
            disabled={!canRedo}
          />
        </span>
      )}
    </div>
  );
}
