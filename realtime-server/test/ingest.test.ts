// Taking in many updates at once ("ingest"): the updates a client sends in one read are
// applied as one transaction, relayed as one message and queued as one write, in order with
// whatever the client sends after them; and merging thousands of updates for the Store is done in
// rounds (mergeInBulk), with the same bytes as one Y.mergeUpdates. What a client's update
// completes (an edit that waited for it) reaches that client too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodeSavedMessage, encodeSavedMessage } from '@tandem/shared';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { ApiClient, addShape, storedShapes } from '../../testing/clients.ts';
import { rawDoc, syncMessage } from '../../testing/hardening.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';
import { mergeInBulk } from '../src/documents/updates.ts';

const EDITS = 600;

/** One shape per transaction: EDITS one-edit updates, in the order they were made. */
function oneEditUpdates(count: number, prefix: string): { updates: Uint8Array[]; doc: Y.Doc } {
  const doc = new Y.Doc();
  const updates: Uint8Array[] = [];
  doc.on('update', (update: Uint8Array) => updates.push(update));
  for (let i = 0; i < count; i++) addShape(doc, `${prefix}${i}`, { type: 'rect', x: i, y: 0 });
  return { updates, doc };
}

/** The sync message in one WebSocket message from the server (none for awareness or "saved"). */
function syncMessages(data: Buffer): { syncType: number; payload: Uint8Array }[] {
  const decoder = decoding.createDecoder(new Uint8Array(data));
  if (decoding.readVarUint(decoder) !== 0) return []; // awareness, "saved": not sync
  const syncType = decoding.readVarUint(decoder);
  return [{ syncType, payload: decoding.readVarUint8Array(decoder) }];
}

let server: TestServer;
before(async () => {
  server = await startServer({ env: { MESSAGES_PER_SECOND: '100000', MESSAGE_BURST: '100000' } });
});
after(() => server.close());

test('updates sent in one go are applied, relayed and stored together, in order with what follows', async () => {
  const owner = await new ApiClient(server.url).signup('Owner');
  const boardId = await owner.createBoard();
  const watcher = await rawDoc(server, boardId, { cookie: owner.cookie });
  const writer = await rawDoc(server, boardId, { cookie: owner.cookie });
  const watcherDoc = new Y.Doc();
  const answerDoc = new Y.Doc();
  const { updates, doc } = oneEditUpdates(EDITS, 'n');
  try {
    let relayedUpdates = 0;
    watcher.ws.on('message', (data: Buffer) => {
      for (const { syncType, payload } of syncMessages(data)) {
        if (syncType !== 2) continue;
        relayedUpdates += 1;
        Y.applyUpdate(watcherDoc, payload);
      }
    });
    const saved: number[] = [];
    let answered = false;
    writer.ws.on('message', (data: Buffer) => {
      const id = decodeSavedMessage(new Uint8Array(data));
      if (id !== null) {
        saved.push(id);
        return;
      }
      for (const { syncType, payload } of syncMessages(data)) {
        if (syncType !== 1) continue;
        // The answer to the step 1 sent after the updates: it must already hold every one of them.
        Y.applyUpdate(answerDoc, payload);
        answered = true;
      }
    });

    // EDITS frames, then a sync step 1 and a "saved?" request, written to the socket at once, as
    // a fast client's burst arrives: the server reads many frames in one go.
    const socket = (writer.ws as unknown as { _socket: import('node:net').Socket })._socket;
    socket.cork();
    for (const update of updates) writer.ws.send(syncMessage(2, update));
    writer.ws.send(syncMessage(0, new Uint8Array([0])));
    writer.ws.send(encodeSavedMessage(7));
    socket.uncork();

    await waitUntil('the sync answer', () => answered);
    assert.equal(answerDoc.getMap('shapes').size, EDITS, 'the answer came after every update was applied');
    await waitUntil('the watcher has every shape', () => watcherDoc.getMap('shapes').size === EDITS);
    assert.ok(
      relayedUpdates < EDITS / 10,
      `relayed as a few merged updates, not one per update (${relayedUpdates} for ${EDITS})`,
    );
    await waitUntil('"saved" answered', () => saved.includes(7));
    const stored = await storedShapes(server.store, boardId);
    for (const id of ['n0', `n${EDITS / 2}`, `n${EDITS - 1}`])
      assert.ok(stored.includes(`"${id}"`), `${id} is in the Store when "saved" is answered`);
  } finally {
    watcher.ws.terminate();
    writer.ws.terminate();
    for (const d of [doc, watcherDoc, answerDoc]) d.destroy();
  }
});

test('an edit that waited for a missing dependency reaches the client whose update completed it', async () => {
  const owner = await new ApiClient(server.url).signup('Resolver');
  const boardId = await owner.createBoard();
  const author = new Y.Doc();
  const text = author.getText('notes');
  text.insert(0, 'first');
  const first = Y.encodeStateAsUpdate(author);
  const vector = Y.encodeStateVector(author);
  text.insert(5, ' and second');
  const second = Y.encodeStateAsUpdate(author, vector);
  // One client has only the second edit: on the server it waits for the first.
  const early = await rawDoc(server, boardId, { cookie: owner.cookie });
  // Another has the first edit (say it moved here from another instance) and sends it.
  const resolver = await rawDoc(server, boardId, { cookie: owner.cookie });
  const resolverDoc = new Y.Doc();
  Y.applyUpdate(resolverDoc, first);
  try {
    resolver.ws.on('message', (data: Buffer) => {
      for (const { syncType, payload } of syncMessages(data))
        if (syncType === 1 || syncType === 2) Y.applyUpdate(resolverDoc, payload);
    });
    early.ws.send(syncMessage(2, second));
    const room = server.app.rooms.get(boardId)!;
    await waitUntil('the second edit waits on the server', () => room.doc.store.pendingStructs !== null);
    resolver.ws.send(syncMessage(2, first));
    await waitUntil(
      'the server completed the text',
      () => room.doc.getText('notes').toString() === 'first and second',
    );
    await waitUntil(
      'the resolver got the edit its update completed',
      () => resolverDoc.getText('notes').toString() === 'first and second',
    );
  } finally {
    early.ws.terminate();
    resolver.ws.terminate();
    for (const d of [author, resolverDoc]) d.destroy();
  }
});

test('mergeInBulk gives the bytes of one Y.mergeUpdates, over many rounds', () => {
  const { updates, doc } = oneEditUpdates(1500, 'm');
  // 1500 updates: three rounds of 32 (1500 → 47 → 2 → 1).
  assert.deepEqual(mergeInBulk(updates), Y.mergeUpdates(updates));
  assert.deepEqual(mergeInBulk(updates.slice(0, 1)), updates[0]);
  const merged = new Y.Doc();
  Y.applyUpdate(merged, mergeInBulk(updates));
  assert.equal(merged.getMap('shapes').size, 1500);
  for (const d of [doc, merged]) d.destroy();
});
