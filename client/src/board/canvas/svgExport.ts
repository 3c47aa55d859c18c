// Standalone SVG of shapes, for export. Text is laid out as <tspan> lines (not foreignObject) so the
// file opens anywhere and can be drawn onto a canvas for PNG without tainting it.
import type { ShapeRecord } from '@tandem/shared';
import { arrowEnds, boundsOf, unionRect } from '../model/geometry.ts';
import { linePositions } from '../model/textLayout.ts';
import { strokePath } from './freehand.ts';
import { layoutOf, TEXT_FONT } from './measure.ts';
import { fill, ink, tint } from './palette.ts';

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
    const ang = Math.atan2(b.y - a.y, b.x - a.x);
    const p1 = { x: b.x - 14 * Math.cos(ang - 0.45), y: b.y - 14 * Math.sin(ang - 0.45) };
    const p2 = { x: b.x - 14 * Math.cos(ang + 0.45), y: b.y - 14 * Math.sin(ang + 0.45) };
    return `<g stroke="${ink[s.color]}" stroke-width="2.5" stroke-linecap="round" fill="none"><line x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}"/><polyline points="${p1.x},${p1.y} ${b.x},${b.y} ${p2.x},${p2.y}"/></g>`;
  }
  const rot = s.rotation ? ` rotate(${(s.rotation * 180) / Math.PI} ${s.w / 2} ${s.h / 2})` : '';
  let body = '';
  const stroke = `stroke="${ink[s.color]}" stroke-width="2"`;
  if (s.type === 'sticky') body = `<rect width="${s.w}" height="${s.h}" rx="6" fill="${fill[s.color]}"/>`;
  else if (s.type === 'rect')
    body = `<rect width="${s.w}" height="${s.h}" rx="8" fill="${tint(s.color)}" ${stroke}/>`;
  else if (s.type === 'ellipse')
    body = `<ellipse cx="${s.w / 2}" cy="${s.h / 2}" rx="${s.w / 2}" ry="${s.h / 2}" fill="${tint(s.color)}" ${stroke}/>`;
  else if (s.type === 'diamond')
    body = `<polygon points="${s.w / 2},0 ${s.w},${s.h / 2} ${s.w / 2},${s.h} 0,${s.h / 2}" fill="${tint(s.color)}" ${stroke}/>`;
  else if (s.type === 'freehand') body = `<path d="${strokePath(s.points ?? [])}" fill="${ink[s.color]}"/>`;
  else if (s.type === 'frame')
    body = `<rect width="${s.w}" height="${s.h}" rx="4" fill="#f6f8fa" stroke="#8c959f" stroke-width="2"/><text x="0" y="-10" font-family="Inter, system-ui, sans-serif" font-size="16" fill="#57606a">${esc(s.name ?? '')}</text>`;
  else if (s.type === 'image') {
    // Embedded as a data URL, so the file stands alone and a canvas can rasterise it untainted.
    const href = s.assetId ? images.get(s.assetId) : undefined;
    body = href
      ? `<image href="${esc(href)}" width="${s.w}" height="${s.h}" preserveAspectRatio="none"/>`
      : `<rect width="${s.w}" height="${s.h}" fill="#eef0f3"/>`;
  }
  return `<g transform="translate(${s.x} ${s.y})${rot}">${body}${textSvg(s)}</g>`;
}

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
  const body = shapes.map((s) => shapeSvg(s, all, images)).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${box.x - margin} ${box.y - margin} ${width} ${height}"><rect x="${box.x - margin}" y="${box.y - margin}" width="${width}" height="${height}" fill="#ffffff"/>${body}</svg>`;
  return { svg, width, height };
}
