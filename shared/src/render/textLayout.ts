// Text layout of text-bearing shapes, pure so it is tested in Node and shared by the canvas and the
// SVG/PNG export (the screen and the file wrap the same way). Text is fitted to its shape as Miro
// and tldraw do: a sticky or a shape shrinks its font down to a floor, and past the floor the shape
// has to grow (`neededH`), so no line is ever silently dropped.
import { type FontSize, fontSizes, type ShapeRecord, type TextAlign } from '../index.ts';

/** Width of `text` set at `size` px. The browser measures with a canvas; tests pass an estimate. */
export type Measure = (text: string, size: number) => number;

export const LINE_HEIGHT = 1.3;
/** The smallest font a sticky or shape shrinks to before it grows instead. */
export const FONT_FLOOR = 10;

export interface TextLayout {
  size: number;
  lineHeight: number;
  lines: string[];
  /** Padding of the text box inside the shape (left/right and top/bottom). */
  padX: number;
  padY: number;
  align: TextAlign;
  /** Vertical placement: stickies and text read from the top, shapes are centred. */
  valign: 'top' | 'middle';
  /** The shape height needed to show every line (≥ the current height when it already fits). */
  neededH: number;
  /** True when the text fits the shape as it is. */
  fits: boolean;
}

type TextShape = Pick<ShapeRecord, 'type' | 'w' | 'h'> & {
  text?: string | undefined;
  fontSize?: FontSize | undefined;
  align?: TextAlign | undefined;
};

/** The font size a shape asks for before any shrinking; free text is set a little larger. */
export function baseFontSize(s: Pick<TextShape, 'type' | 'fontSize'>): number {
  const px = fontSizes[s.fontSize ?? 'm'];
  return s.type === 'text' ? Math.round(px * 1.25) : px;
}

/** Where the text box sits in a shape: ellipses and diamonds keep text inside their outline. */
function box(s: TextShape) {
  const pad = s.type === 'text' ? 4 : 12;
  const k = s.type === 'ellipse' ? 0.15 : s.type === 'diamond' ? 0.25 : 0;
  const padX = pad + s.w * k;
  const padY = pad + s.h * k;
  return { pad, k, padX, padY, innerW: Math.max(1, s.w - 2 * padX), innerH: Math.max(1, s.h - 2 * padY) };
}

/**
 * Greedy word wrap to `maxWidth`. Words longer than a line are broken between characters, so a
 * long URL or word never spills out of its note. Explicit newlines are kept. A line that wraps at a
 * space keeps that space at its end (invisible, and not measured), so the lines joined are the text.
 */
export function wrapText(text: string, maxWidth: number, size: number, measure: Measure): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const raw of para.split(' ')) {
      let word = raw;
      const candidate = line ? `${line} ${word}` : word;
      if (measure(candidate, size) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) out.push(`${line} `);
      line = '';
      while (word.length > 1 && measure(word, size) > maxWidth) {
        // The longest prefix that fits (at least one character), by binary search.
        let lo = 1;
        let hi = word.length - 1;
        while (lo < hi) {
          const mid = Math.ceil((lo + hi) / 2);
          if (measure(word.slice(0, mid), size) <= maxWidth) lo = mid;
          else hi = mid - 1;
        }
        out.push(word.slice(0, lo));
        word = word.slice(lo);
      }
      line = word;
    }
    out.push(line);
  }
  return out;
}

/** Lays out a shape's text: the largest size from its base down to the floor at which every line fits. */
export function layoutText(s: TextShape, measure: Measure): TextLayout {
  const text = s.text ?? '';
  const { pad, k, padX, padY, innerW, innerH } = box(s);
  const base = baseFontSize(s);
  const align = s.align ?? (s.type === 'sticky' || s.type === 'text' ? 'start' : 'middle');
  const valign = s.type === 'sticky' || s.type === 'text' ? 'top' : 'middle';
  const floor = s.type === 'text' ? base : Math.min(base, FONT_FLOOR);
  let size = base;
  let lines = wrapText(text, innerW, size, measure);
  const height = (n: number, px: number) => n * px * LINE_HEIGHT;
  while (size > floor && height(lines.length, size) > innerH + 0.01) {
    size -= 1;
    lines = wrapText(text, innerW, size, measure);
  }
  const textH = height(lines.length, size);
  const fits = textH <= innerH + 0.01;
  // Growing: the height whose text box holds every line (ellipses and diamonds keep their text
  // inside a fraction of their height, so they grow by more).
  const neededH = fits ? s.h : Math.ceil((textH + 2 * pad) / (1 - 2 * k));
  return {
    size,
    lineHeight: size * LINE_HEIGHT,
    lines,
    padX,
    padY,
    align,
    valign,
    neededH: Math.max(s.h, neededH),
    fits,
  };
}

/** Baseline of line `i` and the x of every line, relative to the shape's top-left. */
export function linePositions(
  s: Pick<ShapeRecord, 'w' | 'h'>,
  l: TextLayout,
): { x: number; y: (i: number) => number } {
  const x = l.align === 'start' ? l.padX : l.align === 'end' ? s.w - l.padX : s.w / 2;
  const total = l.lines.length * l.lineHeight;
  const top = l.valign === 'top' ? l.padY : Math.max(l.padY, (s.h - total) / 2);
  // The baseline sits where CSS puts it in a line box of this height (half-leading, then ~0.8 em).
  const first = top + (l.lineHeight - l.size) / 2 + l.size * 0.8;
  return { x, y: (i) => first + i * l.lineHeight };
}

/** A rough measure for Node (tests, server): an average glyph is 0.55 em wide. */
export const estimateMeasure: Measure = (text, size) => text.length * size * 0.55;
