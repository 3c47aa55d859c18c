// A record's style resolved to what is drawn: every optional field of docs/api.md §10 replaced by
// its default, so a record saved before the field existed draws exactly as it did.
import {
  type ColorValue,
  colors,
  type FillStyle,
  type FontFamily,
  type Roundness,
  type ShapeRecord,
  type Sloppiness,
  styleDefaults,
} from '../index.ts';
import { ink, tint } from './palette.ts';

export interface ResolvedStyle {
  stroke: string;
  strokeWidth: number;
  dash: NonNullable<ShapeRecord['dash']>;
  /** The fill paint, or 'none'. */
  fill: string;
  /** 'tint' is the look of a record without fill fields: its colour, light, as a solid fill. */
  fillStyle: FillStyle | 'tint';
  opacity: number;
  roundness: Roundness;
  fontFamily: FontFamily;
  sloppiness: Sloppiness;
}

const isName = (c: ColorValue): c is keyof typeof colors => c in colors;
/** An outline colour: a palette name draws in its deeper ink, a custom colour as it is. */
export const strokePaint = (c: ColorValue): string => (isName(c) ? ink[c] : c);
/** A fill colour: a palette name draws in its fill tone, a custom colour as it is. */
export const fillPaint = (c: ColorValue): string => (isName(c) ? colors[c] : c);

export function resolveStyle(s: ShapeRecord): ResolvedStyle {
  const legacyFill = s.fill === undefined && s.fillStyle === undefined;
  const fillStyle: ResolvedStyle['fillStyle'] = legacyFill ? 'tint' : (s.fillStyle ?? 'solid');
  return {
    stroke: s.stroke !== undefined ? strokePaint(s.stroke) : ink[s.color],
    strokeWidth: s.strokeWidth ?? styleDefaults.strokeWidth,
    dash: s.dash ?? styleDefaults.dash,
    fill: fillStyle === 'tint' ? tint(s.color) : fillStyle === 'none' ? 'none' : fillPaint(s.fill ?? s.color),
    fillStyle,
    opacity: s.opacity ?? styleDefaults.opacity,
    roundness: s.roundness ?? styleDefaults.roundness,
    fontFamily: s.fontFamily ?? styleDefaults.fontFamily,
    sloppiness: s.sloppiness ?? styleDefaults.sloppiness,
  };
}

/** A stable seed per shape, from its id: every screen and every export draws the same strokes. */
export function seedOf(id: string): number {
  // FNV-1a, folded into roughjs's seed range (a positive 31-bit integer).
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 1 || 1;
}
