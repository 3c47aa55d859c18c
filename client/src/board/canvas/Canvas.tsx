// The board canvas: an SVG with the viewport as one transform, drawing only the shapes whose
// bounds meet the visible rectangle (so 5,000 shapes pan and zoom smoothly), plus selection
// handles, other people's selections, the marquee and the stroke being drawn.
//
// The SVG is drawn for a *base* view, with DRAWN_MARGIN screens more on every side drawn as
// overflow beyond its box (`overflow: visible`; the editor clips it), and moved to the current
// view by a CSS transform that the compositor applies (`will-change: transform`). Panning changes
// only that transform, so a pan frame costs a composite of tiles already rasterised, not a
// repaint of thousands of shapes (docs/benchmarks-client.md). The SVG is drawn again for the
// current view (a rebase) when the view leaves the drawn area, and once a zoom has rested for
// REBASE_IDLE_MS, so at rest its box is the screen and it is exactly a direct drawing. The dot
// grid is an SVG pattern in the same layer, so it moves with it. Positions are measured against
// the editor (the SVG's parent), which does not move.
import type { ShapeRecord } from '@tandem/shared';
import { DETAIL_ZOOM } from '@tandem/shared/render/body.ts';
import {
  memo,
  type PointerEvent as ReactPointerEvent,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useSyncExternalStore,
} from 'react';
import type { Awareness } from 'y-protocols/awareness';
import { isMac, matchesCommand } from '../commandKeys.ts';
import { fontStacks } from '../drawing/fonts.ts';
import {
  clippingFrames,
  FRAME_TITLE_BASELINE_PX,
  fitTitle,
  frameLabel,
  grabbedAt,
} from '../facilitation/frames.ts';
import { pathBounds } from '../model/connectors.ts';
import { shapeCountText, shapeLabel } from '../model/describe.ts';
import { intersects, rotate, unionRect } from '../model/geometry.ts';
import { recordBounds, turnable } from '../model/layout.ts';
import { presenceOutline } from '../presence/contrast.ts';
import { useRemotes } from '../presence/remote.ts';
import { isTyping } from '../shortcuts.ts';
import { toBoard, toScreen, useEditor, type Viewport } from '../store.ts';
import type { Handle, ToolController } from '../tools/controller.ts';
import type { MenuRequest } from '../ui/ContextMenu.tsx';
import { strokePath } from './freehand.ts';
import { frameTitleWidth } from './measure.ts';
import { ArrowView, arrowEndsOf, resolveArrow, ShapeView } from './ShapeView.tsx';
import type { IndexedShape, ShapeIndex } from './shapeIndex.ts';
import './canvas.css';

/** How long a zoom must rest before the shape layer is drawn again at the new scale. */
const REBASE_IDLE_MS = 150;
/** The area drawn around the base view: this many screens more on every side. */
const DRAWN_MARGIN = 0.5;
/** How far the drawn layer may be scaled before it is drawn again at once. */
const MAX_SCALED = 2;

interface Base {
  view: Viewport;
  w: number;
  h: number;
}

/** The board rectangle the shape layer holds for a base: the view plus DRAWN_MARGIN screens. */
function drawnArea(b: Base) {
  const k = 0.5 + DRAWN_MARGIN;
  return {
    x: b.view.x - (b.w * k) / b.view.zoom,
    y: b.view.y - (b.h * k) / b.view.zoom,
    w: (2 * b.w * k) / b.view.zoom,
    h: (2 * b.h * k) / b.view.zoom,
  };
}

interface Props {
  index: ShapeIndex;
  controller: ToolController;
  awareness: Awareness;
  readOnly: boolean;
  onPointer(p: { x: number; y: number } | null): void;
  onEditRequest(id: string): void;
  /** A right-click (a Mac's Ctrl+click), Shift+F10 or the Menu key: the context menu is asked for. */
  onMenu?(request: MenuRequest): void;
  /** A double-click on empty canvas, at a board point. */
  onEmptyDoubleClick?(at: { x: number; y: number }): void;
}

