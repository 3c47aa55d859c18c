// The pointer gestures of the tools, one object each: what a drag does while the pointer moves,
// and what releasing (or cancelling) it finishes. The ToolController decides on pointer down
// which gesture starts (tools/controller.ts) and forwards the rest to it.
import type { ArrowEnd, ShapeRecord, ShapeType } from '@tandem/shared';
import type { ShapeSnapshot } from '../canvas/shapeIndex.ts';
import { resizeKeepingAspect } from '../images/placement.ts';
import { contains, intersects, type Point, type Rect, rectFromCorners } from '../model/geometry.ts';
import { marqueeLine, marqueeTakes } from '../model/hit.ts';
import {
  applyPatches,
  dragCorner,
  dragRotatedCorner,
  expandToGroups,
  LOCKED_SENTENCE,
  rotateRecords,
  scaleRecords,
  snapBox,
} from '../model/layout.ts';
import {
  carriedStyle,
  createShape,
  defaultSize,
  deleteShapes,
  freehandFrom,
  moveShapes,
  resizeShape,
  rotateShapes,
  setArrowEnds,
} from '../model/shapes.ts';
import { textShapeAt } from '../model/textInput.ts';
import type { EditorState } from '../store.ts';
import type { ToolContext } from './context.ts';

export type Corner = 'nw' | 'ne' | 'sw' | 'se';

/** What a gesture may ask of the controller that runs it. */
export interface GestureEnv {
  ctx: ToolContext;
  state(): EditorState;
  /** How near a pointer must be to a shape to hit it, in board units. */
  tolerance(): number;
  /** Snapping distance in board units. */
  snapDistance(): number;
  hit(p: Point, filter?: (s: ShapeRecord) => boolean): ShapeRecord | null;
  /** `p` snapped to `others`' edges and centres (guides shown), unless `off`. */
  snapped(p: Point, others: Rect[], off: boolean | undefined): Point;
  eraseAt(p: Point): void;
}

/** A pointer move: screen coordinates, the board point under them, and the modifier keys. */
export interface GestureMove {
  screen: Point;
  p: Point;
  shift: boolean;
  /** Ctrl/Cmd held: no snapping for this move. */
  noSnap?: boolean;
}

export interface Gesture {
  move(e: GestureMove, env: GestureEnv): void;
  /**
   * Only the latest position matters (a move of the selection): moves arriving faster than frames
   * are drawn are applied once per frame, at the newest position, instead of queueing behind each
   * other while a large selection is rewritten.
   */
  latestOnly?: boolean;
  /** The pointer released at board point `p` (the controller then ends the undo step). */
  up?(p: Point, env: GestureEnv): void;
  /** Interrupted (a second finger, a lost pointer): undo what is only on screen. */
  cancel?(env: GestureEnv): void;
}

const clearGuides = (_p: Point, env: GestureEnv) => env.state().setGuides([]);

/** Dragging the view (the hand tool, the middle button, Space held, or any drag of a viewer). */
export function panGesture(start: Point, origin: Point): Gesture {
  return {
    move({ screen }, env) {
      const st = env.state();
      const z = st.viewport.zoom;
      st.setViewport({
        x: origin.x - (screen.x - start.x) / z,
        y: origin.y - (screen.y - start.y) / z,
        zoom: z,
      });
    },
  };
}

/**
 * From this many moving shapes on, a drag moves them on screen only and writes the document once
 * on release (docs/client.md, "Dragging a large selection"): rewriting 2,000 records, re-reading
 * them and re-rendering their views on every pointer frame cost 350 ms a frame
 * (docs/benchmarks-client.md). Below it, a move is written live, so the others see it as it goes.
 */
export const LIVE_DRAG_LIMIT = 200;

/** Where a drag of the selection's bounds `box` by the pointer's travel lands, snapped. */
function movedBy(
  start: Point,
  box: Rect | null,
  others: Rect[],
  { p, noSnap }: GestureMove,
  env: GestureEnv,
): Point {
  const st = env.state();
  let dx = p.x - start.x;
  let dy = p.y - start.y;
  if (box && !noSnap) {
    const snap = snapBox({ ...box, x: box.x + dx, y: box.y + dy }, others, env.snapDistance());
    dx += snap.dx;
    dy += snap.dy;
    st.setGuides(snap.guides);
  } else st.setGuides([]);
  return { x: dx, y: dy };
}

