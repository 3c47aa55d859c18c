// The minimap: the whole board in miniature with the view as a frame; pressing or dragging on it
// moves the view there. Shapes are painted on a canvas (thousands of tiny shapes cost less there
// than as DOM nodes), each as the board draws it (canvas/miniature.ts, as the dashboard's
// thumbnail), and repainted only when the shapes or the mapped area's scale change; a pan that
// keeps the scale only moves the painted layer.
import { type PointerEvent, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { paintMiniature } from '../canvas/miniature.ts';
import type { ShapeIndex, ShapeSnapshot } from '../canvas/shapeIndex.ts';
import { type Point, type Rect, unionRect } from '../model/geometry.ts';
import { fromMinimap, type MinimapFrame, minimapFrame, toMinimap } from '../model/minimap.ts';
import { useEditor, visibleRect } from '../store.ts';

const SIZE = { w: 200, h: 132 };

const sameFrame = (a: MinimapFrame, b: MinimapFrame) =>
  a.scale === b.scale &&
  a.origin.x === b.origin.x &&
  a.origin.y === b.origin.y &&
  a.offset.x === b.offset.x &&
  a.offset.y === b.offset.y;

/**
 * The shapes painted at one scale, apart from where the frame puts them. Zoomed out so far that
 * the view holds the whole board, every pan moves the mapped area but not its scale: the layer is
 * then only placed again (one drawImage), not repainted shape by shape.
 */
interface Layer {
  canvas: HTMLCanvasElement;
  snap: ShapeSnapshot;
  scale: number;
  dpr: number;
  /** The board point at the layer's top left. */
  origin: Point;
}

/** Room around the shapes for lines drawn over their edges (kept a pixel wide), in pixels. */
const LAYER_PAD = 2;

function paintLayer(
  el: HTMLCanvasElement,
  snap: ShapeSnapshot,
  content: Rect,
  scale: number,
  dpr: number,
): Layer {
  const origin = { x: content.x - LAYER_PAD / scale, y: content.y - LAYER_PAD / scale };
  // The whole board fits the minimap at any frame's scale, so the layer is never larger than it.
  const w = Math.ceil((content.w * scale + 2 * LAYER_PAD) * dpr);
  const h = Math.ceil((content.h * scale + 2 * LAYER_PAD) * dpr);
  if (el.width !== w || el.height !== h) {
    el.width = w;
    el.height = h;
  }
  const ctx = el.getContext('2d');
  if (ctx) {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w / dpr, h / dpr);
    paintMiniature(ctx, snap.list, snap.byId, { origin, scale, offset: { x: 0, y: 0 } });
  }
  return { canvas: el, snap, scale, dpr, origin };
}

export function Minimap({ index }: { index: ShapeIndex }) {
  const open = useEditor((s) => s.minimap);
  return open ? <MinimapView index={index} /> : null;
}

function MinimapView({ index }: { index: ShapeIndex }) {
  const snap = useSyncExternalStore(index.subscribe, index.getSnapshot);
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  const canvas = useRef<HTMLCanvasElement>(null);
  // While dragging, the mapped area stays put so the board does not slide under the pointer.
  const held = useRef<MinimapFrame | null>(null);
  const last = useRef<MinimapFrame | null>(null);
  const layer = useRef<Layer | null>(null);

  const content = useMemo(() => unionRect(snap.list.map((e) => e.bounds)), [snap]);
  const view = visibleRect(viewport, screen);
  let frame = held.current ?? minimapFrame(content, view, SIZE);
  // The same area as before keeps the same object, so the canvas is not repainted while panning inside it.
  if (last.current && sameFrame(last.current, frame)) frame = last.current;
  last.current = frame;

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    // Sized only when it changes: setting a canvas's size makes a new bitmap, every repaint.
    if (el.width !== SIZE.w * dpr || el.height !== SIZE.h * dpr) {
      el.width = SIZE.w * dpr;
      el.height = SIZE.h * dpr;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, el.width, el.height);
    if (!content) return;
    let l = layer.current;
    if (!l || l.snap !== snap || l.scale !== frame.scale || l.dpr !== dpr) {
      l = paintLayer(l?.canvas ?? document.createElement('canvas'), snap, content, frame.scale, dpr);
      layer.current = l;
    }
    // Placed on whole device pixels, so the shapes stay as sharp as when painted in place.
    const x = Math.round(((l.origin.x - frame.origin.x) * frame.scale + frame.offset.x) * dpr);
    const y = Math.round(((l.origin.y - frame.origin.y) * frame.scale + frame.offset.y) * dpr);
    ctx.drawImage(l.canvas, x, y);
  }, [snap, content, frame]);

  const v = toMinimap(frame, view);

  const jump = (e: PointerEvent<HTMLElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const f = held.current ?? frame;
    const p = fromMinimap(f, e.clientX - box.left, e.clientY - box.top);
    const st = useEditor.getState();
    st.setViewport({ x: p.x, y: p.y, zoom: st.viewport.zoom });
  };

  return (
    <section
      className="minimap panel"
      aria-label="Minimap"
      title="Click or drag to move the view"
      style={{ width: SIZE.w, height: SIZE.h }}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.currentTarget.setPointerCapture(e.pointerId);
        held.current = frame;
        jump(e);
      }}
      onPointerMove={(e) => {
        if (held.current) jump(e);
      }}
      onPointerUp={() => {
        held.current = null;
      }}
      onPointerCancel={() => {
        held.current = null;
      }}
    >
      <canvas ref={canvas} style={{ width: SIZE.w, height: SIZE.h }} />
      <span
        className="minimap-view"
        aria-hidden="true"
        style={{ left: v.x, top: v.y, width: Math.max(v.w, 2), height: Math.max(v.h, 2) }}
      />
    </section>
  );
}
