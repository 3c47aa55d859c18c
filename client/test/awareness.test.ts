// Our client sends only its own awareness state, against the real server with real y-websocket
// providers: three people move their cursors and each socket carries only its own client id. A
// stock provider in the same room, for contrast, re-sends the others' states.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as decoding from 'lib0/decoding';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { ApiClient, presence } from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';
import { sendOnlyOwnAwareness } from '../src/board/sync/ownAwareness.ts';

/** Client ids carried by the awareness messages a socket sent. */
function recordingSocket(headers: Record<string, string>, sent: number[][]) {
  return class extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
    override send(data: Uint8Array): void {
      const dec = decoding.createDecoder(new Uint8Array(data));
      if (decoding.readVarUint(dec) === 1) {
        const update = decoding.createDecoder(decoding.readVarUint8Array(dec));
        const ids: number[] = [];
        const n = decoding.readVarUint(update);
        for (let i = 0; i < n; i++) {
          ids.push(decoding.readVarUint(update));
          decoding.readVarUint(update);
          decoding.readVarString(update);
        }
        sent.push(ids);
      }
      super.send(data);
    }
  };
}

describe('awareness sending', () => {
  let server: TestServer;
  const providers: WebsocketProvider[] = [];
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    for (const p of providers) {
      p.destroy();
      p.doc.destroy(); // also stops the awareness timer
    }
    await server?.close();
  });

  it('sends only this client’s own state; a stock provider echoes others', async () => {
    const owner = await new ApiClient(server.url, server.origin).signup('Owner');
    const boardId = await owner.createBoard('Presence');
    const people = [owner];
    for (const name of ['Two', 'Three', 'Stock']) {
      const p = await new ApiClient(server.url, server.origin).guest(name);
      await owner.share(boardId, p, 'editor');
      people.push(p);
    }
    const sent: number[][][] = people.map(() => []);
    const clients = people.map((person, i) => {
      const doc = new Y.Doc();
      const provider = new WebsocketProvider(`${server.wsUrl}/yjs`, boardId, doc, {
        WebSocketPolyfill: recordingSocket(
          { cookie: person.cookie, origin: server.origin },
          sent[i]!,
        ) as unknown as typeof globalThis.WebSocket,
        disableBc: true,
      });
      providers.push(provider);
      // The first three are ours; the last one is y-websocket as shipped.
      if (i < 3) sendOnlyOwnAwareness(provider);
      return { doc, provider, person };
    });
    await waitUntil('all synced', () => clients.every((c) => c.provider.synced), 10_000);
    for (let round = 0; round < 3; round++) {
      for (const [i, c] of clients.entries()) {
        c.provider.awareness.setLocalState(
          presence({ id: c.person.userId, name: `P${i}`, color: '#123456' }, round, i),
        );
      }
    }
    const seesAll = (c: (typeof clients)[number]) =>
      clients.every(
        (o) =>
          (c.provider.awareness.getStates().get(o.doc.clientID)?.cursor as { x: number } | undefined)?.x ===
          2,
      );
    await waitUntil('everyone sees everyone’s last cursor', () => clients.every(seesAll), 10_000);

    for (let i = 0; i < 3; i++) {
      const own = clients[i]!.doc.clientID;
      assert.ok(sent[i]!.length >= 3, `client ${i} sent its own moves`);
      for (const ids of sent[i]!) assert.deepEqual(ids, [own], `client ${i} sent only its own state`);
    }
    const stockOwn = clients[3]!.doc.clientID;
    assert.ok(
      sent[3]!.some((ids) => ids.some((id) => id !== stockOwn)),
      'the stock provider re-sent states it received (what we avoid)',
    );
  });
});
