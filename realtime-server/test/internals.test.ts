// The server's fence around library internals (src/documents/internals.ts), exercised against the
// installed ws, yjs and lib0: each function must still do what framing.ts, updates.ts and the
// gateway rely on. An upgrade that renames ws's `_socket`, changes Yjs's struct store or its
// update format fails here, before it can fail in production.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import WebSocket, { WebSocketServer } from 'ws';
import * as Y from 'yjs';
import { waitUntil } from '../../testing/services.ts';
import { frameBinary, frameOnce, writeFramed } from '../src/documents/framing.ts';
import {
  clientsOf,
  clockOf,
  dropPendingUpdates,
  hasPendingUpdates,
  itemOf,
  pendingBytes,
  rangeAlreadyDeleted,
  rawStream,
} from '../src/documents/internals.ts';
import { checkUpdate } from '../src/documents/updates.ts';

const installed = (name: string): string =>
  (
    JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;

test('the fence is written against the installed versions (package.json pins them exactly)', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const name of ['ws', 'yjs', 'lib0', 'y-protocols']) {
    assert.equal(pkg.dependencies[name], installed(name), `${name} is pinned to the installed version`);
  }
});

describe('ws: the raw stream under a server-side WebSocket', () => {
  let wss: WebSocketServer;
  let server: WebSocket;
  let client: WebSocket;
  before(async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
    await new Promise((resolve) => wss.once('listening', resolve));
    const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
    client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    server = await accepted;
    await new Promise((resolve) => client.once('open', resolve));
  });
  after(async () => {
    client.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });

  test('is the TCP socket, writable; frames written to it arrive as binary messages, in every length encoding', async () => {
    const stream = rawStream(server);
    assert.ok(stream instanceof Socket, 'ws keeps the TCP socket in `_socket`');
    assert.equal(stream.writable, true);
    const received: Buffer[] = [];
    client.on('message', (data: Buffer, isBinary) => {
      assert.equal(isBinary, true);
      received.push(data);
    });
    // 2-byte, 16-bit and 64-bit length headers; one of them as several messages in one write.
    const payloads = [10, 300, 70_000].map((n) => new Uint8Array(n).map((_, i) => i % 251));
    let written = 0;
    for (const payload of payloads) writeFramed(server, payload, frameBinary(payload), () => written++);
    const pair = [new Uint8Array([1, 2]), new Uint8Array([3])];
    writeFramed(server, pair, frameOnce(pair), () => written++);
    await waitUntil('the client received all five messages', () => received.length >= 5);
    assert.deepEqual(
      received.map((b) => [...b]),
      [...payloads, ...pair].map((p) => [...p]),
    );
    assert.equal(written, 4, 'each write reports when it was handed to the kernel');
    assert.equal(frameOnce(pair), frameOnce(pair), 'a message is framed once');
  });
});