export function Canvas({
  index,
  controller,
  awareness,
  readOnly,
  onPointer,
  onEditRequest,
  onEmptyDoubleClick,
  onMenu,
}: Props) {
  const ref = useRef<SVGSVGElement>(null);
  const snap = useSyncExternalStore(index.subscribe, index.getSnapshot);
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  const tool = useEditor((s) => s.tool);
  const spaceHeld = useEditor((s) => s.spaceHeld);
  const editingId = useEditor((s) => s.editingId);
  // Whether anything is selected: the board's keyboard focus ring shows only when nothing is (editor.css).
  const hasSelection = useEditor((s) => s.selection.length > 0);
  const setScreen = useEditor((s) => s.setScreen);

  useEffect(() => {
    const el = ref.current;
    const frame = el?.parentElement;
    if (!el || !frame) return;
    const ro = new ResizeObserver(() => {
      const r = frame.getBoundingClientRect();
      setScreen(r.width, r.height);
    });
    ro.observe(frame);
    // Wheel must be non-passive to stop the browser's own page zoom on Ctrl+wheel.
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = frame.getBoundingClientRect();
      const scale = e.deltaMode === 1 ? 16 : 1;
      controller.wheel({
        x: e.clientX - r.left,
        y: e.clientY - r.top,
        dx: e.deltaX * scale,
        dy: e.deltaY * scale,
        ctrl: e.ctrlKey || e.metaKey,
      });
    };
    el.addEventListener('wheel', wheel, { passive: false });
    return () => {
      ro.disconnect();
      el.removeEventListener('wheel', wheel);
    };
  }, [controller, setScreen]);

  // The shape layer's base (see the top of this file). Kept in a ref and replaced during render
  // when the view leaves the drawn area or the screen changes size; a resting zoom replaces it
  // from the timer below.
  const baseRef = useRef<Base>({ view: viewport, w: screen.w, h: screen.h });
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  {
    const b = baseRef.current;
    const drawn = drawnArea(b);
    const halfW = screen.w / 2 / viewport.zoom;
    const halfH = screen.h / 2 / viewport.zoom;
    const inside =
      viewport.x - halfW >= drawn.x &&
      viewport.y - halfH >= drawn.y &&
      viewport.x + halfW <= drawn.x + drawn.w &&
      viewport.y + halfH <= drawn.y + drawn.h;
    // A jump in zoom (zoom to fit, reset, following someone) is drawn at once; within a factor
    // of 2 (the steps of a zoom gesture) the layer is scaled until the zoom rests.
    const scale = viewport.zoom / b.view.zoom;
    if (!inside || scale > MAX_SCALED || scale < 1 / MAX_SCALED || b.w !== screen.w || b.h !== screen.h) {
      baseRef.current = { view: viewport, w: screen.w, h: screen.h };
    }
  }
  const base = baseRef.current;
  useEffect(() => {
    if (viewport.zoom === baseRef.current.view.zoom) return;
    const t = setTimeout(() => {
      const st = useEditor.getState();
      baseRef.current = { view: st.viewport, w: st.screen.w, h: st.screen.h };
      redraw();
    }, REBASE_IDLE_MS);
    return () => clearTimeout(t);
  }, [viewport]);

  const lastVisible = useRef<IndexedShape[]>([]);
  const detail = base.view.zoom >= DETAIL_ZOOM;
  // Frames clip the shapes they hold (docs/api.md §14).
  const clips = useMemo(() => clippingFrames(snap.list.map((e) => e.rec)), [snap]);
  const visible = useMemo(() => {
    const win = drawnArea(base);
    const next = snap.list.filter((e) => intersects(e.bounds, win));
    // Keep the previous list while the same shapes are in the window (a rebase often brings
    // none in or out), so the memoised ShapeLayer below skips reconciling every shape.
    const prev = lastVisible.current;
    if (next.length === prev.length && next.every((e, i) => e === prev[i])) return prev;
    lastVisible.current = next;
    return next;
  }, [snap, base]);

  // A large selection being dragged is drawn in a layer of its own, moved as one (store `lift`).
  const lift = useEditor((s) => s.lift);
  const still = useMemo(
    () => (lift ? visible.filter((e) => !lift.ids.has(e.rec.id)) : visible),
    [visible, lift],
  );
  const lifted = useMemo(() => (lift ? snap.list.filter((e) => lift.ids.has(e.rec.id)) : []), [snap, lift]);

  const local = (e: { clientX: number; clientY: number }) => {
    const r = ref.current!.parentElement!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  /** A press with the Comment tool that places a comment (controller.down), not one that pans. */
  const placesComment = (e: React.MouseEvent) => {
    const st = useEditor.getState();
    return e.button === 0 && st.tool === 'comment' && !st.spaceHeld;
  };
  // A Mac's Ctrl+click is its right-click: the menu opens on the press (the contextmenu event
  // that may follow is then not a second ask), where elsewhere Ctrl+click stays a click.
  const ctrlClicked = useRef(false);
  const onPointerDown = (e: ReactPointerEvent<SVGSVGElement>) => {
    // A right-click's own contextmenu follows: a Ctrl+click whose contextmenu never came (a
    // browser that sends none) must not swallow it.
    if (e.button === 2) {
      ctrlClicked.current = false;
      return;
    }
    if (e.button === 0 && e.ctrlKey && !e.metaKey && e.pointerType === 'mouse' && isMac() && onMenu) {
      e.preventDefault();
      ctrlClicked.current = true;
      onMenu({ canvas: e.currentTarget, at: e });
      return;
    }
    (e.currentTarget as Element).setPointerCapture(e.pointerId);
    // Focus from a press shows no ring (editor.css rings the board for keyboard focus): without
    // focusVisible, a script's focus keeps the ring state of the element focused before, so a
    // click after Tabbing about rang the board. A press that places a comment leaves focus to
    // the comment's field, which takes it as it opens (or keeps it as the comment moves).
    if (!placesComment(e)) ref.current?.focus({ preventScroll: true, focusVisible: false });
    const handle = ((e.target as Element).closest('[data-handle]')?.getAttribute('data-handle') ??
      null) as Handle | null;
    controller.down({
      ...local(e),
      button: e.button,
      shift: e.shiftKey,
      alt: e.altKey,
      pointerId: e.pointerId,
      handle,
    });
  };
  const onPointerMove = (e: ReactPointerEvent<SVGSVGElement>) => {
    const p = local(e);
    controller.move({ ...p, pointerId: e.pointerId, shift: e.shiftKey, noSnap: e.ctrlKey || e.metaKey });
    const st = useEditor.getState();
    onPointer({
      x: st.viewport.x + (p.x - st.screen.w / 2) / st.viewport.zoom,
      y: st.viewport.y + (p.y - st.screen.h / 2) / st.viewport.zoom,
    });
  };
  const onPointerUp = (e: ReactPointerEvent<SVGSVGElement>) =>
    controller.up({ ...local(e), pointerId: e.pointerId });
  const onDoubleClick = (e: React.MouseEvent<SVGSVGElement>) => {
    if (readOnly) return;
    // Hit-test by position: pointer capture makes the canvas itself the event target.
    const p = local(e);
    const st = useEditor.getState();
    const at = toBoard(st.viewport, st.screen, p.x, p.y);
    // What a press there would take hold of: a frame only by its title or border, so a
    // double-click on a frame's title renames it (FrameNameEditor) instead of putting a new text
    // shape over the title, and one inside a frame's empty body writes text there as on the board.
    const rec = grabbedAt(
      snap.list.map((x) => x.rec),
      at,
      4 / st.viewport.zoom,
      st.viewport.zoom,
    );
    // An arrow takes a label (docs/api.md §10: text that follows its midpoint).
    const editable = rec && (rec.text !== undefined || rec.type === 'arrow' || rec.type === 'frame');
    if (rec && editable && !rec.locked) onEditRequest(rec.id);
    // Empty canvas with the select tool: a text shape there, as in Excalidraw and tldraw.
    else if (!rec && st.tool === 'select') onEmptyDoubleClick?.(at);
  };

  const cursor =
    spaceHeld || tool === 'hand'
      ? 'grab'
      : tool === 'select'
        ? 'default'
        : tool === 'eraser'
          ? 'cell'
          : 'crosshair';
  // The current view, as the transform a direct drawing would use (tests and tools read it).
  const transform = `translate(${screen.w / 2} ${screen.h / 2}) scale(${viewport.zoom}) translate(${-viewport.x} ${-viewport.y})`;
  const bv = base.view;
  const mx = base.w * DRAWN_MARGIN;
  const my = base.h * DRAWN_MARGIN;
  // In the SVG, a board point p is at (p − bv) · bv.zoom + base/2. The CSS transform (origin: the
  // SVG's corner, which is the editor's) brings it to (p − v) · v.zoom + screen/2.
  const baseTransform = `translate(${base.w / 2} ${base.h / 2}) scale(${bv.zoom}) translate(${-bv.x} ${-bv.y})`;
  const k = viewport.zoom / bv.zoom;
  const dx = screen.w / 2 - (k * base.w) / 2 + (bv.x - viewport.x) * viewport.zoom;
  const dy = screen.h / 2 - (k * base.h) / 2 + (bv.y - viewport.y) * viewport.zoom;
  const move = k === 1 && dx === 0 && dy === 0 ? 'none' : `translate(${dx}px, ${dy}px) scale(${k})`;
  const grid = 24 * bv.zoom;
  const gridX = (((base.w / 2 - bv.x * bv.zoom) % grid) + grid) % grid;
  const gridY = (((base.h / 2 - bv.y * bv.zoom) % grid) + grid) % grid;

  return (
    <>
      <svg
        ref={ref}
        className="canvas"
        role="application"
        aria-label="Board canvas"
        // How many shapes, as its description: the name stays "Board canvas" (docs/api.md §11).
        aria-description={shapeCountText(snap.list.length)}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the canvas is an application widget driven by the keyboard
        tabIndex={0}
        // The SVG's own box is the drawn area (the screen plus the margin on every side), and the
        // viewBox keeps user space as it was: (0, 0) is the screen's corner. So paint containment
        // (styles.css) clips nothing that is drawn; without it, a redraw of thousands of shapes at a
        // new zoom spent ~600 ms in Chromium's layerization (docs/benchmarks.md).
        viewBox={`${-mx} ${-my} ${base.w + 2 * mx} ${base.h + 2 * my}`}
        style={{
          cursor,
          transform: move,
          left: -mx,
          top: -my,
          width: base.w + 2 * mx,
          height: base.h + 2 * my,
          transformOrigin: `${mx}px ${my}px`,
        }}
        data-viewport={transform}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={(e) => controller.cancel(e.pointerId)}
        onPointerLeave={() => onPointer(null)}
        onDoubleClick={onDoubleClick}
        onContextMenu={(e) => {
          e.preventDefault();
          const ctrlClick = ctrlClicked.current;
          ctrlClicked.current = false;
          // A contextmenu from the keyboard (button 0) is asked for by the keydown below.
          if (e.button === 2 && !ctrlClick) onMenu?.({ canvas: e.currentTarget, at: e });
        }}
        onKeyDown={(e) => {
          if (!onMenu || !matchesCommand(e, 'contextMenu') || isTyping(e.target)) return;
          e.preventDefault();
          e.stopPropagation();
          onMenu({ canvas: e.currentTarget });
        }}
        // The press's own focusing (its mousedown, after the pointerdown that opened the comment's
        // field) would take the caret back to the canvas, and the comment typed next would be read
        // as tool shortcuts. On a touch screen that mousedown comes after the tap.
        onMouseDown={(e) => {
          if (placesComment(e)) e.preventDefault();
        }}
        data-selected={hasSelection ? 'true' : undefined}
        data-shape-count={snap.list.length}
        data-rendered-count={visible.length}
      >
        {/* Unnamed SVG drawing (the grid, the marquee, the stroke being drawn) is left out of the
            accessibility tree by the browser; text is not, hence aria-hidden on the layers below
            that hold text or many parts. */}
        {grid >= 8 && (
          <>
            <defs>
              <pattern
                id="canvas-grid"
                width={grid}
                height={grid}
                patternUnits="userSpaceOnUse"
                x={gridX - grid / 2}
                y={gridY - grid / 2}
              >
                <circle cx={grid / 2} cy={grid / 2} r={1} className="grid-dot" />
              </pattern>
            </defs>
            <rect
              x={-mx}
              y={-my}
              width={base.w + 2 * mx}
              height={base.h + 2 * my}
              fill="url(#canvas-grid)"
              pointerEvents="none"
            />
          </>
        )}
        <g className="viewport" transform={baseTransform}>
          <FrameClips list={snap.list} />
          <ShapeLayer visible={still} byId={snap.byId} clips={clips} editingId={editingId} detail={detail} />
          <FrameTitles visible={still} zoom={viewport.zoom} />
          <RemoteSelections awareness={awareness} byId={snap.byId} zoom={viewport.zoom} />
          {!lift && <Selection byId={snap.byId} viewport={viewport} screen={screen} readOnly={readOnly} />}
          <Draft />
          <Marquee zoom={viewport.zoom} />
        </g>
      </svg>
      {lift && (
        <LiftLayer screen={screen} transform={transform}>
          <ShapeLayer visible={lifted} byId={snap.byId} clips={clips} editingId={editingId} detail={detail} />
          <FrameTitles visible={lifted} zoom={viewport.zoom} />
          <Selection byId={snap.byId} viewport={viewport} screen={screen} readOnly={readOnly} />
        </LiftLayer>
      )}
      <Guides screen={screen} transform={transform} zoom={viewport.zoom} />
    </>
  );
}