/** Moving the selection (and what its frames hold), snapping its bounds to the other shapes. */
export function moveGesture(
  start: Point,
  ids: string[],
  /** Bounds of what moves, at the start (for snapping), and the other shapes' bounds. */
  box: Rect | null,
  others: Rect[],
): Gesture {
  if (ids.length >= LIVE_DRAG_LIMIT) return liftedMoveGesture(start, ids, box, others);
  /** The offset already applied to the shapes. */
  let applied: Point = { x: 0, y: 0 };
  return {
    latestOnly: true,
    move(e, env) {
      const d = movedBy(start, box, others, e, env);
      moveShapes(env.ctx.doc, ids, d.x - applied.x, d.y - applied.y);
      applied = d;
    },
    up: clearGuides,
  };
}

/**
 * An Alt-drag's move of the copies made as it was pressed: released without a move (an
 * Alt-click), the copies go again and the originals stay selected, so no copy is left unseen on
 * top of its original.
 */
export function copyMoveGesture(inner: Gesture, copies: string[], originals: string[]): Gesture {
  let moved = false;
  return {
    ...inner,
    move(e, env) {
      moved = true;
      inner.move(e, env);
    },
    up(p, env) {
      inner.up?.(p, env);
      if (moved) return;
      deleteShapes(env.ctx.doc, copies);
      env.state().select(originals);
    },
  };
}

/**
 * A large selection's move: on the first move its shapes are lifted into one layer (the canvas
 * draws them there, store `lift`), each frame only moves that layer (`liftOffset`), and the
 * release writes the move in one transaction, which the controller makes one undo step.
 */
function liftedMoveGesture(start: Point, ids: string[], box: Rect | null, others: Rect[]): Gesture {
  let offset: Point = { x: 0, y: 0 };
  const drop = (env: GestureEnv) => {
    const st = env.state();
    st.setGuides([]);
    if (st.lift) st.setLift(null);
  };
  return {
    latestOnly: true,
    move(e, env) {
      const st = env.state();
      offset = movedBy(start, box, others, e, env);
      if (!st.lift) st.setLift(new Set(ids));
      st.setLiftOffset(offset);
    },
    up(_p, env) {
      // Written before the layer is dropped, so the shapes are drawn at their new place at once.
      moveShapes(env.ctx.doc, ids, offset.x, offset.y);
      drop(env);
    },
    cancel: drop,
  };
}

/** A press on a locked shape: nothing moves; a drag says why. */
export function lockedGesture(start: Point): Gesture {
  let told = false;
  return {
    move({ p }, env) {
      if (!told && Math.hypot(p.x - start.x, p.y - start.y) > env.tolerance()) {
        told = true;
        env.state().setNotice(LOCKED_SENTENCE);
      }
    },
  };
}

/**
 * From the pointer pressing a corner handle to the corner it stands for. The handle is drawn a few
 * pixels outside the box and takes a press anywhere on its square, so the pointer is rarely on
 * the corner itself: a resize moves the corner by the pointer's travel from there (the corner is
 * `grab` away from the pointer all along), as in Excalidraw, tldraw and Miro; put on the pointer,
 * it jumped by that offset at the first move. One rule for one shape and for several.
 */
export const grabOffset = (corner: Point, pointer: Point): Point => ({
  x: corner.x - pointer.x,
  y: corner.y - pointer.y,
});

/** Where the held corner is with the pointer at `p` (grabOffset). */
const heldCorner = (p: Point, grab: Point): Point => ({ x: p.x + grab.x, y: p.y + grab.y });

/** Several shapes scaled by a corner of their common box. */
export function scaleGesture(g: {
  handle: Corner;
  box: Rect;
  originals: ShapeRecord[];
  keepAspect: boolean;
  others: Rect[];
  /** From the pointer to the box corner it holds (grabOffset). */
  grab: Point;
}): Gesture {
  return {
    move({ p, shift, noSnap }, env) {
      const q = env.snapped(heldCorner(p, g.grab), g.others, noSnap);
      const to = dragCorner(g.box, g.handle, q, g.keepAspect || shift);
      applyPatches(env.ctx.doc, scaleRecords(g.originals, g.box, to));
    },
    up: clearGuides,
  };
}

