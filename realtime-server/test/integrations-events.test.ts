// The long-poll of a board's changes (docs/api.md §15, `GET /api/v1/boards/:id/events?since=`) on
// real servers: one instance over SQLite, and two instances over PostgreSQL and Redis, where a
// poll waits on instance A (which has the board open only because of the poll) and the change is
// made through instance B, by a key over REST and by a person's WebsocketProvider.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiPaths, type BoardEventsAnswer, contentPaths } from '@tandem/shared';
import type * as Y from 'yjs';
import { ApiClient, connectDoc, type DocClient, waitSynced, withKey } from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { skipUnless, waitUntil } from '../../testing/services.ts';

interface Setup {
  /** Where the poll waits. */
  a: TestServer;
  /** Where the changes are made (the same server on SQLite). */
  b: TestServer;
  close(): Promise<void>;
}

type ErrorAnswer = { error: { code: string; message: string; fields?: Record<string, string> } };

function eventsSuite(name: string, skip: string | undefined, setUp: () => Promise<Setup>): void {
  describe(`integrations, events: ${name}`, { skip }, () => {
    let setup: Setup;
    const clients: DocClient[] = [];
    before(async () => {
      setup = await setUp();
    });
    after(async () => {
      for (const client of clients) client.destroy();
      await setup?.close();
    });

    const newBoard = async () => {
      const owner = await new ApiClient(setup.a.url).signup('Olive');
      const boardId = await owner.createBoard('Retro');
      const key = async (name: string, role: 'editor' | 'viewer') => {
        const answer = await owner.call<{ integration: { userId: string }; key: string }>(
          'POST',
          apiPaths.integrations(boardId),
          { name, role },
        );
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        return { key: answer.body.key, userId: answer.body.integration.userId };
      };
      return { owner, boardId, key };
    };
    const poll = (server: TestServer, key: string, boardId: string, query: string) =>
      withKey<BoardEventsAnswer>(server.url, key, 'GET', `${contentPaths.events(boardId)}${query}`);
    /** Every instance has let the board go: the next poll opens it on its own. */
    const closedEverywhere = (boardId: string) =>
      waitUntil('no instance has the board open', () =>
        [setup.a, setup.b].every((s) => !s.app.rooms.get(boardId)),
      );

    test('a poll waiting on A answers a key’s write through B, then a person’s edit and deletion through B; the cursor means the same on both', async () => {
      const { owner, boardId, key } = await newBoard();
      const sorter = await key('Sorter', 'editor');
      const watcher = await key('Watcher', 'viewer');

      // Without `since`: where the board is now, at once.
      const start = await poll(setup.b, watcher.key, boardId, '');
      assert.equal(start.status, 200, JSON.stringify(start.body));
      assert.deepEqual(start.body.events, []);
      assert.match(start.body.cursor, /^\d+$/);
      await closedEverywhere(boardId);

      // A viewer's key polls on A; nothing is open anywhere, so the poll opens the board on A.
      const waiting = poll(setup.a, watcher.key, boardId, `?since=${start.body.cursor}`);
      await waitUntil(
        'the poll holds the board open on A',
        () => setup.a.app.rooms.get(boardId) !== undefined,
      );
      const added = await withKey<{ shapes: { id: string }[] }>(
        setup.b.url,
        sorter.key,
        'POST',
        contentPaths.shapes(boardId),
        {
          shapes: [
            { id: 'note', type: 'sticky', x: 10, y: 20, text: 'Ship it' },
            { id: 'box', type: 'rect', x: 300, y: 20 },
          ],
        },
      );
      assert.equal(added.status, 201, JSON.stringify(added.body));
      const first = await waiting;
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.events.length, 1, JSON.stringify(first.body));
      const [made] = first.body.events;
      assert.deepEqual(made?.changed.sort(), ['box', 'note']);
      assert.deepEqual(made?.removed, []);
      assert.deepEqual(made?.by, { id: sorter.userId, name: 'Sorter' });
      assert.equal(made?.cursor, first.body.cursor);
      assert.ok(Math.abs(Date.parse(made?.at ?? '') - Date.now()) < 60_000, 'at is when it was received');
      assert.deepEqual(first.body.shapes.map((s) => [s.id, s.type, s.text ?? null]).sort(), [
        ['box', 'rect', ''],
        ['note', 'sticky', 'Ship it'],
      ]);
      assert.equal(first.body.more, false);

      // A person edits through B: the sticky's text, and the rect deleted.
      const person = connectDoc(setup.b.wsUrl, boardId, { cookie: owner.cookie });
      clients.push(person);
      await waitSynced(person);
      const again = poll(setup.a, watcher.key, boardId, `?since=${first.body.cursor}`);
      const shapes = person.doc.getMap<Y.Map<unknown>>('shapes');
      await waitUntil('the person sees the sticky', () => shapes.has('note'));
      person.doc.transact(() => {
        const text = shapes.get('note')?.get('text') as Y.Text;
        text.insert(text.length, '!');
        shapes.delete('box');
      });
      const second = await again;
      assert.equal(second.status, 200, JSON.stringify(second.body));
      const changed = second.body.events.flatMap((e) => e.changed);
      const removed = second.body.events.flatMap((e) => e.removed);
      assert.deepEqual([...new Set(changed)], ['note'], JSON.stringify(second.body));
      assert.deepEqual(removed, ['box'], JSON.stringify(second.body.events));
      assert.deepEqual(
        second.body.events.map((e) => e.by),
        [{ id: owner.userId, name: 'Olive' }],
      );
      assert.deepEqual(
        second.body.shapes.map((s) => [s.id, s.text]),
        [['note', 'Ship it!']],
      );

      // The cursors are stored log positions: B answers the same from the first cursor, and
      // nothing after the last (waiting 1 s, then an empty answer with the same cursor).
      const replay = await poll(setup.b, watcher.key, boardId, `?since=${start.body.cursor}&wait=0`);
      // (A copy stored unattributed after the second answer, by an instance that learnt the
      // change from a sync reply, is answered again with by: null: at least once.)
      assert.deepEqual(
        replay.body.events.filter((e) => e.by !== null).map((e) => [e.changed.sort(), e.removed, e.by?.name]),
        [...first.body.events, ...second.body.events].map((e) => [e.changed.sort(), e.removed, e.by?.name]),
      );
      assert.ok(Number(replay.body.cursor) >= Number(second.body.cursor));
      const quiet = await poll(setup.b, watcher.key, boardId, `?since=${replay.body.cursor}&wait=1`);
      assert.equal(quiet.status, 200);
      assert.deepEqual(quiet.body, { events: [], shapes: [], cursor: replay.body.cursor, more: false });
    });

    test('bad input: a malformed cursor or wait, a wrong key, a key of another board, a stranger', async () => {
      const { boardId, key } = await newBoard();
      const { key: watcher } = await key('Watcher', 'viewer');
      const other = await newBoard();
      const { key: foreign } = await other.key('Elsewhere', 'editor');

      const badCursor = await withKey<ErrorAnswer>(
        setup.a.url,
        watcher,
        'GET',
        contentPaths.events(boardId, 'yesterday'),
      );
      assert.equal(badCursor.status, 422);
      assert.equal(badCursor.body.error.code, 'VALIDATION');
      assert.equal(
        badCursor.body.error.fields?.since,
        'Pass back the cursor of an earlier answer, or leave since out to start now.',
      );
      const badWait = await withKey<ErrorAnswer>(
        setup.a.url,
        watcher,
        'GET',
        `${contentPaths.events(boardId, '0')}&wait=26`,
      );
      assert.equal(badWait.status, 422);
      assert.equal(badWait.body.error.fields?.wait, 'Seconds to wait for a change, from 0 to 25.');

      const wrong = await withKey<ErrorAnswer>(
        setup.a.url,
        `tdm_${'x'.repeat(43)}`,
        'GET',
        contentPaths.events(boardId, '0'),
      );
      assert.equal(wrong.status, 401);
      assert.equal(wrong.body.error.code, 'AUTH_REQUIRED');
      const elsewhere = await withKey<ErrorAnswer>(
        setup.b.url,
        foreign,
        'GET',
        contentPaths.events(boardId, '0'),
      );
      assert.equal(elsewhere.status, 404);
      assert.equal(elsewhere.body.error.code, 'NOT_FOUND');
      const stranger = await new ApiClient(setup.b.url).signup('Stranger');
      const refused = await stranger.call<ErrorAnswer>('GET', contentPaths.events(boardId, '0'));
      assert.equal(refused.status, 404);
    });
  });
}

eventsSuite('SQLite, one instance', undefined, async () => {
  const server = await startServer();
  return { a: server, b: server, close: () => server.close() };
});

const clusterSkip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));
eventsSuite('PostgreSQL and Redis, two instances', clusterSkip, async () => {
  const cluster = new TestCluster();
  const a = await cluster.start();
  const b = await cluster.start();
  return { a, b, close: () => cluster.close() };
});
