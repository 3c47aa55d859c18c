// Pointer gestures of every tool, turned into model calls. No React here: the canvas forwards
// pointer events with screen coordinates, and this decides what they mean.
import type { ArrowEnd, ShapeRecord, ShapeType } from '@tandem/shared';
import type * as Y from 'yjs';
import type { ShapeSnapshot } from '../canvas/shapeIndex.ts';
import { withFrameMembers } from '../facilitation/frames.ts';
import { resizeKeepingAspect } from '../images/placement.ts';
import {
  center,
  intersects,
  type Point,
  type Rect,
  rectFromCorners,
  topmostAt,
  unionRect,
} from '../model/geometry.ts';
import {
  applyPatches,
  dragCorner,
  dragRotatedCorner,
  expandToGroups,
  LOCKED_SENTENCE,
  recordBounds,
  rotateRecords,
  scaleRecords,
  snapBox,
  snapPoint,
} from '../model/layout.ts';
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
import { type EditorStore, type Tool, toBoard, visibleRect, zoomAt } from '../store.ts';

export type Handle = 'nw' | 'ne' | 'sw' | 'se' | 'rotate' | 'from' | 'to';

type Corner = 'nw' | 'ne' | 'sw' | 'se';

type Gesture =
  | { kind: 'pan'; start: Point; origin: { x: number; y: number } }
  | {
      kind: 'move';
      start: Point;
      /** The offset already applied to the shapes. */
      applied: Point;
      ids: string[];
      /** Bounds of what moves, at the start (for snapping), and the other shapes' bounds. */
      box: Rect | null;
      others: Rect[];
    }
  | {
      kind: 'resize';
      id: string;
      handle: Corner;
      box: Rect;
      rotation: number;
      keepAspect: boolean;
      snap: boolean;
      others: Rect[];
    }
  | {
      kind: 'scale';
      handle: Corner;
      box: Rect;
      originals: ShapeRecord[];
      keepAspect: boolean;
      others: Rect[];
      /** From the pointer to the box corner it holds (the handle sits a little outside the box). */
      grab: Point;
    }
  | { kind: 'arrow-end'; id: string; which: 'from' | 'to'; other: ArrowEnd }
  | { kind: 'rotate'; id: string; c: Point }
  | { kind: 'turn'; pivot: Point; start: number; originals: ShapeRecord[] }
  /** A press on a locked shape: nothing moves; a drag says why. */
  | { kind: 'locked'; start: Point; told: boolean }
  | { kind: 'marquee'; start: Point; base: string[] }
  | { kind: 'create'; id: string; start: Point; type: ShapeType; others: Rect[] }
  | { kind: 'arrow'; id: string; from: ArrowEnd }
  | { kind: 'pen'; points: Point[] }
  | { kind: 'erase' };

