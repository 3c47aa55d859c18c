// Opens one board's page: the y-websocket provider on /yjs/:boardId (the first page) or
// /yjs/:boardId/:pageId (docs/api.md §17), IndexedDB per page for offline edits, and
// the connection state machine. Two deliberate departures from the stock provider:
//  - it sends only this client's own awareness changes (the stock one re-sends every remote change
//    it receives, N² messages on a busy board);
//  - it stops for good on close codes where reconnecting cannot help (docs/api.md §8);
//  - it asks the server to confirm when its edits are stored ("All changes saved", saved.ts), and
//    the page asks before it is left with edits not yet confirmed.

import { CloseCode, DOCUMENT_PATH, docKey, MAIN_PAGE_ID, SAVED_MESSAGE_TYPE } from '@tandem/shared';
import * as decoding from 'lib0/decoding';
import { IndexeddbPersistence } from 'y-indexeddb';
import { Awareness } from 'y-protocols/awareness';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { createUndoManager } from '../model/doc.ts';
import {
  type ConnectionEvent,
  type ConnectionState,
  initialConnection,
  reduceConnection,
  shouldReconnect,
} from './connection.ts';
import { setMessageHandler } from './internals.ts';
import { dropBoardCopies, localStoreName } from './localCopies.ts';
import { sendOnlyOwnAwareness, watchOwnColor } from './ownAwareness.ts';
import { sendInPieces } from './pieces.ts';
import { type SavedStatus, SaveTracker } from './saved.ts';

/** Edits within this long are confirmed with one request (a drag is many edits). */
const ASK_AFTER_MS = 150;
/** While edits are unconfirmed, ask again this often (an answer can be lost with its socket). */
const ASK_AGAIN_MS = 5000;

export interface BoardSession {
  doc: Y.Doc;
  awareness: Awareness;
  provider: WebsocketProvider;
  undo: Y.UndoManager;
  /** Resolves when local (IndexedDB) content is loaded, so an offline reload shows its edits. */
  whenLocal: Promise<void>;
  getConnection(): ConnectionState;
  onConnection(fn: (s: ConnectionState) => void): () => void;
  /** Whether the server has confirmed that this browser's edits are stored. */
  getSaved(): SavedStatus;
  onSaved(fn: (s: SavedStatus) => void): () => void;
  /** The colour the others see this person in (the server's choice), null until it is known. */
  getOwnColor(): string | null;
  onOwnColor(fn: () => void): () => void;
  destroy(): void;
}

