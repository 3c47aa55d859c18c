// The one SVG renderer of a board (docs/api.md §16), pure: shapes in, an SVG string out. The client's
// export (SVG, and PNG and PDF drawn from it) and the server's live images (`board.svg`,
// `board.png`) both call `toSvg`. Bodies and arrows come from the same primitives the canvas
// renders (body.ts), so the file shows the canvas's exact strokes, hand-drawn ones included (roughjs,
// seeded by the shape's id). Text is laid out as <tspan> lines (not foreignObject) so the file opens
// anywhere and can be drawn onto a canvas for PNG without tainting it.
import type { FontFamily, ShapeRecord } from '../shapes.ts';
import { arrowDrawing, bodyOf, opacityAttrs } from './body.ts';
import { connectorPath, pathBounds } from './connectors.ts';
import { fontStacks } from './fonts.ts';
import { clippingFrames, frameLabel } from './frames.ts';
import { boundsOf, intersection, unionRect } from './geometry.ts';
import { esc, imageElement, imagePlaceholder } from './images.ts';
import { connectorLabel, EXPORT_BACKGROUND, labelAttrs, textHalo } from './label.ts';
import { attrsMarkup, markup } from './primitives.ts';
import { resolveStyle } from './style.ts';
import { estimateMeasure, layoutText, linePositions, type TextLayout } from './textLayout.ts';

/** How a shape's text is laid out: the client measures with its canvas font (canvas/measure.ts). */
export type LayoutOf = (s: ShapeRecord & { fontFamily?: FontFamily | undefined }) => TextLayout;

/** Without a canvas (the server), text is measured by estimate: the same rule on every instance. */
export const estimatedLayout: LayoutOf = (s) => layoutText(s, estimateMeasure);

export interface SvgOptions {
  /** Board units around the shapes' bounds. */
  margin?: number;
  /** Data URLs (or URLs) of the images shown, by asset id. */
  images?: Map<string, string>;
  /** `<style>` rules to embed (the fonts, as data URLs). */
  style?: string;
  layout?: LayoutOf;
  /** Prefixes the document's ids (its frames' clip paths), so several can sit in one file. */
  idPrefix?: string;
}

/** The colour text is drawn in: free text takes its stroke colour, text on a shape is near-black. */
export const textColorOf = (s: ShapeRecord): string =>
  s.type === 'text' ? resolveStyle(s).stroke : '#1f2328';

function textSvg(s: ShapeRecord, layoutOf: LayoutOf): string {
  if (!s.text) return '';
  // The same layout as the canvas (textLayout.ts); in the client measured by the same canvas font,
  // so the file wraps exactly as the screen does and long words are broken inside their note.
  const l = layoutOf(s);
  const pos = linePositions(s, l);
  return `<text font-family="${esc(fontStacks[s.fontFamily ?? 'sans'])}" font-size="${l.size}" fill="${textColorOf(s)}" text-anchor="${l.align}"${attrsMarkup(textHalo(s, l.size, EXPORT_BACKGROUND))} xml:space="preserve">${l.lines
    .map((line, i) => `<tspan x="${pos.x}" y="${pos.y(i)}">${esc(line)}</tspan>`)
    .join('')}</text>`;
}

function shapeSvg(
  s: ShapeRecord,
  byId: Map<string, ShapeRecord>,
  images: Map<string, string>,
  layoutOf: LayoutOf,
): string {
  if (s.type === 'arrow') {
    const path = connectorPath(s, byId);
    const { group, parts } = arrowDrawing(s, path);
    const l = connectorLabel(s, path);
    const label = l
      ? `<text${attrsMarkup(labelAttrs(l))} xml:space="preserve">${l.lines.map((line, i) => `<tspan x="${l.x}" y="${l.ys[i]}">${esc(line)}</tspan>`).join('')}</text>`
      : '';
    return `<g${attrsMarkup(group)}>${markup(parts)}${label}</g>`;
  }
  const rot = s.rotation ? ` rotate(${(s.rotation * 180) / Math.PI} ${s.w / 2} ${s.h / 2})` : '';
  let body = markup(bodyOf(s));
  if (s.type === 'frame')
    // Its name is drawn after every shape (frameTitleSvg), as on the canvas.
    body = `<rect width="${s.w}" height="${s.h}" rx="4" fill="#f6f8fa" stroke="#8c959f" stroke-width="2"/>`;
  else if (s.type === 'image') {
    // Embedded as a data URL, so the file stands alone and a canvas can rasterise it untainted.
    const href = s.assetId ? images.get(s.assetId) : undefined;
    body = href ? imageElement(href, s.w, s.h) : imagePlaceholder(s.w, s.h);
    // Its alt text as the group's <title>, its accessible name in a browser and a screen reader
    // (SVG's own text alternative; the first child, as SVG 2 asks). Without alt text, nothing.
    const alt = s.alt?.trim();
    if (alt) body = `<title>${esc(alt)}</title>${body}`;
  }
  return `<g transform="translate(${s.x} ${s.y})${rot}"${attrsMarkup(opacityAttrs(s))}>${body}${textSvg(s, layoutOf)}</g>`;
}

