// Integrations and the content API (docs/api.md §15) on real processes: one instance over SQLite,
// and two instances over PostgreSQL and Redis, where a key writes through instance A and a
// WebsocketProvider client on instance B sees it live. The same cases run on both.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiPaths, CloseCode, contentPaths, integrationKeyPattern } from '@tandem/shared';
import * as Y from 'yjs';
import {
  ApiClient,
  connectDoc,
  type DocClient,
  storedShapes,
  waitSynced,
  withKey,
} from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { skipUnless, waitUntil } from '../../testing/services.ts';
import { signAccessToken } from '../src/auth/tokens.ts';

interface Setup {
  /** The instance REST writes go to, and the one the live client watches from (the same one on SQLite). */
  a: TestServer;
  b: TestServer;
  close(): Promise<void>;
}

type ErrorAnswer = { error: { code: string; message: string; fields?: Record<string, string> } };
type ShapesAnswer = { shapes: { id: string; type: string; x: number; text?: string; createdBy: string }[] };

function integrationSuite(name: string, skip: string | undefined, setUp: () => Promise<Setup>): void {
  describe(`integrations: ${name}`, { skip }, () => {
    let setup: Setup;
    const clients: DocClient[] = [];
    before(async () => {
      setup = await setUp();
    });
    after(async () => {
      for (const client of clients) client.destroy();
      await setup?.close();
    });

    const watch = (server: TestServer, boardId: string, cookie: string) => {
      const client = connectDoc(server.wsUrl, boardId, { cookie });
      clients.push(client);
      return client;
    };
    const newBoard = async () => {
      const owner = await new ApiClient(setup.a.url).signup('Olive');
      const boardId = await owner.createBoard('Retro');
      return { owner, boardId };
    };
    const createKey = async (
      owner: ApiClient,
      boardId: string,
      body: { name: string; role: 'editor' | 'viewer'; frameId?: string },
    ) => {
      const answer = await owner.call<{ integration: { id: string; userId: string }; key: string }>(
        'POST',
        apiPaths.integrations(boardId),
        body,
      );
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body;
    };

    test('an owner creates a key (shown once, listed without it); a key adds shapes on A that a client on B sees live, stored once everyone leaves', async () => {
      const { owner, boardId } = await newBoard();
      const { integration, key } = await createKey(owner, boardId, { name: 'Sorter', role: 'editor' });
      assert.match(key, integrationKeyPattern);
      const listed = await owner.call<{ integrations: { id: string; name: string; role: string }[] }>(
        'GET',
        apiPaths.integrations(boardId),
      );
      assert.deepEqual(
        listed.body.integrations.map((i) => [i.id, i.name, i.role]),
        [[integration.id, 'Sorter', 'editor']],
      );
      assert.ok(!JSON.stringify(listed.body).includes(key), 'the key is never listed');

      const live = watch(setup.b, boardId, owner.cookie);
      await waitSynced(live);
      const added = await withKey<ShapesAnswer>(setup.a.url, key, 'POST', contentPaths.shapes(boardId), {
        shapes: [
          { type: 'sticky', x: 10, y: 20, text: 'Ship it' },
          { id: 'given-id', type: 'rect', x: 300, y: 20, color: 'green' },
        ],
      });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      assert.equal(added.body.shapes.length, 2);
      assert.equal(added.body.shapes[1]?.id, 'given-id');
      assert.equal(added.body.shapes[0]?.createdBy, integration.userId);
      await waitUntil('the client on B sees both shapes', () => live.doc.getMap('shapes').size === 2);
      const sticky = live.doc.getMap('shapes').get(added.body.shapes[0]!.id) as import('yjs').Map<unknown>;
      assert.equal(String(sticky.get('text')), 'Ship it');
      // The bot's cursor, labelled "<name> (bot)", where it last wrote (the centre of its shapes:
      // the sticky at 10..210, the rect at 300..500 → x 255; y 20..220 → 120).
      await waitUntil('the client on B sees the bot cursor', () =>
        [...live.provider.awareness.getStates().values()].some(
          (state) =>
            state.user?.name === 'Sorter (bot)' &&
            state.user?.id === integration.userId &&
            state.cursor?.x === 255 &&
            state.cursor?.y === 120 &&
            state.tool === 'bot',
        ),
      );

      // Read back through the API.
      const read = await withKey<ShapesAnswer & { frames: unknown[]; board: { id: string } }>(
        setup.b.url,
        key,
        'GET',
        contentPaths.board(boardId),
      );
      assert.equal(read.status, 200);
      assert.equal(read.body.board.id, boardId);
      assert.deepEqual(read.body.shapes.map((s) => s.type).sort(), ['rect', 'sticky']);

      live.destroy();
      await waitUntil('every instance has let the board go', () =>
        [setup.a, setup.b].every((s) => !s.app.rooms.get(boardId)),
      );
      const stored = JSON.parse(await storedShapes(setup.a.store, boardId)) as Record<string, unknown>;
      assert.deepEqual(Object.keys(stored).sort(), [added.body.shapes[0]!.id, 'given-id'].sort());
    });

    test('moving a frame through PATCH carries the shapes inside it in the same change, live on B and stored', async () => {
      const { owner, boardId } = await newBoard();
      const { key } = await createKey(owner, boardId, { name: 'Mover', role: 'editor' });
      const write = (method: 'POST' | 'PATCH', shapes: unknown[]) =>
        withKey<ShapesAnswer>(setup.a.url, key, method, contentPaths.shapes(boardId), { shapes });
      const added = await write('POST', [
        { id: 'column', type: 'frame', x: 0, y: 0, w: 400, h: 400, name: 'Column' },
        { id: 'inside', type: 'sticky', x: 50, y: 50 },
        { id: 'outside', type: 'sticky', x: 900, y: 50 },
      ]);
      assert.equal(added.status, 201, JSON.stringify(added.body));
      const live = watch(setup.b, boardId, owner.cookie);
      await waitSynced(live);
      let updates = 0;
      live.doc.on('update', () => {
        updates += 1;
      });
      const moved = await write('PATCH', [{ id: 'column', x: 1000, y: 500 }]);
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.deepEqual(
        moved.body.shapes.map((s) => [s.id, s.x]),
        [
          ['column', 1000],
          ['inside', 1050],
        ],
      );
      const xOf = (id: string) => (live.doc.getMap('shapes').get(id) as Y.Map<unknown>).get('x');
      await waitUntil('the client on B sees the frame moved', () => xOf('column') === 1000);
      assert.equal(xOf('inside'), 1050, 'the sticky came in the same update as its frame');
      assert.equal(xOf('outside'), 900);
      assert.equal(updates, 1);
      live.destroy();
      await waitUntil('every instance has let the board go', () =>
        [setup.a, setup.b].every((s) => !s.app.rooms.get(boardId)),
      );
      const stored = JSON.parse(await storedShapes(setup.a.store, boardId)) as Record<
        string,
        { x: number; y: number }
      >;
      assert.deepEqual(
        [stored.column?.x, stored.inside?.x, stored.inside?.y, stored.outside?.x],
        [1000, 1050, 550, 900],
      );
    });

    test('the same Idempotency-Key twice changes the board once and answers the same', async () => {
      const { owner, boardId } = await newBoard();
      const { key } = await createKey(owner, boardId, { name: 'CI', role: 'editor' });
      const body = { shapes: [{ type: 'sticky', x: 0, y: 0, text: 'once' }] };
      const headers = { 'idempotency-key': 'build-4711' };
      const first = await withKey<ShapesAnswer>(
        setup.a.url,
        key,
        'POST',
        contentPaths.shapes(boardId),
        body,
        headers,
      );
      const again = await withKey<ShapesAnswer>(
        setup.b.url,
        key,
        'POST',
        contentPaths.shapes(boardId),
        body,
        headers,
      );
      assert.equal(first.status, 201);
      assert.equal(again.status, 201);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const read = await withKey<ShapesAnswer>(setup.a.url, key, 'GET', contentPaths.board(boardId));
      assert.equal(read.body.shapes.length, 1);
    });

    test('a write with several malformed shapes is 422 naming every one by index and field, the first 20, and how many more', async () => {
      const { owner, boardId } = await newBoard();
      const { key } = await createKey(owner, boardId, { name: 'Writer', role: 'editor' });
      const post = (body: unknown) =>
        withKey<ErrorAnswer>(setup.a.url, key, 'POST', contentPaths.shapes(boardId), body);

      const alone = await post({ shapes: [{ type: 'sticky', x: 'left', y: 0 }] });
      assert.equal(alone.status, 422);
      const [firstKey, firstMessage] = Object.entries(alone.body.error.fields ?? {})[0] ?? [];
      assert.equal(firstKey, 'shapes[0].x');

      const three = await post({
        shapes: [
          { type: 'sticky', x: 'left', y: 0 },
          { type: 'sticky', x: 0, y: 0 },
          { type: 'hexagon', x: 0, y: 0 },
          { type: 'sticky', x: 0, y: 0, colour: 'red' },
        ],
      });
      assert.equal(three.status, 422);
      assert.equal(three.body.error.code, 'VALIDATION');
      assert.equal(three.body.error.message, alone.body.error.message);
      const fields = three.body.error.fields ?? {};
      assert.deepEqual(
        Object.keys(fields),
        ['shapes[0].x', 'shapes[2].type', 'shapes[3]'],
        JSON.stringify(fields),
      );
      assert.equal(fields['shapes[0].x'], firstMessage, 'the first bad shape is named as when it was alone');
      assert.match(fields['shapes[2].type'] ?? '', /^The type is one of/);
      assert.equal(fields['shapes[3]'], 'Unknown field "colour".');

      // 25 bad shapes among good ones: the first 20 are named, and the rest counted.
      const many = await post({
        shapes: Array.from({ length: 50 }, (_, i) =>
          i % 2 === 0 ? { type: 'sticky', x: i, y: 0 } : { type: 'sticky', x: i, y: 'top' },
        ),
      });
      assert.equal(many.status, 422);
      const named = Object.keys(many.body.error.fields ?? {});
      assert.deepEqual(
        named.filter((k) => k !== 'shapes'),
        Array.from({ length: 20 }, (_, i) => `shapes[${2 * i + 1}].y`),
      );
      assert.equal(many.body.error.fields?.shapes, '5 more shapes need attention; the first 20 are named.');
      const stored = await withKey<ShapesAnswer>(setup.a.url, key, 'GET', contentPaths.board(boardId));
      assert.equal(stored.body.shapes.length, 0, 'nothing was added');
    });

    test('an unknown id is 422 naming it, for DELETE as for PATCH, and a delete with one unknown id deletes nothing', async () => {
      const { owner, boardId } = await newBoard();
      const { key } = await createKey(owner, boardId, { name: 'Writer', role: 'editor' });
      const live = watch(setup.b, boardId, owner.cookie);
      await waitSynced(live);
      const call = (method: string, body: unknown) =>
        withKey<ErrorAnswer>(setup.a.url, key, method, contentPaths.shapes(boardId), body);
      const added = await call('POST', {
        shapes: [
          { id: 'keep-a', type: 'sticky', x: 0, y: 0 },
          { id: 'keep-b', type: 'sticky', x: 300, y: 0 },
        ],
      });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      await waitUntil('both stickies are live', () => live.doc.getMap('shapes').size === 2);

      const patched = await call('PATCH', { shapes: [{ id: 'no-such-shape', x: 5 }] });
      assert.equal(patched.status, 422);
      assert.deepEqual(patched.body.error.fields, { 'shapes[0].id': 'No such shape.' });

      const deleted = await call('DELETE', { ids: ['keep-a', 'no-such-shape', 'keep-b', 'gone-too'] });
      assert.equal(deleted.status, 422, JSON.stringify(deleted.body));
      assert.equal(deleted.body.error.code, 'VALIDATION');
      assert.equal(deleted.body.error.message, patched.body.error.message);
      assert.deepEqual(deleted.body.error.fields, { 'ids[1]': 'No such shape.', 'ids[3]': 'No such shape.' });
      const stored = await withKey<ShapesAnswer>(setup.a.url, key, 'GET', contentPaths.board(boardId));
      assert.deepEqual(
        stored.body.shapes.map((shape) => shape.id).sort(),
        ['keep-a', 'keep-b'],
        'nothing deleted',
      );

      assert.equal((await call('DELETE', { ids: ['keep-a', 'keep-b'] })).status, 204);
      await waitUntil('both are gone on the other instance', () => live.doc.getMap('shapes').size === 0);
      const again = await call('DELETE', { ids: ['keep-a'] });
      assert.equal(again.status, 422, 'a shape already deleted is no longer on the board');
      assert.deepEqual(again.body.error.fields, { 'ids[0]': 'No such shape.' });
    });

    test('bad input changes nothing and says why: a viewer key, a wrong key, a malformed shape, 1,001 shapes, out of the frame, 61 writes', async () => {
      const { owner, boardId } = await newBoard();
      const { key } = await createKey(owner, boardId, { name: 'Writer', role: 'editor' });
      const viewer = await createKey(owner, boardId, { name: 'Reader', role: 'viewer' });
      const live = watch(setup.b, boardId, owner.cookie);
      await waitSynced(live);
      const frame = await withKey<ShapesAnswer>(setup.a.url, key, 'POST', contentPaths.shapes(boardId), {
        shapes: [{ id: 'frame-1', type: 'frame', x: 0, y: 0, w: 400, h: 400, name: 'Ideas' }],
      });
      assert.equal(frame.status, 201);
      await waitUntil('the frame is live', () => live.doc.getMap('shapes').size === 1);
      const scoped = await createKey(owner, boardId, {
        name: 'Clusterer',
        role: 'editor',
        frameId: 'frame-1',
      });
      const before = JSON.stringify(live.doc.getMap('shapes').toJSON());
      const post = (k: string, body: unknown) =>
        withKey<ErrorAnswer>(setup.a.url, k, 'POST', contentPaths.shapes(boardId), body);

      const asViewer = await post(viewer.key, { shapes: [{ type: 'sticky', x: 0, y: 0 }] });
      assert.equal(asViewer.status, 403);
      assert.equal(asViewer.body.error.code, 'FORBIDDEN');
      const viewerReads = await withKey(setup.a.url, viewer.key, 'GET', contentPaths.board(boardId));
      assert.equal(viewerReads.status, 200, 'a viewer key reads');

      const wrong = await post(`tdm_${'x'.repeat(43)}`, { shapes: [{ type: 'sticky', x: 0, y: 0 }] });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.body.error.code, 'AUTH_REQUIRED');
      assert.equal(wrong.body.error.message, 'This key is not valid, or it was revoked.');

      const malformed = await post(key, {
        shapes: [
          { type: 'sticky', x: 0, y: 0 },
          { type: 'sticky', x: 'left', y: 0 },
        ],
      });
      assert.equal(malformed.status, 422);
      assert.equal(malformed.body.error.code, 'VALIDATION');
      assert.ok(malformed.body.error.fields?.['shapes[1].x'], JSON.stringify(malformed.body));
      const unknownType = await post(key, { shapes: [{ type: 'hexagon', x: 0, y: 0 }] });
      assert.equal(unknownType.body.error.fields?.['shapes[0].type']?.startsWith('The type is one of'), true);

      const tooMany = await post(key, {
        shapes: Array.from({ length: 1001 }, (_, i) => ({ type: 'sticky', x: i, y: 0 })),
      });
      assert.equal(tooMany.status, 413);
      assert.equal(tooMany.body.error.code, 'PAYLOAD_TOO_LARGE');
      assert.equal(
        tooMany.body.error.message,
        'At most 1,000 shapes in one call. Split the write into several.',
      );

      // A scoped key: one shape inside and one outside the frame → refused whole.
      const outside = await post(scoped.key, {
        shapes: [
          { type: 'sticky', x: 10, y: 10 },
          { type: 'sticky', x: 900, y: 900 },
        ],
      });
      assert.equal(outside.status, 422);
      assert.equal(outside.body.error.code, 'OUT_OF_SCOPE');
      assert.deepEqual(Object.keys(outside.body.error.fields ?? {}), ['shapes[1]']);
      const moveFrame = await withKey<ErrorAnswer>(
        setup.a.url,
        scoped.key,
        'PATCH',
        contentPaths.shapes(boardId),
        {
          shapes: [{ id: 'frame-1', x: 50 }],
        },
      );
      assert.equal(moveFrame.body.error.code, 'OUT_OF_SCOPE', 'its own frame is not its to move');
      const inside = await post(scoped.key, { shapes: [{ type: 'sticky', x: 10, y: 10 }] });
      assert.equal(inside.status, 201, 'inside its frame it writes');

      // Nothing of the refused writes reached the board: only the scoped key's one sticky was added.
      await waitUntil('the accepted sticky is live', () => live.doc.getMap('shapes').size === 2);
      const after = live.doc.getMap('shapes').toJSON() as Record<string, unknown>;
      assert.deepEqual(Object.keys(after).filter((id) => !(id in JSON.parse(before))).length, 1);

      // 60 writes a minute per key: the 61st is 429 with Retry-After, and changes nothing.
      const limited = await createKey(owner, boardId, { name: 'Chatty', role: 'editor' });
      const sizeBefore = live.doc.getMap('shapes').size;
      let last: Awaited<ReturnType<typeof post>> | null = null;
      for (let i = 0; i < 61; i++)
        last = await withKey<ErrorAnswer>(setup.a.url, limited.key, 'DELETE', contentPaths.shapes(boardId), {
          ids: ['no-such-shape'],
        });
      assert.equal(last?.status, 429);
      assert.equal(last?.body.error.code, 'RATE_LIMITED');
      assert.ok(Number(last?.headers.get('retry-after')) > 0);
      const extra = await post(limited.key, { shapes: [{ type: 'sticky', x: 0, y: 0 }] });
      assert.equal(extra.status, 429);
      assert.equal(live.doc.getMap('shapes').size, sizeBefore);
    });

    test('a revoked key is refused on every instance at once, its live connection is closed, and its edits can be undone', async () => {
      const { owner, boardId } = await newBoard();
      const { integration, key } = await createKey(owner, boardId, { name: 'Agent', role: 'editor' });
      // A person's shape, then the bot's.
      const person = watch(setup.b, boardId, owner.cookie);
      await waitSynced(person);
      const since = new Date(Date.now() - 1000).toISOString();
      const bot = await withKey<ShapesAnswer>(setup.a.url, key, 'POST', contentPaths.shapes(boardId), {
        shapes: [{ type: 'sticky', x: 0, y: 0, text: 'bot' }],
      });
      assert.equal(bot.status, 201);
      await waitUntil('the bot sticky is live', () => person.doc.getMap('shapes').size === 1);
      await waitUntil('the bot cursor is shown', () =>
        [...person.provider.awareness.getStates().values()].some(
          (state) => state.user?.name === 'Agent (bot)',
        ),
      );

      // The bot also holds a live document connection, opened with a token its key bought.
      const token = await withKey<{ token: string }>(setup.b.url, key, 'POST', apiPaths.boardToken(boardId));
      assert.equal(token.status, 200);
      const botSocket = connectDoc(setup.b.wsUrl, boardId, { token: token.body.token });
      clients.push(botSocket);
      await waitSynced(botSocket);

      // Undo all of the bot's changes since a time: its userId is its identity in history.
      const reverted = await owner.call('POST', apiPaths.revert(boardId), {
        userId: integration.userId,
        since,
      });
      assert.equal(reverted.status, 200, JSON.stringify(reverted.body));
      await waitUntil('the bot sticky is gone', () => person.doc.getMap('shapes').size === 0);

      const revoked = await owner.call('DELETE', apiPaths.integration(boardId, integration.id));
      assert.equal(revoked.status, 204);
      for (const server of [setup.a, setup.b]) {
        const answer = await withKey<ErrorAnswer>(server.url, key, 'GET', contentPaths.board(boardId));
        assert.equal(answer.status, 401);
        assert.equal(answer.body.error.code, 'AUTH_REQUIRED');
      }
      await waitUntil('the bot connection is closed as a removed member', () =>
        botSocket.closes.some((c) => c.code === CloseCode.NO_ACCESS),
      );
      await waitUntil('the revoked bot cursor is gone', () =>
        [...person.provider.awareness.getStates().values()].every(
          (state) => state.user?.id !== integration.userId,
        ),
      );
      assert.equal((await owner.call('DELETE', apiPaths.integration(boardId, integration.id))).status, 404);
      const listed = await owner.call<{ integrations: unknown[] }>('GET', apiPaths.integrations(boardId));
      assert.deepEqual(listed.body.integrations, []);
    });

    test('only the owner manages integrations; a key cannot reach the rest of the API', async () => {
      const { owner, boardId } = await newBoard();
      const editor = await new ApiClient(setup.a.url).signup('Ed');
      await owner.share(boardId, editor, 'editor');
      const asEditor = await editor.call('POST', apiPaths.integrations(boardId), {
        name: 'X',
        role: 'editor',
      });
      assert.equal(asEditor.status, 403);
      const badBody = await owner.call<ErrorAnswer>('POST', apiPaths.integrations(boardId), {
        name: '',
        role: 'owner',
      });
      assert.equal(badBody.status, 422);
      assert.ok(badBody.body.error.fields?.name && badBody.body.error.fields.role);
      const noFrame = await owner.call<ErrorAnswer>('POST', apiPaths.integrations(boardId), {
        name: 'Scoped',
        role: 'editor',
        frameId: 'no-such-frame',
      });
      assert.equal(noFrame.body.error.fields?.frameId, 'No such frame on this board.');
      const { key } = await createKey(owner, boardId, { name: 'Bot', role: 'editor' });
      const rename = await withKey(setup.a.url, key, 'PATCH', apiPaths.board(boardId), { title: 'Hijacked' });
      assert.equal(rename.status, 401, 'a key is no credential outside the content API');
    });
  });
}

