// Pointer gestures of every tool, turned into model calls. No React here: the canvas forwards
// pointer events with screen coordinates, and this decides what they mean.
import type { ArrowEnd, ShapeRecord, ShapeType } from '@tandem/shared';
import type * as Y from 'yjs';
import type { ShapeSnapshot } from '../canvas/shapeIndex.ts';
import { withFrameMembers } from '../facilitation/frames.ts';
import { resizeKeepingAspect } from '../images/placement.ts';
import { center, intersects, type Point, type Rect, rectFromCorners, topmostAt } from '../model/geometry.ts';
import {
  createShape,
  defaultSize,
  deleteShapes,
  freehandFrom,
  moveShapes,
  resizeShape,
  rotateShapes,
  setArrowEnds,
} from '../model/shapes.ts';
import { type Tool, toBoard, useEditor, zoomAt } from '../store.ts';

export type Handle = 'nw' | 'ne' | 'sw' | 'se' | 'rotate' | 'from' | 'to';

type Gesture =
  | { kind: 'pan'; start: Point; origin: { x: number; y: number } }
  | { kind: 'move'; last: Point; ids: string[]; moved: boolean }
  | { kind: 'resize'; id: string; handle: 'nw' | 'ne' | 'sw' | 'se'; box: Rect; keepAspect: boolean }
  | { kind: 'arrow-end'; id: string; which: 'from' | 'to'; other: ArrowEnd }
  | { kind: 'rotate'; id: string; c: Point }
  | { kind: 'marquee'; start: Point; base: string[] }
  | { kind: 'create'; id: string; start: Point; type: ShapeType }
  | { kind: 'arrow'; id: string; from: ArrowEnd }
  | { kind: 'pen'; points: Point[] }
  | { kind: 'erase' };

export interface ToolContext {
  doc: Y.Doc;
  userId: string;
  readOnly(): boolean;
  shapes(): ShapeSnapshot;
  /** Ends one undo step, so a gesture is undone as a whole. */
  stopCapturing(): void;
}

const creators: Partial<Record<Tool, ShapeType>> = {
  sticky: 'sticky',
  rect: 'rect',
  ellipse: 'ellipse',
  diamond: 'diamond',
  text: 'text',
};

export class ToolController {
  private gesture: Gesture | null = null;
  private pointers = new Map<number, Point>();
  private pinch: { dist: number; zoom: number } | null = null;

  constructor(private readonly ctx: ToolContext) {}

  private board(sx: number, sy: number): Point {
    const { viewport, screen } = useEditor.getState();
    return toBoard(viewport, screen, sx, sy);
  }

  private tolerance(): number {
    return 4 / useEditor.getState().viewport.zoom;
  }

  private hit(p: Point, filter?: (s: ShapeRecord) => boolean): ShapeRecord | null {
    const list = this.ctx.shapes().list.map((e) => e.rec);
    return topmostAt(filter ? list.filter(filter) : list, p, this.tolerance());
  }

