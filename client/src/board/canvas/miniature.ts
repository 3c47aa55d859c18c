// Paints shapes in miniature on a 2D canvas: the minimap and the dashboard thumbnail. Cheap by
// design (no text measuring, one path per shape), so a 5,000-shape board paints in milliseconds.
import type { ShapeRecord } from '@tandem/shared';
import { arrowEnds, type Rect } from '../model/geometry.ts';
import { type MinimapFrame, toMinimap } from '../model/minimap.ts';
import { fill, ink, tint } from './palette.ts';
import type { IndexedShape } from './shapeIndex.ts';

/**
 * Paints `list` (paint order) through `frame`. `detail` draws outlines, rounded notes and a hint of
 * text lines (thumbnails); without it every shape is one filled rectangle (the minimap).
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
      ctx.strokeStyle = ink[rec.color];
      ctx.lineWidth = detail ? 1.5 : 1;
      ctx.beginPath();
      ctx.moveTo(a!.x, a!.y);
      ctx.lineTo(b!.x, b!.y);
      ctx.stroke();
      continue;
    }
    if (rec.type === 'freehand' && detail && rec.points && rec.points.length >= 4) {
      ctx.strokeStyle = ink[rec.color];
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      for (let i = 0; i + 1 < rec.points.length; i += 2) {
        const p = at(rec.x + rec.points[i]!, rec.y + rec.points[i + 1]!);
        if (i === 0) ctx.moveTo(p.x, p.y);
        else ctx.lineTo(p.x, p.y);
      }
      ctx.stroke();
      continue;
    }
    if (!detail) {
      paintBlock(ctx, rec, r);
      continue;
    }
    ctx.beginPath();
    if (rec.type === 'ellipse') {
      ctx.ellipse(
        r.x + r.w / 2,
        r.y + r.h / 2,
        Math.max(r.w / 2, 0.5),
        Math.max(r.h / 2, 0.5),
        0,
        0,
        2 * Math.PI,
      );
    } else if (rec.type === 'diamond') {
      ctx.moveTo(r.x + r.w / 2, r.y);
      ctx.lineTo(r.x + r.w, r.y + r.h / 2);
      ctx.lineTo(r.x + r.w / 2, r.y + r.h);
      ctx.lineTo(r.x, r.y + r.h / 2);
      ctx.closePath();
    } else ctx.roundRect(r.x, r.y, Math.max(r.w, 1), Math.max(r.h, 1), Math.min(3, r.w / 6, r.h / 6));
    if (rec.type === 'sticky') {
      ctx.fillStyle = fill[rec.color];
      ctx.fill();
    } else if (rec.type === 'text') {
      // Text alone: its lines below.
    } else if (rec.type === 'frame') {
      ctx.fillStyle = '#f6f8fa';
      ctx.fill();
      ctx.strokeStyle = '#8c959f';
      ctx.lineWidth = 1;
      ctx.stroke();
    } else if (rec.type === 'image') {
      ctx.fillStyle = '#d8dee6';
      ctx.fill();
    } else {
      ctx.fillStyle = tint(rec.color);
      ctx.fill();
      ctx.strokeStyle = ink[rec.color];
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    if (rec.text && rec.text.trim() !== '') paintTextHint(ctx, rec, r);
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
  ctx.fillStyle = rec.type === 'text' ? ink[rec.color] : 'rgba(31, 35, 40, 0.55)';
  for (let i = 0; i < lines; i++) {
    const y = r.y + r.h * 0.18 + i * bar * 2.2;
    if (y + bar > r.y + r.h * 0.9) break;
    const w = (r.w - r.w * 0.24) * (i === lines - 1 && lines > 1 ? 0.6 : 1);
    ctx.fillRect(r.x + r.w * 0.12, y, w, bar);
  }
}
