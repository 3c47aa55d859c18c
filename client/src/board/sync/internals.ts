// The fence: every place the client relies on y-websocket's internals, and nothing else. The
// stock provider sends every doc update whole and forwards every awareness change, remote ones
// included; this client replaces both (pieces.ts, ownAwareness.ts) and adds a message type of its
// own (provider.ts). Those need the provider's private handlers and its per-provider handler
// table, which y-websocket does not document. y-websocket is pinned exactly in package.json, and
// client/test/sync-internals.test.ts exercises each function here against the installed version
// over a real server, so an upgrade that changes any of them fails there first.
import { messageSync, type WebsocketProvider } from 'y-websocket';

/** The sync message type (y-websocket's `messageSync`), whose handler pieces.ts wraps. */
export const SYNC_MESSAGE: number = messageSync;

/** y-websocket's message handler: (encoder, decoder, provider, emitSynced, messageType). */
export type MessageHandler = WebsocketProvider['messageHandlers'][number];

/** The handler the provider runs for messages of `type`, if any. */
export function messageHandler(provider: WebsocketProvider, type: number): MessageHandler | undefined {
  return provider.messageHandlers[type];
}

/** Makes the provider run `handler` for messages of `type` (its own table, not the module's). */
export function setMessageHandler(provider: WebsocketProvider, type: number, handler: MessageHandler): void {
  provider.messageHandlers[type] = handler;
}

/** Stops the provider sending doc updates itself (its private `_updateHandler`). */
export function stopStockUpdates(provider: WebsocketProvider): void {
  provider.doc.off('update', provider._updateHandler);
}

/** Stops the provider forwarding awareness changes itself (its private `_awarenessUpdateHandler`). */
export function stopStockAwareness(provider: WebsocketProvider): void {
  provider.awareness.off('update', provider._awarenessUpdateHandler);
}