  down(e: {
    x: number;
    y: number;
    button: number;
    shift: boolean;
    pointerId: number;
    handle: Handle | null;
  }): void {
    this.pointers.set(e.pointerId, { x: e.x, y: e.y });
    const st = useEditor.getState();
    if (st.keyGuard) st.setKeyGuard(false);
    if (this.pointers.size === 2) {
      // Second finger: a pinch replaces whatever the first finger started.
      this.cancelGesture();
      const [a, b] = [...this.pointers.values()];
      this.pinch = { dist: Math.hypot(a!.x - b!.x, a!.y - b!.y), zoom: st.viewport.zoom };
      return;
    }
    const p = this.board(e.x, e.y);
    this.ctx.stopCapturing();
    const readOnly = this.ctx.readOnly();
    const tool = st.spaceHeld || e.button === 1 ? 'hand' : st.tool;
    // The laser pointer only leaves a trail in presence (facilitation/Ephemeral.tsx), for viewers too.
    if (tool === 'laser') return;
    if (tool === 'hand' || (readOnly && tool !== 'select')) {
      this.gesture = {
        kind: 'pan',
        start: { x: e.x, y: e.y },
        origin: { x: st.viewport.x, y: st.viewport.y },
      };
      return;
    }
    if (st.editingId) st.setEditing(null);
    if (tool === 'select') {
      if (e.handle && !readOnly && st.selection.length === 1) {
        const id = st.selection[0]!;
        const rec = this.ctx.shapes().byId.get(id);
        if (rec && e.handle === 'rotate') this.gesture = { kind: 'rotate', id, c: center(rec) };
        else if (rec && (e.handle === 'from' || e.handle === 'to')) {
          const other = e.handle === 'from' ? rec.to : rec.from;
          if (other) this.gesture = { kind: 'arrow-end', id, which: e.handle, other };
        } else if (rec)
          this.gesture = {
            kind: 'resize',
            id,
            handle: e.handle as 'nw' | 'ne' | 'sw' | 'se',
            box: { x: rec.x, y: rec.y, w: rec.w, h: rec.h },
            // An image keeps its proportions unless Shift is held (SPEC §13).
            keepAspect: rec.type === 'image',
          };
        return;
      }
      const hit = this.hit(p);
      if (hit) {
        let sel = st.selection;
        if (e.shift) sel = sel.includes(hit.id) ? sel.filter((i) => i !== hit.id) : [...sel, hit.id];
        else if (!sel.includes(hit.id)) sel = [hit.id];
        st.select(sel);
        if (!readOnly && sel.includes(hit.id))
          // A frame carries the shapes inside it (SPEC §14).
          this.gesture = { kind: 'move', last: p, ids: withFrameMembers(this.ctx.doc, sel), moved: false };
        return;
      }
      if (!e.shift) st.select([]);
      this.gesture = { kind: 'marquee', start: p, base: e.shift ? st.selection : [] };
      return;
    }
    const type = creators[tool];
    if (type) {
      const id = createShape(this.ctx.doc, { type, x: p.x, y: p.y, w: 1, h: 1 }, this.ctx.userId);
      this.gesture = { kind: 'create', id, start: p, type };
      return;
    }
    if (tool === 'arrow') {
      const target = this.hit(p, (s) => s.type !== 'arrow');
      const from: ArrowEnd = target ? { shapeId: target.id, x: p.x, y: p.y } : { x: p.x, y: p.y };
      const id = createShape(
        this.ctx.doc,
        { type: 'arrow', x: p.x, y: p.y, from, to: { x: p.x, y: p.y } },
        this.ctx.userId,
      );
      this.gesture = { kind: 'arrow', id, from };
      return;
    }
    if (tool === 'pen') {
      this.gesture = { kind: 'pen', points: [p] };
      st.setDraft([p.x, p.y]);
      return;
    }
    if (tool === 'eraser') {
      this.gesture = { kind: 'erase' };
      this.eraseAt(p);
    }
  }

  move(e: { x: number; y: number; pointerId: number; shift: boolean }): void {
    if (this.pointers.has(e.pointerId)) this.pointers.set(e.pointerId, { x: e.x, y: e.y });
    const st = useEditor.getState();
    if (this.pinch && this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      const dist = Math.hypot(a!.x - b!.x, a!.y - b!.y);
      const mid = { x: (a!.x + b!.x) / 2, y: (a!.y + b!.y) / 2 };
      const factor = (this.pinch.zoom * (dist / this.pinch.dist)) / st.viewport.zoom;
      st.setViewport(zoomAt(st.viewport, st.screen, factor, mid.x, mid.y));
      return;
    }
    const g = this.gesture;
    if (!g) return;
    const p = this.board(e.x, e.y);
    const doc = this.ctx.doc;
    switch (g.kind) {
      case 'pan': {
        const z = st.viewport.zoom;
        st.setViewport({
          x: g.origin.x - (e.x - g.start.x) / z,
          y: g.origin.y - (e.y - g.start.y) / z,
          zoom: z,
        });
        return;
      }
      case 'move': {
        moveShapes(doc, g.ids, p.x - g.last.x, p.y - g.last.y);
        g.last = p;
        g.moved = true;
        return;
      }
      case 'resize': {
        if (g.keepAspect && !e.shift) {
          resizeShape(doc, g.id, resizeKeepingAspect(g.box, g.handle, p));
          return;
        }
        const b = g.box;
        let x1 = b.x;
        let y1 = b.y;
        let x2 = b.x + b.w;
        let y2 = b.y + b.h;
        if (g.handle.includes('w')) x1 = p.x;
        if (g.handle.includes('e')) x2 = p.x;
        if (g.handle.includes('n')) y1 = p.y;
        if (g.handle.includes('s')) y2 = p.y;
        resizeShape(doc, g.id, rectFromCorners({ x: x1, y: y1 }, { x: x2, y: y2 }));
        return;
      }
      case 'rotate': {
        let angle = Math.atan2(p.y - g.c.y, p.x - g.c.x) + Math.PI / 2;
        // Shift snaps to 15°, as in most editors.
        if (e.shift) angle = Math.round(angle / (Math.PI / 12)) * (Math.PI / 12);
        rotateShapes(doc, [g.id], angle);
        return;
      }
      case 'marquee': {
        const r = rectFromCorners(g.start, p);
        st.setMarquee(r);
        const inside = this.ctx
          .shapes()
          .list.filter((s) => intersects(s.bounds, r))
          .map((s) => s.rec.id);
        st.select([...new Set([...g.base, ...inside])]);
        return;
      }
      case 'create': {
        resizeShape(doc, g.id, rectFromCorners(g.start, p));
        return;
      }
      case 'arrow-end': {
        const target = this.hit(p, (s) => s.type !== 'arrow' && s.id !== g.id);
        const end: ArrowEnd = target ? { shapeId: target.id, x: p.x, y: p.y } : { x: p.x, y: p.y };
        if (g.which === 'from') setArrowEnds(doc, g.id, end, g.other);
        else setArrowEnds(doc, g.id, g.other, end);
        return;
      }
      case 'arrow': {
        const target = this.hit(p, (s) => s.type !== 'arrow' && s.id !== g.id);
        const to: ArrowEnd = target ? { shapeId: target.id, x: p.x, y: p.y } : { x: p.x, y: p.y };
        setArrowEnds(doc, g.id, g.from, to);
        return;
      }
      case 'pen': {
        g.points.push(p);
        st.setDraft(g.points.flatMap((q) => [q.x, q.y]));
        return;
      }
      case 'erase':
        this.eraseAt(p);
        return;
    }
  }