describe('yjs: the struct store', () => {
  test('clockOf and clientsOf agree with the encoded state vector', () => {
    const doc = new Y.Doc();
    const other = new Y.Doc();
    other.getText('t').insert(0, 'hello');
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(other));
    doc.getMap('m').set('k', 1);
    const vector = Y.decodeStateVector(Y.encodeStateVector(doc));
    assert.deepEqual(new Set(clientsOf(doc)), new Set(vector.keys()));
    for (const [client, clock] of vector) assert.equal(clockOf(doc, client), clock);
    assert.equal(clockOf(doc, 12345), 0, 'an unknown client is at clock 0');
  });

  test('rangeAlreadyDeleted: only when every item of the range is known and deleted', () => {
    const doc = new Y.Doc();
    const text = doc.getText('t');
    text.insert(0, 'abcdef');
    const me = doc.clientID;
    assert.equal(rangeAlreadyDeleted(doc, me, 0, 3), false, 'not deleted yet');
    text.delete(0, 3);
    assert.equal(rangeAlreadyDeleted(doc, me, 0, 3), true, 'deleted');
    assert.equal(rangeAlreadyDeleted(doc, me, 1, 2), true, 'part of a deleted item');
    assert.equal(rangeAlreadyDeleted(doc, me, 2, 3), false, 'partly deleted');
    assert.equal(rangeAlreadyDeleted(doc, me, 4, 10), false, 'past what the doc has');
    assert.equal(rangeAlreadyDeleted(doc, me + 1, 0, 1), false, 'an unknown client');
  });

  test('hasPendingUpdates: an update missing its dependency waits in the doc until it arrives', () => {
    const source = new Y.Doc();
    const updates: Uint8Array[] = [];
    source.on('update', (update: Uint8Array) => updates.push(update));
    source.getText('t').insert(0, 'a');
    source.getText('t').insert(1, 'b');
    const doc = new Y.Doc();
    assert.equal(hasPendingUpdates(doc), false);
    Y.applyUpdate(doc, updates[1]!);
    assert.equal(hasPendingUpdates(doc), true, 'the second insert waits for the first');
    Y.applyUpdate(doc, updates[0]!);
    assert.equal(hasPendingUpdates(doc), false);
    assert.equal(doc.getText('t').toString(), 'ab');
    // A deletion of an unknown item waits too.
    const deleter = new Y.Doc();
    Y.applyUpdate(deleter, Y.encodeStateAsUpdate(source));
    const before = Y.encodeStateVector(deleter);
    deleter.getText('t').delete(0, 1);
    const fresh = new Y.Doc();
    Y.applyUpdate(fresh, Y.encodeStateAsUpdate(deleter, before));
    assert.equal(hasPendingUpdates(fresh), true, 'a delete set for items the doc lacks');
  });

  test('dropPendingUpdates forgets what waits, pendingBytes measures it; itemOf finds the item of a nested type', () => {
    const source = new Y.Doc();
    const updates: Uint8Array[] = [];
    source.on('update', (update: Uint8Array) => updates.push(update));
    source.getText('t').insert(0, 'a');
    source.getText('t').insert(1, 'b'.repeat(100));
    const doc = new Y.Doc();
    assert.equal(pendingBytes(doc), 0);
    Y.applyUpdate(doc, updates[1]!);
    assert.ok(pendingBytes(doc) >= 100, `the waiting insert counts its bytes (${pendingBytes(doc)})`);
    dropPendingUpdates(doc);
    assert.equal(hasPendingUpdates(doc), false);
    Y.applyUpdate(doc, updates[0]!);
    assert.equal(doc.getText('t').toString(), 'a', 'the dropped insert is gone');

    const shapes = new Y.Doc().getMap('shapes');
    const shape = new Y.Map<unknown>();
    shapes.set('s1', shape);
    assert.equal(itemOf(shapes), null, 'a top-level type has no item');
    assert.equal(itemOf(shape)?.parentSub, 's1');
    assert.equal(itemOf(shape)?.parent, shapes);
  });
});

describe('yjs + lib0: update format v1, walked without decoding', () => {
  test('checkUpdate finds each client’s clocks and the delete set as Y.decodeUpdate does, for every kind of content', () => {
    const doc = new Y.Doc();
    const map = doc.getMap('m');
    map.set('number', 1.5);
    map.set('int', 42);
    map.set('big', 2n ** 40n);
    map.set('json', { a: [1, 'two', null, true, { b: 3.25 }] });
    map.set('bytes', new Uint8Array([1, 2, 3]));
    map.set('undefined', undefined);
    const text = new Y.Text();
    map.set('text', text);
    text.insert(0, 'héllo 👋', { bold: true });
    text.insertEmbed(2, { image: 'x' });
    text.format(0, 2, { italic: true });
    const xml = new Y.XmlElement('p');
    map.set('xml', xml);
    xml.insert(0, [new Y.XmlText('in xml')]);
    map.set('hook', new Y.XmlHook('hook'));
    xml.setAttribute('class', 'c');
    const array = new Y.Array<unknown>();
    map.set('array', array);
    array.insert(0, [1, 'x', new Uint8Array([9])]);
    array.delete(1, 1);
    map.set('subdoc', new Y.Doc());
    map.delete('int');
    const update = Y.encodeStateAsUpdate(doc);
    const layout = checkUpdate(update);
    const decoded = Y.decodeUpdate(update);
    assert.equal(layout.client, doc.clientID);
    assert.equal(layout.structs, decoded.structs.length);
    assert.equal(layout.clock, decoded.structs[0]!.id.clock);
    assert.equal(layout.endClock, clockOf(doc, doc.clientID));
    assert.equal(layout.deleteClients, decoded.ds.clients.size);
    assert.equal(layout.deletesTo, update.length, 'the delete set ends the update');
    // Cut anywhere, it is refused, as Yjs would refuse it.
    for (const cut of [1, 5, Math.floor(update.length / 2), update.length - 1]) {
      assert.throws(() => checkUpdate(update.subarray(0, cut)), `cut at ${cut}`);
    }
  });
});
