// Pointer gestures of every tool, turned into model calls. No React here: the canvas forwards
// pointer events with screen coordinates, and this decides on pointer down which gesture
// (tools/gestures.ts) they start; the gesture handles the moves and the release.
import type { ArrowEnd, ShapeRecord, ShapeType } from '@tandem/shared';
import { pinsComment } from '../comments/threads.ts';
import { createFrame, grabbedAt, movedWith } from '../facilitation/frames.ts';
import { duplicateShapes } from '../model/clipboard.ts';
import { center, intersects, type Point, type Rect, unionRect } from '../model/geometry.ts';
import { topmostAt } from '../model/hit.ts';
import { boxCorner, expandToGroups, recordBounds, snapPoint, turnable } from '../model/layout.ts';
import { carriedStyle, createShape, deleteShapes } from '../model/shapes.ts';
import { type CommentDraft, type Tool, toBoard, visibleRect, zoomAt } from '../store.ts';
import type { ToolContext } from './context.ts';
import {
  arrowEndGesture,
  arrowGesture,
  type Corner,
  copyMoveGesture,
  createGesture,
  eraseGesture,
  type Gesture,
  type GestureEnv,
  grabOffset,
  lockedGesture,
  marqueeGesture,
  moveGesture,
  panGesture,
  penGesture,
  resizeGesture,
  rotateGesture,
  scaleGesture,
  turnGesture,
} from './gestures.ts';

export type Handle = 'nw' | 'ne' | 'sw' | 'se' | 'rotate' | 'from' | 'to';