/**
 * The lifted layer (a large selection being dragged) and the selection's outlines, in an <svg> of
 * their own over the canvas, hidden from the canvas while lifted. A pointer frame only changes
 * this layer's CSS transform (set here on the element, not through React), which the compositor
 * applies to the layer as rasterised: the 5,000-shape drawing under it is not repainted
 * (docs/benchmarks-client.md). Pointer events go through to the canvas, which holds the capture.
 */
function LiftLayer({
  screen,
  transform,
  children,
}: {
  screen: { w: number; h: number };
  transform: string;
  children: React.ReactNode;
}) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    const place = (s: { liftOffset: { x: number; y: number }; viewport: { zoom: number } }) => {
      const el = ref.current;
      if (!el) return;
      const { x, y } = s.liftOffset;
      el.style.transform = `translate(${x * s.viewport.zoom}px, ${y * s.viewport.zoom}px)`;
    };
    place(useEditor.getState());
    return useEditor.subscribe(place);
  }, []);
  return (
    <svg
      ref={ref}
      className="lift-layer"
      data-lifted="true"
      aria-hidden="true"
      width={screen.w}
      height={screen.h}
      viewBox={`0 0 ${screen.w} ${screen.h}`}
    >
      <g transform={transform}>{children}</g>
    </svg>
  );
}