export function wsOrigin(): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}`;
}

export function openBoard(
  boardId: string,
  opts: { userId: string; readOnly: () => boolean; pageId?: string },
): BoardSession {
  // The first page keeps the board's own room and local copy, so nothing kept before pages moves.
  const pageId = opts.pageId ?? MAIN_PAGE_ID;
  const key = docKey(boardId, pageId);
  const doc = new Y.Doc();
  const awareness = new Awareness(doc);
  const idb = new IndexeddbPersistence(localStoreName(opts.userId, key), doc);
  let copyLoaded = false;
  void idb.whenSynced.then(() => {
    copyLoaded = true;
  });
  // Set when the server refuses this page as one the board does not list (docs/api.md §17):
  // its local copy is then dropped on destroy if it holds nothing (see destroy).
  let refusedAsUnlisted = false;
  const provider = new WebsocketProvider(`${wsOrigin()}${DOCUMENT_PATH}`, key, doc, {
    awareness,
    disableBc: true,
    shouldReconnect: (event) => shouldReconnect(event.code),
  });
  const stopOwnAwareness = sendOnlyOwnAwareness(provider);
  let ownColor: string | null = null;
  const ownColorListeners = new Set<() => void>();
  watchOwnColor(provider, (color) => {
    if (color === ownColor) return;
    ownColor = color;
    for (const fn of ownColorListeners) fn();
  });
  const stopPieces = sendInPieces(provider);

  let state = initialConnection;
  const listeners = new Set<(s: ConnectionState) => void>();
  const dispatch = (e: ConnectionEvent) => {
    const next = reduceConnection(state, e);
    if (next === state) return;
    state = next;
    if (!state.retrying) {
      // Stop the provider's own reconnect loop for good (it would otherwise retry with backoff).
      provider.shouldConnect = false;
      provider.disconnect();
    }
    for (const fn of listeners) fn(state);
  };

  provider.on('status', ({ status }) => {
    if (status === 'connecting') dispatch({ type: 'connecting' });
  });
  provider.on('sync', (synced: boolean) => {
    if (synced) dispatch({ type: 'synced', readOnly: opts.readOnly() });
  });
  // Set once the server says the board itself is gone (4404 on its first page): every copy this
  // browser keeps of it is deleted (localCopies.ts); the doc stays in memory, so what is on screen
  // can still be exported until the page is left.
  let boardGone = false;
  const forgetBoard = () => {
    if (boardGone) return;
    boardGone = true;
    window.removeEventListener('beforeunload', beforeUnload);
    void idb.destroy().then(() => dropBoardCopies(opts.userId, boardId));
  };
  provider.on('connection-close', (event) => {
    if (event?.code === CloseCode.NO_SUCH_BOARD) {
      if (pageId === MAIN_PAGE_ID) forgetBoard();
      else refusedAsUnlisted = true;
    }
    // `null` means we closed it ourselves (disconnect, or the provider's silence watchdog).
    dispatch({
      type: 'closed',
      code: event?.code ?? CloseCode.ABNORMAL,
      reason: event?.reason ?? '',
      online: navigator.onLine,
    });
  });
  // The browser knows before the socket does: a connection that the network dropped can stay
  // half-open for a long time, so close it ourselves and reconnect when the network is back.
  const offline = () => {
    dispatch({ type: 'browser-offline' });
    provider.disconnect();
  };
  const online = () => {
    dispatch({ type: 'browser-online' });
    if (state.retrying) provider.connect();
  };
  window.addEventListener('offline', offline);
  window.addEventListener('online', online);
  if (!navigator.onLine) offline();

  const saved = new SaveTracker((message) => {
    const ws = provider.ws;
    // Only after the sync: by then the edits made offline have been sent in it.
    if (!provider.synced || !ws || ws.readyState !== ws.OPEN) return false;
    ws.send(message);
    return true;
  });
  setMessageHandler(provider, SAVED_MESSAGE_TYPE, (_encoder, decoder) => {
    saved.answered(decoding.readVarUint(decoder));
  });
  let askTimer: ReturnType<typeof setTimeout> | null = null;
  const askSoon = () => {
    askTimer ??= setTimeout(() => {
      askTimer = null;
      saved.ask();
    }, ASK_AFTER_MS);
  };
  // Every change not from the server is this browser's own (edits, undo, the IndexedDB copy);
  // the provider has already sent it when this runs (it listens first).
  const onUpdate = (_update: Uint8Array, origin: unknown) => {
    if (origin === provider) return;
    saved.edit();
    askSoon();
  };
  doc.on('update', onUpdate);
  provider.on('sync', (synced: boolean) => {
    if (synced) askSoon();
  });
  provider.on('status', ({ status }) => {
    if (status !== 'connected') saved.disconnected();
  });
  const askAgain = setInterval(() => saved.ask(), ASK_AGAIN_MS);
  const beforeUnload = (event: BeforeUnloadEvent) => {
    if (saved.status === 'saved') return;
    event.preventDefault();
    // Older browsers show the dialog only when returnValue is set.
    event.returnValue = '';
  };
  window.addEventListener('beforeunload', beforeUnload);

  const undo = createUndoManager(doc);
  return {
    doc,
    awareness,
    provider,
    undo,
    whenLocal: idb.whenSynced.then(() => undefined),
    getConnection: () => state,
    onConnection(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    getSaved: () => saved.status,
    onSaved: (fn) => saved.subscribe(fn),
    getOwnColor: () => ownColor,
    onOwnColor(fn) {
      ownColorListeners.add(fn);
      return () => ownColorListeners.delete(fn);
    },
    destroy() {
      window.removeEventListener('beforeunload', beforeUnload);
      clearInterval(askAgain);
      if (askTimer) clearTimeout(askTimer);
      doc.off('update', onUpdate);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      stopOwnAwareness();
      stopPieces();
      undo.destroy();
      provider.destroy();
      awareness.destroy();
      // A page the server refused as unlisted (a deleted page, a mistyped link) would leave an empty
      // database behind for every id tried. Its copy is deleted only when it holds nothing at all:
      // loaded from IndexedDB (so whatever was kept before is in the doc) and the doc has never had
      // an item, so no edit, offline or not, is in it. A copy with content is kept whatever the
      // refusal: it may be a page added offline whose entry in the list has not reached the server
      // yet (its own connection can come first and be refused after PAGE_LISTED_WAIT_MS), or a
      // page deleted while this browser edited it offline, which Undo in the Pages panel brings
      // back; those edits are sent the next time the page is opened. A copy refused before it
      // loaded is kept too: nothing here tells that it is empty.
      const dropCopy = refusedAsUnlisted && copyLoaded && doc.store.clients.size === 0;
      if (!boardGone) void (dropCopy ? idb.clearData() : idb.destroy());
      doc.destroy();
    },
  };
}
