// Editor commands shared by the keyboard, the toolbar and menus: each reads the editor state,
// calls the pure model and updates the selection. Read-only sessions get no content changes.
import { type ColorName, withThousands } from '@tandem/shared';
import { measureIn } from './canvas/measure.ts';
import type { ShapeIndex } from './canvas/shapeIndex.ts';
import { deletion, movedWith, withFrameMembers } from './facilitation/frames.ts';
import { duplicateShapes, pasteShapes, recordsOf, serializeShapes } from './model/clipboard.ts';
import { nextInReadingOrder } from './model/describe.ts';
import { shapesBroughtBack } from './model/doc.ts';
import { boundsOf, type Point, unionRect } from './model/geometry.ts';
import {
  type Alignment,
  alignUnits,
  applyPatches,
  distributeUnits,
  freeSpot,
  groupShapes,
  type Offset,
  offsetPatches,
  setLocked,
  ungroupShapes,
  unitsOf,
} from './model/layout.ts';
import { bringForward, bringToFront, sendBackward, sendToBack } from './model/order.ts';
import {
  carriedStyle,
  createShape,
  defaultSize,
  deleteShapes,
  ensureLabel,
  moveShapes,
  restyle,
  type StylePatch,
  setAltText,
  setStyle,
} from './model/shapes.ts';
import { fittedTextW } from './model/textFit.ts';
import { PASTE_MAX_CHARS, shapeForPastedText, textShapeAt } from './model/textInput.ts';
import { layoutText } from './model/textLayout.ts';
import { clearOfControls, fitRect, panned, panToShow, useEditor, zoomAt } from './store.ts';
import type { BoardSession } from './sync/provider.ts';
import { uncoveredNow } from './ui/clearOfSelection.ts';

/** In-memory fallback when the system clipboard is not available (no permission, insecure origin). */
let memoryClipboard = '';

/** Board units between a frame and its copy, which lands beside it (Ctrl+D). */
const FRAME_COPY_GAP = 80;

