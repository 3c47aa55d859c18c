// Text measurement in the browser, for the shared text layout (model/textLayout.ts): a canvas
// measures with the same font the canvas and exports draw with (drawing/fonts.ts, loaded before the
// board lays text out). Results are cached, since layout measures the same words many times while
// it searches for a size.
import { type FontFamily, styleDefaults } from '@tandem/shared';
import { fontStacks } from '../drawing/fonts.ts';
import { FRAME_TITLE_PX } from '../facilitation/frames.ts';
import type { Measure } from '../model/textLayout.ts';
import { estimateMeasure, layoutText, type TextLayout } from '../model/textLayout.ts';

/** The default (sans) text font. */
export const TEXT_FONT = fontStacks.sans;

let ctx: CanvasRenderingContext2D | null | undefined;
const widths = new Map<string, number>();

/** A Measure for one font family. */
export function measureIn(family: FontFamily): Measure {
  return (text, size) => {
    if (ctx === undefined)
      ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (!ctx) return estimateMeasure(text, size);
    const key = `${family}|${size}|${text}`;
    let w = widths.get(key);
    if (w === undefined) {
      if (widths.size > 50_000) widths.clear();
      ctx.font = `${size}px ${fontStacks[family]}`;
      w = ctx.measureText(text).width;
      widths.set(key, w);
    }
    return w;
  };
}

const titleWidths = new Map<string, number>();
/** The width in screen pixels of a frame's title, drawn 16 px semibold in the sans stack (facilitation.css). */
export function frameTitleWidth(text: string): number {
  if (ctx === undefined)
    ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!ctx) return estimateMeasure(text, FRAME_TITLE_PX) * 1.08;
  let w = titleWidths.get(text);
  if (w === undefined) {
    if (titleWidths.size > 5_000) titleWidths.clear();
    ctx.font = `600 ${FRAME_TITLE_PX}px ${fontStacks.sans}`;
    w = ctx.measureText(text).width;
    titleWidths.set(text, w);
  }
  return w;
}

export const measure: Measure = measureIn(styleDefaults.fontFamily);
const measures = new Map<FontFamily, Measure>();

const layouts = new Map<string, TextLayout>();
/** The layout of a shape's text, cached by everything it depends on. */
export function layoutOf(
  s: Parameters<typeof layoutText>[0] & { fontFamily?: FontFamily | undefined },
): TextLayout {
  const family = s.fontFamily ?? styleDefaults.fontFamily;
  const key = `${s.type}|${s.w}|${s.h}|${s.fontSize ?? ''}|${s.align ?? ''}|${family}|${s.text ?? ''}`;
  let l = layouts.get(key);
  if (!l) {
    if (layouts.size > 20_000) layouts.clear();
    let m = measures.get(family);
    if (!m) {
      m = measureIn(family);
      measures.set(family, m);
    }
    l = layoutText(s, m);
    layouts.set(key, l);
  }
  return l;
}
