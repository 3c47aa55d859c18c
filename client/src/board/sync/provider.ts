// Opens one board: the y-websocket provider on /yjs/:boardId, IndexedDB for offline edits, and
// the connection state machine. Two deliberate departures from the stock provider:
//  - it sends only this client's own awareness changes (the stock one re-sends every remote change
//    it receives, N² messages on a busy board);
//  - it stops for good on close codes where reconnecting cannot help (SPEC §8).

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
import { sendOnlyOwnAwareness } from './ownAwareness.ts';

export interface BoardSession {
  doc: Y.Doc;
  awareness: Awareness;
  provider: WebsocketProvider;
  undo: Y.UndoManager;
  /** Resolves when local (IndexedDB) content is loaded, so an offline reload shows its edits. */
  whenLocal: Promise<void>;
  getConnection(): ConnectionState;
  onConnection(fn: (s: ConnectionState) => void): () => void;
  destroy(): void;
}

export function wsOrigin(): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}`;
}

export function openBoard(boardId: string, opts: { readOnly: () => boolean }): BoardSession {
  const doc = new Y.Doc();
  const awareness = new Awareness(doc);
  const idb = new IndexeddbPersistence(`tandem-board-${boardId}`, doc);
  const provider = new WebsocketProvider(`${wsOrigin()}/yjs`, boardId, doc, {
    awareness,
    disableBc: true,
    shouldReconnect: (event) => shouldReconnect(event.code),
  });
  const stopOwnAwareness = sendOnlyOwnAwareness(provider);

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
  provider.on('connection-close', (event) => {
    // `null` means we closed it ourselves (disconnect, or the provider's silence watchdog).
    dispatch({ type: 'closed', code: event?.code ?? 1006 });
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
    destroy() {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      stopOwnAwareness();
      undo.destroy();
      provider.destroy();
      awareness.destroy();
      void idb.destroy();
      doc.destroy();
    },
  };
}
