// Standalone SVG of shapes, for export. Text is laid out as <tspan> lines (not foreignObject) so the
// file opens anywhere and can be drawn onto a canvas for PNG without tainting it.
import type { ShapeRecord } from '@tandem/shared';
import { clippingFrames } from '../facilitation/frames.ts';
import { arrowEnds, boundsOf, unionRect } from '../model/geometry.ts';
import { linePositions } from '../model/textLayout.ts';
import { strokePath } from './freehand.ts';
import { layoutOf, TEXT_FONT } from './measure.ts';
import { fill, ink, tint } from './palette.ts';
import { arrowGeometry, dashArray, headsSvg, strokeWidthOf } from './strokes.ts';

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function textSvg(s: ShapeRecord): string {
  if (!s.text) return '';
  // The same layout as the canvas (model/textLayout.ts), measured by the same canvas font, so the
  // file wraps exactly as the screen does and long words are broken inside their note.
  const l = layoutOf(s);
  const pos = linePositions(s, l);
  const color = s.type === 'text' ? ink[s.color] : '#1f2328';
  return `<text font-family="${esc(TEXT_FONT)}" font-size="${l.size}" fill="${color}" text-anchor="${l.align}" xml:space="preserve">${l.lines
    .map((line, i) => `<tspan x="${pos.x}" y="${pos.y(i)}">${esc(line)}</tspan>`)
    .join('')}</text>`;
}

function shapeSvg(s: ShapeRecord, byId: Map<string, ShapeRecord>, images: Map<string, string>): string {
  if (s.type === 'arrow') {
    const [a, b] = arrowEnds(s, byId);
    const { line, heads } = arrowGeometry(s, a, b);
    const width = strokeWidthOf(s);
    const dash = dashArray(s.dash, width);
    const color = ink[s.color];
    return `<g stroke="${color}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round" fill="none"><line x1="${line[0].x}" y1="${line[0].y}" x2="${line[1].x}" y2="${line[1].y}"${dash ? ` stroke-dasharray="${dash}"` : ''}/>${headsSvg(heads, color)}</g>`;
  }
  const rot = s.rotation ? ` rotate(${(s.rotation * 180) / Math.PI} ${s.w / 2} ${s.h / 2})` : '';
  let body = '';
  const width = strokeWidthOf(s);
  const dash = dashArray(s.dash, width);
  const stroke = `stroke="${ink[s.color]}" stroke-width="${width}"${dash ? ` stroke-dasharray="${dash}" stroke-linecap="round"` : ''}`;
  if (s.type === 'sticky') body = `<rect width="${s.w}" height="${s.h}" rx="6" fill="${fill[s.color]}"/>`;
  else if (s.type === 'rect')
    body = `<rect width="${s.w}" height="${s.h}" rx="8" fill="${tint(s.color)}" ${stroke}/>`;
  else if (s.type === 'ellipse')
    body = `<ellipse cx="${s.w / 2}" cy="${s.h / 2}" rx="${s.w / 2}" ry="${s.h / 2}" fill="${tint(s.color)}" ${stroke}/>`;
  else if (s.type === 'diamond')
    body = `<polygon points="${s.w / 2},0 ${s.w},${s.h / 2} ${s.w / 2},${s.h} 0,${s.h / 2}" fill="${tint(s.color)}" ${stroke} stroke-linejoin="round"/>`;
  else if (s.type === 'freehand') body = `<path d="${strokePath(s.points ?? [])}" fill="${ink[s.color]}"/>`;
  else if (s.type === 'frame')
    // Its name is drawn after every shape (frameTitleSvg), as on the canvas.
    body = `<rect width="${s.w}" height="${s.h}" rx="4" fill="#f6f8fa" stroke="#8c959f" stroke-width="2"/>`;
  else if (s.type === 'image') {
    // Embedded as a data URL, so the file stands alone and a canvas can rasterise it untainted.
    const href = s.assetId ? images.get(s.assetId) : undefined;
    body = href
      ? `<image href="${esc(href)}" width="${s.w}" height="${s.h}" preserveAspectRatio="none"/>`
      : `<rect width="${s.w}" height="${s.h}" fill="#eef0f3"/>`;
  }
  return `<g transform="translate(${s.x} ${s.y})${rot}">${body}${textSvg(s)}</g>`;
}

const frameTitleSvg = (f: ShapeRecord): string =>
  `<text x="${f.x}" y="${f.y - 10}" font-family="Inter, system-ui, sans-serif" font-size="16" font-weight="600" fill="#57606a">${esc(f.name || 'Frame')}</text>`;

/** The SVG document of `shapes` (paint order), cropped to their bounds with a margin. */
export function toSvg(
  shapes: ShapeRecord[],
  all: Map<string, ShapeRecord>,
  margin = 32,
  /** Data URLs of the images shown, by asset id (images/transfer.ts). */
  images: Map<string, string> = new Map(),
): { svg: string; width: number; height: number } {
  const box = unionRect(
    shapes.map((s) => {
      if (s.type !== 'arrow') return boundsOf(s);
      const [a, b] = arrowEnds(s, all);
      return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), w: Math.abs(a.x - b.x), h: Math.abs(a.y - b.y) };
    }),
  ) ?? { x: 0, y: 0, w: 0, h: 0 };
  const width = Math.ceil(box.w + 2 * margin);
  const height = Math.ceil(box.h + 2 * margin);
  // Frames clip the shapes they hold and their names sit above everything, as on the canvas
  // (docs/api.md §14).
  const clips = clippingFrames(shapes);
  const frames = shapes.filter((s) => s.type === 'frame');
  const clipIds = new Map(frames.map((f, i) => [f.id, `frame-clip-${i}`]));
  const defs = frames.length
    ? `<defs>${frames.map((f) => `<clipPath id="${clipIds.get(f.id)}" clipPathUnits="userSpaceOnUse"><rect x="${f.x}" y="${f.y}" width="${f.w}" height="${f.h}" rx="4"/></clipPath>`).join('')}</defs>`
    : '';
  const body =
    defs +
    shapes
      .map((s) => {
        const svg = shapeSvg(s, all, images);
        const frame = clips.get(s.id);
        return frame ? `<g clip-path="url(#${clipIds.get(frame.id)})">${svg}</g>` : svg;
      })
      .join('') +
    frames.map(frameTitleSvg).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${box.x - margin} ${box.y - margin} ${width} ${height}"><rect x="${box.x - margin}" y="${box.y - margin}" width="${width}" height="${height}" fill="#ffffff"/>${body}</svg>`;
  return { svg, width, height };
}
