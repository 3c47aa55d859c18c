// Paints shapes in miniature on a 2D canvas: the minimap and the dashboard thumbnail, both the
// same way. Each shape's body comes from the shared renderer's primitives (bodyOf, the ones the
// canvas and the export draw), so its stroke, fill and fill style are the board's own. Cheap by
// design (no text measuring; bodyOf's primitives are cached by record and their paths here, so a
// repaint of an unchanged board makes no new paths), so a 5,000-shape board paints in milliseconds.
import type { ShapeRecord } from '@tandem/shared';
import { bodyOf, DETAIL_ZOOM } from '@tandem/shared/render/body.ts';
import type { Primitive } from '@tandem/shared/render/primitives.ts';
import { resolveStyle } from '@tandem/shared/render/style.ts';
import { arrowEnds, type Rect } from '../model/geometry.ts';
import { type MinimapFrame, toMinimap } from '../model/minimap.ts';
import type { IndexedShape } from './shapeIndex.ts';

const SOLID: number[] = [];

/**
 * Paints `list` (paint order) through `frame`, each shape as the board draws it at that scale (in
 * its own stroke, fill and fill style; without the hand-drawn detail below DETAIL_ZOOM, as the
 * canvas), with a hint of text lines.
 */
export function paintMiniature(
  ctx: CanvasRenderingContext2D,
  list: readonly IndexedShape[],
  byId: Map<string, ShapeRecord>,
  frame: MinimapFrame,
): void {
  const at = (x: number, y: number) => toMinimap(frame, { x, y, w: 0, h: 0 });
  const detail = frame.scale >= DETAIL_ZOOM;
  const base = ctx.getTransform();
  ctx.lineJoin = 'round';
  for (const { rec, bounds } of list) {
    const r = toMinimap(frame, bounds);
    if (rec.type === 'arrow') {
      const [a, b] = arrowEnds(rec, byId).map((p) => at(p.x, p.y));
      ctx.strokeStyle = resolveStyle(rec).stroke;
      ctx.lineWidth = 1.5;
      ctx.setLineDash(SOLID);
      ctx.beginPath();
      ctx.moveTo(a!.x, a!.y);
      ctx.lineTo(b!.x, b!.y);
      ctx.stroke();
      continue;
    }
    if (rec.type === 'frame' || rec.type === 'image') {
      ctx.beginPath();
      ctx.roundRect(r.x, r.y, Math.max(r.w, 1), Math.max(r.h, 1), Math.max(0, Math.min(3, r.w / 6, r.h / 6)));
      ctx.fillStyle = rec.type === 'frame' ? '#f6f8fa' : '#d8dee6';
      ctx.fill();
      if (rec.type === 'frame') {
        ctx.strokeStyle = '#8c959f';
        ctx.lineWidth = 1;
        ctx.setLineDash(SOLID);
        ctx.stroke();
      }
    } else if (rec.type !== 'text') {
      if (r.w < TINY && r.h < TINY) paintSpeck(ctx, rec, r, detail);
      else paintBody(ctx, rec, frame, detail, base);
    }
    if (rec.text && r.w >= 6 && /\S/.test(rec.text)) paintTextHint(ctx, rec, r);
  }
}

/**
 * Below this many pixels each way a shape's body is one speck of its outline's colour: what its
 * lines, kept a pixel wide, would cover anyway, for a fillRect instead of its paths (a 5,000-shape
 * board on the minimap is all specks, and repaints as fast as when it was all blocks).
 */
const TINY = 3;

/** The colour a tiny shape shows: its outline's, else its fill's (a sticky note, a fill-only shape). */
const speckColours = [new WeakMap<ShapeRecord, string>(), new WeakMap<ShapeRecord, string>()];

function paintSpeck(ctx: CanvasRenderingContext2D, rec: ShapeRecord, r: Rect, detail: boolean): void {
  const known = speckColours[detail ? 1 : 0]!;
  let colour = known.get(rec);
  if (colour === undefined) {
    const parts = bodyOf(rec, detail);
    const paint = (v: string | number | undefined) => (v === undefined ? 'none' : String(v));
    const stroked = parts.find((p) => paint(p.attrs.stroke) !== 'none');
    const filled = parts.find((p) => p.attrs.fill === undefined || paint(p.attrs.fill) !== 'none');
    colour = stroked
      ? paint(stroked.attrs.stroke)
      : filled
        ? (filled.attrs.fill?.toString() ?? '#000000')
        : 'none';
    known.set(rec, colour);
  }
  if (colour === 'none') return;
  const opacity = rec.opacity ?? 1;
  if (opacity !== 1) ctx.globalAlpha = opacity;
  ctx.fillStyle = colour;
  ctx.fillRect(r.x, r.y, Math.max(r.w, 1), Math.max(r.h, 1));
  if (opacity !== 1) ctx.globalAlpha = 1;
}

/**
 * A shape's body as the shared renderer draws it (bodyOf: outline, solid fill or hatch, dashes),
 * in the shape's own frame placed through `frame`. Lines are kept at least a pixel wide.
 */
