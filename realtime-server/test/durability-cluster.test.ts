// Durability you can prove: with three real instances on one Redis and one
// PostgreSQL, the instance that received a burst of edits is SIGKILLed inside its persistence
// debounce, right after the burst reached the other two, and its client vanishes with it (or
// reconnects to a survivor with nothing new to send). Once every client has left and the
// instances have stopped, the Store must hold every edit, and a fresh instance must load them.
// Variants: Redis restarted in the same window; PostgreSQL unreachable for 10 s around the death.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  storedShapes,
  waitSynced,
} from '../../testing/clients.ts';
import { type ServerProcess, startProcess } from '../../testing/process.ts';
import { CuttableProxy } from '../../testing/proxy.ts';
import {
  dropSchema,
  PrivateRedis,
  postgresUrl,
  redisUrl,
  skipUnless,
  waitUntil,
} from '../../testing/services.ts';
import { PostgresStore } from '../src/store/postgres.ts';

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

const BEFORE = 10;
const BURST = 40;

interface Scenario {
  /** The writer's client reconnects to a survivor instead of vanishing. */
  reconnect?: boolean;
  /** A private Redis, killed right after the death and started again 2 s later. */
  restartRedis?: boolean;
  /** PostgreSQL through a proxy, cut from just before the burst until 10 s later. */
  cutDatabase?: boolean;
}

const shapeCount = (json: string) => Object.keys(JSON.parse(json) as object).length;

async function run(scenario: Scenario, log: (message: string) => void): Promise<void> {
  const schema = `test_durable_${randomBytes(5).toString('hex')}`;
  const processes: ServerProcess[] = [];
  const clients: DocClient[] = [];
  const redis = scenario.restartRedis ? await PrivateRedis.start() : null;
  const database = new URL(postgresUrl());
  const proxy = scenario.cutDatabase
    ? await CuttableProxy.start(database.hostname, Number(database.port || 5432))
    : null;
  const proxied = new URL(postgresUrl());
  if (proxy) proxied.port = String(proxy.port);
  const env = {
    DATABASE_URL: proxied.toString(),
    DATABASE_SCHEMA: schema,
    REDIS_URL: redis?.url ?? redisUrl(),
    REDIS_PREFIX: `test:${randomBytes(5).toString('hex')}:`,
    SECRET: randomBytes(32).toString('base64url'),
    DATA_DIR: '/tmp',
    // The defaults of docs/api.md §9, spelled out: the death falls inside the debounce.
    PERSIST_DEBOUNCE_MS: '1000',
    PERSIST_MAX_DELAY_MS: '5000',
  };
  const start = async () => {
    const server = await startProcess(env);
    processes.push(server);
    return server;
  };
  const store = new PostgresStore({ connectionString: postgresUrl(), schema });
  try {
    // One after another: three processes compiling at once on a loaded machine start slowly.
    const a = await start();
    const b = await start();
    const c = await start();
    const owner = await new ApiClient(a.url).signup('Owner');
    const boardId = await owner.createBoard();
    const connect = (server: ServerProcess, doc?: DocClient['doc']) => {
      const client = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie }, doc ? { doc } : {});
      clients.push(client);
      return client;
    };
    const writer = connect(a);
    const observers = [connect(b), connect(c)];
    await Promise.all([writer, ...observers].map((client) => waitSynced(client)));

    for (let i = 0; i < BEFORE; i++) addShape(writer.doc, `before-${i}`, { type: 'rect', x: i, y: 0 });
    await waitUntil(
      `the first ${BEFORE} shapes are stored`,
      async () => shapeCount(await storedShapes(store, boardId)) === BEFORE,
      20_000,
    );
    await waitUntil('the observers have them', () =>
      observers.every((o) => o.doc.getMap('shapes').size === BEFORE),
    );

    if (proxy) proxy.disconnect();
    const cutAt = Date.now();
    const burstAt = performance.now();
    for (let i = 0; i < BURST; i++)
      addShape(writer.doc, `burst-${i}`, { type: 'sticky', x: i, y: 1 }, `n${i}`);
    await waitUntil(
      'the burst reached the other instances',
      () => observers.every((o) => o.doc.getMap('shapes').size === BEFORE + BURST),
      5000,
    );
    // The receiving instance dies, and its client with it (a laptop closing) or it moves on.
    a.child.kill('SIGKILL');
    const killedAfterMs = performance.now() - burstAt;
    if (scenario.reconnect) {
      writer.provider.destroy();
      const moved = connect(b, writer.doc);
      await waitSynced(moved, 20_000);
    } else writer.destroy();
    const storedAtDeath = shapeCount(await storedShapes(store, boardId));
    log(
      `instance killed ${killedAfterMs.toFixed(0)} ms after the burst began; the Store then held ${storedAtDeath} shapes`,
    );
    await a.exited;
    if (redis) {
      await redis.kill();
      // Kept on purpose: the outage's length is the scenario (Redis gone for 2 s).
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await redis.start();
    }
    if (proxy) {
      // Kept on purpose: the Store stays cut off until 10 s after the burst (the scenario).
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, cutAt + 10_000 - Date.now())));
      proxy.reconnect();
    }

    // Later, everyone leaves and the instances stop. Kept on purpose: the survivors run on for a
    // while (as they would) before their SIGTERM; what they store then is what is checked.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const client of clients) client.destroy();
    const codes = await Promise.all([b.stop('SIGTERM'), c.stop('SIGTERM')]);
    log(`survivors exited with ${codes.join(', ')}`);

    const stored = shapeCount(await storedShapes(store, boardId));
    log(`the Store holds ${stored} of ${BEFORE + BURST} shapes once everyone has gone`);
    assert.equal(stored, BEFORE + BURST, 'the Store holds every shape once everyone has gone');

    const fresh = await start();
    const reader = connect(fresh);
    await waitSynced(reader);
    assert.equal(reader.doc.getMap('shapes').size, BEFORE + BURST, 'a fresh instance loads every shape');
  } finally {
    for (const client of clients) client.destroy();
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    await store.close();
    await proxy?.close();
    await redis?.stop();
    await dropSchema(schema);
  }
}

describe('durability whichever instance dies (three real instances)', { skip, concurrency: false }, () => {
  test('the receiving instance is SIGKILLed right after a 40-shape burst reached the others, its client gone: all 50 shapes are stored', async (t) => {
    await run({}, (m) => t.diagnostic(m));
  });

  test('the same, with the client reconnecting to a survivor with nothing new to send', async (t) => {
    await run({ reconnect: true }, (m) => t.diagnostic(m));
  });

  test('the same, with Redis restarted in the window of the death', async (t) => {
    await run({ restartRedis: true }, (m) => t.diagnostic(m));
  });

  test('the same, with PostgreSQL unreachable for 10 s around the death', async (t) => {
    await run({ cutDatabase: true }, (m) => t.diagnostic(m));
  });
});
