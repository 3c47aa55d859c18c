// Editor state that is NOT shared with others: tool, viewport, selection, gesture in progress.
// Board content lives only in the Y.Doc. Components select the smallest slice they need.
import { limits } from '@tandem/shared';
import { create } from 'zustand';
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';
import { PHONE_QUERY } from '../breakpoints.ts';
import type { Point, Rect } from './model/geometry.ts';
import type { Guide } from './model/layout.ts';
import type { StylePatch } from './model/shapes.ts';

export type Tool =
  | 'select'
  | 'hand'
  | 'sticky'
  | 'rect'
  | 'ellipse'
  | 'diamond'
  | 'text'
  | 'arrow'
  | 'pen'
  | 'eraser'
  /** docs/api.md §14: draws nothing, leaves a fading trail that the others see (presence only). */
  | 'laser'
  /** docs/api.md §14: a frame, drawn by dragging (a click places one of the default size). */
  | 'frame'
  /** docs/api.md §18: places a comment thread on a shape or a point (stored on the server, not in the doc). */
  | 'comment';

/** Where a new thread is being written: on a shape, or at a board point. */
export interface CommentDraft {
  shapeId: string | null;
  x: number;
  y: number;
}

/** Viewport: (x, y) is the board point at the centre of the screen, so a followed viewport fits any screen size. */
export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

export interface EditorState {
  tool: Tool;
  viewport: Viewport;
  screen: { w: number; h: number };
  selection: string[];
  editingId: string | null;
  marquee: Rect | null;
  /** A freehand stroke being drawn (board units), shown before it becomes a shape. */
  draft: number[] | null;
  followClientId: number | null;
  /** The minimap is shown: off until the person turns it on (as in tldraw), then remembered. */
  minimap: boolean;
  spaceHeld: boolean;
  /** Snapping guides shown while a move or resize lines up with other shapes. */
  guides: Guide[];
  /**
   * A large selection being dragged (tools/gestures.ts, liftedMoveGesture): its shapes are drawn
   * in one layer moved by `liftOffset`, and the document is written once on release.
   */
  lift: { ids: ReadonlySet<string> } | null;
  /** How far the lifted layer is moved, in board units. */
  liftOffset: Point;
  /** Tool lock (Q, or double-click a tool): a drawing tool stays on after each shape. */
  toolLocked: boolean;
  /** The styles last picked in the style panel: new shapes start with those they carry (model/shapes.ts carriedStyle). */
  lastStyle: StylePatch;
  /** Set when the note being typed in was deleted by someone else: letter keys are swallowed (not
   * tool shortcuts) until the person clicks or presses Escape. */
  keyGuard: boolean;
  /** The newest one-line notice for the person (null when none is shown). */
  notice: string | null;
  /**
   * The notices shown, oldest first, at most MAX_NOTICES (an older one leaves when a new one
   * comes): the editor shows them in one stack with its other messages (ui/Notice.tsx).
   */
  notices: NoticeItem[];
  /** A long task in progress (a large import), shown as a progress bar. */
  progress: { label: string; done: number; total: number } | null;
  /** A thread being placed with the Comment tool (its composer is open). */
  commentDraft: CommentDraft | null;
  /** The thread shown open beside its pin. */
  openThreadId: string | null;
  /** The Comments panel is shown. */
  commentsPanel: boolean;
  setTool(tool: Tool): void;
  setCommentDraft(draft: CommentDraft | null): void;
  openThread(id: string | null): void;
  setCommentsPanel(open: boolean): void;
  setViewport(v: Viewport, opts?: { keepFollow?: boolean }): void;
  setScreen(w: number, h: number): void;
  select(ids: string[]): void;
  setEditing(id: string | null): void;
  setMarquee(r: Rect | null): void;
  setDraft(d: number[] | null): void;
  follow(clientId: number | null): void;
  setMinimap(open: boolean): void;
  setSpace(held: boolean): void;
  setGuides(guides: Guide[]): void;
  setLift(ids: ReadonlySet<string> | null): void;
  setLiftOffset(offset: Point): void;
  setToolLocked(on: boolean): void;
  /** Adds a pick of the style panel to `lastStyle`. */
  rememberStyle(patch: StylePatch): void;
  /** Adds a notice (the same sentence again moves to the end); null clears them all. */
  setNotice(notice: string | null): void;
  dismissNotice(id: number): void;
  setProgress(p: EditorState['progress']): void;
  setKeyGuard(on: boolean): void;
  noteDeletedWhileTyping(): void;
  /** The page shown is left: nothing on it stays being edited, selected or commented on. */
  leavePage(): void;
  reset(): void;
}

/** One notice of the stack: `id` orders it among the editor's other messages (newest last). */
export interface NoticeItem {
  id: number;
  text: string;
}

