// Writing a page that is not shown (docs/api.md §17): "Import JSON" writes each imported page into
// its own document. (Exports read such pages from the server's export.json instead, without
// opening them: pagesExport.ts.) A page is opened through the
// same path the Pages panel's pages are (sync/provider.ts: the page's own WebSocket room, its
// IndexedDB copy, the board's credentials), so the server checks access, stores, relays and
// versions the writes exactly as when someone edits the page; no second write path.
import { type BoardSession, openBoard } from '../sync/provider.ts';

/** Resolves once the session has its content from the server; fails when it cannot get it. */
function synced(session: BoardSession): Promise<void> {
  return new Promise((resolve, reject) => {
    if (session.provider.synced) return resolve();
    const stop = session.onConnection((state) => {
      if (state.status === 'live' || state.status === 'read-only') {
        stop();
        resolve();
      } else if (!state.retrying || state.status === 'offline') {
        stop();
        reject(new Error(state.sentence));
      }
    });
  });
}

/** Resolves once the server has confirmed that the session's edits are stored. */
function saved(session: BoardSession): Promise<void> {
  return new Promise((resolve) => {
    if (session.getSaved() === 'saved') return resolve();
    const stop = session.onSaved((status) => {
      if (status !== 'saved') return;
      stop();
      resolve();
    });
  });
}

/**
 * Opens page `pageId` of the board, runs `use` on it once it is synced and, when `use` wrote to
 * it, waits for the server to confirm the writes are stored before closing it.
 */
export async function withPageDoc<T>(
  boardId: string,
  pageId: string,
  opts: { userId: string; readOnly: boolean },
  use: (session: BoardSession) => T | Promise<T>,
): Promise<T> {
  const session = openBoard(boardId, { userId: opts.userId, readOnly: () => opts.readOnly, pageId });
  try {
    await synced(session);
    const result = await use(session);
    if (!opts.readOnly) await saved(session);
    return result;
  } finally {
    session.destroy();
  }
}
