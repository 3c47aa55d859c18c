// A sick Redis and a stalled instance, with real processes, PostgreSQL and a private redis-server:
// - with Redis down (killed, or hung by SIGSTOP), a board that was not open is served at once
//   from the Store (degraded mode, reported by /readyz and /metrics), edits on it are stored, it
//   resyncs with the other instances when Redis returns, and SIGTERM still exits 0;
// - an instance paused past the heartbeat lapse is treated as new when it is heard again, and
//   resynced with: its clients get what was edited elsewhere meanwhile without another edit.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  presence,
  shapesJson,
  storedShapes,
  waitSynced,
} from '../../testing/clients.ts';
import { type ServerProcess, startProcess } from '../../testing/process.ts';
import { dropSchema, PrivateRedis, postgresUrl, skipUnless, waitUntil } from '../../testing/services.ts';
import { PostgresStore } from '../src/store/postgres.ts';

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

describe('a sick Redis, a stalled instance', { skip, concurrency: false }, () => {
  const schema = `test_degraded_${randomBytes(5).toString('hex')}`;
  const processes: ServerProcess[] = [];
  const clients: DocClient[] = [];
  const redises: PrivateRedis[] = [];
  const store = new PostgresStore({ connectionString: postgresUrl(), schema });
  const envFor = (redis: PrivateRedis) => ({
    DATABASE_URL: postgresUrl(),
    DATABASE_SCHEMA: schema,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `test:${randomBytes(5).toString('hex')}:`,
    SECRET: 'degraded-test-secret-degraded-test-secret-0123',
    DATA_DIR: '/tmp',
    PERSIST_DEBOUNCE_MS: '100',
    PERSIST_MAX_DELAY_MS: '500',
  });
  const start = async (env: Record<string, string>) => {
    const server = await startProcess(env);
    processes.push(server);
    return server;
  };
  /** Two instances on a private Redis of their own (which a test may kill or pause), and a board. */
  const twoOnPrivateRedis = async () => {
    const redis = await PrivateRedis.start();
    redises.push(redis);
    const env = envFor(redis);
    const a = await start(env);
    const b = await start(env);
    const owner = await new ApiClient(a.url).signup('Owner');
    const boardId = await owner.createBoard();
    return { redis, a, b, owner, boardId };
  };
  const connect = (server: ServerProcess, boardId: string, cookie: string) => {
    const client = connectDoc(server.wsUrl, boardId, { cookie });
    clients.push(client);
    return client;
  };
  after(async () => {
    for (const client of clients) client.destroy();
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    for (const redis of redises) {
      redis.resume();
      await redis.stop();
    }
    await store.close();
    await dropSchema(schema);
  });

  for (const how of ['killed', 'hung (SIGSTOP)'] as const) {
    test(`Redis ${how}: a board not yet open is served from the Store at once, reported degraded, resyncs when Redis returns; SIGTERM exits 0`, async () => {
      const { redis, a, b, owner, boardId } = await twoOnPrivateRedis();

      if (how === 'killed') await redis.kill();
      else redis.pause();
      const onA = connect(a, boardId, owner.cookie);
      // Before the fix the connection got neither a sync nor a close until Redis came back.
      await waitSynced(onA, 8000);
      addShape(onA.doc, 'degraded-a', { type: 'rect', x: 0, y: 0 });
      await waitUntil(
        'the edit made without the bus is stored',
        async () => (await storedShapes(store, boardId)).includes('degraded-a'),
        20_000,
      );
      // A hung Redis is noticed by an unanswered PING (2 s).
      await waitUntil('/readyz reports degraded mode, still ready', async () => {
        const ready = await fetch(`${a.url}/readyz`);
        const body = JSON.stringify(await ready.json());
        return ready.status === 200 && body === '{"status":"degraded","store":"ok","bus":"unreachable"}';
      });
      const metrics = await (await fetch(`${a.url}/metrics`)).text();
      assert.match(metrics, /^tandem_degraded_rooms 1$/m);
      assert.match(metrics, /^tandem_bus_up 0$/m);

      // The same board on the other instance, also without the bus: the two diverge for now.
      const onB = connect(b, boardId, owner.cookie);
      await waitSynced(onB, 8000);
      addShape(onB.doc, 'degraded-b', { type: 'ellipse', x: 1, y: 1 });

      if (how === 'killed') await redis.start();
      else redis.resume();
      await waitUntil(
        'both instances resync once Redis returns',
        () => shapesJson(onA.doc) === shapesJson(onB.doc) && onA.doc.getMap('shapes').has('degraded-b'),
        30_000,
      );
      await waitUntil(
        'ready, not degraded, again',
        async () =>
          ((await (await fetch(`${a.url}/readyz`)).json()) as { status: string }).status === 'ready',
        30_000,
      );

      // Redis down again at shutdown: the instance still stops cleanly, with its edits stored.
      if (how === 'killed') await redis.kill();
      else redis.pause();
      addShape(onA.doc, 'at-shutdown', { type: 'rect', x: 2, y: 2 });
      await waitUntil('the instance has the last edit', async () =>
        (await storedShapes(store, boardId)).includes('at-shutdown'),
      );
      onA.provider.shouldConnect = false;
      onB.provider.shouldConnect = false;
      assert.equal(await a.stop('SIGTERM'), 0);
      assert.equal(await b.stop('SIGTERM'), 0);
      const stored = await storedShapes(store, boardId);
      for (const id of ['degraded-a', 'degraded-b', 'at-shutdown']) assert.ok(stored.includes(id), id);
      redis.resume();
      await redis.stop();
    });
  }

  test('an instance paused past the heartbeat lapse is resynced with when it is heard again', async () => {
    const { a, b, owner, boardId } = await twoOnPrivateRedis();
    const reader = connect(a, boardId, owner.cookie);
    const writer = connect(b, boardId, owner.cookie);
    await Promise.all([waitSynced(reader), waitSynced(writer)]);
    addShape(writer.doc, 'before', { type: 'rect', x: 0, y: 0 });
    await waitUntil('live before the pause', () => reader.doc.getMap('shapes').has('before'));
    // The reader's presence, which B drops once it presumes A dead.
    reader.provider.awareness.setLocalState(presence({ id: owner.userId, name: 'Reader', color: '#000000' }));
    const readerSeenOnB = () => writer.provider.awareness.getStates().has(reader.doc.clientID);
    await waitUntil('B shows the reader on A', readerSeenOnB);
    const observer = connect(b, boardId, owner.cookie);
    await waitSynced(observer);

    a.child.kill('SIGSTOP');
    try {
      // B presumes A dead after 3.5 s (its presences vanish) and, alone now, publishes nothing.
      await waitUntil('B presumes the paused instance dead', () => !readerSeenOnB(), 15_000);
      for (let i = 0; i < 5; i++) addShape(writer.doc, `while-paused-${i}`, { type: 'rect', x: i, y: 1 });
      await waitUntil('B holds the edits made meanwhile', () =>
        Array.from({ length: 5 }, (_, i) => `while-paused-${i}`).every((id) =>
          observer.doc.getMap('shapes').has(id),
        ),
      );
    } finally {
      a.child.kill('SIGCONT');
    }
    // No further edit: only a resync can bring them.
    await waitUntil(
      'the paused instance’s client gets what was edited meanwhile',
      () => shapesJson(reader.doc) === shapesJson(writer.doc),
      15_000,
    );
    assert.equal(reader.doc.getMap('shapes').size, 6);
  });
});