integrationSuite('SQLite, one instance', undefined, async () => {
  const server = await startServer();
  return { a: server, b: server, close: () => server.close() };
});

const clusterSkip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));
integrationSuite('PostgreSQL and Redis, two instances', clusterSkip, async () => {
  const cluster = new TestCluster();
  const a = await cluster.start();
  const b = await cluster.start();
  return { a, b, close: () => cluster.close() };
});

describe('integrations: a board at its size limit', () => {
  test('a write that would take the board past MAX_DOC_BYTES is refused with 413 and its sentence, and changes nothing', async () => {
    const server = await startServer({ env: { MAX_DOC_BYTES: '4096' } });
    try {
      const owner = await new ApiClient(server.url).signup('Olive');
      const boardId = await owner.createBoard('Small');
      const created = await owner.call<{ key: string }>('POST', apiPaths.integrations(boardId), {
        name: 'Importer',
        role: 'editor',
      });
      const post = (text: string) =>
        withKey<ErrorAnswer>(server.url, created.body.key, 'POST', contentPaths.shapes(boardId), {
          shapes: [{ type: 'sticky', x: 0, y: 0, text }],
        });
      assert.equal((await post('fits')).status, 201);
      const big = await post('x'.repeat(5000));
      assert.equal(big.status, 413);
      assert.equal(big.body.error.code, 'PAYLOAD_TOO_LARGE');
      assert.equal(
        big.body.error.message,
        'This board has reached its size limit, so nothing was added. Remove something first.',
      );
      const read = await withKey<ShapesAnswer>(
        server.url,
        created.body.key,
        'GET',
        contentPaths.board(boardId),
      );
      assert.deepEqual(
        read.body.shapes.map((s) => s.text),
        ['fits'],
      );
    } finally {
      await server.close();
    }
  });
});

