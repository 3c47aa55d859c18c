// The client's export: the shared renderer (docs/api.md §16, the same one the server's board.svg
// uses), with text measured by the canvas font (measure.ts) so the file wraps as the screen does.
import type { ShapeRecord } from '@tandem/shared';
import { toSvg as render } from '@tandem/shared/render/svg.ts';
import { layoutOf } from './measure.ts';

export { textColorOf } from '@tandem/shared/render/svg.ts';

/** The SVG document of `shapes` (paint order), cropped to their bounds with a margin. */
export function toSvg(
  shapes: ShapeRecord[],
  all: Map<string, ShapeRecord>,
  margin = 32,
  /** Data URLs of the images shown, by asset id (images/transfer.ts). */
  images: Map<string, string> = new Map(),
  /** `<style>` rules to embed (the fonts, as data URLs: drawing/fontEmbed.ts). */
  style = '',
  /** Prefixes the file's ids, so several pages can sit in one file (pages/pagesExport.ts). */
  idPrefix = '',
): { svg: string; width: number; height: number } {
  return render(shapes, all, { margin, images, style, layout: layoutOf, idPrefix });
}
