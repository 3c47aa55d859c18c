// The document channel end to end: real server, real y-websocket clients.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as Y from 'yjs';
import { ApiClient, connectDoc, type DocClient, shapesJson, waitSynced } from './helpers/clients.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { waitUntil } from './helpers/services.ts';

function addShape(doc: Y.Doc, id: string, fields: Record<string, unknown>, text?: string): void {
  doc.transact(() => {
    const shape = new Y.Map<unknown>();
    for (const [key, value] of Object.entries(fields)) shape.set(key, value);
    if (text !== undefined) shape.set('text', new Y.Text(text));
    doc.getMap('shapes').set(id, shape);
  });
}

describe('document channel', () => {
  let server: TestServer;
  let owner: ApiClient;
  const clients: DocClient[] = [];
  const open = (boardId: string, cookie: string) => {
    const client = connectDoc(server.wsUrl, boardId, { cookie });
    clients.push(client);
    return client;
  };

  before(async () => {
    server = await startServer();
    owner = await new ApiClient(server.url).signup('Owner');
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await server.close();
  });

  test('two clients converge on concurrent edits to shapes and to one Y.Text; a late joiner gets everything', async () => {
    const boardId = await owner.createBoard();
    const a = open(boardId, owner.cookie);
    const b = open(boardId, owner.cookie);
    await Promise.all([waitSynced(a), waitSynced(b)]);
    addShape(a.doc, 'note', { type: 'sticky', x: 0, y: 0 }, 'hello');
    await waitUntil('b sees the note', () => b.doc.getMap('shapes').has('note'));
    // Concurrent: both type into the same text and move different shapes at once.
    const textA = (a.doc.getMap('shapes').get('note') as Y.Map<unknown>).get('text') as Y.Text;
    const textB = (b.doc.getMap('shapes').get('note') as Y.Map<unknown>).get('text') as Y.Text;
    textA.insert(0, 'A says ');
    textB.insert(5, ' world');
    addShape(a.doc, 'r1', { type: 'rect', x: 1, y: 2 });
    addShape(b.doc, 'r2', { type: 'ellipse', x: 3, y: 4 });
    (a.doc.getMap('shapes').get('note') as Y.Map<unknown>).set('x', 10);
    (b.doc.getMap('shapes').get('note') as Y.Map<unknown>).set('y', 20);
    await waitUntil('replicas converge', () => shapesJson(a.doc) === shapesJson(b.doc));
    assert.match(textA.toString(), /A says/);
    assert.match(textA.toString(), /world/);
    assert.equal(textA.toString(), textB.toString());
    const late = open(boardId, owner.cookie);
    await waitSynced(late);
    await waitUntil('late joiner has the board', () => shapesJson(late.doc) === shapesJson(a.doc));
    assert.deepEqual([...late.doc.getMap('shapes').keys()].sort(), ['note', 'r1', 'r2']);
  });
});
