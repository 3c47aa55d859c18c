// The document channel end to end: real server, real y-websocket clients.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CloseCode } from '@tandem/shared';
import * as encoding from 'lib0/encoding';
import type * as Y from 'yjs';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  presence,
  rawSocket,
  shapesJson,
  storedShapes,
  waitSynced,
} from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';
import { signAccessToken } from '../src/auth/tokens.ts';

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

  const stored = (boardId: string) => storedShapes(server.store, boardId);

  test('a viewer is refused with 4403 on its first edit; the edit reaches no one and is not stored; the viewer still sees live edits and presence', async () => {
    const boardId = await owner.createBoard();
    const viewer = await new ApiClient(server.url).signup('Viewer');
    await owner.share(boardId, viewer, 'viewer');
    const editor = open(boardId, owner.cookie);
    const watcher = open(boardId, viewer.cookie);
    await Promise.all([waitSynced(editor), waitSynced(watcher)]);
    addShape(editor.doc, 'from-owner', { type: 'rect', x: 0, y: 0 });
    await waitUntil('viewer sees the owner edit', () => watcher.doc.getMap('shapes').has('from-owner'));
    editor.provider.awareness.setLocalState(presence({ id: owner.userId, name: 'Owner', color: '#f00' }));
    await waitUntil('viewer sees owner presence', () =>
      [...watcher.provider.awareness.getStates().values()].some((state) => state.user?.name === 'Owner'),
    );
    // The viewer's client edits anyway (a modified client): the server must refuse it.
    watcher.provider.shouldConnect = false;
    addShape(watcher.doc, 'from-viewer', { type: 'rect', x: 5, y: 5 });
    await waitUntil('viewer closed with 4403', () =>
      watcher.closes.some((c) => c.code === CloseCode.NO_ACCESS),
    );
    await server.app.rooms.get(boardId)?.flush();
    addShape(editor.doc, 'after', { type: 'rect', x: 9, y: 9 });
    await waitUntil('owner edit after the refusal is stored', async () =>
      (await stored(boardId)).includes('after'),
    );
    assert.ok(!editor.doc.getMap('shapes').has('from-viewer'));
    assert.ok(!(await stored(boardId)).includes('from-viewer'));
  });

  test('a commenter (docs/api.md §18) reads the board live like a viewer and is refused with 4403 on an edit', async () => {
    const boardId = await owner.createBoard();
    const commenter = await new ApiClient(server.url).signup('Commenter');
    await owner.share(boardId, commenter, 'commenter');
    const editor = open(boardId, owner.cookie);
    const reader = open(boardId, commenter.cookie);
    await Promise.all([waitSynced(editor), waitSynced(reader)]);
    addShape(editor.doc, 'seen', { type: 'sticky', x: 0, y: 0 });
    await waitUntil('the commenter sees the edit', () => reader.doc.getMap('shapes').has('seen'));
    reader.provider.shouldConnect = false;
    addShape(reader.doc, 'from-commenter', { type: 'rect', x: 5, y: 5 });
    await waitUntil('commenter closed with 4403', () =>
      reader.closes.some((c) => c.code === CloseCode.NO_ACCESS),
    );
    await server.app.rooms.get(boardId)?.flush();
    assert.ok(!editor.doc.getMap('shapes').has('from-commenter'));
    assert.ok(!(await stored(boardId)).includes('from-commenter'));
  });

  test('no session → 4401, no access → 4403, unknown board → 4404, malformed id → 4404', async () => {
    const boardId = await owner.createBoard();
    const stranger = await new ApiClient(server.url).signup('Stranger');
    const cases: [string, Record<string, string>, number][] = [
      [`/yjs/${boardId}`, {}, CloseCode.NOT_AUTHENTICATED],
      [`/yjs/${boardId}`, { cookie: 'tandem_session=forged' }, CloseCode.NOT_AUTHENTICATED],
      [`/yjs/${boardId}`, { cookie: stranger.cookie }, CloseCode.NO_ACCESS],
      ['/yjs/AAAAAAAAAAAAAAAAAAAAA', { cookie: owner.cookie }, CloseCode.NO_SUCH_BOARD],
      ['/yjs/not-a-board', { cookie: owner.cookie }, CloseCode.NO_SUCH_BOARD],
    ];
    for (const [path, headers, code] of cases) {
      const socket = rawSocket(server.wsUrl + path, headers);
      assert.equal((await socket.closed).code, code, path);
    }
  });

  test('an access token opens its own board only, and an expired one is refused', async () => {
    const boardA = await owner.createBoard('A');
    const boardB = await owner.createBoard('B');
    const token = await owner.token(boardA);
    const good = connectDoc(server.wsUrl, boardA, { token });
    clients.push(good);
    await waitSynced(good);
    const wrong = rawSocket(`${server.wsUrl}/yjs/${boardB}?token=${encodeURIComponent(token)}`);
    assert.equal((await wrong.closed).code, CloseCode.NO_ACCESS);
    const expired = signAccessToken(server.config.secret, {
      boardId: boardA,
      userId: owner.userId,
      role: 'owner',
      expiresAt: Date.now() - 1000,
    });
    const old = rawSocket(`${server.wsUrl}/yjs/${boardA}?token=${encodeURIComponent(expired)}`);
    assert.equal((await old.closed).code, CloseCode.NOT_AUTHENTICATED);
    const tampered = rawSocket(
      `${server.wsUrl}/yjs/${boardA}?token=${encodeURIComponent(`${token.slice(0, -2)}xx`)}`,
    );
    assert.equal((await tampered.closed).code, CloseCode.NOT_AUTHENTICATED);
  });

  test('a websocket upgrade with a foreign Origin is refused before any board is loaded', async () => {
    const boardId = await owner.createBoard();
    const roomsBefore = server.app.rooms.size;
    const socket = rawSocket(`${server.wsUrl}/yjs/${boardId}`, {
      cookie: owner.cookie,
      origin: 'https://evil.example',
    });
    await assert.rejects(socket.opened, /403/);
    assert.equal(server.app.rooms.get(boardId), undefined);
    assert.equal(server.app.rooms.size, roomsBefore);
  });

  test('an oversized message closes with 1009 and an undecodable one with 1007; the others carry on and the stored board is intact', async () => {
    const boardId = await owner.createBoard();
    const a = open(boardId, owner.cookie);
    const b = open(boardId, owner.cookie);
    await Promise.all([waitSynced(a), waitSynced(b)]);
    addShape(a.doc, 'kept', { type: 'sticky', x: 1, y: 1 }, 'safe');
    await waitUntil('b has it', () => b.doc.getMap('shapes').has('kept'));
    await server.app.rooms.get(boardId)?.flush();
    const before = await stored(boardId);

    const big = rawSocket(`${server.wsUrl}/yjs/${boardId}`, { cookie: owner.cookie });
    await big.opened;
    big.ws.send(new Uint8Array(server.config.maxMessageBytes + 1));
    assert.equal((await big.closed).code, CloseCode.TOO_BIG);

    const garbage = rawSocket(`${server.wsUrl}/yjs/${boardId}`, { cookie: owner.cookie });
    await garbage.opened;
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, 0);
    encoding.writeVarUint(encoder, 2);
    encoding.writeVarUint8Array(encoder, new Uint8Array([1, 200, 3, 255, 255, 255, 7, 9]));
    garbage.ws.send(encoding.toUint8Array(encoder));
    assert.equal((await garbage.closed).code, CloseCode.UNDECODABLE);

    const text = rawSocket(`${server.wsUrl}/yjs/${boardId}`, { cookie: owner.cookie });
    await text.opened;
    text.ws.send('hello');
    assert.equal((await text.closed).code, CloseCode.UNDECODABLE);

    addShape(b.doc, 'still-live', { type: 'rect', x: 2, y: 2 });
    await waitUntil('a still syncing', () => a.doc.getMap('shapes').has('still-live'));
    assert.equal(a.provider.wsconnected && b.provider.wsconnected, true);
    await server.app.rooms.get(boardId)?.flush();
    const after = await stored(boardId);
    assert.ok(after.includes('still-live'));
    assert.ok(JSON.parse(after).kept);
    assert.deepEqual(JSON.parse(after).kept, JSON.parse(before).kept);
  });
});