/** How many notices are shown at most; a new one pushes the oldest out. */
export const MAX_NOTICES = 3;
/**
 * How long a notice stays: time to read it, at about 20 characters a second after 3 s to notice it,
 * from 4 to 12 s. Every notice stayed 8 s: "Imported 2 shapes." lingered over the board, and a
 * sentence of two clauses left before it was read (a trial).
 */
export const noticeMs = (text: string): number => Math.min(12_000, Math.max(4000, 3000 + text.length * 50));

let noticeIds = 0;
/** A number that grows with each message shown, so the one stack shows the newest last. */
export const nextMessageOrder = (): number => ++noticeIds;

function withNotice(list: NoticeItem[], text: string | null): Pick<EditorState, 'notice' | 'notices'> {
  if (text === null) return { notice: null, notices: [] };
  const notices = [...list.filter((n) => n.text !== text), { id: nextMessageOrder(), text }].slice(
    -MAX_NOTICES,
  );
  return { notice: text, notices };
}

export const clampZoom = (z: number): number => Math.min(limits.zoomMax, Math.max(limits.zoomMin, z));

const initial = {
  tool: 'select' as Tool,
  viewport: { x: 0, y: 0, zoom: 1 },
  screen: { w: 1200, h: 800 },
  selection: [] as string[],
  editingId: null,
  marquee: null,
  draft: null,
  followClientId: null,
  minimap: false,
  spaceHeld: false,
  guides: [] as Guide[],
  lift: null as EditorState['lift'],
  liftOffset: { x: 0, y: 0 } as Point,
  toolLocked: false,
  lastStyle: {} as StylePatch,
  keyGuard: false,
  notice: null as string | null,
  notices: [] as NoticeItem[],
  progress: null as EditorState['progress'],
  commentDraft: null as CommentDraft | null,
  openThreadId: null as string | null,
  commentsPanel: false,
};

const editorState: StateCreator<EditorState> = (set) => ({
  ...initial,
  setTool: (tool) =>
    set((s) => ({ tool, editingId: null, commentDraft: tool === 'comment' ? s.commentDraft : null })),
  // One composer at a time: placing a new thread closes the open one, and opening one drops the draft.
  setCommentDraft: (commentDraft) => set({ commentDraft, openThreadId: null }),
  openThread: (openThreadId) => set({ openThreadId, commentDraft: null }),
  setCommentsPanel: (commentsPanel) => set({ commentsPanel }),
  setViewport: (v, opts) =>
    set((s) => {
      const zoom = clampZoom(v.zoom);
      // Any move of our own stops following someone else (docs/api.md §11).
      const followClientId = opts?.keepFollow ? s.followClientId : null;
      // The same view again is no change. Following re-applies the followed person's viewport on
      // every change of their presence (a cursor move); a new object each time re-rendered the
      // canvas and restarted its resting-zoom timer, which could keep a follower's scaled layer
      // from being drawn again for as long as presence changes kept coming.
      const same = s.viewport.x === v.x && s.viewport.y === v.y && s.viewport.zoom === zoom;
      if (same && s.followClientId === followClientId) return s;
      return { viewport: same ? s.viewport : { x: v.x, y: v.y, zoom }, followClientId };
    }),
  setScreen: (w, h) => set({ screen: { w, h } }),
  select: (ids) => set((s) => (sameIds(s.selection, ids) ? s : { selection: ids })),
  setEditing: (editingId) => set({ editingId }),
  setMarquee: (marquee) => set({ marquee }),
  setDraft: (draft) => set({ draft }),
  follow: (followClientId) => set({ followClientId }),
  setMinimap: (minimap) => {
    rememberMinimap(minimap);
    set({ minimap });
  },
  setSpace: (spaceHeld) => set({ spaceHeld }),
  setGuides: (guides) => set((s) => (s.guides.length === 0 && guides.length === 0 ? s : { guides })),
  setLift: (ids) => set({ lift: ids ? { ids } : null, liftOffset: { x: 0, y: 0 } }),
  setLiftOffset: (liftOffset) => set({ liftOffset }),
  setToolLocked: (toolLocked) => set({ toolLocked }),
  rememberStyle: (patch) => set((s) => ({ lastStyle: { ...s.lastStyle, ...patch } })),
  setNotice: (notice) => set((s) => withNotice(s.notices, notice)),
  dismissNotice: (id) =>
    set((s) => {
      const notices = s.notices.filter((n) => n.id !== id);
      return { notices, notice: notices.at(-1)?.text ?? null };
    }),
  setProgress: (progress) => set({ progress }),
  setKeyGuard: (keyGuard) => set({ keyGuard }),
  noteDeletedWhileTyping: () =>
    set((s) => ({
      editingId: null,
      selection: s.selection.filter((id) => id !== s.editingId),
      keyGuard: true,
      ...withNotice(s.notices, 'Someone else deleted the note you were typing in.'),
    })),
  leavePage: () => set({ editingId: null, selection: [], commentDraft: null }),
  reset: () => set({ ...initial, minimap: rememberedMinimap() }),
});