export function createActions(
  session: BoardSession,
  index: ShapeIndex,
  userId: string,
  readOnly: () => boolean,
  /** What Ctrl+Z and Ctrl+Y act on: the canvas's undo, joined with the page list's in the editor. */
  history: { undo(): unknown; redo(): unknown } = session.undo,
  /** Where the pointer is on the board, null when it is off the canvas: a paste lands there. */
  pointer: () => Point | null = () => null,
  /**
   * The shapes the canvas shows: the live board, or the version the History panel previews.
   * Tab walks these, since a selection can only be of shapes on screen.
   */
  shown: () => ShapeIndex = () => index,
) {
  const { doc, undo } = session;
  const ed = () => useEditor.getState();
  const sel = () => ed().selection.filter((id) => index.getSnapshot().byId.has(id));
  const canEdit = () => !readOnly();
  /** The whole board fitted into the part of the screen no open panel covers. */
  const fitBoard = (most: number) => {
    const s = ed();
    const all = unionRect(index.getSnapshot().list.map((e) => e.bounds));
    s.setViewport(fitRect(all, s.screen, uncoveredNow(s.screen), most));
  };

  /**
   * A command that is one undo step of its own, as each pick in Excalidraw's and tldraw's panels
   * is: Yjs merges edits made within its capture window (400 ms), so a fill picked right after a
   * colour, or a delete right after a recolour, went back together on one Ctrl+Z (a user trial).
   * Typing and drags still merge as they should; they do not come through here.
   */
  const ownStep =
    <A extends unknown[]>(command: (...args: A) => unknown) =>
    (...args: A): void => {
      if (!canEdit()) return;
      undo.stopCapturing();
      command(...args);
      undo.stopCapturing();
    };

  /** Moves the selection's units (groups count as one; locked shapes stay) by computed offsets. */
  const arrange = ownStep((offsets: (units: ReturnType<typeof unitsOf>) => Offset[]) => {
    const snap = index.getSnapshot();
    const units = unitsOf(
      snap.list.map((e) => e.rec).filter((r) => !r.locked),
      sel(),
    );
    applyPatches(doc, offsetPatches(snap.byId, offsets(units)));
  });

  // A copied frame takes its contents along, as a duplicated one does.
  const copyText = (): string | null =>
    sel().length > 0 ? serializeShapes(doc, withFrameMembers(doc, sel())) : null;

  const zoomBy = (factor: number) => {
    const s = ed();
    s.setViewport(zoomAt(s.viewport, s.screen, factor, s.screen.w / 2, s.screen.h / 2));
  };

  /** An undo or redo step; the shapes it brings back (a delete undone, a creation redone) end up selected. */
  const historyStep = (step: () => unknown) => {
    if (!canEdit()) return;
    const back = shapesBroughtBack(doc, step);
    if (back.length > 0) ed().select(back);
  };

  return {
    undo: () => historyStep(() => history.undo()),
    redo: () => historyStep(() => history.redo()),
    deleteSelection: ownStep(() => {
      const ids = sel();
      const byId = index.getSnapshot().byId;
      // A frame takes its contents (a locked one keeps them); what went beyond the selection is
      // said, so the user knows Ctrl+Z brings it back, and so are locked shapes left behind.
      const { deleted, notice } = deletion(doc, ids);
      deleteShapes(
        doc,
        deleted.map((r) => r.id),
      );
      if (notice) ed().setNotice(notice);
      ed().select(ids.filter((id) => byId.get(id)?.locked));
    }),
    duplicate: ownStep(() => {
      const chosen = sel();
      // A frame's copy takes copies of its contents (as an Alt-drag's does; it was a bare frame),
      // and lands beside the original, not 24 units over it, as in Miro and tldraw.
      const ids = withFrameMembers(doc, chosen);
      const originals = recordsOf(doc, ids);
      const box = originals.some((r) => r.type === 'frame') ? unionRect(originals.map(boundsOf)) : null;
      const copies = duplicateShapes(doc, ids, userId, box ? { x: box.w + FRAME_COPY_GAP, y: 0 } : undefined);
      // What was selected is selected again, as its copy: a frame, not the frame and its notes.
      const picked = new Set(chosen);
      const selected = copies.filter((_, i) => picked.has(originals[i]?.id ?? ''));
      if (selected.length > 0) ed().select(selected);
    }),
    nudge(dx: number, dy: number) {
      if (!canEdit()) return;
      moveShapes(doc, movedWith(doc, sel()), dx, dy);
    },
    recolor: ownStep((color: ColorName) => {
      restyle(doc, sel(), color);
    }),
    /** Sets the alt text of the one selected image (ignored for anything else). */
    setAltText: ownStep((alt: string) => {
      const ids = sel();
      if (ids.length === 1) setAltText(doc, ids[0]!, alt);
    }),
    restyle: ownStep((patch: StylePatch) => {
      setStyle(doc, sel(), patch, measureIn);
      ed().rememberStyle(patch);
    }),
    /** Aligns the selected shapes (a group counts as one) on their common bounds. */
    align: (how: Alignment) => arrange((units) => alignUnits(units, how)),
    distribute: (axis: 'x' | 'y') => arrange((units) => distributeUnits(units, axis)),
    group: ownStep(() => {
      groupShapes(doc, sel());
    }),
    ungroup: ownStep(() => {
      ungroupShapes(doc, sel());
    }),
    /** Locks the selection, or unlocks it when every selected shape is locked already. */
    toggleLock: ownStep(() => {
      const ids = sel();
      const byId = index.getSnapshot().byId;
      setLocked(doc, ids, !ids.every((id) => byId.get(id)?.locked));
    }),
    forward: ownStep(() => bringForward(doc, sel())),
    backward: ownStep(() => sendBackward(doc, sel())),
    toFront: ownStep(() => bringToFront(doc, sel())),
    toBack: ownStep(() => sendToBack(doc, sel())),
    isLocked: (id: string): boolean => index.getSnapshot().byId.get(id)?.locked === true,
    selectAll: () => ed().select(index.getSnapshot().list.map((e) => e.rec.id)),
    /**
     * Selects the shape (or group) after the selection in reading order, or before it with -1
     * (Tab and Shift+Tab), and pans just enough to show it. False on an empty board.
     */
    selectAdjacent(step: 1 | -1): boolean {
      const next = nextInReadingOrder(
        shown()
          .getSnapshot()
          .list.map((e) => e.rec),
        ed().selection,
        step,
      );
      if (!next) return false;
      const s = ed();
      s.select(next.ids);
      const view = panToShow(s.viewport, s.screen, next.box);
      if (view !== s.viewport) s.setViewport(view);
      return true;
    },
    copyText,
    async copy(): Promise<string | null> {
      const text = copyText();
      if (!text) return null;
      memoryClipboard = text;
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        // Clipboard permission refused: the in-memory copy still pastes within this tab.
      }
      return text;
    },
    async cut() {
      if (!canEdit()) return;
      if (await this.copy()) this.deleteSelection();
    },
    /**
     * Pastes `text` (from a paste event) or whatever we can read, centred on the pointer as in
     * Excalidraw and Miro (and as a pasted image lands), or in the middle of the view when the
     * pointer is off the canvas. It always landed in the middle, over whatever was drawn there.
     * `at`: the board point the context menu was opened at (its Paste).
     */
    async paste(text?: string, at?: Point) {
      if (!canEdit()) return;
      let t = text;
      if (t === undefined) {
        try {
          t = await navigator.clipboard.readText();
        } catch {
          // From the context menu (`at`), a refusal with nothing copied in this tab says what
          // works instead: the keyboard's paste needs no permission.
          if (at && !memoryClipboard)
            return ed().setNotice(
              'The browser did not let Tandem read the clipboard. Press Ctrl+V to paste.',
            );
          t = memoryClipboard;
        }
      }
      if (!t) t = memoryClipboard;
      const s = ed();
      // The viewport's x and y are the board point at the middle of the view.
      const centre = at ?? pointer() ?? { x: s.viewport.x, y: s.viewport.y };
      const ids = pasteShapes(doc, t, userId, centre);
      if (ids.length > 0) {
        s.select(ids);
        return;
      }
      // Not shapes copied from a board: plain text becomes a text shape or a sticky note.
      const shape = shapeForPastedText(t, centre);
      if (!shape) return;
      // A long text's note grows to hold every line once its font is at the floor, as it does
      // while typing (TextEditor): 5,000 pasted characters spilled far out of a 200-unit note.
      // A short line's text shape is as wide as the line measures (estimated until here), so it
      // follows its text when typed into later (model/textFit.ts).
      if (shape.type === 'text' && shape.w !== undefined) {
        const w = fittedTextW(shape, measureIn(shape.fontFamily ?? 'sans'));
        shape.x = (shape.x ?? 0) + (shape.w - w) / 2;
        shape.w = w;
      }
      if (shape.type === 'sticky' && shape.w !== undefined && shape.h !== undefined)
        shape.h = Math.max(
          shape.h,
          layoutText({ ...shape, w: shape.w, h: shape.h }, measureIn('sans')).neededH,
        );
      if (shape.text?.length === PASTE_MAX_CHARS && t.trim().length > PASTE_MAX_CHARS)
        s.setNotice(`Only the first ${withThousands(PASTE_MAX_CHARS)} characters were pasted.`);
      undo.stopCapturing();
      s.select([createShape(doc, shape, userId)]);
    },
    /** Opens the text editor on a shape; an arrow gets a label to type into first. */
    editText(id: string) {
      if (!canEdit()) return;
      ensureLabel(doc, id);
      ed().setEditing(id);
    },
    /**
     * A shape of `type` and its default size in the middle of the view (or a free spot beside
     * it), selected (a note or text ready to type into): what a click with the tool does, for
     * someone without a pointer.
     */
    placeAtCentre(type: 'sticky' | 'rect' | 'ellipse' | 'diamond' | 'text') {
      if (!canEdit()) return;
      const s = ed();
      // A text starts as narrow as an empty text and grows as it is typed (model/textFit.ts).
      const size = type === 'text' ? textShapeAt({ x: 0, y: 0 }) : defaultSize[type];
      const mid = { x: s.viewport.x - size.w / 2, y: s.viewport.y - size.h / 2, ...size };
      // Beside what is there already (a frame holds notes; it is not in the way), so the second
      // note of a row of Enters does not land on, and hide, the first.
      const taken = index
        .getSnapshot()
        .list.filter((e) => e.rec.type !== 'frame')
        .map((e) => e.bounds);
      const at = freeSpot(mid, taken, clearOfControls(s.viewport, s.screen));
      undo.stopCapturing();
      const id = createShape(doc, { type, ...at, ...size, ...carriedStyle(type, s.lastStyle) }, userId);
      s.select([id]);
      // A view full of shapes sends it past the edge: the view follows, as for Tab's next shape.
      const view = panToShow(s.viewport, s.screen, { ...at, ...size });
      if (view !== s.viewport) s.setViewport(view);
      if (s.toolLocked) return;
      s.setTool('select');
      if (type === 'sticky' || type === 'text') s.setEditing(id);
    },
    /** A text shape where the person double-clicked empty canvas, ready to type into. */
    addTextAt(p: Point) {
      if (!canEdit()) return;
      undo.stopCapturing();
      const id = createShape(doc, { ...textShapeAt(p), ...carriedStyle('text', ed().lastStyle) }, userId);
      const s = ed();
      s.select([id]);
      // Left without typing anything, it goes, as every empty text does (TextEditor, dropEmptyText).
      s.setEditing(id);
    },
    /** Pans the view by (dx, dy) screen pixels: the board point in the middle moves that way. */
    panBy(dx: number, dy: number) {
      const s = ed();
      s.setViewport(panned(s.viewport, dx, dy));
    },
    zoomIn: () => zoomBy(1.25),
    zoomOut: () => zoomBy(0.8),
    zoomReset: () => {
      const s = ed();
      s.setViewport({ ...s.viewport, zoom: 1 });
    },
    /** The whole board (Shift+1), whatever is selected. */
    zoomToFit: () => fitBoard(2),
    /** The whole board as it opens: never past 100 %, so a board of one note is not shown huge. */
    fitOnOpen: () => fitBoard(1),
    /** The selection (Shift+2); nothing selected, nothing moves. */
    zoomToSelection() {
      const s = ed();
      const ids = new Set(sel());
      if (ids.size === 0) return;
      const chosen = index.getSnapshot().list.filter((e) => ids.has(e.rec.id));
      s.setViewport(fitRect(unionRect(chosen.map((e) => e.bounds)), s.screen, uncoveredNow(s.screen)));
    },
  };
}

export type Actions = ReturnType<typeof createActions>;
