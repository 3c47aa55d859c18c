// The three text fonts (docs/api.md §10 `fontFamily`), bundled with the client and served by
// Tandem itself: no third-party CDN, and the same glyphs on every screen, so a note wraps alike
// for everyone. Text is measured only after they have loaded (see loadFonts).
import type { FontFamily } from '@tandem/shared';

export { fontStacks } from '@tandem/shared/render/fonts.ts';

/** The bundled face of each family, as FontFaceSet.load names it. */
const bundledFaces: Record<FontFamily, string> = {
  sans: '"Inter Variable"',
  hand: '"Caveat Variable"',
  mono: '"JetBrains Mono Variable"',
};

/**
 * Loads the bundled faces (their @font-face rules come from the @fontsource packages imported by
 * main.tsx). Browsers fetch a face only once some text uses it, and a canvas measuring with a face
 * not yet loaded silently measures the fallback: the board waits for this before laying text out.
 */
export async function loadFonts(): Promise<void> {
  if (typeof document === 'undefined' || !document.fonts) return;
  await Promise.all(
    Object.values(bundledFaces).map((face) =>
      // A face that fails to load leaves its fallback in use; the board still opens.
      document.fonts.load(`16px ${face}`).catch(() => []),
    ),
  );
}
