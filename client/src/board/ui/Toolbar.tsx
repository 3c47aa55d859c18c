// The tool palette (docs/api.md §11): each button's accessible name is its tool name, its shortcut in the tooltip.
// On a phone the less used tools are under a "More tools" menu (controls.ts, phoneBarTools).
import { useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Actions } from '../actions.ts';
import { pickImages } from '../images/ImageInput.tsx';
import type { JointUndo } from '../pages/jointUndo.ts';
import { type Tool, useEditor } from '../store.ts';
import { toolKeyOf } from '../tools/keyboard.ts';
import { paletteTools, phoneBarTools } from './controls.ts';
import { Icon, type IconName } from './icons.tsx';
import { useRovingToolbar } from './rovingToolbar.ts';
import { ToolButton } from './ToolButton.tsx';
import { usePhoneLayout } from './touch.ts';
import { focusMenuButton, useMenu } from './useMenuDismiss.ts';

const tools = paletteTools.map((t) => ({ ...t, key: toolKeyOf(t.tool) }));
/** A tool's width in a phone's bar (editor.css: `flex: 0 1 34px`), and the least it shrinks to. */
const TOOL_W = 34;
const TOOL_MIN_W = 28;

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
  const phone = usePhoneLayout();
  const [vertical, setVertical] = useState(false);
  /** A phone bar's room: whether every tool fits, else how many of `phoneBarTools` it keeps. */
  const [room, setRoom] = useState({ all: false, keep: phoneBarTools.size });
  // The top bar's panels keep out from under the centred palette: its width is --toolbar-w on the
  // editor (editor.css).
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    const host = el?.closest<HTMLElement>('.editor');
    if (!el || !host) return;
    const measure = () => {
      host.style.setProperty('--toolbar-w', `${el.offsetWidth}px`);
      // A column between a phone and a laptop (editor.css): said as the bar's orientation.
      setVertical(getComputedStyle(el).flexDirection === 'column');
    };
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
  // Every control of the bar, in order, as data: on a phone where they do not all fit, those past
  // `phoneBarTools` (and those of it past the room) go under "More tools" (a menu of the same
  // controls, named beside their icons).
  const controls: BarControl[] = [
    ...shown.map(
      (t): BarControl => ({
        id: t.tool,
        label: t.label,
        icon: t.icon,
        shortcut: t.key,
        kind: 'radio',
        on: current === t.tool,
        pick: () => setTool(t.tool),
        // Double-click keeps the tool on for several shapes (the tool lock, also Q).
        onDoubleClick: () => {
          setTool(t.tool);
          setToolLocked(true);
        },
      }),
    ),
    ...(canComment
      ? [
          {
            id: 'comment',
            label: 'Comment',
            icon: 'comment',
            shortcut: 'C',
            kind: 'radio',
            on: current === 'comment',
            pick: () => setTool('comment'),
          } satisfies BarControl,
        ]
      : []),
    ...(readOnly
      ? []
      : [
          {
            id: 'lock',
            label: 'Tool lock',
            icon: 'toolLock',
            kind: 'checkbox',
            on: toolLocked,
            narrow: true,
            title: 'Tool lock: keep the tool after each shape — Q (or double-click a tool)',
            pick: () => setToolLocked(!toolLocked),
          } satisfies BarControl,
          {
            id: 'image',
            label: 'Image',
            icon: 'image',
            shortcut: 'I',
            kind: 'plain',
            on: false,
            pick: pickImages,
          } satisfies BarControl,
        ]),
  ];
  // On a phone the bar folds only what does not fit (measured below): every tool at 700 px (a
  // phone held sideways), the most used at 390, fewer of them at 320 so nothing scrolls sideways.
  const phoneBar = phone && !readOnly;
  const count = controls.length;
  const priorityCount = [...phoneBarTools].filter((id) => controls.some((c) => c.id === id)).length;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !phoneBar) return;
    const measure = () => {
      const style = getComputedStyle(el);
      // The bar spans the window (editor.css): its width is the room, whatever it holds.
      const width =
        el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      const gap = Number.parseFloat(style.columnGap) || 0;
      const pinned = el.querySelector<HTMLElement>('.history-tools')?.offsetWidth ?? 0;
      const everyTool = count * (TOOL_W + gap) + pinned;
      // Folded, the bar's tools and More tools may shrink to TOOL_MIN_W each.
      const slots = Math.floor((width - pinned) / (TOOL_MIN_W + gap)) - 1;
      const next = { all: everyTool <= width, keep: Math.max(1, Math.min(priorityCount, slots)) };
      setRoom((was) => (was.all === next.all && was.keep === next.keep ? was : next));
    };
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(el);
    return () => resized.disconnect();
  }, [phoneBar, count, priorityCount]);
  const kept = [...phoneBarTools].filter((id) => controls.some((c) => c.id === id)).slice(0, room.keep);
  const fold = phoneBar && !room.all;
  const inBar = fold ? controls.filter((c) => kept.includes(c.id as Tool)) : controls;
  const folded = fold ? controls.filter((c) => !kept.includes(c.id as Tool)) : [];
  // One Tab stop for the whole bar (rovingToolbar.ts): the picked tool's button while focus is
  // elsewhere (on a phone, "More tools" while the picked tool is in its menu).
  const picked = controls.find((c) => c.kind === 'radio' && c.on);
  const { tabIndexOf, barProps } = useRovingToolbar(
    [
      ...inBar.map((c) => c.label),
      ...(folded.length > 0 ? [MORE_TOOLS] : []),
      ...(readOnly ? [] : [...(canUndo ? ['Undo'] : []), ...(canRedo ? ['Redo'] : [])]),
    ],
    picked && (inBar.includes(picked) ? picked.label : MORE_TOOLS),
  );
  return (
    <div
      className="toolbar panel"
      role="toolbar"
      aria-label="Tools"
      aria-orientation={vertical ? 'vertical' : 'horizontal'}
      ref={ref}
      {...barProps}
    >
      {inBar.map((c) => (
        <ToolButton
          key={c.id}
          label={c.label}
          tabIndex={tabIndexOf(c.label)}
          icon={c.icon}
          shortcut={c.shortcut}
          title={c.title}
          className={c.narrow ? 'narrow' : undefined}
          iconSize={c.narrow ? 18 : undefined}
          pressed={c.kind === 'plain' ? undefined : c.on}
          active={c.on}
          onClick={c.pick}
          onDoubleClick={c.onDoubleClick}
        >
          {c.shortcut && <span className="kbd">{c.shortcut}</span>}
        </ToolButton>
      ))}
      {folded.length > 0 && <MoreTools controls={folded} tabIndex={tabIndexOf(MORE_TOOLS)} />}
      {!readOnly && (
        // Pinned to the end of the bar, so where the tools scroll sideways (a phone narrower than
        // the bar) Undo and Redo are always in reach.
        <span className="history-tools">
          <span className="sep" />
          <ToolButton
            label="Undo"
            tabIndex={tabIndexOf('Undo')}
            icon="undo"
            shortcut="Ctrl+Z"
            onClick={actions.undo}
            disabled={!canUndo}
          />
          <ToolButton
            label="Redo"
            tabIndex={tabIndexOf('Redo')}
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

/** One control of the tool bar: a tool (one of a radio group), the tool lock (a toggle) or Image. */
interface BarControl {
  id: string;
  label: string;
  icon: IconName;
  shortcut?: string;
  title?: string;
  kind: 'radio' | 'checkbox' | 'plain';
  /** The tool picked, the lock on. */
  on: boolean;
  narrow?: boolean;
  pick: () => void;
  onDoubleClick?: () => void;
}

/**
 * A phone's "More tools" button and its menu: the folded controls, each named beside its icon. The
 * button shows the icon of a folded tool while it is the one in use, so the bar still says which.
 */
function MoreTools({ controls, tabIndex }: { controls: BarControl[]; tabIndex: number }) {
  const { open, wrap, close, trigger } = useMenu<HTMLSpanElement>();
  const on = controls.find((c) => c.kind === 'radio' && c.on);
  return (
    <span className="menu-wrap tools-more" ref={wrap}>
      <button
        {...trigger}
        className={`tool ${on || open ? 'active' : ''}`}
        tabIndex={tabIndex}
        aria-label={MORE_TOOLS}
        title={on ? `More tools (${on.label} in use)` : 'More tools'}
      >
        <Icon name={on?.icon ?? 'more'} />
      </button>
      {open && (
        <div className="menu panel tools-more-menu" role="menu" aria-label="More tools">
          {controls.map((c) => {
            const props = {
              type: 'button',
              className: c.on ? 'active' : undefined,
              onClick: () => {
                c.pick();
                close();
                focusMenuButton(wrap);
              },
              children: [<Icon key="icon" name={c.icon} size={18} />, <span key="label">{c.label}</span>],
            } as const;
            // A tool is one of a radio group, the lock a toggle, Image a plain item.
            if (c.kind === 'radio')
              return <button key={c.id} role="menuitemradio" aria-checked={c.on} {...props} />;
            if (c.kind === 'checkbox')
              return <button key={c.id} role="menuitemcheckbox" aria-checked={c.on} {...props} />;
            return <button key={c.id} role="menuitem" {...props} />;
          })}
        </div>
      )}
    </span>
  );
}

const MORE_TOOLS = 'More tools';