const clipId = (frameId: string) => `frame-clip-${frameId}`;

/** One clip path per frame, in board units, for the shapes it holds. */
const FrameClips = memo(function FrameClips({ list }: { list: IndexedShape[] }) {
  const frames = list.filter((e) => e.rec.type === 'frame');
  if (frames.length === 0) return null;
  return (
    <defs>
      {frames.map(({ rec: f }) => (
        <clipPath key={f.id} id={clipId(f.id)} clipPathUnits="userSpaceOnUse">
          <rect x={f.x} y={f.y} width={f.w} height={f.h} rx={4} />
        </clipPath>
      ))}
    </defs>
  );
});

const ShapeLayer = memo(function ShapeLayer({
  visible,
  byId,
  clips,
  editingId,
  detail,
}: {
  visible: IndexedShape[];
  byId: Map<string, ShapeRecord>;
  clips: Map<string, ShapeRecord>;
  editingId: string | null;
  detail: boolean;
}) {
  return visible.map(({ rec }) => {
    const frame = clips.get(rec.id);
    const view =
      rec.type === 'arrow' ? (
        <ArrowFor key={rec.id} rec={rec} byId={byId} editing={rec.id === editingId} detail={detail} />
      ) : (
        <ShapeView key={rec.id} s={rec} editing={rec.id === editingId} detail={detail} />
      );
    // Only a shape in a frame gets the clipping group, so a board without frames has no extra nodes.
    return frame ? (
      <g key={rec.id} clipPath={`url(#${clipId(frame.id)})`}>
        {view}
      </g>
    ) : (
      view
    );
  });
});