/** The editor store as a plain (vanilla) zustand store: what the tool controller takes, so its
 * gestures run in Node tests without React or a browser. */
export type EditorStore = StoreApi<EditorState>;
export const createEditorStore = (): EditorStore => createStore<EditorState>()(editorState);

/** The page's editor store, as a React hook (and a store: `useEditor.getState()`). */
export const useEditor = create<EditorState>()(editorState);

const MINIMAP_KEY = 'tandem:minimap';
/** Whether this browser last had the minimap on (never on a phone-sized window, where it would cover the board). */
function rememberedMinimap(): boolean {
  if (typeof window === 'undefined' || typeof localStorage === 'undefined') return false;
  if (window.matchMedia?.(PHONE_QUERY).matches) return false;
  try {
    return localStorage.getItem(MINIMAP_KEY) === 'on';
  } catch {
    return false;
  }
}
function rememberMinimap(on: boolean): void {
  try {
    localStorage.setItem(MINIMAP_KEY, on ? 'on' : 'off');
  } catch {
    // Private mode or storage refused: the choice lasts for this page only.
  }
}

const sameIds = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Screen ↔ board conversions for a viewport. */
export function toBoard(v: Viewport, screen: { w: number; h: number }, sx: number, sy: number) {
  return { x: v.x + (sx - screen.w / 2) / v.zoom, y: v.y + (sy - screen.h / 2) / v.zoom };
}
export function toScreen(v: Viewport, screen: { w: number; h: number }, bx: number, by: number) {
  return { x: (bx - v.x) * v.zoom + screen.w / 2, y: (by - v.y) * v.zoom + screen.h / 2 };
}
/** The board rectangle visible on screen. */
export function visibleRect(v: Viewport, screen: { w: number; h: number }): Rect {
  return {
    x: v.x - screen.w / 2 / v.zoom,
    y: v.y - screen.h / 2 / v.zoom,
    w: screen.w / v.zoom,
    h: screen.h / v.zoom,
  };
}
/** The viewport moved by (dx, dy) screen pixels at its zoom, which it keeps. */
export const panned = (v: Viewport, dx: number, dy: number): Viewport => ({
  ...v,
  x: v.x + dx / v.zoom,
  y: v.y + dy / v.zoom,
});
/** Zooms by `factor` keeping the board point under screen (sx, sy) fixed. */
export function zoomAt(
  v: Viewport,
  screen: { w: number; h: number },
  factor: number,
  sx: number,
  sy: number,
): Viewport {
  const zoom = clampZoom(v.zoom * factor);
  const p = toBoard(v, screen, sx, sy);
  return { zoom, x: p.x - (sx - screen.w / 2) / zoom, y: p.y - (sy - screen.h / 2) / zoom };
}
/** fitRect's margins, in screen pixels: 80 left and right, 130 above and below. */
const FIT_SIDE = 80;
const FIT_TOP = 130;
/** The board rectangle in view and clear of the controls (fitRect's margins). */
export function clearOfControls(v: Viewport, screen: { w: number; h: number }): Rect {
  const r = visibleRect(v, screen);
  const mx = Math.min(FIT_SIDE / v.zoom, r.w / 2);
  const my = Math.min(FIT_TOP / v.zoom, r.h / 2);
  return { x: r.x + mx, y: r.y + my, w: r.w - 2 * mx, h: r.h - 2 * my };
}
/** A viewport showing `r` with a margin. */
export function fitRect(
  r: Rect | null,
  screen: { w: number; h: number },
  /**
   * Where on screen `r` is fitted, centred: by default the screen less the margins (130 px above
   * and below keep it clear of the two rows of controls at the top, the top bar then the
   * facilitation bar down to y ≈ 112, and of the status and zoom at the bottom); the editor
   * passes the part its open panels leave (ui/clearOfSelection.ts, `uncoveredNow`).
   */
  clear: Rect = marginsRect(screen),
  /** The most it zooms in: a small shape is not blown up past this. */
  most = 2,
): Viewport {
  if (!r) return { x: 0, y: 0, zoom: 1 };
  const zoom = clampZoom(Math.min(clear.w / Math.max(r.w, 1), clear.h / Math.max(r.h, 1), most));
  return {
    x: r.x + r.w / 2 - (clear.x + clear.w / 2 - screen.w / 2) / zoom,
    y: r.y + r.h / 2 - (clear.y + clear.h / 2 - screen.h / 2) / zoom,
    zoom,
  };
}
/** A shape drawn at least this large (its longer side, in screen pixels) can be read where it is. */
export const READABLE_PX = 96;

