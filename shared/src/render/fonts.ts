// The three text fonts' CSS stacks (docs/api.md §10 `fontFamily`). The client bundles the faces and
// loads them (client/src/board/drawing/fonts.ts); an SVG names them by these stacks.
import type { FontFamily } from '../shapes.ts';

/** CSS font stacks by family; the first name is the bundled face, the rest only a fallback. */
export const fontStacks: Record<FontFamily, string> = {
  sans: '"Inter Variable", Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  hand: '"Caveat Variable", "Comic Sans MS", cursive',
  mono: '"JetBrains Mono Variable", ui-monospace, Menlo, Consolas, monospace',
};