/**
 * Frame titles, drawn after every shape so a note never covers the name of the frame it is in
 * (the frame itself stays beneath what it holds). Each is drawn at a constant screen size (scaled
 * by 1 / zoom in board space), cut with an ellipsis to the frame's width on screen, as in tldraw
 * and Miro; the grip that takes a press or double-click on it (onFrameGrip) is measured likewise.
 */
const FrameTitles = memo(function FrameTitles({ visible, zoom }: { visible: IndexedShape[]; zoom: number }) {
  return visible
    .filter((e) => e.rec.type === 'frame')
    .map(({ rec: f }) => (
      // Hidden from screen readers: the frame's own name ("Frame: Sprint 3") says it already.
      // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG <g> is not focusable; biome takes it for a custom element
      <g
        key={f.id}
        data-frame-title={f.id}
        transform={`translate(${f.x} ${f.y}) scale(${1 / zoom})`}
        pointerEvents="none"
        aria-hidden="true"
      >
        <text className="frame-name" x={0} y={-FRAME_TITLE_BASELINE_PX} fontFamily={fontStacks.sans}>
          {fitTitle(frameLabel(f), f.w * zoom, frameTitleWidth)}
        </text>
      </g>
    ));
});

function ArrowFor({
  rec,
  byId,
  editing,
  detail,
}: {
  rec: ShapeRecord;
  byId: Map<string, ShapeRecord>;
  editing: boolean;
  detail: boolean;
}) {
  return (
    <ArrowView
      s={rec}
      path={resolveArrow(rec, byId)}
      label={shapeLabel(rec, byId)}
      editing={editing}
      detail={detail}
    />
  );
}

