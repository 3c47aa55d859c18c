// y-websocket's stock provider forwards every awareness change it sees, including the remote ones
// it just received, back to the server: on a board with N people that is N² messages per cursor
// move. This replaces its awareness handler with one that sends only this client's own state.
import { DocumentMessageType } from '@tandem/shared';
import * as encoding from 'lib0/encoding';
import { encodeAwarenessUpdate } from 'y-protocols/awareness';
import type { WebsocketProvider } from 'y-websocket';
import { stopStockAwareness } from './internals.ts';

interface Changes {
  added: number[];
  updated: number[];
  removed: number[];
}

/** Installs the own-state-only handler on `provider`; answers a function that removes it. */
export function sendOnlyOwnAwareness(provider: WebsocketProvider): () => void {
  const { awareness, doc } = provider;
  stopStockAwareness(provider);
  const handler = ({ added, updated, removed }: Changes) => {
    const own = [...added, ...updated, ...removed].filter((id) => id === doc.clientID);
    if (own.length === 0) return;
    const ws = provider.ws;
    if (!provider.wsconnected || !ws || ws.readyState !== ws.OPEN) return;
    const enc = encoding.createEncoder();
    encoding.writeVarUint(enc, DocumentMessageType.awareness);
    encoding.writeVarUint8Array(enc, encodeAwarenessUpdate(awareness, own));
    ws.send(encoding.toUint8Array(enc));
  };
  awareness.on('update', handler);
  return () => awareness.off('update', handler);
}