function paintBody(
  ctx: CanvasRenderingContext2D,
  rec: ShapeRecord,
  frame: MinimapFrame,
  detail: boolean,
  base: DOMMatrix,
): void {
  const parts = bodyOf(rec, detail);
  if (parts.length === 0) return;
  // Placed from the painting's own transform rather than saved and restored around each shape:
  // save() copies the whole drawing state, thousands of times a repaint.
  ctx.setTransform(base);
  ctx.translate(
    (rec.x - frame.origin.x) * frame.scale + frame.offset.x,
    (rec.y - frame.origin.y) * frame.scale + frame.offset.y,
  );
  ctx.scale(frame.scale, frame.scale);
  if (rec.rotation) {
    ctx.translate(rec.w / 2, rec.h / 2);
    ctx.rotate(rec.rotation);
    ctx.translate(-rec.w / 2, -rec.h / 2);
  }
  ctx.globalAlpha = rec.opacity ?? 1;
  for (const p of parts) paintPrimitive(ctx, p, 1 / frame.scale);
  ctx.setTransform(base);
  ctx.globalAlpha = 1;
}

const num = (v: string | number | undefined, or = 0): number => (v === undefined ? or : Number(v));

/** A primitive made ready to paint: its path and its stroke's dashes. */
interface Prepared {
  path: Path2D;
  dash: number[];
}

/**
 * Each primitive's path and dashes, made once: bodyOf keeps a record's primitives while the
 * record is unchanged, so a repaint (the minimap's, as the view moves) parses and allocates none.
 */
const prepared = new WeakMap<Primitive, Prepared>();

function prepare(p: Primitive): Prepared {
  let known = prepared.get(p);
  if (!known) {
    const d = p.attrs.strokeDasharray;
    const dash =
      d === undefined
        ? []
        : String(d)
            .split(/[\s,]+/)
            .map(Number);
    known = { path: makePath(p), dash: dash.every((n) => Number.isFinite(n)) ? dash : [] };
    prepared.set(p, known);
  }
  return known;
}

function makePath(p: Primitive): Path2D {
  const a = p.attrs;
  const path = new Path2D();
  switch (p.tag) {
    case 'rect':
      path.roundRect(num(a.x), num(a.y), num(a.width), num(a.height), Math.max(0, num(a.rx)));
      break;
    case 'ellipse':
      path.ellipse(num(a.cx), num(a.cy), Math.max(0, num(a.rx)), Math.max(0, num(a.ry)), 0, 0, 2 * Math.PI);
      break;
    case 'circle':
      path.arc(num(a.cx), num(a.cy), Math.max(0, num(a.r)), 0, 2 * Math.PI);
      break;
    case 'polygon':
    case 'polyline': {
      const xy = String(a.points ?? '')
        .trim()
        .split(/[\s,]+/)
        .map(Number);
      for (let i = 0; i + 1 < xy.length; i += 2) {
        if (i === 0) path.moveTo(xy[i]!, xy[i + 1]!);
        else path.lineTo(xy[i]!, xy[i + 1]!);
      }
      if (p.tag === 'polygon') path.closePath();
      break;
    }
    case 'line':
      path.moveTo(num(a.x1), num(a.y1));
      path.lineTo(num(a.x2), num(a.y2));
      break;
    case 'path':
      path.addPath(new Path2D(String(a.d ?? '')));
      break;
  }
  return path;
}

/** One primitive (primitives.ts) on a 2D canvas: its path, filled then stroked as its attributes say. */
function paintPrimitive(ctx: CanvasRenderingContext2D, p: Primitive, minWidth: number): void {
  const a = p.attrs;
  const { path, dash } = prepare(p);
  // SVG's defaults: filled black unless told otherwise, not stroked.
  const fillPaint = a.fill === undefined ? '#000000' : String(a.fill);
  if (fillPaint !== 'none' && p.tag !== 'line' && p.tag !== 'polyline') {
    ctx.fillStyle = fillPaint;
    ctx.fill(path);
  }
  const stroke = a.stroke === undefined ? 'none' : String(a.stroke);
  if (stroke !== 'none') {
    ctx.strokeStyle = stroke;
    ctx.lineWidth = Math.max(num(a.strokeWidth, 1), minWidth);
    ctx.setLineDash(dash);
    ctx.lineCap = a.strokeLinecap === 'round' ? 'round' : 'butt';
    ctx.stroke(path);
  }
}

/** Grey bars where the text's lines are: too small to read, enough to see that there is writing. */
function paintTextHint(ctx: CanvasRenderingContext2D, rec: ShapeRecord, r: Rect): void {
  const bar = Math.max(1, Math.min(3, r.h / 12));
  if (r.w < 6 || r.h < 4 * bar) return;
  const lines = Math.min(rec.text!.split('\n').length + Math.floor(rec.text!.length / 40), 4);
  ctx.fillStyle = rec.type === 'text' ? resolveStyle(rec).stroke : 'rgba(31, 35, 40, 0.55)';
  for (let i = 0; i < lines; i++) {
    const y = r.y + r.h * 0.18 + i * bar * 2.2;
    if (y + bar > r.y + r.h * 0.9) break;
    const w = (r.w - r.w * 0.24) * (i === lines - 1 && lines > 1 ? 0.6 : 1);
    ctx.fillRect(r.x + r.w * 0.12, y, w, bar);
  }
}
