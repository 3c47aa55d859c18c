// The box of a text shape follows its text, as in Excalidraw and tldraw: as it is typed (or pasted)
// its width is the widest line's and its height its lines'. Every text used to keep the 240×40 box
// it was placed with, whatever it held, so a click 180 units right of a two-letter "Hi" selected it
// and a tap on a shape under that empty part picked the text instead (a user trial).
//
// The stored box is what changes (not only hit tests and the outline), so everyone, the export, the
// minimap and the content API's read_board see the same box. The model has no "auto size" field,
// so a text follows its text while its box is the one it would be given (its fitted width) or the
// old default width holding no wrapped line; a text someone resized to another width keeps that
// width and wraps inside it, as a tldraw text does once resized. Only the person typing writes the
// new size (TextEditor, on their own input), as the height already was, so two people typing in one
// text each write the size of the whole text they see and no one else's client rewrites it.
// Pure, so it is tested in Node with an estimated measure.

import { defaultShapeSize, type FontSize, type ShapeRecord } from '@tandem/shared';
import { baseFontSize, layoutText, type Measure } from './textLayout.ts';

/** The narrowest text box, so an empty or one-letter text is still there to click. */
export const MIN_TEXT_W = 24;
/** The lowest text box: one line of the default size and its padding. */
export const MIN_TEXT_H = 40;
/** The text box's padding left and right (shared textLayout's `pad` for a text shape). */
const PAD_X = 4;
/** Two units of slack: a width measured by another browser may differ by a fraction. */
const SLACK = 2;

type TextBox = Pick<ShapeRecord, 'w' | 'h'> & { text?: string | undefined; fontSize?: FontSize | undefined };

/** The width a text's box needs to hold its every line unwrapped (at least MIN_TEXT_W). */
export function fittedTextW(s: Pick<TextBox, 'text' | 'fontSize'>, measure: Measure): number {
  const size = baseFontSize({ type: 'text', fontSize: s.fontSize });
  let widest = 0;
  for (const line of (s.text ?? '').split('\n')) widest = Math.max(widest, measure(line, size));
  return Math.max(MIN_TEXT_W, Math.ceil(widest) + 2 * PAD_X + 1);
}

/**
 * Whether a text's width follows its text: it is the width it was fitted to, or the old default
 * width (texts placed before, or by the content API without a size) with no line wrapped in it.
 */
export function followsItsText(s: TextBox, measure: Measure): boolean {
  const fit = fittedTextW(s, measure);
  if (Math.abs(s.w - fit) <= SLACK) return true;
  return s.w === defaultShapeSize.text.w && fit <= s.w + SLACK;
}

/** The height that shows every line of `s` at its width (at least MIN_TEXT_H). */
export function textHeight(s: TextBox, measure: Measure): number {
  const l = layoutText({ ...s, type: 'text' }, measure);
  return Math.max(MIN_TEXT_H, Math.ceil(l.lines.length * l.lineHeight + 2 * l.padY));
}

/**
 * The box of text `s` once its text is `text`: a text that follows its text gets the fitted width,
 * one with a width of its own keeps it; either way the height holds every line.
 */
export function textBoxFor(s: TextBox, text: string, measure: Measure): { w: number; h: number } {
  const w = followsItsText(s, measure) ? fittedTextW({ ...s, text }, measure) : s.w;
  return { w, h: textHeight({ ...s, w, text }, measure) };
}
