// Fonts inside an exported SVG. A picture drawn from an SVG (PNG and PDF exports) cannot reach the
// page's fonts or fetch any, so the faces the shapes use travel inside the file as data URLs: the
// file, and the PNG made from it, show the same letters as the canvas.
import caveat from '@fontsource-variable/caveat/files/caveat-latin-wght-normal.woff2?url';
import inter from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url';
import mono from '@fontsource-variable/jetbrains-mono/files/jetbrains-mono-latin-wght-normal.woff2?url';
import type { FontFamily, ShapeRecord } from '@tandem/shared';
import { blobToDataUrl } from '../images/upload.ts';

const faces: Record<FontFamily, { family: string; url: string }> = {
  sans: { family: 'Inter Variable', url: inter },
  hand: { family: 'Caveat Variable', url: caveat },
  mono: { family: 'JetBrains Mono Variable', url: mono },
};

const dataUrl = async (url: string): Promise<string> => blobToDataUrl(await (await fetch(url)).blob());

/** @font-face rules for the fonts the text of `shapes` uses, and `also` (Latin faces), as data URLs. */
export async function fontFacesFor(shapes: ShapeRecord[], also: FontFamily[] = []): Promise<string> {
  const used = new Set<FontFamily>(also);
  for (const s of shapes) {
    if (s.text) used.add(s.fontFamily ?? 'sans');
    // A frame's title is always set in the sans stack (shared render/svg.ts frameTitleSvg).
    if (s.type === 'frame') used.add('sans');
  }
  const rules = await Promise.all(
    [...used].map(async (f) => {
      const { family, url } = faces[f];
      return `@font-face{font-family:"${family}";font-weight:100 900;src:url(${await dataUrl(url)}) format("woff2")}`;
    }),
  );
  return rules.join('');
}
