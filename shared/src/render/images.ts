// How an image is written in the SVG the shared renderer draws (svg.ts), and how the server fills
// in images drawn as markers (docs/api.md §16). Apart from svg.ts so that the server's main thread,
// which fills them in, does not load the renderer (roughjs, perfect-freehand): it runs in the
// history worker thread.

/** Escapes text and attribute values. */
export const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An image drawn with its bytes (a data URL, so the file stands alone). */
export const imageElement = (href: string, w: number | string, h: number | string): string =>
  `<image href="${esc(href)}" width="${w}" height="${h}" preserveAspectRatio="none"/>`;
/** What an image without its bytes is drawn as: a grey box of its size. */
export const imagePlaceholder = (w: number | string, h: number | string): string =>
  `<rect width="${w}" height="${h}" fill="#eef0f3"/>`;

const IMAGE_MARKER = 'tandem-asset:';
/**
 * A stand-in href for an image whose bytes are filled in after drawing (fillImages): the server
 * draws in a worker thread, which cannot read the asset store, and only then knows which images,
 * at what size, it needs.
 */
export const imageMarker = (assetId: string): string => `${IMAGE_MARKER}${assetId}`;
const markedImage = new RegExp(
  `<image href="${IMAGE_MARKER}([^"]*)" width="([^"]*)" height="([^"]*)" preserveAspectRatio="none"/>`,
  'g',
);

/**
 * An SVG drawn with `imageMarker` hrefs, with each marked image given its href (a data URL) from
 * `hrefs` (by asset id), or drawn as the placeholder when `hrefs` has none for it. Pure.
 */
export function fillImages(svg: string, hrefs: ReadonlyMap<string, string>): string {
  return svg.replace(markedImage, (_whole, id: string, w: string, h: string) => {
    const href = hrefs.get(id);
    return href ? imageElement(href, w, h) : imagePlaceholder(w, h);
  });
}
