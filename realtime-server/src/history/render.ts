// A board drawn as SVG, apart from history/board.ts: the shared renderer (roughjs, perfect-freehand)
// is loaded only by the history worker thread (history/inline.ts), not by the main thread, which
// imports board.ts for authorsOf and IncompleteLogError.
import { exportBoard } from '@tandem/shared';
import { boardSvg, shapesToDraw } from '@tandem/shared/render/board.ts';
import { imageMarker } from '@tandem/shared/render/images.ts';
import { docOfParts } from './board.ts';

/** An image the drawing shows, and the widest it is drawn there, in board units. */
export interface DrawnImage {
  assetId: string;
  width: number;
}

export interface RenderedSvg {
  /** Each image drawn with its `imageMarker` href, for `fillImages` to give its bytes. */
  svg: string;
  /** The images drawn, in paint order, each once. */
  images: DrawnImage[];
}

/**
 * A board (its parts: one page's document) drawn as SVG by the shared renderer (docs/api.md §16),
 * the one the client's export uses: `board.svg`, and `board.png` rasterised from it. The worker
 * cannot read the asset store, so images are drawn as markers and listed; the caller fills them in.
 */
export function renderSvg(parts: Uint8Array[], options: { frame?: string | undefined } = {}): RenderedSvg {
  const doc = docOfParts(parts);
  const { board } = exportBoard(doc);
  doc.destroy();
  const widths = new Map<string, number>();
  for (const s of shapesToDraw(board.shapes, options.frame)) {
    if (s.type !== 'image' || !s.assetId) continue;
    widths.set(s.assetId, Math.max(widths.get(s.assetId) ?? 0, s.w));
  }
  const images = new Map([...widths.keys()].map((id) => [id, imageMarker(id)]));
  return {
    svg: boardSvg(board, { frame: options.frame, images }).svg,
    images: [...widths].map(([assetId, width]) => ({ assetId, width })),
  };
}