// In the sans stack whatever the frame's own fontFamily, like the canvas's title: the face an export
// embeds for it (client drawing/fontEmbed.ts) is named by that stack's first name.
const frameTitleSvg = (f: ShapeRecord): string =>
  `<text x="${f.x}" y="${f.y - 10}" font-family="${esc(fontStacks.sans)}" font-size="16" font-weight="600" fill="#57606a">${esc(frameLabel(f))}</text>`;

/** The SVG document of `shapes` (paint order), cropped to their bounds with a margin. */
export function toSvg(
  shapes: ShapeRecord[],
  all: Map<string, ShapeRecord>,
  { margin = 32, images = new Map(), style = '', layout = estimatedLayout, idPrefix = '' }: SvgOptions = {},
): { svg: string; width: number; height: number } {
  // Frames clip the shapes they hold and their names sit above everything, as on the canvas
  // (docs/api.md §14).
  const clips = clippingFrames(shapes);
  // The picture is as big as what shows: a held shape counts only inside its frame, so a text
  // box wider than its frame does not widen a frame's export with empty margins.
  const shown = shapes.flatMap((s) => {
    const bounds = s.type === 'arrow' ? pathBounds(connectorPath(s, all)) : boundsOf(s);
    const frame = clips.get(s.id);
    const visible = frame ? intersection(bounds, boundsOf(frame)) : bounds;
    return visible ? [visible] : [];
  });
  const box = unionRect(shown) ?? { x: 0, y: 0, w: 0, h: 0 };
  const width = Math.ceil(box.w + 2 * margin);
  const height = Math.ceil(box.h + 2 * margin);
  const frames = shapes.filter((s) => s.type === 'frame');
  const clipIds = new Map(frames.map((f, i) => [f.id, `${idPrefix}frame-clip-${i}`]));
  const clipDefs = frames
    .map(
      (f) =>
        `<clipPath id="${clipIds.get(f.id)}" clipPathUnits="userSpaceOnUse"><rect x="${f.x}" y="${f.y}" width="${f.w}" height="${f.h}" rx="4"/></clipPath>`,
    )
    .join('');
  const defs = style || clipDefs ? `<defs>${style ? `<style>${style}</style>` : ''}${clipDefs}</defs>` : '';
  const body =
    shapes
      .map((s) => {
        const svg = shapeSvg(s, all, images, layout);
        const frame = clips.get(s.id);
        return frame ? `<g clip-path="url(#${clipIds.get(frame.id)})">${svg}</g>` : svg;
      })
      .join('') + frames.map(frameTitleSvg).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${box.x - margin} ${box.y - margin} ${width} ${height}">${defs}<rect x="${box.x - margin}" y="${box.y - margin}" width="${width}" height="${height}" fill="${EXPORT_BACKGROUND}"/>${body}</svg>`;
  return { svg, width, height };
}

/** A section of a stacked export: a heading (none: no room for one) over a document from toSvg. */
export interface StackedPart {
  heading: string | null;
  svg: string;
  width: number;
  height: number;
}

/** Room for a section's heading, and between two sections, in board units. */
export const STACK_HEADING = 56;
export const STACK_GAP = 48;

/**
 * Several documents made by toSvg (each with its own `idPrefix`) in one SVG, one under the other,
 * each under its heading: every page of a board as one file (docs/api.md §17). Each document is
 * nested as it is, so nothing is drawn a second way; `style` (the fonts) is embedded once.
 */
export function stackSvgs(parts: StackedPart[], style = ''): { svg: string; width: number; height: number } {
  const width = Math.max(1, ...parts.map((p) => p.width));
  let y = 0;
  const body = parts
    .map((part, i) => {
      const top = y + (i > 0 ? STACK_GAP : 0);
      const heading =
        part.heading === null
          ? ''
          : `<text x="16" y="${top + 36}" font-family="${esc(fontStacks.sans)}" font-size="24" font-weight="600" fill="#1f2328">${esc(part.heading)}</text>`;
      const at = top + (part.heading === null ? 0 : STACK_HEADING);
      y = at + part.height;
      return `${heading}${part.svg.replace(/^<svg /, `<svg x="0" y="${at}" `)}`;
    })
    .join('');
  const height = Math.max(1, y);
  const defs = style ? `<defs><style>${style}</style></defs>` : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${defs}<rect width="${width}" height="${height}" fill="#ffffff"/>${body}</svg>`;
  return { svg, width, height };
}
