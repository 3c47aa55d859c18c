// Every page of a board at once (docs/api.md §17): "Board as JSON" and "All pages as PDF/PNG/SVG".
// A page that is not open here is read from the server's export.json (the board as stored, every
// page, one request) rather than by opening its document: opening it would load it into a Room,
// show the exporter on that page to everyone there for a moment, and keep an IndexedDB copy of a
// page never visited. The page shown and the first page are read from their open documents, so
// an edit not yet stored is in the file. Pictures are drawn by the one renderer
// (shared/src/render/svg.ts, through canvas/svgExport.ts), each page on its own, then stacked.
import { MAIN_PAGE_ID, type PageExport, type ShapeRecord } from '@tandem/shared';
import { type StackedPart, stackSvgs } from '@tandem/shared/render/svg.ts';
import { api } from '../../api/client.ts';
import { toSvg } from '../canvas/svgExport.ts';
import { fontFacesFor } from '../drawing/fontEmbed.ts';
import { imagesOf } from '../images/transfer.ts';
import { exportBoard, validRecords } from '../model/clipboard.ts';
import type { BoardSession } from '../sync/provider.ts';
import { picturesPdf } from '../ui/download.ts';
import { pageLabel, readPages } from './model.ts';

/** Each stored page's records by page id, from the server's export.json. */
async function storedPages(boardId: string): Promise<Map<string, ShapeRecord[]>> {
  const answer = (await api.boardExport(boardId)) as { shapes?: unknown; pages?: unknown };
  const out = new Map<string, ShapeRecord[]>();
  // A board of one page as stored has no `pages`: its `shapes` are its first page's.
  if (Array.isArray(answer.shapes)) out.set(MAIN_PAGE_ID, validRecords(answer.shapes).shapes);
  for (const raw of Array.isArray(answer.pages) ? answer.pages : []) {
    const { id, shapes } = (raw ?? {}) as { id?: unknown; shapes?: unknown };
    if (typeof id === 'string' && Array.isArray(shapes)) out.set(id, validRecords(shapes).shapes);
  }
  return out;
}

/**
 * Every page in the board's order, with its records in paint order. The list is the one this
 * browser shows; a page listed here that the server has not stored yet is empty. Throws when the
 * server cannot be reached and a page is not open here.
 */
export async function readEveryPage(
  boardId: string,
  shown: BoardSession,
  first: BoardSession,
  pageId: string,
): Promise<PageExport[]> {
  const list = readPages(first.doc);
  const open = (id: string) => (id === pageId ? shown : id === MAIN_PAGE_ID ? first : null);
  const stored = list.some((page) => !open(page.id)) ? await storedPages(boardId) : new Map();
  return list.map((page) => {
    const session = open(page.id);
    return {
      id: page.id,
      name: page.name,
      shapes: session ? exportBoard(session.doc).shapes : (stored.get(page.id) ?? []),
    };
  });
}

/** Each page's picture under its name (pageLabel's, as the Pages panel shows it), and the fonts they use. */
async function pictures(
  boardId: string,
  pages: PageExport[],
): Promise<{ parts: StackedPart[]; style: string }> {
  const all = pages.flatMap((page) => page.shapes);
  const [images, style] = await Promise.all([imagesOf(boardId, all), fontFacesFor(all, ['sans'])]);
  const parts = pages.map((page, i) => {
    const byId = new Map(page.shapes.map((s) => [s.id, s]));
    // Each page's ids are its own (`p0-`, `p1-`…): the pages share one file.
    const { svg, width, height } = toSvg(page.shapes, byId, 32, images, '', `p${i}-`);
    return { heading: pageLabel(page), svg, width, height };
  });
  return { parts, style };
}

/**
 * Every page as one SVG (and the PNG drawn from it): the pages one under the other, in order,
 * each under its name. One file, as a browser saves one download per click, and a zip would take
 * a library.
 */
export async function everyPageSvg(boardId: string, pages: PageExport[]) {
  const { parts, style } = await pictures(boardId, pages);
  return stackSvgs(parts, style);
}

/** Every page as a PDF, one PDF page per board page, each under its name and of its own size. */
export async function everyPagePdf(boardId: string, pages: PageExport[]): Promise<Blob | null> {
  const { parts, style } = await pictures(boardId, pages);
  return picturesPdf(parts.map((part) => stackSvgs([part], style)));
}
