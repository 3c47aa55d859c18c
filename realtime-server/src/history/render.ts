// A board drawn as SVG, apart from history/board.ts: the shared renderer (roughjs, perfect-freehand)
// is loaded only by the history worker thread (history/inline.ts), not by the main thread, which
// imports board.ts for authorsOf and IncompleteLogError.
import { exportBoard } from '@tandem/shared';
import { boardSvg } from '@tandem/shared/render/board.ts';
import { docOfParts } from './board.ts';

/**
 * A board (its parts) drawn as SVG by the shared renderer (docs/api.md §16), the one the client's
 * export uses: `board.svg`, and `board.png` rasterised from it.
 */
export function renderSvg(parts: Uint8Array[], options: { frame?: string | undefined } = {}): string {
  const doc = docOfParts(parts);
  const { board } = exportBoard(doc);
  doc.destroy();
  return boardSvg(board, { frame: options.frame }).svg;
}