  up(e: { x: number; y: number; pointerId: number }): void {
    this.pointers.delete(e.pointerId);
    if (this.pinch) {
      if (this.pointers.size < 2) this.pinch = null;
      return;
    }
    const g = this.gesture;
    this.gesture = null;
    if (!g) return;
    const st = useEditor.getState();
    const p = this.board(e.x, e.y);
    const doc = this.ctx.doc;
    switch (g.kind) {
      case 'marquee':
        st.setMarquee(null);
        break;
      case 'create': {
        const r = rectFromCorners(g.start, p);
        const z = st.viewport.zoom;
        // A click (not a drag) places a shape of the default size centred on the pointer.
        if (r.w * z < 8 && r.h * z < 8) {
          const size = defaultSize[g.type];
          resizeShape(doc, g.id, { x: g.start.x - size.w / 2, y: g.start.y - size.h / 2, ...size });
        }
        st.setTool('select');
        st.select([g.id]);
        if (g.type === 'sticky' || g.type === 'text') st.setEditing(g.id);
        break;
      }
      case 'arrow': {
        const rec = this.ctx.shapes().byId.get(g.id);
        if (rec && Math.hypot(rec.w, rec.h) * st.viewport.zoom < 8) deleteShapes(doc, [g.id]);
        else {
          st.setTool('select');
          st.select([g.id]);
        }
        break;
      }
      case 'pen': {
        st.setDraft(null);
        if (g.points.length > 1 || g.points.length === 1) {
          const pts =
            g.points.length === 1
              ? [g.points[0]!, { x: g.points[0]!.x + 0.5, y: g.points[0]!.y + 0.5 }]
              : g.points;
          createShape(doc, { type: 'freehand', ...freehandFrom(pts) }, this.ctx.userId);
        }
        break;
      }
      default:
        break;
    }
    this.ctx.stopCapturing();
  }

  cancel(pointerId: number): void {
    this.pointers.delete(pointerId);
    this.cancelGesture();
  }

  private cancelGesture(): void {
    const g = this.gesture;
    this.gesture = null;
    const st = useEditor.getState();
    if (g?.kind === 'marquee') st.setMarquee(null);
    if (g?.kind === 'pen') st.setDraft(null);
  }

  private eraseAt(p: Point): void {
    const hit = this.hit(p);
    if (hit) deleteShapes(this.ctx.doc, [hit.id]);
  }

  /** Wheel: Ctrl/Cmd (and trackpad pinch, which browsers report as ctrl+wheel) zooms, otherwise pans. */
  wheel(e: { x: number; y: number; dx: number; dy: number; ctrl: boolean }): void {
    const st = useEditor.getState();
    if (e.ctrl) {
      // A mouse notch (~100) zooms by ~22%; trackpad pinches send many small deltas.
      const factor = Math.exp(-Math.max(-100, Math.min(100, e.dy)) * 0.002);
      st.setViewport(zoomAt(st.viewport, st.screen, factor, e.x, e.y));
    } else {
      const z = st.viewport.zoom;
      st.setViewport({ x: st.viewport.x + e.dx / z, y: st.viewport.y + e.dy / z, zoom: z });
    }
  }
}
