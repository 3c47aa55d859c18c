// The HTTP side of a document connection: what an upgrade request asks for, and how one is refused
// before the WebSocket handshake.
import type { Duplex } from 'node:stream';
import { DOCUMENT_PATH, MAIN_PAGE_ID } from '@tandem/shared';

const DOC_PATH_PREFIX = `${DOCUMENT_PATH}/`;

/** Answers an upgrade request with a bodiless HTTP error and closes the socket. */
export function refuseUpgrade(socket: Duplex, status: number, statusText: string): void {
  socket.on('error', () => undefined);
  if (socket.writable) {
    socket.end(`HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  } else socket.destroy();
}

export type DocumentTarget =
  | { boardId: string; pageId: string; token: string | null }
  | 'not-ours'
  | 'malformed';

/**
 * What an upgrade's request target asks for. Never throws: a target that `URL` or percent-decoding
 * cannot read is 'malformed' (a 400), whatever bytes a client sent.
 */
export function parseDocumentTarget(rawUrl: string | undefined): DocumentTarget {
  let url: URL;
  try {
    url = new URL(rawUrl ?? '/', 'http://localhost');
  } catch {
    return rawUrl?.includes(DOC_PATH_PREFIX) ? 'malformed' : 'not-ours';
  }
  if (!url.pathname.startsWith(DOC_PATH_PREFIX)) return 'not-ours';
  try {
    // `/yjs/:boardId` is the board's first page, `/yjs/:boardId/:pageId` another (docs/api.md §17).
    const [board = '', page, ...rest] = url.pathname.slice(DOC_PATH_PREFIX.length).split('/');
    if (rest.length > 0) return 'malformed';
    const boardId = decodeURIComponent(board);
    const pageId = page === undefined ? MAIN_PAGE_ID : decodeURIComponent(page);
    return { boardId, pageId, token: url.searchParams.get('token') };
  } catch {
    return 'malformed';
  }
}
