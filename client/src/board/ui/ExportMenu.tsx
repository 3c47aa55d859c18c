// Export the page shown or the selection as PNG, SVG or PDF, every page (docs/api.md §17) as PDF,
// PNG or SVG, the board as JSON; import a board's JSON.

import { type PageExport, withPageList } from '@tandem/shared';
import { useEffect, useRef } from 'react';
import { api } from '../../api/client.ts';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { toSvg } from '../canvas/svgExport.ts';
import { matchesCommand } from '../commandKeys.ts';
import { fontFacesFor } from '../drawing/fontEmbed.ts';
import { withFrameMembers } from '../facilitation/frames.ts';
import { imagesOf, uploadImported, withImages } from '../images/transfer.ts';
import { exportBoard, insertRecordsInPieces, parseShapes } from '../model/clipboard.ts';
import { unionRect } from '../model/geometry.ts';
import { addPage, readPages, renamePage } from '../pages/model.ts';
import { withPageDoc } from '../pages/pageDocs.ts';
import { everyPagePdf, everyPageSvg, readEveryPage } from '../pages/pagesExport.ts';
import { inDialogOrMenu, isTyping, onKeydown } from '../shortcuts.ts';
import { fitRect, useEditor } from '../store.ts';
import type { BoardSession } from '../sync/provider.ts';
import { download, picturesPdf, safeName, svgToPng } from './download.ts';
import { Icon } from './icons.tsx';
import { importInPieces } from './importInPieces.ts';
import { useMenu } from './useMenuDismiss.ts';

interface Props {
  boardId: string;
  session: BoardSession;
  /**
   * The board's first document (the page list, docs/api.md §17) and the page shown: with them the
   * JSON export carries every page and an import brings pages back as pages.
   */
  pages?: { boardSession: BoardSession; pageId: string; count: number };
  index: ShapeIndex;
  title: string;
  userId: string;
  readOnly: boolean;
  onMessage(sentence: string): void;
}

type ChosenShapes = ReturnType<typeof chosenShapes>;

// A frame selected brings what lies inside it, as moving, copying or deleting it does: the
// selection's picture of a frame was its outline and title alone.
function chosenShapes(session: BoardSession, index: ShapeIndex, selectionOnly: boolean) {
  const snap = index.getSnapshot();
  const sel = new Set(withFrameMembers(session.doc, useEditor.getState().selection));
  const list = snap.list.map((e) => e.rec).filter((r) => !selectionOnly || sel.has(r.id));
  return { list, byId: snap.byId };
}

/** The picture of the chosen shapes, images and fonts inside it, as every export draws it. */
const pictureOf = async (boardId: string, { list, byId }: ChosenShapes) =>
  toSvg(list, byId, 32, await imagesOf(boardId, list), await fontFacesFor(list));

/**
 * The selection, else the page shown (`whole`: "page" or "board"), onto the clipboard as a PNG
 * (Shift+Alt+C, as in Excalidraw; the Export menu's and the context menu's Copy as PNG): pasted
 * straight into a chat or a document, with no file in between.
 */
export async function copyAsPng(
  boardId: string,
  session: BoardSession,
  index: ShapeIndex,
  whole: string,
  onMessage: (sentence: string) => void,
): Promise<void> {
  const selectionOnly = useEditor.getState().selection.length > 0;
  const shapes = chosenShapes(session, index, selectionOnly);
  if (shapes.list.length === 0) return onMessage('There is nothing to copy yet.');
  if (typeof ClipboardItem === 'undefined' || !navigator.clipboard?.write)
    return onMessage('This browser cannot put pictures on the clipboard. Export as PNG instead.');
  try {
    // The item is made at once with a promise of its bytes: Safari refuses a clipboard write
    // that starts after an await, outside the click that asked for it.
    const png = pictureOf(boardId, shapes).then(({ svg, width, height }) => svgToPng(svg, width, height));
    await navigator.clipboard.write([new ClipboardItem({ 'image/png': png })]);
    onMessage(selectionOnly ? 'Copied the selection as a picture.' : `Copied the ${whole} as a picture.`);
  } catch {
    onMessage('The picture could not be copied: the browser refused. Export as PNG instead.');
  }
}