function outline(rec: ShapeRecord, byId: Map<string, ShapeRecord>, pad: number) {
  if (rec.type === 'arrow') {
    const r = pathBounds(resolveArrow(rec, byId));
    return { x: r.x - pad, y: r.y - pad, w: r.w + 2 * pad, h: r.h + 2 * pad, rot: '' };
  }
  const rot = rec.rotation
    ? `rotate(${(rec.rotation * 180) / Math.PI} ${rec.x + rec.w / 2} ${rec.y + rec.h / 2})`
    : '';
  return { x: rec.x - pad, y: rec.y - pad, w: rec.w + 2 * pad, h: rec.h + 2 * pad, rot };
}

/**
 * How far down the screen the top bar and the facilitation bar under it reach (the comment cards
 * keep below it too), and how far up the bottom bars do: a rotation handle there is under them.
 */
const TOP_CHROME = 116;
const BOTTOM_CHROME = 72;

function Selection({
  byId,
  viewport,
  screen,
  readOnly,
}: {
  byId: Map<string, ShapeRecord>;
  viewport: Viewport;
  screen: { w: number; h: number };
  readOnly: boolean;
}) {
  const zoom = viewport.zoom;
  const selection = useEditor((s) => s.selection);
  const editingId = useEditor((s) => s.editingId);
  const pad = 4 / zoom;
  const recs = selection.map((id) => byId.get(id)).filter((r): r is ShapeRecord => !!r);
  const one = recs.length === 1 && !readOnly && !editingId && !recs[0]!.locked ? recs[0]! : null;
  const single = one && one.type !== 'arrow' ? one : null;
  const arrow = one?.type === 'arrow' ? one : null;
  // Several shapes (or a group) resize and rotate together, by handles on their common bounds.
  const movable = recs.filter((r) => !r.locked);
  const box =
    recs.length > 1 && !readOnly && !editingId && movable.length > 0
      ? unionRect(movable.map(recordBounds))
      : null;
  const hs = 9 / zoom;
  const stem = 24 / zoom;
  // The rotation handle stands above the box (in the shape's own frame, `rotation` being the turn
  // drawn on it); where that is under the top bars, where it could not be grabbed, it stands below
  // the box instead, if there it is clear of the bottom ones (tldraw and Excalidraw flip it too).
  const handleBelow = (o: { x: number; y: number; w: number; h: number }, rotation: number) => {
    const c = { x: o.x + o.w / 2, y: o.y + o.h / 2 };
    const onScreen = (y: number) => {
      const p = rotate({ x: c.x, y }, c, rotation);
      return toScreen(viewport, screen, p.x, p.y).y;
    };
    const above = onScreen(o.y - stem);
    const below = onScreen(o.y + o.h + stem);
    return above < TOP_CHROME && below >= TOP_CHROME && below <= screen.h - BOTTOM_CHROME;
  };
  const handles = (o: { x: number; y: number; w: number; h: number }, turns: boolean, rotation = 0) => {
    const corners: [Handle, number, number][] = [
      ['nw', o.x, o.y],
      ['ne', o.x + o.w, o.y],
      ['sw', o.x, o.y + o.h],
      ['se', o.x + o.w, o.y + o.h],
    ];
    const below = turns && handleBelow(o, rotation);
    const edge = below ? o.y + o.h : o.y;
    const knob = below ? o.y + o.h + stem : o.y - stem;
    return (
      <>
        {turns && (
          <>
            <line
              x1={o.x + o.w / 2}
              y1={edge}
              x2={o.x + o.w / 2}
              y2={knob}
              stroke="#4f46e5"
              strokeWidth={1.5 / zoom}
            />
            <circle
              data-handle="rotate"
              data-below={below ? 'true' : undefined}
              className="handle rotate"
              cx={o.x + o.w / 2}
              cy={knob}
              r={hs / 1.6}
              strokeWidth={1.5 / zoom}
            />
          </>
        )}
        {corners.map(([h, x, y]) => (
          <rect
            key={h}
            data-handle={h}
            className={`handle ${h}`}
            x={x - hs / 2}
            y={y - hs / 2}
            width={hs}
            height={hs}
            rx={2 / zoom}
            strokeWidth={1.5 / zoom}
          />
        ))}
      </>
    );
  };
  return (
    // Outlines, handles and padlocks are decoration: the live region says what is selected.
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG <g> is not focusable; biome takes it for a custom element
    <g className="selection" pointerEvents="none" aria-hidden="true">
      {recs.map((r) => {
        if (r === arrow) return null; // its end handles show the selection
        const o = outline(r, byId, pad);
        return (
          <rect
            key={r.id}
            data-selected-id={r.id}
            x={o.x}
            y={o.y}
            width={o.w}
            height={o.h}
            transform={o.rot}
            fill="none"
            stroke={r.locked ? '#8c959f' : '#4f46e5'}
            strokeDasharray={r.locked ? `${4 / zoom} ${3 / zoom}` : undefined}
            strokeWidth={1.5 / zoom}
            rx={3 / zoom}
            data-locked={r.locked ? 'true' : undefined}
          />
        );
      })}
      {recs
        .filter((r) => r.locked)
        .map((r) => {
          // A small padlock at the top-right corner says why it has no handles.
          const o = outline(r, byId, pad);
          const k = 0.7 / zoom;
          return (
            <g
              key={`lock:${r.id}`}
              className="lock-badge"
              transform={`${o.rot} translate(${o.x + o.w - 8 * k} ${o.y - 20 * k}) scale(${k})`}
            >
              <circle cx={12} cy={14} r={13} fill="#fff" stroke="#8c959f" strokeWidth={1.5} />
              <path
                d="M7 13h10v7H7zM9 13v-2.5a3 3 0 0 1 6 0V13"
                fill="none"
                stroke="#57606a"
                strokeWidth={2}
              />
            </g>
          );
        })}
      {arrow &&
        arrowEndsOf(resolveArrow(arrow, byId)).map((p, i) => (
          <circle
            key={i === 0 ? 'from' : 'to'}
            data-handle={i === 0 ? 'from' : 'to'}
            className="handle end"
            cx={p.x}
            cy={p.y}
            r={hs / 1.6}
            strokeWidth={1.5 / zoom}
            pointerEvents="all"
          />
        ))}
      {single &&
        (() => {
          const o = outline(single, byId, pad);
          return (
            <g transform={o.rot} pointerEvents="all">
              {handles(o, turnable([single]), single.rotation)}
            </g>
          );
        })()}
      {box && (
        <g pointerEvents="all" data-selection-box="true">
          <rect
            x={box.x - 2 * pad}
            y={box.y - 2 * pad}
            width={box.w + 4 * pad}
            height={box.h + 4 * pad}
            fill="none"
            stroke="#4f46e5"
            strokeWidth={1 / zoom}
            strokeDasharray={`${4 / zoom} ${3 / zoom}`}
            pointerEvents="none"
          />
          {handles(
            { x: box.x - 2 * pad, y: box.y - 2 * pad, w: box.w + 4 * pad, h: box.h + 4 * pad },
            // No rotation handle on a frame, nor on a selection holding one (model/layout.ts).
            turnable(movable),
          )}
        </g>
      )}
    </g>
  );
}