/** Several shapes turned about their common centre. */
export function turnGesture(pivot: Point, start: number, originals: ShapeRecord[]): Gesture {
  return {
    move({ p, shift }, env) {
      let angle = Math.atan2(p.y - pivot.y, p.x - pivot.x) - start;
      if (shift) angle = Math.round(angle / (Math.PI / 12)) * (Math.PI / 12);
      applyPatches(env.ctx.doc, rotateRecords(originals, pivot, angle));
    },
  };
}

/** One shape resized by a corner handle; Shift keeps its proportions (an image's: frees them). */
export function resizeGesture(g: {
  id: string;
  handle: Corner;
  box: Rect;
  rotation: number;
  keepAspect: boolean;
  snap: boolean;
  others: Rect[];
  /** From the pointer to the shape's corner it holds, on the board (grabOffset). */
  grab: Point;
}): Gesture {
  return {
    move({ p: at, shift, noSnap }, env) {
      const doc = env.ctx.doc;
      let p = heldCorner(at, g.grab);
      // Shift swaps the shape's own rule: any shape keeps its proportions, an image stretches
      // (Excalidraw, tldraw, Miro, Figma).
      const keep = g.keepAspect !== shift;
      if (g.rotation !== 0) {
        // Read in the shape's own frame, so the corner follows the pointer and the opposite one stays.
        resizeShape(doc, g.id, dragRotatedCorner(g.box, g.rotation, g.handle, p, keep));
        return;
      }
      if (keep) {
        // No snapping while the proportions are fixed: the guides of a free drag would not hold.
        env.state().setGuides([]);
        resizeShape(doc, g.id, resizeKeepingAspect(g.box, g.handle, p));
        return;
      }
      if (g.snap) p = env.snapped(p, g.others, noSnap);
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
    },
    up: clearGuides,
  };
}

/**
 * One shape rotated by its handle about its centre `c`: turned by as much as the pointer turns
 * about it since the press (at angle `start`), from the rotation it had (`from`). Relative, because
 * the handle is not always above the shape: near the top of the screen it is drawn below it.
 */
export function rotateGesture(id: string, c: Point, start: number, from: number): Gesture {
  return {
    move({ p, shift }, env) {
      const turned = from + Math.atan2(p.y - c.y, p.x - c.x) - start;
      let angle = Math.atan2(Math.sin(turned), Math.cos(turned));
      // Shift snaps to 15°, as in most editors.
      if (shift) angle = Math.round(angle / (Math.PI / 12)) * (Math.PI / 12);
      rotateShapes(env.ctx.doc, [id], angle);
    },
  };
}

/** A selection rectangle, added to `base` (the selection when Shift was held). */
export function marqueeGesture(start: Point, base: string[]): Gesture {
  // Each line's path, worked out once per board state: routing every connector on every pointer
  // move cost a board of thousands of arrows its frame rate. A new snapshot (any edit, a remote
  // one too: a bound shape moved reroutes its arrows) starts the cache again.
  let linesOf: ShapeSnapshot | null = null;
  const lines = new Map<string, Point[] | null>();
  const lineOf = (rec: ShapeRecord, byId: Map<string, ShapeRecord>) => {
    let line = lines.get(rec.id);
    if (line === undefined) {
      line = marqueeLine(rec, byId);
      lines.set(rec.id, line);
    }
    return line;
  };
  return {
    move({ p }, env) {
      const st = env.state();
      const r = rectFromCorners(start, p);
      st.setMarquee(r);
      const snapshot = env.ctx.shapes();
      if (snapshot !== linesOf) {
        lines.clear();
        linesOf = snapshot;
      }
      const { list, byId } = snapshot;
      // Locked shapes are background: a marquee passes over them (a click still selects one). A
      // frame is taken only when the marquee holds all of it, so one drawn inside a frame selects
      // the notes there and not the frame around them. Lines (arrows, drawings) are taken where
      // they pass, not where their box is (marqueeTakes).
      const takes = (s: (typeof list)[number]) =>
        s.rec.type === 'frame'
          ? contains(r, s.bounds)
          : s.rec.type === 'arrow' || s.rec.type === 'freehand'
            ? marqueeTakes(s.rec, r, byId, lineOf(s.rec, byId))
            : intersects(s.bounds, r);
      const inside = list.filter((s) => !s.rec.locked && takes(s)).map((s) => s.rec.id);
      const grown = expandToGroups(
        list.map((s) => s.rec),
        inside,
      );
      st.select([...new Set([...base, ...grown])]);
    },
    up: (_p, env) => env.state().setMarquee(null),
    cancel: (env) => env.state().setMarquee(null),
  };
}