describe('integrations: a board only the API touches', () => {
  test('stays loaded between calls (one load for many writes), unloads after API_ROOM_LINGER_MS with every write stored, and at once when deleted', async () => {
    const server = await startServer({ env: { API_ROOM_LINGER_MS: '3000' } });
    try {
      const owner = await new ApiClient(server.url).signup('Olive');
      const boardId = await owner.createBoard('Bot-only');
      const created = await owner.call<{ key: string }>('POST', apiPaths.integrations(boardId), {
        name: 'Importer',
        role: 'editor',
      });
      const post = (boardOf: string, text: string) =>
        withKey<ShapesAnswer>(server.url, created.body.key, 'POST', contentPaths.shapes(boardOf), {
          shapes: [{ type: 'sticky', x: 0, y: 0, text }],
        });
      assert.equal((await post(boardId, 'first')).status, 201);
      const room = server.app.rooms.get(boardId);
      assert.ok(room, 'the board stays loaded after the call');
      for (let i = 0; i < 4; i++) {
        assert.equal((await post(boardId, `more ${i}`)).status, 201);
        assert.equal(server.app.rooms.get(boardId), room, 'the next call finds the same room: no load');
      }
      const read = await withKey<ShapesAnswer>(
        server.url,
        created.body.key,
        'GET',
        contentPaths.board(boardId),
      );
      assert.equal(read.body.shapes.length, 5);
      assert.equal(server.app.rooms.get(boardId), room, 'a read finds it too');
      await waitUntil('the board unloads once the linger is over', () => !server.app.rooms.get(boardId));
      const stored = JSON.parse(await storedShapes(server.store, boardId)) as Record<
        string,
        { text?: string }
      >;
      assert.equal(Object.keys(stored).length, 5, 'every write is in the Store');

      // A deleted board is let go at once, not after the linger.
      const second = await owner.createBoard('Deleted soon');
      const key2 = await owner.call<{ key: string }>('POST', apiPaths.integrations(second), {
        name: 'Importer 2',
        role: 'editor',
      });
      const write = await withKey(server.url, key2.body.key, 'POST', contentPaths.shapes(second), {
        shapes: [{ type: 'sticky', x: 0, y: 0, text: 'gone' }],
      });
      assert.equal(write.status, 201);
      assert.ok(server.app.rooms.get(second));
      assert.equal((await owner.call('DELETE', apiPaths.board(second))).status, 204);
      await waitUntil(
        'the deleted board unloads before its linger is over',
        () => !server.app.rooms.get(second),
        1000,
      );
    } finally {
      await server.close();
    }
  });
});