/**
 * Snapping guides: thin lines along the edges and centres a moving shape lines up with. They come
 * and go on every frame of a drag, so they are drawn in an <svg> of their own over the canvas:
 * inside the canvas, each change repainted and re-layerized the 5,000-shape drawing, which made
 * the drag of a large lifted selection miss its frames (docs/benchmarks-client.md).
 */
function Guides({
  screen,
  transform,
  zoom,
}: {
  screen: { w: number; h: number };
  transform: string;
  zoom: number;
}) {
  const guides = useEditor((s) => s.guides);
  if (guides.length === 0) return null;
  return (
    <svg
      className="guide-layer"
      aria-hidden="true"
      width={screen.w}
      height={screen.h}
      viewBox={`0 0 ${screen.w} ${screen.h}`}
    >
      <g className="guides" transform={transform} pointerEvents="none">
        {guides.map((g) => (
          <line
            key={`${g.axis}:${g.at}`}
            data-guide={g.axis}
            x1={g.axis === 'x' ? g.at : g.from}
            y1={g.axis === 'x' ? g.from : g.at}
            x2={g.axis === 'x' ? g.at : g.to}
            y2={g.axis === 'x' ? g.to : g.at}
            stroke="#e5484d"
            strokeWidth={1 / zoom}
          />
        ))}
      </g>
    </svg>
  );
}

