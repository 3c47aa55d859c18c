// The three text fonts' CSS stacks (docs/api.md §10 `fontFamily`). The client bundles the faces and
// loads them (client/src/board/drawing/fonts.ts); an SVG names them by these stacks.
import type { FontFamily } from '../shapes.ts';

/** CSS font stacks by family; the first name is the bundled face, the rest only a fallback. */
export const fontStacks: Record<FontFamily, string> = {
  sans: '"Inter Variable", Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  hand: '"Caveat Variable", "Comic Sans MS", cursive',
  mono: '"JetBrains Mono Variable", ui-monospace, Menlo, Consolas, monospace',
};

/**
 * How much larger a family is set than its size asks, so the three read the same size. Caveat is
 * small on its em: measured in Chromium at 100 px, its x-height is 36 px against Inter's 54 and
 * "The quick brown fox jumps over the lazy dog" is 1469 px wide against Inter's 2124 (ratios 1.50
 * and 1.45). At 1.45 the hand font's words are as wide as the sans font's and its small letters as
 * tall within 4 %. Applied where a size is chosen (textLayout's `baseFontSize`), so measuring,
 * wrapping and drawing all use the scaled size and text fits its box in every family.
 * e2e/font-size checks it against the bundled faces.
 */
export const fontScale: Record<FontFamily, number> = { sans: 1, hand: 1.45, mono: 1 };
