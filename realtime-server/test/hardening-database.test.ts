// Hardening: a sick PostgreSQL never loses or wedges a board. A real
// server process talks to the machine's PostgreSQL through a TCP proxy that can blackhole its
// connections (they stay open, nothing passes: a firewall drop, a failover) or reset them.
// - item 4: during a silent partition edits stay in memory and /readyz says 503; when the
//   database is reachable again (the old connections stay silent for ever), every edit is
//   stored, /api/me and new boards work again, and SIGTERM stores the rest and exits 0;
// - item 5: SIGTERM during an outage keeps retrying within SHUTDOWN_TIMEOUT_MS and stores
//   everything; an outage longer than the budget exits non-zero (2), never 0 with edits lost.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
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
import { dropSchema, postgresUrl, skipUnless, waitUntil } from '../../testing/services.ts';
import { PostgresStore } from '../src/store/postgres.ts';

const skip = await skipUnless('postgres');

describe('hardening: PostgreSQL partitions and outages', { skip }, () => {
  const schema = `test_dbfault_${randomBytes(5).toString('hex')}`;
  const secret = randomBytes(32).toString('base64url');
  const cleanup: (() => Promise<unknown> | unknown)[] = [];
  let direct: PostgresStore;

  after(async () => {
    for (const step of cleanup.reverse()) await step();
    await direct?.close();
    await dropSchema(schema);
  });

  async function instance(env: Record<string, string>) {
    direct ??= new PostgresStore({ connectionString: postgresUrl(), schema });
    const target = new URL(postgresUrl());
    const proxy = await CuttableProxy.start(target.hostname, Number(target.port || 5432));
    const viaProxy = new URL(postgresUrl());
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const server = await startProcess({
      DATABASE_URL: viaProxy.toString(),
      DATABASE_SCHEMA: schema,
      SECRET: secret,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'tandem-dbfault-')),
      DATABASE_TIMEOUT_MS: '1000',
      ...env,
    });
    cleanup.push(
      () => proxy.close(),
      () => server.stop('SIGKILL'),
    );
    return { proxy, server };
  }

  const clients: DocClient[] = [];
  after(() => {
    for (const client of clients) client.destroy();
  });

  const shapeCount = async (boardId: string, prefix: string) =>
    (await storedShapes(direct, boardId)).split(`"${prefix}`).length - 1;

  /** Failed attempts to append to the store, from the server's metrics. */
  const appendErrors = async (server: ServerProcess) => {
    const text = await fetch(`${server.url}/metrics`).then((r) => r.text());
    return Number(/tandem_store_errors_total\{op="append"\} (\d+)/.exec(text)?.[1] ?? 0);
  };

  /** Waits until the server's room holds `count` shapes named `prefix…` (a second client sees them). */
  async function serverHolds(
    server: ServerProcess,
    boardId: string,
    cookie: string,
    prefix: string,
    count: number,
  ) {
    const reader = connectDoc(server.wsUrl, boardId, { cookie });
    try {
      await waitUntil(`the server holds ${count} ${prefix} shapes`, () => {
        const keys = [...reader.doc.getMap('shapes').keys()];
        return keys.filter((key) => key.startsWith(prefix)).length === count;
      });
    } finally {
      reader.destroy();
    }
  }

  test('silent partition: edits wait in memory, /readyz tells the truth, and the board recovers once the database answers again', async () => {
    const { proxy, server } = await instance({ PERSIST_DEBOUNCE_MS: '50', PERSIST_MAX_DELAY_MS: '200' });
    const owner = await new ApiClient(server.url).signup('Owner');
    const boardId = await owner.createBoard();
    const later = await owner.createBoard('Opened after the partition');
    const writer = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    clients.push(writer);
    await waitSynced(writer);
    addShape(writer.doc, 'before-0', { type: 'rect', x: 0, y: 0 });
    await waitUntil('the first edit is stored', async () => (await shapeCount(boardId, 'before-')) === 1);

    proxy.blackhole();
    for (let i = 0; i < 10; i++) addShape(writer.doc, `during-${i}`, { type: 'rect', x: i, y: 1 });
    await waitUntil(
      '/readyz reports the store unreachable',
      async () => (await fetch(`${server.url}/readyz`)).status === 503,
      20_000,
    );
    const me = await owner.call('GET', '/api/me');
    assert.ok(me.status >= 500, `/api/me fails during the partition (${me.status}) rather than hang`);
    // The persister has tried to store the edits, and its query on a silent connection timed out.
    await waitUntil(
      'a write to the store failed during the partition',
      async () => (await appendErrors(server)) > 0,
      20_000,
    );
    assert.equal(await shapeCount(boardId, 'during-'), 0, 'nothing reached the database meanwhile');

    proxy.heal();
    await waitUntil(
      'every edit made during the partition is stored',
      async () => (await shapeCount(boardId, 'during-')) === 10,
      20_000,
    );
    await waitUntil(
      '/readyz is 200 again',
      async () => (await fetch(`${server.url}/readyz`)).status === 200,
      20_000,
    );
    await waitUntil('/api/me answers again', async () => (await owner.call('GET', '/api/me')).status === 200);
    const reader = connectDoc(server.wsUrl, later, { cookie: owner.cookie });
    clients.push(reader);
    await waitSynced(reader, 20_000);
    addShape(writer.doc, 'after-0', { type: 'rect', x: 0, y: 2 });
    await waitUntil('a new edit is stored', async () => (await shapeCount(boardId, 'after-')) === 1);
    assert.equal(await server.stop('SIGTERM'), 0, 'a clean stop exits 0');
    assert.equal(await shapeCount(boardId, 'during-'), 10);
  });

  test('SIGTERM during an outage retries within the shutdown budget, stores everything and exits 0', async () => {
    const { proxy, server } = await instance({
      PERSIST_DEBOUNCE_MS: '60000',
      PERSIST_MAX_DELAY_MS: '60000',
      SHUTDOWN_TIMEOUT_MS: '15000',
    });
    const owner = await new ApiClient(server.url).signup('Owner');
    const boardId = await owner.createBoard();
    const writer = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    clients.push(writer);
    await waitSynced(writer);
    for (let i = 0; i < 20; i++) addShape(writer.doc, `unsaved-${i}`, { type: 'rect', x: i, y: 0 });
    await serverHolds(server, boardId, owner.cookie, 'unsaved-', 20);
    proxy.disconnect();
    const refusedBefore = proxy.refused;
    server.child.kill('SIGTERM');
    // The outage lasts until the stopping server has failed to reach the database more than once:
    // it retried rather than gave up (each attempt is a connection the proxy refuses).
    await waitUntil(
      'the stopping server retried the store',
      () => proxy.refused >= refusedBefore + 2,
      10_000,
    );
    proxy.reconnect();
    assert.equal(await server.exited, 0, 'every edit was stored, so the stop is clean');
    writer.provider.shouldConnect = false;
    assert.equal(await shapeCount(boardId, 'unsaved-'), 20, 'nothing was lost');
  });

  test('SIGTERM during an outage longer than the budget exits non-zero', async () => {
    const { proxy, server } = await instance({
      PERSIST_DEBOUNCE_MS: '60000',
      PERSIST_MAX_DELAY_MS: '60000',
      SHUTDOWN_TIMEOUT_MS: '2000',
    });
    const owner = await new ApiClient(server.url).signup('Owner');
    const boardId = await owner.createBoard();
    const writer = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    clients.push(writer);
    await waitSynced(writer);
    for (let i = 0; i < 5; i++) addShape(writer.doc, `lost-${i}`, { type: 'rect', x: i, y: 0 });
    await serverHolds(server, boardId, owner.cookie, 'lost-', 5);
    proxy.disconnect();
    const code = await server.stop('SIGTERM');
    writer.provider.shouldConnect = false;
    assert.equal(code, 2, 'edits left unstored: exit code 2');
    assert.equal(await shapeCount(boardId, 'lost-'), 0, 'indeed not stored');
  });
});
