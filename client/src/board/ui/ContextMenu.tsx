// The board's context menu: a right-click on the canvas, or Shift+F10 / the Menu key with the
// canvas focused, opens the commands that apply to the selection (or to the board, on empty
// canvas) at the pointer or the selection. A menu like the others (useMenuDismiss): arrows,
// Home/End, Escape (focus back to the canvas), a press outside closes it; a pan or zoom does too.
import {
  Fragment,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { Actions } from '../actions.ts';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import type { Point } from '../model/geometry.ts';
import { inDialogOrMenu, isTyping, onKeydown } from '../shortcuts.ts';
import { toBoard, toScreen, useEditor } from '../store.ts';
import type { BoardSession } from '../sync/provider.ts';
import type { ToolController } from '../tools/controller.ts';
import { contextMenuItems, type MenuCommand, placeMenu } from './contextMenu.ts';
import { copyAsPng } from './ExportMenu.tsx';
import { useMenuDismiss } from './useMenuDismiss.ts';

interface Props {
  actions: Actions;
  controller: ToolController;
  index: ShapeIndex;
  readOnly: boolean;
  boardId: string;
  session: BoardSession;
  /** "page" or "board": what Copy as PNG copies with nothing selected. */
  whole: string;
  onMessage(sentence: string): void;
}

interface Opened {
  /** Where it was asked for, in page pixels. */
  at: Point;
  /** The board point there: Paste lands on it. */
  board: Point;
  /** The canvas, which takes focus back when the menu closes by Escape or runs a command. */
  canvas: HTMLElement;
}

/** The canvas element's box, in page pixels (its parent: the canvas itself is moved while zooming). */
const areaOf = (canvas: HTMLElement) => (canvas.parentElement ?? canvas).getBoundingClientRect();

export function ContextMenu({
  actions,
  controller,
  index,
  readOnly,
  boardId,
  session,
  whole,
  onMessage,
}: Props) {
  const [opened, setOpened] = useState<Opened | null>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const back = useRef<HTMLElement | null>(null);
  const close = useCallback(() => setOpened(null), []);
  useMenuDismiss(opened !== null, wrap, close, { button: back });
  const snap = useSyncExternalStore(index.subscribe, index.getSnapshot);
  const selection = useEditor((s) => s.selection);

  // A right-click on the canvas (Canvas dispatches it here with the event's page point).
  useEffect(() => {
    const onMenu = (e: MouseEvent) => {
      const canvas = e.currentTarget as HTMLElement;
      const area = areaOf(canvas);
      const x = e.clientX - area.left;
      const y = e.clientY - area.top;
      controller.selectForMenu(x, y);
      const st = useEditor.getState();
      back.current = canvas;
      canvas.focus({ preventScroll: true });
      setOpened({ at: { x: e.clientX, y: e.clientY }, board: toBoard(st.viewport, st.screen, x, y), canvas });
    };
    const canvas = document.querySelector<HTMLElement>('svg.canvas');
    if (!canvas) return;
    const listener = (e: MouseEvent) => {
      e.preventDefault();
      // A contextmenu from the keyboard (Shift+F10, the Menu key) is handled by the keydown below.
      if (e.button !== 2) return;
      onMenu(e);
    };
    canvas.addEventListener('contextmenu', listener);
    return () => canvas.removeEventListener('contextmenu', listener);
  }, [controller]);

  // Shift+F10 and the Menu key, on the canvas: the menu of the selection, at its box's corner.
  useEffect(
    () =>
      onKeydown((e) => {
        const asked = e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey && !e.ctrlKey && !e.altKey);
        if (!asked || isTyping(e.target) || inDialogOrMenu(e.target)) return;
        const canvas = document.querySelector<HTMLElement>('svg.canvas');
        if (!canvas || !(e.target instanceof Node) || !canvas.contains(e.target)) return;
        e.preventDefault();
        e.stopPropagation();
        const st = useEditor.getState();
        const area = areaOf(canvas);
        const ids = new Set(st.selection);
        const boxes = index
          .getSnapshot()
          .list.filter((s) => ids.has(s.rec.id))
          .map((s) => s.bounds);
        // The selection's bottom-left corner, else the middle of the view.
        const board =
          boxes.length > 0
            ? {
                x: Math.min(...boxes.map((b) => b.x)),
                y: Math.max(...boxes.map((b) => b.y + b.h)),
              }
            : { x: st.viewport.x, y: st.viewport.y };
        const p = toScreen(st.viewport, st.screen, board.x, board.y);
        const x = Math.min(Math.max(p.x, 0), area.width);
        const y = Math.min(Math.max(p.y, 0), area.height);
        back.current = canvas;
        setOpened({ at: { x: area.left + x, y: area.top + y }, board, canvas });
      }),
    [index],
  );

  // A pan or a zoom moves the board from under the menu: it closes, as a native one does.
  useEffect(() => {
    if (!opened) return;
    return useEditor.subscribe((s, was) => {
      if (s.viewport !== was.viewport) close();
    });
  }, [opened, close]);

  // Laid out at the point, then measured and moved inside the window (flipped near an edge)
  // before it is painted. Set on the element: a second render would come after the first item
  // took focus.
  useLayoutEffect(() => {
    const el = wrap.current;
    if (!opened || !el) return;
    const r = el.getBoundingClientRect();
    const to = placeMenu(
      opened.at,
      { w: r.width, h: r.height },
      { w: window.innerWidth, h: window.innerHeight },
    );
    el.style.left = `${to.x}px`;
    el.style.top = `${to.y}px`;
  }, [opened]);

  if (!opened) return null;
  const selected = selection.map((id) => snap.byId.get(id)).filter((r) => r !== undefined);
  const groups = contextMenuItems(selected, readOnly, snap.list.length === 0);
  const run = (command: MenuCommand) => {
    close();
    opened.canvas.focus({ preventScroll: true });
    const commands: Record<MenuCommand, () => unknown> = {
      undo: actions.undo,
      redo: actions.redo,
      copy: () => actions.copy(),
      cut: () => actions.cut(),
      paste: () => actions.paste(undefined, opened.board),
      duplicate: actions.duplicate,
      delete: actions.deleteSelection,
      copyPng: () => copyAsPng(boardId, session, index, whole, onMessage),
      selectAll: actions.selectAll,
      group: actions.group,
      ungroup: actions.ungroup,
      lock: actions.toggleLock,
      lockToggle: actions.toggleLock,
      forward: actions.forward,
      backward: actions.backward,
      toFront: actions.toFront,
      toBack: actions.toBack,
      zoomToFit: actions.zoomToFit,
      zoomToSelection: actions.zoomToSelection,
      contextMenu: () => {},
    };
    void commands[command]();
  };
  return (
    <div
      ref={wrap}
      className="menu panel context-menu"
      role="menu"
      aria-label={selected.length > 0 ? 'Selection menu' : 'Board menu'}
      style={{ left: opened.at.x, top: opened.at.y }}
      // A right-click on the menu itself opens no other menu.
      onContextMenu={(e) => e.preventDefault()}
    >
      {groups.map((list, g) => (
        <Fragment key={list[0]!.command}>
          {g > 0 && <hr />}
          {list.map((item) => (
            <button
              key={item.command}
              type="button"
              role="menuitem"
              disabled={item.disabled}
              aria-keyshortcuts={item.keys}
              onClick={() => run(item.command)}
            >
              <span>{item.label}</span>
              {/* Said by aria-keyshortcuts: the item's name is its label alone. */}
              <span className="keys" aria-hidden="true">
                {item.keys}
              </span>
            </button>
          ))}
        </Fragment>
      ))}
    </div>
  );
}
