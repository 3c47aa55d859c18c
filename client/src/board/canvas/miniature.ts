// Paints shapes in miniature on a 2D canvas: the minimap and the dashboard thumbnail. Cheap by
// design (no text measuring, one path per shape), so a 5,000-shape board paints in milliseconds.
// The thumbnail draws each shape's body from the shared renderer's primitives (bodyOf, the ones
// the canvas and the export draw), so its stroke, fill and fill style are the board's own.
import type { ShapeRecord } from '@tandem/shared';
import { bodyOf } from '@tandem/shared/render/body.ts';
import type { Primitive } from '@tandem/shared/render/primitives.ts';
import { resolveStyle } from '@tandem/shared/render/style.ts';
import { arrowEnds, type Rect } from '../model/geometry.ts';
import { type MinimapFrame, toMinimap } from '../model/minimap.ts';
import { fill } from './palette.ts';
import type { IndexedShape } from './shapeIndex.ts';

/** Below this scale the canvas draws shapes without their hand-drawn detail (Canvas.tsx): so does the thumbnail. */
const DETAIL_SCALE = 0.3;

/**
 * Paints `list` (paint order) through `frame`. `detail` draws each shape as the board does, in its
 * own stroke, fill and fill style, with a hint of text lines (thumbnails); without it every shape
 * is one filled rectangle (the minimap).
 */
export function paintMiniature(
  ctx: CanvasRenderingContext2D,
  list: readonly IndexedShape[],
  byId: Map<string, ShapeRecord>,
  frame: MinimapFrame,
  detail: boolean,
): void {
  const at = (x: number, y: number) => toMinimap(frame, { x, y, w: 0, h: 0 });
  for (const { rec, bounds } of list) {
    const r = toMinimap(frame, bounds);
    if (rec.type === 'arrow') {
      const [a, b] = arrowEnds(rec, byId).map((p) => at(p.x, p.y));
      ctx.strokeStyle = resolveStyle(rec).stroke;
      ctx.lineWidth = detail ? 1.5 : 1;
      ctx.beginPath();
      ctx.moveTo(a!.x, a!.y);
      ctx.lineTo(b!.x, b!.y);
      ctx.stroke();
      continue;
    }
    if (!detail) {
      paintBlock(ctx, rec, r);
      continue;
    }
    if (rec.type === 'frame' || rec.type === 'image') {
      ctx.beginPath();
      ctx.roundRect(r.x, r.y, Math.max(r.w, 1), Math.max(r.h, 1), Math.min(3, r.w / 6, r.h / 6));
      ctx.fillStyle = rec.type === 'frame' ? '#f6f8fa' : '#d8dee6';
      ctx.fill();
      if (rec.type === 'frame') {
        ctx.strokeStyle = '#8c959f';
        ctx.lineWidth = 1;
        ctx.stroke();
      }
    } else if (rec.type !== 'text') {
      paintBody(ctx, rec, frame);
    }
    if (rec.text && rec.text.trim() !== '') paintTextHint(ctx, rec, r);
  }
}

/**
 * A shape's body as the shared renderer draws it (bodyOf: outline, solid fill or hatch, dashes),
 * in the shape's own frame placed through `frame`. Lines are kept at least a pixel wide.
 */
function paintBody(ctx: CanvasRenderingContext2D, rec: ShapeRecord, frame: MinimapFrame): void {
  const parts = bodyOf(rec, frame.scale >= DETAIL_SCALE);
  if (parts.length === 0) return;
  ctx.save();
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
  ctx.lineJoin = 'round';
  for (const p of parts) paintPrimitive(ctx, p, 1 / frame.scale);
  ctx.restore();
}

const num = (v: string | number | undefined, or = 0): number => (v === undefined ? or : Number(v));

/** One primitive (primitives.ts) on a 2D canvas: its path, filled then stroked as its attributes say. */
function paintPrimitive(ctx: CanvasRenderingContext2D, p: Primitive, minWidth: number): void {
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
    const dash =
      a.strokeDasharray === undefined
        ? []
        : String(a.strokeDasharray)
            .split(/[\s,]+/)
            .map(Number);
    ctx.setLineDash(dash.every((d) => Number.isFinite(d)) ? dash : []);
    ctx.lineCap = a.strokeLinecap === 'round' ? 'round' : 'butt';
    ctx.stroke(path);
  }
}

function paintBlock(ctx: CanvasRenderingContext2D, rec: ShapeRecord, r: Rect): void {
  if (rec.type === 'frame') {
    ctx.strokeStyle = '#9ca3af';
    ctx.lineWidth = 1;
    ctx.strokeRect(r.x, r.y, r.w, r.h);
    return;
  }
  ctx.fillStyle =
    rec.type === 'text' || rec.type === 'freehand'
      ? '#6b7280'
      : rec.type === 'image'
        ? '#cbd5e1'
        : fill[rec.color];
  // At least a pixel, so a small shape on a huge board still shows.
  ctx.fillRect(r.x, r.y, Math.max(r.w, 1), Math.max(r.h, 1));
}

/** Grey bars where the text's lines are: too small to read, enough to see that there is writing. */
function paintTextHint(ctx: CanvasRenderingContext2D, rec: ShapeRecord, r: Rect): void {
  const lines = Math.min(rec.text!.split('\n').length + Math.floor(rec.text!.length / 40), 4);
  const bar = Math.max(1, Math.min(3, r.h / 12));
  if (r.w < 6 || r.h < 4 * bar) return;
  ctx.fillStyle = rec.type === 'text' ? resolveStyle(rec).stroke : 'rgba(31, 35, 40, 0.55)';
  for (let i = 0; i < lines; i++) {
    const y = r.y + r.h * 0.18 + i * bar * 2.2;
    if (y + bar > r.y + r.h * 0.9) break;
    const w = (r.w - r.w * 0.24) * (i === lines - 1 && lines > 1 ? 0.6 : 1);
    ctx.fillRect(r.x + r.w * 0.12, y, w, bar);
  }
}