export function ExportMenu({ boardId, session, pages, index, title, userId, readOnly, onMessage }: Props) {
  const { open, setOpen, wrap, trigger } = useMenu<HTMLDivElement>();
  const file = useRef<HTMLInputElement>(null);
  const hasSelection = useEditor((s) => s.selection.length > 0);
  // On a board of several pages, "Page as …" is the page shown and "All pages as …" every page.
  const several = (pages?.count ?? 1) > 1;
  const shown = several ? 'Page' : 'Board';

  const chosen = (selectionOnly: boolean) => chosenShapes(session, index, selectionOnly);
  const picture = (shapes: ChosenShapes) => pictureOf(boardId, shapes);
  const image = async (kind: 'png' | 'svg' | 'pdf', selectionOnly: boolean) => {
    setOpen(false);
    const shapes = chosen(selectionOnly);
    if (shapes.list.length === 0) return onMessage('There is nothing to export yet.');
    const { svg, width, height } = await picture(shapes);
    const name = `${safeName(title)}${selectionOnly ? '-selection' : ''}`;
    if (kind === 'pdf') {
      const pdf = await picturesPdf([{ svg, width, height }]);
      if (pdf) download(`${name}.pdf`, pdf);
      return;
    }
    if (kind === 'svg') download(`${name}.svg`, new Blob([svg], { type: 'image/svg+xml' }));
    else {
      try {
        download(`${name}.png`, await svgToPng(svg, width, height));
      } catch {
        onMessage('The PNG could not be made in this browser. Try SVG instead.');
      }
    }
  };
  const copyPng = async () => {
    setOpen(false);
    await copyAsPng(boardId, session, index, shown.toLowerCase(), onMessage);
  };
  const copyRef = useRef(copyPng);
  copyRef.current = copyPng;
  useEffect(
    () =>
      onKeydown((e) => {
        if (!matchesCommand(e, 'copyPng')) return;
        if (isTyping(e.target) || inDialogOrMenu(e.target, false)) return;
        e.preventDefault();
        void copyRef.current();
      }),
    [],
  );
  /** Every page's shapes, in order (pages/pagesExport.ts); null when a page could not be read. */
  const everyPage = async (): Promise<PageExport[] | null> => {
    if (!pages) return [];
    try {
      return await readEveryPage(boardId, session, pages.boardSession, pages.pageId);
    } catch {
      return null;
    }
  };
  const unreadable = () =>
    onMessage('A page could not be read from the server, so nothing was exported. Try again.');
  /** Every page as PDF (one PDF page each), or as one SVG or PNG with the pages one under another. */
  const allPages = async (kind: 'pdf' | 'png' | 'svg') => {
    setOpen(false);
    const read = await everyPage();
    if (!read) return unreadable();
    const name = `${safeName(title)}-pages`;
    if (kind === 'pdf') {
      const pdf = await everyPagePdf(boardId, read);
      if (pdf) download(`${name}.pdf`, pdf);
      return;
    }
    const { svg, width, height } = await everyPageSvg(boardId, read);
    if (kind === 'svg') return download(`${name}.svg`, new Blob([svg], { type: 'image/svg+xml' }));
    try {
      download(`${name}.png`, await svgToPng(svg, width, height));
    } catch {
      onMessage('The PNG could not be made in this browser. Try SVG instead.');
    }
  };
  const json = async () => {
    setOpen(false);
    const read = await everyPage();
    if (!read) return unreadable();
    const first = exportBoard((pages?.boardSession ?? session).doc);
    const board = await withImages(boardId, withPageList(first, read));
    // The comment threads (docs/api.md §18) are on the server: carried when it can be reached.
    const threads = await api.threads(boardId).then(
      (answer) => answer.threads,
      () => null,
    );
    if (!threads) onMessage('Exported without its comments: they could not be read from the server.');
    const data = threads ? { ...board, threads } : board;
    download(
      `${safeName(title)}.json`,
      new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
    );
  };
  const onFile = async (f: File | undefined) => {
    if (!f) return;
    setOpen(false);
    let data: unknown;
    try {
      data = JSON.parse(await f.text());
    } catch {
      return onMessage('That file is not JSON. Choose a board exported from Tandem.');
    }
    const images = await uploadImported(boardId, data);
    const parsed = parseShapes(images.data);
    if (!parsed) return onMessage('That file is not a Tandem board export.');
    const ids = await importInPieces(session, parsed.shapes, userId);
    // An export of several pages (docs/api.md §17): its first page goes into the page shown, as a
    // one-page export does, and each other page becomes a new page after the last one.
    let added = 0;
    if (pages && parsed.pages) {
      const { boardSession, pageId } = pages;
      const [first, ...rest] = parsed.pages;
      const shown = readPages(boardSession.doc).find((p) => p.id === pageId);
      if (first?.name && shown && !shown.name) renamePage(boardSession.doc, pageId, first.name);
      let after = readPages(boardSession.doc).at(-1)?.id;
      for (const page of rest) {
        const id = addPage(boardSession.doc, page.name, after);
        if (!id) {
          onMessage(
            `The board is full: ${rest.length - added} page${rest.length - added === 1 ? ' was' : 's were'} not imported.`,
          );
          break;
        }
        after = id;
        try {
          await withPageDoc(boardId, id, { userId, readOnly: false }, (s) =>
            insertRecordsInPieces(s.doc, page.shapes, userId),
          );
        } catch {
          return onMessage(
            `Page "${page.name || id}" could not be written: the server could not be reached.`,
          );
        }
        added++;
      }
    }
    // The view moves to what was imported (it may lie far from what was on screen).
    const snap = index.getSnapshot();
    const set = new Set(ids);
    const box = unionRect(snap.list.filter((e) => set.has(e.rec.id)).map((e) => e.bounds));
    const st = useEditor.getState();
    if (box) st.setViewport(fitRect(box, st.screen));
    onMessage(
      `Imported ${ids.length} shape${ids.length === 1 ? '' : 's'}${added ? ` and ${added} more page${added === 1 ? '' : 's'}` : ''}${parsed.skipped ? `; skipped ${parsed.skipped} that did not match the format` : ''}.${images.failed ? ` ${images.failed} image${images.failed === 1 ? '' : 's'} could not be added: ${images.reason}` : ''}`,
    );
  };

  return (
    <div className="menu-wrap" ref={wrap}>
      <button {...trigger} className="btn ghost" aria-label="Export" title="Export">
        <Icon name="download" size={18} /> <span className="label">Export</span>
      </button>
      {open && (
        <div className="menu panel" role="menu">
          <button type="button" role="menuitem" onClick={() => image('png', false)}>
            {shown} as PNG
          </button>
          <button type="button" role="menuitem" onClick={() => image('svg', false)}>
            {shown} as SVG
          </button>
          <button type="button" role="menuitem" onClick={() => image('pdf', false)}>
            {shown} as PDF
          </button>
          <button
            type="button"
            role="menuitem"
            title="Shift+Alt+C"
            aria-keyshortcuts="Shift+Alt+C"
            onClick={() => void copyPng()}
          >
            {hasSelection ? 'Copy selection as PNG' : `Copy ${shown.toLowerCase()} as PNG`}
          </button>
          <button type="button" role="menuitem" disabled={!hasSelection} onClick={() => image('png', true)}>
            Selection as PNG
          </button>
          <button type="button" role="menuitem" disabled={!hasSelection} onClick={() => image('svg', true)}>
            Selection as SVG
          </button>
          {several && (
            <>
              <hr />
              <button type="button" role="menuitem" onClick={() => void allPages('pdf')}>
                All pages as PDF
              </button>
              <button type="button" role="menuitem" onClick={() => void allPages('png')}>
                All pages as PNG
              </button>
              <button type="button" role="menuitem" onClick={() => void allPages('svg')}>
                All pages as SVG
              </button>
              <hr />
            </>
          )}
          <button type="button" role="menuitem" onClick={() => void json()}>
            Board as JSON
          </button>
          {!readOnly && (
            <button type="button" role="menuitem" onClick={() => file.current?.click()}>
              Import JSON…
            </button>
          )}
        </div>
      )}
      <input
        ref={file}
        type="file"
        accept="application/json,.json"
        hidden
        aria-label="Import JSON file"
        onChange={(e) => {
          void onFile(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </div>
  );
}