export type { ToolContext } from './context.ts';

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

  /** What the gestures (tools/gestures.ts) use of this controller. */
  private readonly env: GestureEnv;

  constructor(private readonly ctx: ToolContext) {
    this.env = {
      ctx,
      state: () => ctx.store.getState(),
      tolerance: () => this.tolerance(),
      snapDistance: () => this.snapDistance(),
      hit: (p, filter) => this.hit(p, filter),
      snapped: (p, others, off) => this.snapped(p, others, off),
      eraseAt: (p) => this.eraseAt(p),
    };
  }

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

  /**
   * What a press of the Select tool takes hold of: the topmost shape under the pointer, where a
   * frame counts only by its title or border, so a drag inside a frame selects (a marquee)
   * instead of moving the frame (docs/api.md §14).
   */
  private selectHit(p: Point): ShapeRecord | null {
    return grabbedAt(
      this.ctx.shapes().list.map((e) => e.rec),
      p,
      this.tolerance(),
      this.ctx.store.getState().viewport.zoom,
    );
  }

  /**
   * Where a thread started at board point `p` goes (docs/api.md §18): on the shape under it, whose
   * pin follows the shape (a frame only holds shapes: inside one, at the point), else at the
   * point. The Comment tool's click and the context menu's Comment both place it here.
   */
  commentDraftAt(p: Point): CommentDraft {
    const on = this.hit(p, pinsComment);
    return { shapeId: on?.id ?? null, x: p.x, y: p.y };
  }

  /**
   * A right-click at screen point (x, y), before the context menu opens: a shape not in the
   * selection is selected (with its group) as a left click would select it, a shape in the
   * selection keeps the selection (as in tldraw), and empty canvas selects nothing.
   */
  selectForMenu(x: number, y: number): void {
    const st = this.ctx.store.getState();
    if (st.editingId) st.setEditing(null);
    const hit = this.selectHit(this.board(x, y));
    if (!hit) {
      st.select([]);
      return;
    }
    if (st.selection.includes(hit.id)) return;
    st.select(
      expandToGroups(
        this.ctx.shapes().list.map((r) => r.rec),
        [hit.id],
      ),
    );
  }

  down(e: {
    x: number;
    y: number;
    button: number;
    shift: boolean;
    /** Alt (Option) held: a drag on the selection drags a copy of it. */
    alt?: boolean;
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
    // Comments are not board content, so a commenter's read-only board allows it.
    if (tool === 'comment') {
      st.setCommentDraft(this.commentDraftAt(p));
      return;
    }
    if (tool === 'hand' || (readOnly && tool !== 'select')) {
      this.gesture = panGesture({ x: e.x, y: e.y }, { x: st.viewport.x, y: st.viewport.y });
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
          // No handle is drawn for a selection holding a frame; a stray press turns nothing.
          if (!turnable(originals)) return;
          const pivot = center(box);
          this.gesture = turnGesture(pivot, Math.atan2(p.y - pivot.y, p.x - pivot.x), originals);
        } else if (e.handle !== 'from' && e.handle !== 'to') {
          this.gesture = scaleGesture({
            handle: e.handle,
            grab: grabOffset(boxCorner(box, e.handle), p),
            box,
            originals,
            // Rotated shapes and images would be distorted by an uneven stretch.
            keepAspect: originals.some((r) => r.rotation !== 0 || r.type === 'image'),
            others: this.snapTargets(new Set(originals.map((r) => r.id))),
          });
        }
        return;
      }
      if (e.handle && !readOnly && st.selection.length === 1) {
        const id = st.selection[0]!;
        const rec = this.ctx.shapes().byId.get(id);
        if (rec?.locked) return;
        if (rec && e.handle === 'rotate') {
          // A frame does not turn (model/layout.ts): it has no rotation handle.
          const c = center(rec);
          if (turnable([rec]))
            this.gesture = rotateGesture(id, c, Math.atan2(p.y - c.y, p.x - c.x), rec.rotation);
        } else if (rec && (e.handle === 'from' || e.handle === 'to')) {
          const other = e.handle === 'from' ? rec.to : rec.from;
          if (other) this.gesture = arrowEndGesture(id, e.handle, other);
        } else if (rec) {
          const handle = e.handle as Corner;
          const box = { x: rec.x, y: rec.y, w: rec.w, h: rec.h };
          this.gesture = resizeGesture({
            id,
            handle,
            box,
            rotation: rec.rotation,
            grab: grabOffset(boxCorner(box, handle, rec.rotation), p),
            // An image keeps its proportions unless Shift is held (docs/api.md §13).
            keepAspect: rec.type === 'image',
            snap: rec.rotation === 0,
            others: this.snapTargets(new Set([id])),
          });
        }
        return;
      }
      const hit = this.selectHit(p);
      if (hit) {
        const records = this.ctx.shapes().list.map((x) => x.rec);
        // A shape in a group stands for its whole group.
        const unit = expandToGroups(records, [hit.id]);
        let sel = st.selection;
        if (e.shift)
          sel = sel.includes(hit.id) ? sel.filter((i) => !unit.includes(i)) : [...new Set([...sel, ...unit])];
        else if (!sel.includes(hit.id)) sel = unit;
        st.select(sel);
        if (!readOnly && hit.locked) this.gesture = lockedGesture(p);
        else if (!readOnly && sel.includes(hit.id)) {
          const byId = this.ctx.shapes().byId;
          // A frame carries the shapes inside it (docs/api.md §14); locked shapes, and locked
          // frames with what they hold, stay where they are.
          let ids = movedWith(this.ctx.doc, sel);
          const moving = ids.map((id) => byId.get(id)).filter((r): r is ShapeRecord => !!r);
          // Alt (Option) drags a copy and leaves the originals, as in Excalidraw, tldraw, Figma and
          // Miro. The copies start in place, so the originals' bounds are theirs; a frame's copy
          // takes copies of its contents (moving it alone would carry the originals off).
          const copying = e.alt && ids.length > 0;
          if (copying) {
            ids = duplicateShapes(this.ctx.doc, ids, this.ctx.userId, { x: 0, y: 0 });
            st.select(ids);
          }
          const move = moveGesture(
            p,
            ids,
            unionRect(moving.filter((r) => r.type !== 'arrow').map(recordBounds)),
            this.snapTargets(new Set(ids)),
          );
          this.gesture = copying ? copyMoveGesture(move, ids, sel) : move;
        }
        return;
      }
      if (!e.shift) st.select([]);
      this.gesture = marqueeGesture(p, e.shift ? st.selection : []);
      return;
    }
    if (tool === 'frame') {
      const id = createFrame(this.ctx.doc, { x: p.x, y: p.y, w: 1, h: 1 }, this.ctx.userId);
      this.gesture = createGesture(id, p, 'frame', this.snapTargets(new Set([id])));
      return;
    }
    const type = creators[tool];
    if (type) {
      const id = createShape(
        this.ctx.doc,
        { type, x: p.x, y: p.y, w: 1, h: 1, ...carriedStyle(type, st.lastStyle) },
        this.ctx.userId,
      );
      this.gesture = createGesture(id, p, type, this.snapTargets(new Set([id])));
      return;
    }
    if (tool === 'arrow') {
      const target = this.hit(p, (s) => s.type !== 'arrow');
      const from: ArrowEnd = target ? { shapeId: target.id, x: p.x, y: p.y } : { x: p.x, y: p.y };
      const id = createShape(
        this.ctx.doc,
        {
          type: 'arrow',
          x: p.x,
          y: p.y,
          from,
          to: { x: p.x, y: p.y },
          ...carriedStyle('arrow', st.lastStyle),
        },
        this.ctx.userId,
      );
      this.gesture = arrowGesture(id, from);
      return;
    }
    if (tool === 'pen') {
      this.gesture = penGesture(p);
      st.setDraft([p.x, p.y]);
      return;
    }
    if (tool === 'eraser') {
      this.gesture = eraseGesture();
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
    const apply = () =>
      g.move(
        { screen: { x: e.x, y: e.y }, p: this.board(e.x, e.y), shift: e.shift, noSnap: e.noSnap },
        this.env,
      );
    if (!g.latestOnly || typeof requestAnimationFrame !== 'function') {
      apply();
      return;
    }
    // Once per frame, at the newest position (docs/benchmarks-client.md: dragging 2,000 shapes).
    const first = this.pendingMove === null;
    this.pendingMove = apply;
    if (first)
      requestAnimationFrame(() => {
        const run = this.pendingMove;
        this.pendingMove = null;
        if (this.gesture === g) run?.();
      });
  }

  /** The newest move of a `latestOnly` gesture, waiting for the next frame. */
  private pendingMove: (() => void) | null = null;

  private flushMove(): void {
    const run = this.pendingMove;
    this.pendingMove = null;
    run?.();
  }

  up(e: { x: number; y: number; pointerId: number }): void {
    this.pointers.delete(e.pointerId);
    if (this.pinch) {
      if (this.pointers.size < 2) this.pinch = null;
      return;
    }
    // The release lands where the last move was, even if its frame has not come yet.
    this.flushMove();
    const g = this.gesture;
    this.gesture = null;
    if (!g) return;
    g.up?.(this.board(e.x, e.y), this.env);
    this.ctx.stopCapturing();
  }

  cancel(pointerId: number): void {
    this.pointers.delete(pointerId);
    this.cancelGesture();
  }

  private cancelGesture(): void {
    this.pendingMove = null;
    const g = this.gesture;
    this.gesture = null;
    g?.cancel?.(this.env);
    this.ctx.store.getState().setGuides([]);
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