describe('integrations: a script on the document channel outlives its access token', () => {
  test('the recipe of docs/integrations.md §4: closed with 4401, it fetches a new token and connects again', async () => {
    const server = await startServer();
    try {
      const owner = await new ApiClient(server.url).signup('Olive');
      const boardId = await owner.createBoard('Long-running script');
      const created = await owner.call<{ key: string; integration: { userId: string } }>(
        'POST',
        apiPaths.integrations(boardId),
        { name: 'Watcher', role: 'editor' },
      );
      const freshToken = async () =>
        (await withKey<{ token: string }>(server.url, created.body.key, 'POST', apiPaths.boardToken(boardId)))
          .body.token;
      // The script's first token, made to run out in a second (real ones last 15 minutes).
      const shortLived = signAccessToken(server.config.secret, {
        boardId,
        userId: created.body.integration.userId,
        role: 'editor',
        expiresAt: Date.now() + 1000,
      });
      const script = connectDoc(server.wsUrl, boardId, { token: shortLived });
      script.provider.on('closed', async ({ code }: { code: number }) => {
        if (code !== CloseCode.NOT_AUTHENTICATED) return;
        script.provider.params.token = await freshToken();
        script.provider.connect();
      });
      const person = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie, origin: server.url });
      try {
        await waitSynced(script);
        await waitSynced(person);
        await waitUntil('the first token runs out', () =>
          script.closes.some((c) => c.code === CloseCode.NOT_AUTHENTICATED),
        );
        await waitUntil(
          'the script is connected and synced again',
          () => script.provider.wsconnected && script.provider.synced,
        );
        person.doc.getMap('shapes').set('later', new Y.Map([['kind', 'rect']]));
        await waitUntil('an edit made after the renewal reaches the script', () =>
          script.doc.getMap('shapes').has('later'),
        );
      } finally {
        script.destroy();
        person.destroy();
      }
    } finally {
      await server.close();
    }
  });
});
