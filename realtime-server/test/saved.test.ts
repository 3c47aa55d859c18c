// "All changes saved" that is true (docs/api.md §4): the saved message of shared/src/savedProtocol.ts is
// written by hand (shared has no lib0), so it must agree with lib0's varUint codec; and the server
// answers a "saved?" request only once the edits before it are in the Store, holds the answer
// back while the Store is unreachable, and never sends the message to a stock client.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeSavedMessage, encodeSavedMessage, MAX_SAVED_ID, SAVED_MESSAGE_TYPE } from '@tandem/shared';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { ApiClient, addShape, storedShapes } from '../../testing/clients.ts';
import { type CutStore, cuttablePostgres } from '../../testing/cutStore.ts';
import { rawDoc, syncMessage } from '../../testing/hardening.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { skipUnless, waitUntil } from '../../testing/services.ts';

const ids = [0, 1, 127, 128, 255, 16_383, 16_384, 2_097_151, 2_097_152, 123_456_789, MAX_SAVED_ID];

test('saved messages are lib0 varUints, both ways', () => {
  for (const id of ids) {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, SAVED_MESSAGE_TYPE);
    encoding.writeVarUint(encoder, id);
    const lib0 = encoding.toUint8Array(encoder);
    assert.deepEqual(encodeSavedMessage(id), lib0, `encode ${id}`);
    assert.equal(decodeSavedMessage(lib0), id, `decode ${id}`);
    const decoder = decoding.createDecoder(encodeSavedMessage(id));
    assert.equal(decoding.readVarUint(decoder), SAVED_MESSAGE_TYPE);
    assert.equal(decoding.readVarUint(decoder), id);
    assert.equal(decoding.hasContent(decoder), false);
  }
});

test('anything else is not a saved message', () => {
  assert.equal(decodeSavedMessage(new Uint8Array([])), null);
  assert.equal(decodeSavedMessage(new Uint8Array([SAVED_MESSAGE_TYPE])), null);
  assert.equal(decodeSavedMessage(new Uint8Array([0, 1])), null, 'another type');
  assert.equal(decodeSavedMessage(new Uint8Array([SAVED_MESSAGE_TYPE, 0x80])), null, 'cut short');
  assert.equal(decodeSavedMessage(new Uint8Array([SAVED_MESSAGE_TYPE, 1, 2])), null, 'trailing bytes');
  assert.equal(
    decodeSavedMessage(new Uint8Array([SAVED_MESSAGE_TYPE, 0xff, 0xff, 0xff, 0xff, 0x0f])),
    null,
    'past the largest id',
  );
  assert.throws(() => encodeSavedMessage(-1));
  assert.throws(() => encodeSavedMessage(MAX_SAVED_ID + 1));
  assert.throws(() => encodeSavedMessage(1.5));
});

describe('"saved" confirmation on the document channel', { skip: await skipUnless('postgres') }, () => {
  let cut: CutStore;
  let server: TestServer;
  before(async () => {
    cut = await cuttablePostgres();
    server = await startServer({ store: cut.store });
  });
  after(async () => {
    cut.proxy.reconnect();
    await server.close();
    await cut.close();
  });

  test('answered only once the edit is in the Store, held back while the Store is cut off; a stock client never receives it', async () => {
    const owner = await new ApiClient(server.url).signup('Owner');
    const boardId = await owner.createBoard();
    // A stock y-websocket client on the same board, recording every message type it is sent.
    const seenTypes = new Set<number>();
    const Recording = class extends WebSocket {
      constructor(address: string | URL, protocols?: string | string[]) {
        super(address, protocols, { headers: { cookie: owner.cookie } });
        this.on('message', (data: ArrayBuffer | Buffer) => seenTypes.add(new Uint8Array(data)[0]!));
      }
    };
    const stockDoc = new Y.Doc();
    const stock = new WebsocketProvider(`${server.wsUrl}/yjs`, boardId, stockDoc, {
      WebSocketPolyfill: Recording as unknown as typeof globalThis.WebSocket,
      disableBc: true,
    });
    const cleanup: (() => void)[] = [() => stock.destroy(), () => stockDoc.destroy()];
    try {
      await run();
    } finally {
      for (const fn of cleanup) fn();
    }
    async function run() {
      await waitUntil('stock client synced', () => stock.synced);
      stockDoc.getMap('shapes').set('from-stock', new Y.Map());

      const tandem = await rawDoc(server, boardId, { cookie: owner.cookie });
      cleanup.push(() => tandem.ws.terminate());
      const answers: number[] = [];
      tandem.ws.on('message', (data: Buffer) => {
        const id = decodeSavedMessage(new Uint8Array(data));
        if (id !== null) answers.push(id);
      });
      const doc = new Y.Doc();
      const edit = (id: string) => {
        const vector = Y.encodeStateVector(doc);
        addShape(doc, id, { type: 'rect', x: 0, y: 0 });
        tandem.ws.send(syncMessage(2, Y.encodeStateAsUpdate(doc, vector)));
      };

      edit('first');
      tandem.ws.send(encodeSavedMessage(1));
      await waitUntil('answer 1', () => answers.includes(1));
      assert.ok((await storedShapes(cut.direct, boardId)).includes('"first"'), 'stored when answered');

      // Store cut off: the edit is received (the stock client sees it) but not stored, so no answer.
      cut.proxy.disconnect();
      edit('during-outage');
      tandem.ws.send(encodeSavedMessage(2));
      tandem.ws.send(encodeSavedMessage(3));
      await waitUntil('the stock client has the edit', () => stockDoc.getMap('shapes').has('during-outage'));
      const room = server.app.rooms.get(boardId)!;
      await waitUntil('a write failed', async () =>
        (await server.app.metrics.registry.metrics()).includes('tandem_store_errors_total{op="append"}'),
      );
      assert.equal(room.pendingWrites > 0, true, 'the edit waits in memory');
      assert.deepEqual(answers, [1], 'no answer while the edit is not stored');
      assert.ok(!(await storedShapes(cut.direct, boardId)).includes('during-outage'));

      cut.proxy.reconnect();
      await waitUntil(
        'answers 2 and 3 once stored',
        () => answers.includes(2) && answers.includes(3),
        40_000,
      );
      assert.deepEqual(answers, [1, 2, 3], 'answered in order');
      assert.ok((await storedShapes(cut.direct, boardId)).includes('during-outage'), 'stored when answered');

      assert.ok(seenTypes.has(0), 'the stock client was sent sync messages');
      for (const type of seenTypes)
        assert.ok(type === 0 || type === 1, `the stock client was sent message type ${type}`);
      doc.destroy();
    }
  });
});
