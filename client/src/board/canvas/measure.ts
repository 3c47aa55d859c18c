// Text measurement in the browser, for the shared text layout (model/textLayout.ts): a canvas
// measures with the same font the canvas and exports draw with. Results are cached, since layout
// measures the same words many times while it searches for a size.
import type { Measure } from '../model/textLayout.ts';
import { estimateMeasure, layoutText, type TextLayout } from '../model/textLayout.ts';

export const TEXT_FONT = 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

let ctx: CanvasRenderingContext2D | null | undefined;
const widths = new Map<string, number>();

export const measure: Measure = (text, size) => {
  if (ctx === undefined)
    ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!ctx) return estimateMeasure(text, size);
  const key = `${size}|${text}`;
  let w = widths.get(key);
  if (w === undefined) {
    if (widths.size > 50_000) widths.clear();
    ctx.font = `${size}px ${TEXT_FONT}`;
    w = ctx.measureText(text).width;
    widths.set(key, w);
  }
  return w;
};

const layouts = new Map<string, TextLayout>();
/** The layout of a shape's text, cached by everything it depends on. */
export function layoutOf(s: Parameters<typeof layoutText>[0]): TextLayout {
  const key = `${s.type}|${s.w}|${s.h}|${s.fontSize ?? ''}|${s.align ?? ''}|${s.text ?? ''}`;
  let l = layouts.get(key);
  if (!l) {
    if (layouts.size > 20_000) layouts.clear();
    l = layoutText(s, measure);
    layouts.set(key, l);
  }
  return l;
}
