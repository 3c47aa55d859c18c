// y-websocket's stock provider forwards every awareness change it sees, including the remote ones
// it just received, back to the server: on a board with N people that is N² messages per cursor
// move. This replaces its awareness handler with one that sends only this client's own state.
import { DocumentMessageType } from '@tandem/shared';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import type { WebsocketProvider } from 'y-websocket';
import { setMessageHandler, stopStockAwareness } from './internals.ts';

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

/**
 * Reads the colour the server stamped on this client's own presence (docs/api.md §3: a newcomer
 * whose colour is shown already gets another one), so this person's avatar shows what the others
 * see. The server sends every changed state to everyone, this client's own included; y-protocols
 * ignores that echo (same clock), so the awareness handler peeks at it before applying the update
 * as the stock handler does.
 */
export function watchOwnColor(provider: WebsocketProvider, onColor: (color: string) => void): void {
  setMessageHandler(provider, DocumentMessageType.awareness, (_encoder, decoder, p) => {
    const update = decoding.readVarUint8Array(decoder);
    const color = ownColorIn(update, p.doc.clientID);
    if (color) onColor(color);
    applyAwarenessUpdate(p.awareness, update, p);
  });
}

/** The `user.color` of `clientId`'s state in an awareness update, if it is there. */
export function ownColorIn(update: Uint8Array, clientId: number): string | null {
  const d = decoding.createDecoder(update);
  const count = decoding.readVarUint(d);
  for (let i = 0; i < count; i++) {
    const id = decoding.readVarUint(d);
    decoding.readVarUint(d); // clock
    const state = decoding.readVarString(d);
    if (id !== clientId || state === 'null') continue;
    try {
      const color = (JSON.parse(state) as { user?: { color?: unknown } }).user?.color;
      return typeof color === 'string' ? color : null;
    } catch {
      return null;
    }
  }
  return null;
}