function RemoteSelections({
  awareness,
  byId,
  zoom,
}: {
  awareness: Awareness;
  byId: Map<string, ShapeRecord>;
  zoom: number;
}) {
  const remotes = useRemotes(awareness);
  const pad = 7 / zoom;
  return (
    // Decoration: other people's selections are shown, not announced.
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG <g> is not focusable; biome takes it for a custom element
    <g className="remote-selections" pointerEvents="none" aria-hidden="true">
      {remotes.flatMap(({ clientId, state }) =>
        // A viewer's selection changes nothing (they cannot edit), so it is not shown to others.
        (state.role === 'viewer' ? [] : state.selection.slice(0, 500)).map((id) => {
          const r = byId.get(id);
          if (!r) return null;
          const o = outline(r, byId, pad);
          return (
            <g key={`${clientId}:${id}`} data-remote-selection={state.user.name}>
              {/* A halo under the dashes, so the colour shows on a note of the same colour. */}
              <rect
                x={o.x}
                y={o.y}
                width={o.w}
                height={o.h}
                transform={o.rot}
                fill="none"
                stroke={presenceOutline(state.user.color)}
                strokeOpacity={0.55}
                strokeWidth={4 / zoom}
                rx={4 / zoom}
              />
              <rect
                x={o.x}
                y={o.y}
                width={o.w}
                height={o.h}
                transform={o.rot}
                fill="none"
                stroke={state.user.color}
                strokeWidth={2 / zoom}
                strokeDasharray={`${6 / zoom} ${3 / zoom}`}
                rx={4 / zoom}
              />
            </g>
          );
        }),
      )}
    </g>
  );
}

function Marquee({ zoom }: { zoom: number }) {
  const m = useEditor((s) => s.marquee);
  if (!m) return null;
  return <rect className="marquee" x={m.x} y={m.y} width={m.w} height={m.h} strokeWidth={1 / zoom} />;
}

function Draft() {
  const d = useEditor((s) => s.draft);
  if (!d) return null;
  // Still being drawn: it may trail the pointer while streamlined (the stored stroke reaches the end).
  return <path d={strokePath(d, { complete: false })} fill="#3d4651" opacity={0.8} />;
}