export interface ToolContext {
  doc: Y.Doc;
  /** The editor state (tool, viewport, selection…): the page's store, or a fresh one in tests. */
  store: EditorStore;
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
    const { viewport, screen } = this.ctx.store.getState();
    return toBoard(viewport, screen, sx, sy);
  }

  private tolerance(): number {
    return 4 / this.ctx.store.getState().viewport.zoom;
  }

  /** Snapping distance: 6 screen pixels, in board units. */
  private snapDistance(): number {
    return 6 / this.ctx.store.getState().viewport.zoom;
  }

  /** Bounds of the shapes near the view that are not in `except`: what a gesture snaps to. */
  private snapTargets(except: Set<string>): Rect[] {
    const st = this.ctx.store.getState();
    const v = visibleRect(st.viewport, st.screen);
    const near = { x: v.x - v.w / 2, y: v.y - v.h / 2, w: v.w * 2, h: v.h * 2 };
    const out: Rect[] = [];
    for (const e of this.ctx.shapes().list) {
      if (except.has(e.rec.id) || e.rec.type === 'arrow' || !intersects(e.bounds, near)) continue;
      out.push(e.bounds);
      if (out.length >= 2000) break;
    }
    return out;
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
    const st = this.ctx.store.getState();
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
      if (e.handle && !readOnly && st.selection.length > 1) {
        const byId = this.ctx.shapes().byId;
        const originals = st.selection
          .map((id) => byId.get(id))
          .filter((r): r is ShapeRecord => !!r && !r.locked);
        const box = unionRect(originals.map(recordBounds));
        if (!box || originals.length === 0) return;
        if (e.handle === 'rotate') {
          const pivot = center(box);
          this.gesture = { kind: 'turn', pivot, start: Math.atan2(p.y - pivot.y, p.x - pivot.x), originals };
        } else if (e.handle !== 'from' && e.handle !== 'to') {
          const corner = {
            x: e.handle.includes('w') ? box.x : box.x + box.w,
            y: e.handle.includes('n') ? box.y : box.y + box.h,
          };
          this.gesture = {
            kind: 'scale',
            handle: e.handle,
            grab: { x: corner.x - p.x, y: corner.y - p.y },
            box,
            originals,
            // Rotated shapes and images would be distorted by an uneven stretch.
            keepAspect: originals.some((r) => r.rotation !== 0 || r.type === 'image'),
            others: this.snapTargets(new Set(originals.map((r) => r.id))),
          };
        }
        return;
      }
      if (e.handle && !readOnly && st.selection.length === 1) {
        const id = st.selection[0]!;
        const rec = this.ctx.shapes().byId.get(id);
        if (rec?.locked) return;
        if (rec && e.handle === 'rotate') this.gesture = { kind: 'rotate', id, c: center(rec) };
        else if (rec && (e.handle === 'from' || e.handle === 'to')) {
          const other = e.handle === 'from' ? rec.to : rec.from;
          if (other) this.gesture = { kind: 'arrow-end', id, which: e.handle, other };
        } else if (rec)
          this.gesture = {
            kind: 'resize',
            id,
            handle: e.handle as Corner,
            box: { x: rec.x, y: rec.y, w: rec.w, h: rec.h },
            rotation: rec.rotation,
            // An image keeps its proportions unless Shift is held (SPEC §13).
            keepAspect: rec.type === 'image',
            snap: rec.rotation === 0,
            others: this.snapTargets(new Set([id])),
          };
        return;
      }
      const hit = this.hit(p);
      if (hit) {
        const records = this.ctx.shapes().list.map((x) => x.rec);
        // A shape in a group stands for its whole group.
        const unit = expandToGroups(records, [hit.id]);
        let sel = st.selection;
        if (e.shift)
          sel = sel.includes(hit.id) ? sel.filter((i) => !unit.includes(i)) : [...new Set([...sel, ...unit])];
        else if (!sel.includes(hit.id)) sel = unit;
        st.select(sel);
        if (!readOnly && hit.locked) this.gesture = { kind: 'locked', start: p, told: false };
        else if (!readOnly && sel.includes(hit.id)) {
          const byId = this.ctx.shapes().byId;
          // A frame carries the shapes inside it (SPEC §14); locked shapes stay where they are.
          const ids = withFrameMembers(this.ctx.doc, sel).filter((id) => !byId.get(id)?.locked);
          const moving = ids.map((id) => byId.get(id)).filter((r): r is ShapeRecord => !!r);
          this.gesture = {
            kind: 'move',
            start: p,
            applied: { x: 0, y: 0 },
            ids,
            box: unionRect(moving.filter((r) => r.type !== 'arrow').map(recordBounds)),
            others: this.snapTargets(new Set(ids)),
          };
        }
        return;
      }
      if (!e.shift) st.select([]);
      this.gesture = { kind: 'marquee', start: p, base: e.shift ? st.selection : [] };
      return;
    }
    const type = creators[tool];
    if (type) {
      const id = createShape(this.ctx.doc, { type, x: p.x, y: p.y, w: 1, h: 1 }, this.ctx.userId);
      this.gesture = { kind: 'create', id, start: p, type, others: this.snapTargets(new Set([id])) };
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

  /** `noSnap` (Ctrl/Cmd held, as in Excalidraw and tldraw) turns snapping off for this move. */
  move(e: { x: number; y: number; pointerId: number; shift: boolean; noSnap?: boolean }): void {
    if (this.pointers.has(e.pointerId)) this.pointers.set(e.pointerId, { x: e.x, y: e.y });
    const st = this.ctx.store.getState();
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
    let p = this.board(e.x, e.y);
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
        let dx = p.x - g.start.x;
        let dy = p.y - g.start.y;
        if (g.box && !e.noSnap) {
          const snap = snapBox({ ...g.box, x: g.box.x + dx, y: g.box.y + dy }, g.others, this.snapDistance());
          dx += snap.dx;
          dy += snap.dy;
          st.setGuides(snap.guides);
        } else st.setGuides([]);
        moveShapes(doc, g.ids, dx - g.applied.x, dy - g.applied.y);
        g.applied = { x: dx, y: dy };
        return;
      }
      case 'locked': {
        if (!g.told && Math.hypot(p.x - g.start.x, p.y - g.start.y) > this.tolerance()) {
          g.told = true;
          st.setNotice(LOCKED_SENTENCE);
        }
        return;
      }
      case 'scale': {
        const q = this.snapped({ x: p.x + g.grab.x, y: p.y + g.grab.y }, g.others, e.noSnap);
        const to = dragCorner(g.box, g.handle, q, g.keepAspect || e.shift);
        applyPatches(doc, scaleRecords(g.originals, g.box, to));
        return;
      }
      case 'turn': {
        let angle = Math.atan2(p.y - g.pivot.y, p.x - g.pivot.x) - g.start;
        if (e.shift) angle = Math.round(angle / (Math.PI / 12)) * (Math.PI / 12);
        applyPatches(doc, rotateRecords(g.originals, g.pivot, angle));
        return;
      }
      case 'resize': {
        if (g.rotation !== 0) {
          // Read in the shape's own frame, so the corner follows the pointer and the opposite one stays.
          resizeShape(doc, g.id, dragRotatedCorner(g.box, g.rotation, g.handle, p, g.keepAspect !== e.shift));
          return;
        }
        if (g.keepAspect && !e.shift) {
          resizeShape(doc, g.id, resizeKeepingAspect(g.box, g.handle, p));
          return;
        }
        if (g.snap) p = this.snapped(p, g.others, e.noSnap);
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
        const list = this.ctx.shapes().list;
        // Locked shapes are background: a marquee passes over them (a click still selects one).
        const inside = list.filter((s) => !s.rec.locked && intersects(s.bounds, r)).map((s) => s.rec.id);
        const grown = expandToGroups(
          list.map((s) => s.rec),
          inside,
        );
        st.select([...new Set([...g.base, ...grown])]);
        return;
      }
      case 'create': {
        // The dragged corner snaps to the other shapes' edges and centres, as a move does.
        resizeShape(doc, g.id, rectFromCorners(g.start, this.snapped(p, g.others, e.noSnap)));
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
    const st = this.ctx.store.getState();
    const p = this.board(e.x, e.y);
    const doc = this.ctx.doc;
    switch (g.kind) {
      case 'marquee':
        st.setMarquee(null);
        break;
      case 'move':
      case 'resize':
      case 'scale':
        st.setGuides([]);
        break;
      case 'create': {
        st.setGuides([]);
        const r = rectFromCorners(g.start, p);
        const z = st.viewport.zoom;
        // A click (not a drag) places a shape of the default size centred on the pointer.
        if (r.w * z < 8 && r.h * z < 8) {
          const size = defaultSize[g.type];
          resizeShape(doc, g.id, { x: g.start.x - size.w / 2, y: g.start.y - size.h / 2, ...size });
        }
        st.select([g.id]);
        // With the tool locked the next click makes the next shape; otherwise type into this one.
        if (!st.toolLocked) {
          st.setTool('select');
          if (g.type === 'sticky' || g.type === 'text') st.setEditing(g.id);
        }
        break;
      }
      case 'arrow': {
        const rec = this.ctx.shapes().byId.get(g.id);
        if (rec && Math.hypot(rec.w, rec.h) * st.viewport.zoom < 8) deleteShapes(doc, [g.id]);
        else {
          if (!st.toolLocked) st.setTool('select');
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
    const st = this.ctx.store.getState();
    if (g?.kind === 'marquee') st.setMarquee(null);
    if (g?.kind === 'pen') st.setDraft(null);
    st.setGuides([]);
  }

  /** `p` snapped to the other shapes' edges and centres (guides shown), unless `off`. */
  private snapped(p: Point, others: Rect[], off: boolean | undefined): Point {
    const st = this.ctx.store.getState();
    if (off) {
      st.setGuides([]);
      return p;
    }
    const snap = snapPoint(p, others, this.snapDistance());
    st.setGuides(snap.guides);
    return { x: p.x + snap.dx, y: p.y + snap.dy };
  }

  private eraseAt(p: Point): void {
    const hit = this.hit(p, (s) => !s.locked);
    if (hit) deleteShapes(this.ctx.doc, [hit.id]);
  }

  /** Wheel: Ctrl/Cmd (and trackpad pinch, which browsers report as ctrl+wheel) zooms, otherwise pans. */
  wheel(e: { x: number; y: number; dx: number; dy: number; ctrl: boolean }): void {
    const st = this.ctx.store.getState();
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
