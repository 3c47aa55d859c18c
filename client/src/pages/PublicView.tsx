// A board watched through a public link (docs/api.md §16): `/p/:token` full page, `/embed/:token`
// for another site's iframe (minimal chrome: zoom, fit, "Open in Tandem"; `?page=` shows that page,
// `?frame=` one frame). A page the board does not list (deleted, mistyped) falls back to the first.
// The full page lists the board's pages to switch between (the embed shows the one it was given).
// No account, no guest name: the page asks for a read-only access token with the link, opens the
// document channel with it and draws the board with the shared renderer (the one the export and
// the server's board.svg use) on every change. It sends no presence and is sent none. Images are
// loaded by the link (`/api/public/:token/assets/:id`, read while the link is active), so their
// URLs do not change as the access token is renewed.
import {
  apiPaths,
  CloseCode,
  DOCUMENT_PATH,
  docKey,
  exportBoard,
  linkPages,
  MAIN_PAGE_ID,
  type PublicTokenAnswer,
} from '@tandem/shared';
import { boardSvg } from '@tandem/shared/render/board.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { ApiError, api } from '../api/client.ts';
import { layoutOf } from '../board/canvas/measure.ts';
import { loadFonts } from '../board/drawing/fonts.ts';
import { pageLabel } from '../board/pages/model.ts';
import { wsOrigin } from '../board/sync/provider.ts';
import { navigate } from '../router.tsx';
import { PublicImageUrls } from './publicImages.ts';
import './publicView.css';

type Status = 'loading' | 'live' | 'reconnecting' | 'gone';

/** How long after a refused token (429, offline, a server error) the view asks again. */
const TOKEN_RETRY_MS = 15_000;

interface Props {
  token: string;
  embed: boolean;
  frame: string | null;
  /** `?page=`: the page shown (docs/api.md §17); none is the first page. */
  page: string | null;
}

