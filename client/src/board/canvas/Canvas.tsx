// The board canvas: an SVG with the viewport as one transform, drawing only the shapes whose
// bounds meet the visible rectangle (so 5,000 shapes pan and zoom smoothly), plus selection
// handles, other people's selections, the marquee and the stroke being drawn.
import type { ShapeRecord } from '@tandem/shared';
import {
  memo,
  type PointerEvent as ReactPointerEvent,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from 'react';
import type { Awareness } from 'y-protocols/awareness';
import { intersects, topmostAt, unionRect } from '../model/geometry.ts';
import { recordBounds } from '../model/layout.ts';
import { presenceOutline } from '../presence/contrast.ts';
import { useRemotes } from '../presence/remote.ts';
import { toBoard, useEditor } from '../store.ts';
import type { Handle, ToolController } from '../tools/controller.ts';
import { strokePath } from './freehand.ts';
import { ArrowView, resolveArrow, ShapeView } from './ShapeView.tsx';
import type { IndexedShape, ShapeIndex } from './shapeIndex.ts';

interface Props {
  index: ShapeIndex;
  controller: ToolController;
  awareness: Awareness;
  readOnly: boolean;
  onPointer(p: { x: number; y: number } | null): void;
  onEditRequest(id: string): void;
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
}: Props) {
  const ref = useRef<SVGSVGElement>(null);
  const snap = useSyncExternalStore(index.subscribe, index.getSnapshot);
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  const tool = useEditor((s) => s.tool);
  const spaceHeld = useEditor((s) => s.spaceHeld);
  const editingId = useEditor((s) => s.editingId);
  const setScreen = useEditor((s) => s.setScreen);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      const r = el.getBoundingClientRect();
      setScreen(r.width, r.height);
    });
    ro.observe(el);
    // Wheel must be non-passive to stop the browser's own page zoom on Ctrl+wheel.
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
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

  const lastVisible = useRef<IndexedShape[]>([]);
  const detail = viewport.zoom >= 0.3;
  // Culling works on a window larger than the view, snapped to a grid of quarter-screens and to
  // zoom steps, so while panning the visible list stays the same object for many frames and React
  // has nothing to reconcile: only the group's transform changes.
  const zoomStep = Math.round(Math.log2(viewport.zoom) * 4);
  const cell = Math.max(screen.w, screen.h) / 4 / 2 ** (zoomStep / 4);
  const cellX = Math.floor(viewport.x / cell);
  const cellY = Math.floor(viewport.y / cell);
  const visible = useMemo(() => {
    // The view reaches at most ~2.2 cells either side of its centre (zoom within its step), and
    // the centre lies in cell (cellX, cellY): this window covers it with a small margin.
    const win = { x: (cellX - 2.4) * cell, y: (cellY - 2.4) * cell, w: 5.8 * cell, h: 5.8 * cell };
    const next = snap.list.filter((e) => intersects(e.bounds, win));
    // Keep the previous list while the same shapes are in the window (a window change often
    // brings none in or out), so the memoised ShapeLayer below skips reconciling every shape.
    const prev = lastVisible.current;
    if (next.length === prev.length && next.every((e, i) => e === prev[i])) return prev;
    lastVisible.current = next;
    return next;
  }, [snap, cellX, cellY, cell]);

  const local = (e: { clientX: number; clientY: number }) => {
    const r = ref.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const onPointerDown = (e: ReactPointerEvent<SVGSVGElement>) => {
    if (e.button === 2) return;
    (e.currentTarget as Element).setPointerCapture(e.pointerId);
    ref.current?.focus({ preventScroll: true });
    const handle = ((e.target as Element).closest('[data-handle]')?.getAttribute('data-handle') ??
      null) as Handle | null;
    controller.down({ ...local(e), button: e.button, shift: e.shiftKey, pointerId: e.pointerId, handle });
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
    const rec = topmostAt(
      snap.list.map((x) => x.rec),
      at,
      4 / st.viewport.zoom,
    );
    if (rec && rec.text !== undefined && !rec.locked) onEditRequest(rec.id);
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
  const transform = `translate(${screen.w / 2} ${screen.h / 2}) scale(${viewport.zoom}) translate(${-viewport.x} ${-viewport.y})`;
  const grid = 24 * viewport.zoom;

  return (
    <svg
      ref={ref}
      className="canvas"
      role="application"
      aria-label="Board canvas"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the canvas is an application widget driven by the keyboard
      tabIndex={0}
      style={{
        cursor,
        backgroundSize: grid >= 8 ? `${grid}px ${grid}px` : 'auto',
        backgroundPosition: `${(screen.w / 2 - viewport.x * viewport.zoom) % grid}px ${(screen.h / 2 - viewport.y * viewport.zoom) % grid}px`,
        backgroundImage: grid >= 8 ? undefined : 'none',
      }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={(e) => controller.cancel(e.pointerId)}
      onPointerLeave={() => onPointer(null)}
      onDoubleClick={onDoubleClick}
      onContextMenu={(e) => e.preventDefault()}
      data-shape-count={snap.list.length}
      data-rendered-count={visible.length}
    >
      <g transform={transform}>
        <ShapeLayer visible={visible} byId={snap.byId} editingId={editingId} detail={detail} />
        <RemoteSelections awareness={awareness} byId={snap.byId} zoom={viewport.zoom} />
        <Selection byId={snap.byId} zoom={viewport.zoom} readOnly={readOnly} />
        <Draft />
        <Marquee zoom={viewport.zoom} />
        <Guides zoom={viewport.zoom} />
      </g>
    </svg>
  );
}

const ShapeLayer = memo(function ShapeLayer({
  visible,
  byId,
  editingId,
  detail,
}: {
  visible: IndexedShape[];
  byId: Map<string, ShapeRecord>;
  editingId: string | null;
  detail: boolean;
}) {
  return visible.map(({ rec }) =>
    rec.type === 'arrow' ? (
      <ArrowFor key={rec.id} rec={rec} byId={byId} />
    ) : (
      <ShapeView key={rec.id} s={rec} editing={rec.id === editingId} detail={detail} />
    ),
  );
});

function ArrowFor({ rec, byId }: { rec: ShapeRecord; byId: Map<string, ShapeRecord> }) {
  const [from, to] = resolveArrow(rec, byId);
  return <ArrowView s={rec} from={from} to={to} />;
}

function outline(rec: ShapeRecord, byId: Map<string, ShapeRecord>, pad: number) {
  if (rec.type === 'arrow') {
    const [a, b] = resolveArrow(rec, byId);
    return {
      x: Math.min(a.x, b.x) - pad,
      y: Math.min(a.y, b.y) - pad,
      w: Math.abs(a.x - b.x) + 2 * pad,
      h: Math.abs(a.y - b.y) + 2 * pad,
      rot: '',
    };
  }
  const rot = rec.rotation
    ? `rotate(${(rec.rotation * 180) / Math.PI} ${rec.x + rec.w / 2} ${rec.y + rec.h / 2})`
    : '';
  return { x: rec.x - pad, y: rec.y - pad, w: rec.w + 2 * pad, h: rec.h + 2 * pad, rot };
}

function Selection({
  byId,
  zoom,
  readOnly,
}: {
  byId: Map<string, ShapeRecord>;
  zoom: number;
  readOnly: boolean;
}) {
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
  const handles = (o: { x: number; y: number; w: number; h: number }) => {
    const corners: [Handle, number, number][] = [
      ['nw', o.x, o.y],
      ['ne', o.x + o.w, o.y],
      ['sw', o.x, o.y + o.h],
      ['se', o.x + o.w, o.y + o.h],
    ];
    return (
      <>
        <line
          x1={o.x + o.w / 2}
          y1={o.y}
          x2={o.x + o.w / 2}
          y2={o.y - 24 / zoom}
          stroke="#4f46e5"
          strokeWidth={1.5 / zoom}
        />
        <circle
          data-handle="rotate"
          className="handle rotate"
          cx={o.x + o.w / 2}
          cy={o.y - 24 / zoom}
          r={hs / 1.6}
          strokeWidth={1.5 / zoom}
        />
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
    <g className="selection" pointerEvents="none">
      {recs.map((r) => {
        if (r === arrow) return null; // its end handles show the selection
        const o = outline(r, byId, pad);
        return (
          <rect
            key={r.id}
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
        resolveArrow(arrow, byId).map((p, i) => (
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
              {handles(o)}
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
          {handles({ x: box.x - 2 * pad, y: box.y - 2 * pad, w: box.w + 4 * pad, h: box.h + 4 * pad })}
        </g>
      )}
    </g>
  );
}

/** Snapping guides: thin lines along the edges and centres a moving shape lines up with. */
function Guides({ zoom }: { zoom: number }) {
  const guides = useEditor((s) => s.guides);
  if (guides.length === 0) return null;
  return (
    <g className="guides" pointerEvents="none">
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
    <g className="remote-selections" pointerEvents="none">
      {remotes.flatMap(({ clientId, state }) =>
        state.selection.slice(0, 500).map((id) => {
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
  return <path d={strokePath(d)} fill="#3d4651" opacity={0.8} />;
}