/** A new shape of a creating tool, drawn by dragging (or placed by a click). */
export function createGesture(id: string, start: Point, type: ShapeType, others: Rect[]): Gesture {
  return {
    move({ p, noSnap }, env) {
      // The dragged corner snaps to the other shapes' edges and centres, as a move does.
      resizeShape(env.ctx.doc, id, rectFromCorners(start, env.snapped(p, others, noSnap)));
    },
    up(p, env) {
      const st = env.state();
      st.setGuides([]);
      const r = rectFromCorners(start, p);
      const z = st.viewport.zoom;
      // A click (not a drag) places a shape of the default size centred on the pointer; text
      // starts where the click was, as in Excalidraw and tldraw (a double-click's text does too:
      // textShapeAt): centred, its first letter sat 110 units left of the click, over whatever was there.
      if (r.w * z < 8 && r.h * z < 8) {
        // A clicked text starts as narrow as an empty text and grows as it is typed
        // (model/textFit.ts); a dragged one keeps the width it was dragged to and wraps in it.
        const size = defaultSize[type];
        const box =
          type === 'text'
            ? textShapeAt(start)
            : { x: start.x - size.w / 2, y: start.y - size.h / 2, ...size };
        resizeShape(env.ctx.doc, id, { x: box.x, y: box.y, w: box.w, h: box.h });
      }
      st.select([id]);
      // With the tool locked the next click makes the next shape; otherwise type into this one.
      if (!st.toolLocked) {
        st.setTool('select');
        if (type === 'sticky' || type === 'text') st.setEditing(id);
      }
    },
  };
}

/** The end of an arrow, reattached where it is dropped; `other` is the end that stays. */
export function arrowEndGesture(id: string, which: 'from' | 'to', other: ArrowEnd): Gesture {
  return {
    move({ p }, env) {
      const target = env.hit(p, (s) => s.type !== 'arrow' && s.id !== id);
      const end: ArrowEnd = target ? { shapeId: target.id, x: p.x, y: p.y } : { x: p.x, y: p.y };
      if (which === 'from') setArrowEnds(env.ctx.doc, id, end, other);
      else setArrowEnds(env.ctx.doc, id, other, end);
    },
  };
}

/** A new arrow from `from`, its head bound to the shape under the pointer. */
export function arrowGesture(id: string, from: ArrowEnd): Gesture {
  return {
    move({ p }, env) {
      const target = env.hit(p, (s) => s.type !== 'arrow' && s.id !== id);
      const to: ArrowEnd = target ? { shapeId: target.id, x: p.x, y: p.y } : { x: p.x, y: p.y };
      setArrowEnds(env.ctx.doc, id, from, to);
    },
    up(_p, env) {
      const st = env.state();
      const rec = env.ctx.shapes().byId.get(id);
      if (rec && Math.hypot(rec.w, rec.h) * st.viewport.zoom < 8) deleteShapes(env.ctx.doc, [id]);
      else {
        if (!st.toolLocked) st.setTool('select');
        st.select([id]);
      }
    },
  };
}

/** A pen stroke: a draft while drawing, one freehand shape on release. */
export function penGesture(first: Point): Gesture {
  const points: Point[] = [first];
  return {
    move({ p }, env) {
      points.push(p);
      env.state().setDraft(points.flatMap((q) => [q.x, q.y]));
    },
    up(p, env) {
      env.state().setDraft(null);
      // The stroke ends where the pointer let go, should the release come without a last move there.
      const last = points.at(-1)!;
      if (p.x !== last.x || p.y !== last.y) points.push(p);
      if (points.length > 1 || points.length === 1) {
        const pts =
          points.length === 1 ? [points[0]!, { x: points[0]!.x + 0.5, y: points[0]!.y + 0.5 }] : points;
        createShape(
          env.ctx.doc,
          { type: 'freehand', ...freehandFrom(pts), ...carriedStyle('freehand', env.state().lastStyle) },
          env.ctx.userId,
        );
      }
    },
    cancel: (env) => env.state().setDraft(null),
  };
}

/** The eraser: every unlocked shape the pointer passes over is deleted. */
export function eraseGesture(): Gesture {
  return {
    move({ p }, env) {
      env.eraseAt(p);
    },
  };
}
