// The client's fence around y-websocket's internals (src/board/sync/internals.ts), exercised
// against the installed y-websocket over the real server: each function must still do what
// pieces.ts, ownAwareness.ts and provider.ts rely on. An upgrade that renames a private handler,
// changes the handler table or its call signature fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import * as decoding from 'lib0/decoding';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { ApiClient, addShape, presence } from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';
import {
  type MessageHandler,
  messageHandler,
  SYNC_MESSAGE,
  setMessageHandler,
  stopStockAwareness,
  stopStockUpdates,
} from '../src/board/sync/internals.ts';

const installed = (name: string): string =>
  (
    JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;

/** A socket that records the message type of everything the provider sends. */
function recordingSocket(headers: Record<string, string>, sent: number[]) {
  return class extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
    override send(data: Uint8Array): void {
      sent.push(decoding.readVarUint(decoding.createDecoder(new Uint8Array(data))));
      super.send(data);
    }
  };
}

describe('sync internals fence (y-websocket)', () => {
  let server: TestServer;
  let provider: WebsocketProvider;
  const sent: number[] = [];
  const calls: { provider: unknown; emitSynced: unknown; type: unknown }[] = [];

  before(async () => {
    server = await startServer();
    const owner = await new ApiClient(server.url, server.origin).signup('Owner');
    const boardId = await owner.createBoard('Fence');
    const doc = new Y.Doc();
    provider = new WebsocketProvider(`${server.wsUrl}/yjs`, boardId, doc, {
      WebSocketPolyfill: recordingSocket(
        { cookie: owner.cookie, origin: server.origin },
        sent,
      ) as unknown as typeof globalThis.WebSocket,
      disableBc: true,
      connect: false,
    });
    // Installed before connecting: the server's sync messages must go through it.
    const stock = messageHandler(provider, SYNC_MESSAGE);
    assert.equal(typeof stock, 'function', 'the provider has a sync handler in its own table');
    const wrapper: MessageHandler = (encoder, decoder, p, emitSynced, type) => {
      calls.push({ provider: p, emitSynced, type });
      stock!(encoder, decoder, p, emitSynced, type);
    };
    setMessageHandler(provider, SYNC_MESSAGE, wrapper);
    provider.connect();
    await waitUntil('provider synced', () => provider.synced);
  });
  after(async () => {
    provider?.destroy();
    provider?.doc.destroy();
    await server?.close();
  });

  it('is written against the installed versions (package.json pins them exactly)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const name of ['y-websocket', 'yjs', 'y-protocols', 'lib0']) {
      assert.equal(pkg.dependencies[name], installed(name), `${name} is pinned to the installed version`);
    }
  });

  it('setMessageHandler: the provider runs it for the type, with (encoder, decoder, provider, emitSynced, type)', () => {
    assert.equal(SYNC_MESSAGE, 0);
    assert.ok(calls.length > 0, 'the replaced sync handler was called');
    for (const call of calls) {
      assert.equal(call.provider, provider);
      assert.equal(typeof call.emitSynced, 'boolean');
      assert.equal(call.type, SYNC_MESSAGE);
    }
    // A delegating replacement keeps the stock behaviour: the provider reached synced through it.
    assert.equal(provider.synced, true);
  });

  it('stopStockUpdates: a doc change is no longer sent by the provider itself', () => {
    sent.length = 0;
    addShape(provider.doc, 'before', { type: 'rect', x: 0, y: 0 });
    assert.deepEqual(sent, [SYNC_MESSAGE], 'the stock handler sends a change (synchronously)');
    stopStockUpdates(provider);
    sent.length = 0;
    addShape(provider.doc, 'after', { type: 'rect', x: 1, y: 0 });
    assert.deepEqual(sent, [], 'nothing is sent once stopped');
  });

  it('stopStockAwareness: an awareness change is no longer forwarded by the provider itself', () => {
    const user = { id: 'u', name: 'U', color: '#000000' };
    sent.length = 0;
    provider.awareness.setLocalState(presence(user, 1, 1));
    assert.deepEqual(sent, [1], 'the stock handler forwards an awareness change');
    stopStockAwareness(provider);
    sent.length = 0;
    provider.awareness.setLocalState(presence(user, 2, 2));
    assert.deepEqual(sent, [], 'nothing is forwarded once stopped');
  });
});
