// The board's context menu: a right-click on the canvas (a Ctrl+click on a Mac), or Shift+F10 /
// the Menu key with the canvas focused (Canvas hands each to `open`, through the editor), opens
// the commands that apply to the selection (or to the board, on empty canvas) at the pointer or
// the selection. A menu like the others (useMenuDismiss): arrows,
// Home/End, Escape (focus back to the canvas), a press outside closes it; a pan or zoom does too.
import {
  Fragment,
  type Ref,
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { Actions } from '../actions.ts';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { COMMAND_KEYS, type Command, matchesCommand } from '../commandKeys.ts';
import { pinsComment } from '../comments/threads.ts';
import type { Point } from '../model/geometry.ts';
import type { JointUndo } from '../pages/jointUndo.ts';
import { onKeydown } from '../shortcuts.ts';
import { type CommentDraft, toBoard, toScreen, useEditor } from '../store.ts';
import type { BoardSession } from '../sync/provider.ts';
import type { ToolController } from '../tools/controller.ts';
import { commandActions } from '../tools/keyboard.ts';
import { contextMenuItems, type MenuCommand, placeMenu } from './contextMenu.ts';
import { copyAsPng } from './ExportMenu.tsx';
import { useMenuDismiss } from './useMenuDismiss.ts';

interface Props {
  ref?: Ref<ContextMenuHandle>;
  actions: Actions;
  controller: ToolController;
  index: ShapeIndex;
  readOnly: boolean;
  /** This person may start a comment thread (the Comment tool's rule: a commenter on a read-only board too). */
  canComment: boolean;
  /** The toolbar's undo history (Ctrl+Z's): Undo and Redo are greyed when there is nothing to do. */
  history: Pick<JointUndo, 'canUndo' | 'canRedo' | 'subscribe'>;
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
  /** Where Comment starts a thread: on the shape the menu was opened on, else at `board`. */
  comment: CommentDraft;
  /** The canvas, which takes focus back when the menu closes by Escape or runs a command. */
  canvas: SVGSVGElement;
}

/** The canvas element's box, in page pixels (its parent: the canvas itself is moved while zooming). */
const areaOf = (canvas: Element) => (canvas.parentElement ?? canvas).getBoundingClientRect();

/** An ask for the menu, from the canvas (Canvas's `onMenu`). */
export interface MenuRequest {
  /** The canvas, which takes focus back when the menu closes by Escape or runs a command. */
  canvas: SVGSVGElement;
  /** The pointer's page point, for a right-click (or a Mac's Ctrl+click); none from the keyboard. */
  at?: { clientX: number; clientY: number };
}

/** What the editor holds the menu by (its `ref`), to hand the canvas's asks to it. */
export interface ContextMenuHandle {
  open(request: MenuRequest): void;
}

export function ContextMenu({
  ref,
  actions,
  controller,
  index,
  readOnly,
  canComment,
  history,
  boardId,
  session,
  whole,
  onMessage,
}: Props) {
  const [opened, setOpened] = useState<Opened | null>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const back = useRef<SVGSVGElement | null>(null);
  const close = useCallback(() => setOpened(null), []);
  useMenuDismiss(opened !== null, wrap, close, { button: back });
  const snap = useSyncExternalStore(index.subscribe, index.getSnapshot);
  const selection = useEditor((s) => s.selection);
  const canUndo = useSyncExternalStore(history.subscribe, history.canUndo);
  const canRedo = useSyncExternalStore(history.subscribe, history.canRedo);

  // A right-click (a Mac's Ctrl+click) opens it at the pointer, on what is under it, selected as a
  // left click would; Shift+F10 or the Menu key at the selection's bottom-left corner (else the
  // middle of the view).
  const open = useCallback(
    ({ canvas, at }: MenuRequest) => {
      const st = useEditor.getState();
      const area = areaOf(canvas);
      back.current = canvas;
      if (at) {
        const x = at.clientX - area.left;
        const y = at.clientY - area.top;
        controller.selectForMenu(x, y);
        canvas.focus({ preventScroll: true });
        const board = toBoard(st.viewport, st.screen, x, y);
        // On the shape under the pointer, as the Comment tool's click there would place it.
        const comment = controller.commentDraftAt(board);
        setOpened({ at: { x: at.clientX, y: at.clientY }, board, comment, canvas });
        return;
      }
      const ids = new Set(st.selection);
      const chosen = index.getSnapshot().list.filter((s) => ids.has(s.rec.id));
      const boxes = chosen.map((s) => s.bounds);
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
      // From the keyboard, on the one shape selected (as the tool's click would pin it), else at
      // the menu's point.
      const only = chosen.length === 1 && pinsComment(chosen[0]!.rec) ? chosen[0]!.rec.id : null;
      const comment = { shapeId: only, x: board.x, y: board.y };
      setOpened({ at: { x: area.left + x, y: area.top + y }, board, comment, canvas });
    },
    [controller, index],
  );
  useImperativeHandle(ref, () => ({ open }), [open]);

  // While it is open the menu owns the keyboard, as a native one does: no board shortcut runs
  // (Shift+Alt+C copied a picture, a letter picked a tool, Tab walked the shapes, even with focus
  // left on the canvas when every item is disabled). Its own keys (arrows, Home/End, Escape:
  // useMenuDismiss, registered before this) run first; Enter and Space on an item still press it
  // and Tab still moves focus (the browser's own, which stopping the event leaves alone). A
  // command's keys are also kept from the browser (Ctrl+C's copy event, Ctrl+A's page selection).
  const isOpen = opened !== null;
  useEffect(() => {
    if (!isOpen) return;
    return onKeydown(
      (e) => {
        e.stopPropagation();
        if ((Object.keys(COMMAND_KEYS) as Command[]).some((c) => matchesCommand(e, c))) e.preventDefault();
      },
      { capture: true },
    );
  }, [isOpen]);

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
  const groups = contextMenuItems(
    selected,
    readOnly,
    snap.list.length === 0,
    { canUndo, canRedo },
    canComment,
  );
  const run = (command: MenuCommand) => {
    close();
    opened.canvas.focus({ preventScroll: true });
    const commands: Record<MenuCommand, () => unknown> = {
      ...commandActions(actions),
      copy: () => actions.copy(),
      cut: () => actions.cut(),
      paste: () => actions.paste(undefined, opened.board),
      copyPng: () => copyAsPng(boardId, session, index, whole, onMessage),
      // The Comment tool's own composer (comments/Comments.tsx), opened as its click opens it.
      comment: () => {
        const st = useEditor.getState();
        st.setTool('comment');
        st.setCommentDraft(opened.comment);
      },
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