export function PublicView({ token, embed, frame, page }: Props) {
  const [status, setStatus] = useState<Status>('loading');
  // The page drawn: the one asked for, until the server says the board does not list it.
  const [shownPage, setShownPage] = useState(page || MAIN_PAGE_ID);
  const [fellBack, setFellBack] = useState(false);
  useEffect(() => {
    setShownPage(page || MAIN_PAGE_ID);
    setFellBack(false);
  }, [page]);
  const [title, setTitle] = useState('');
  // The board's pages, as the server listed them with the last token (read again on each switch).
  const [pages, setPages] = useState<PublicTokenAnswer['pages']>([]);
  const [svg, setSvg] = useState<{ markup: string; width: number; height: number } | null>(null);
  const [zoom, setZoom] = useState<number | null>(null);
  const stage = useRef<HTMLDivElement>(null);
  // The stage's size, so "Fit" follows the window (and the iframe) as it is resized.
  const [, setStageSize] = useState('');
  useEffect(() => {
    const el = stage.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setStageSize(`${el.clientWidth}x${el.clientHeight}`));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const doc = new Y.Doc();
    let provider: WebsocketProvider | null = null;
    let stopped = false;
    let frameRequest = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const imageUrls = new PublicImageUrls(token);
    const draw = () => {
      frameRequest = 0;
      const { board } = exportBoard(doc);
      const images = imageUrls.hrefs(board.shapes, globalThis.devicePixelRatio || 1);
      const out = boardSvg(board, { frame: frame ?? undefined, layout: layoutOf, images });
      setSvg({ markup: out.svg, width: out.width, height: out.height });
    };
    const schedule = () => {
      if (!frameRequest) frameRequest = requestAnimationFrame(draw);
    };
    doc.on('update', schedule);
    // A fresh token for each connection: an access token lasts 15 minutes, and the server closes
    // the connection with 4401 when it expires; a revoked link answers 404 (the view ends).
    const connect = async () => {
      try {
        const answer = await api.publicToken(token);
        if (stopped) return;
        setTitle(answer.title);
        setPages(answer.pages);
        if (!provider) {
          // Drawn once before any update arrives: an empty board has none to schedule it.
          schedule();
          provider = new WebsocketProvider(
            `${wsOrigin()}${DOCUMENT_PATH}`,
            docKey(answer.boardId, shownPage),
            doc,
            {
              disableBc: true,
              params: { token: answer.token },
              connect: false,
            },
          );
          // Nobody sees an anonymous viewer's presence: send none.
          provider.awareness.setLocalState(null);
          provider.on('sync', (synced: boolean) => synced && setStatus('live'));
          provider.on('connection-close', (event: { code: number } | null) => {
            if (!event || stopped) return;
            if (event.code === CloseCode.NO_SUCH_BOARD && shownPage !== MAIN_PAGE_ID) {
              // Not a page of this board (any more): show the first page, and say so.
              provider!.shouldConnect = false;
              setFellBack(true);
              setShownPage(MAIN_PAGE_ID);
            } else if (event.code === CloseCode.NO_ACCESS || event.code === CloseCode.NO_SUCH_BOARD) {
              provider!.shouldConnect = false;
              setStatus('gone');
            } else if (event.code === CloseCode.NOT_AUTHENTICATED) {
              provider!.shouldConnect = false;
              setStatus('reconnecting');
              void connect();
            } else setStatus('reconnecting');
          });
        } else provider.params = { token: answer.token };
        provider.connect();
      } catch (error) {
        if (stopped) return;
        // Only a revoked or unknown link (404) ends the view; a rate limit (429), a network or a
        // server error is waited out.
        if (error instanceof ApiError && error.status === 404) setStatus('gone');
        else {
          setStatus('reconnecting');
          retry = setTimeout(() => void connect(), TOKEN_RETRY_MS);
        }
      }
    };
    void loadFonts().then(() => {
      if (!stopped) void connect();
    });
    return () => {
      stopped = true;
      clearTimeout(retry);
      if (frameRequest) cancelAnimationFrame(frameRequest);
      provider?.destroy();
      doc.destroy();
    };
  }, [token, frame, shownPage]);

  const fitZoom = useCallback(() => {
    const el = stage.current;
    if (!el || !svg) return 1;
    // Inside the stage's padding (8 px a side). A stage with no room yet (its page not laid out:
    // hidden while it loads) gave a negative scale, an invalid SVG width; it is drawn at 1 until
    // the ResizeObserver above sees its size and fits it.
    const room = { w: el.clientWidth - 16, h: el.clientHeight - 16 };
    if (room.w <= 0 || room.h <= 0) return 1;
    return Math.min(2, room.w / svg.width, room.h / svg.height);
  }, [svg]);
  const scale = zoom ?? fitZoom();
  const pageQuery = shownPage === MAIN_PAGE_ID ? '' : `?page=${encodeURIComponent(shownPage)}`;
  const openHref = `${linkPages.publicView(token)}${pageQuery}`;

  if (status === 'gone')
    return (
      <main className="public-view gone">
        <p>This board is no longer shared. Ask its owner for a new link.</p>
      </main>
    );
  return (
    <main className={`public-view${embed ? ' embed' : ''}`} data-status={status}>
      <header className="public-bar">
        {!embed && <strong className="public-title">{title}</strong>}
        {!embed && pages.length > 1 && (
          <select
            className="public-page"
            aria-label="Page"
            value={shownPage}
            onChange={(e) => {
              const id = e.target.value;
              navigate(
                `${linkPages.publicView(token)}${id === MAIN_PAGE_ID ? '' : `?page=${encodeURIComponent(id)}`}`,
              );
            }}
          >
            {pages.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {pageLabel(entry)}
              </option>
            ))}
          </select>
        )}
        <span className="public-live" aria-live="polite">
          {status === 'live' ? 'Live' : status === 'loading' ? 'Loading…' : 'Reconnecting…'}
        </span>
        <span className="public-tools">
          <button
            type="button"
            className="btn small"
            aria-label="Zoom out"
            onClick={() => setZoom(scale / 1.25)}
          >
            −
          </button>
          <button type="button" className="btn small" onClick={() => setZoom(null)}>
            Fit
          </button>
          <button
            type="button"
            className="btn small"
            aria-label="Zoom in"
            onClick={() => setZoom(scale * 1.25)}
          >
            +
          </button>
          {embed && (
            <a className="btn small primary" href={openHref} target="_blank" rel="noopener">
              Open in Tandem
            </a>
          )}
        </span>
      </header>
      {fellBack && (
        <p className="public-notice" role="status">
          This page is no longer on the board, so its first page is shown.
        </p>
      )}
      <div className="public-stage" ref={stage}>
        {svg && (
          <div
            className="public-board"
            style={{ width: svg.width * scale, height: svg.height * scale }}
            // The shared renderer's output: shapes that passed the schema, every text escaped.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: our own renderer's SVG
            dangerouslySetInnerHTML={{
              __html: svg.markup.replace(
                /^<svg ([^>]*?)width="\d+" height="\d+"/,
                `<svg $1width="${svg.width * scale}" height="${svg.height * scale}"`,
              ),
            }}
          />
        )}
      </div>
      <a className="public-image-link" href={`${apiPaths.publicSvg(token)}${pageQuery}`} hidden>
        image
      </a>
    </main>
  );
}