/**
 * The least zoom an inserted template is shown at. Fitted whole on a phone (390 px across), the
 * three Kanban columns came at 14 %: notes 28 px, words 2 px high, nothing to read. At 50 % the
 * gallery's notes (200 units) are drawn 100 px, over READABLE_PX, and its columns (520 units) are
 * 260 px, one of them wholly on a phone's screen with the next one showing beside it. Editors do
 * not shrink what they bring in below a readable zoom either (tldraw, Miro); the rest is a pan away.
 */
export const TEMPLATE_MIN_ZOOM = 0.5;

/**
 * A viewport that shows `r` so that it can be read: fitted whole (fitRect) when that zoom is at
 * least `minZoom`, so a screen large enough sees all of it as before. Otherwise at `minZoom`: on
 * each axis where `r` still fits inside fitRect's margins it stays centred; where it does not, its
 * start (the left, the top) is put at the margin, as a template is read from its top left: a
 * phone shows its first column with its title, not the middle of the middle one. The side margin
 * is narrower on a narrow screen (at most a sixteenth of its width): 80 px of a phone's 390 would
 * be room lost to the template.
 */
export function fitToRead(r: Rect, screen: { w: number; h: number }, minZoom: number): Viewport {
  const fit = fitRect(r, screen);
  if (fit.zoom >= minZoom) return fit;
  const zoom = clampZoom(minZoom);
  const side = Math.min(FIT_SIDE, screen.w / 16);
  const fitsAcross = r.w * zoom <= screen.w - 2 * side;
  const fitsDown = r.h * zoom <= screen.h - 2 * FIT_TOP;
  return {
    x: fitsAcross ? fit.x : r.x + (screen.w / 2 - side) / zoom,
    y: fitsDown ? fit.y : r.y + (screen.h / 2 - FIT_TOP) / zoom,
    zoom,
  };
}

/** The screen less fitRect's margins: where content is shown clear of the bars at the edges. */
export function marginsRect(screen: { w: number; h: number }): Rect {
  return { x: FIT_SIDE, y: FIT_TOP, w: screen.w - 2 * FIT_SIDE, h: screen.h - 2 * FIT_TOP };
}

/**
 * The viewport that shows `r` so that it can be read inside `clear` (screen pixels: by default the
 * screen less fitRect's margins; Find passes the part no panel covers, ui/clearOfSelection.ts): the
 * same viewport when `r` is drawn readable and wholly inside `clear` already; else centred in
 * `clear`, zoomed in on, up to 100 %, when it is drawn too small to read. Find uses it: at the 5 %
 * a whole board is fitted at, a found note is a dot; and a trial's match, panned just into view,
 * landed under the open Comments panel (or the Pages panel, or the style panel it opened).
 */
export function showToRead(
  v: Viewport,
  screen: { w: number; h: number },
  r: Rect,
  clear: Rect = marginsRect(screen),
): Viewport {
  const readable = Math.max(r.w, r.h) * v.zoom >= READABLE_PX;
  const fits = clampZoom(Math.min(clear.w / Math.max(r.w, 1), clear.h / Math.max(r.h, 1)));
  const zoom = readable ? v.zoom : Math.max(v.zoom, Math.min(fits, 1));
  if (zoom === v.zoom) {
    const at = toScreen(v, screen, r.x, r.y);
    const inside =
      at.x >= clear.x &&
      at.y >= clear.y &&
      at.x + r.w * zoom <= clear.x + clear.w &&
      at.y + r.h * zoom <= clear.y + clear.h;
    if (inside) return v;
  }
  return {
    zoom,
    x: r.x + r.w / 2 - (clear.x + clear.w / 2 - screen.w / 2) / zoom,
    y: r.y + r.h / 2 - (clear.y + clear.h / 2 - screen.h / 2) / zoom,
  };
}
/**
 * The viewport moved just enough that `r` is in view, clear of the controls (the margins
 * `fitRect` keeps), at the same zoom; the same viewport when it is in view already. A rectangle
 * too large for the view is centred. Used when the keyboard moves the selection (Tab), so the
 * shape chosen is on screen without the view jumping for every shape already shown.
 */
export function panToShow(v: Viewport, screen: { w: number; h: number }, r: Rect): Viewport {
  const mx = FIT_SIDE / v.zoom;
  const my = FIT_TOP / v.zoom;
  const halfW = screen.w / 2 / v.zoom - mx;
  const halfH = screen.h / 2 / v.zoom - my;
  const axis = (centre: number, half: number, lo: number, size: number) => {
    if (size > 2 * half) return lo + size / 2;
    if (lo < centre - half) return lo + half;
    if (lo + size > centre + half) return lo + size - half;
    return centre;
  };
  const x = axis(v.x, halfW, r.x, r.w);
  const y = axis(v.y, halfH, r.y, r.h);
  return x === v.x && y === v.y ? v : { ...v, x, y };
}
