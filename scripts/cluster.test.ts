// `npm run cluster` end to end: the real script on free ports over the machine's Redis and
// PostgreSQL (a schema and prefix of this run's own, removed afterwards). Through its balancer:
// both instances answer, an account and a board are made, two y-websocket clients on different
// instances converge; SIGTERM stops everything cleanly with every edit stored.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CloseCode } from '@tandem/shared';
import pg from 'pg';
import { createClient } from 'redis';
import type * as Y from 'yjs';
import { openStore } from '../realtime-server/src/store/index.ts';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  shapesJson,
  storedShapes,
  waitSynced,
} from '../testing/clients.ts';
import { freePort, postgresUrl, redisUrl, skipUnless, waitUntil } from '../testing/services.ts';

const root = new URL('..', import.meta.url).pathname;
const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

/** GET over a fresh TCP connection (no keep-alive pool), so each call is a new balancer pick. */
function getFresh(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

/** Open document connections on one instance, from its own /metrics. */
async function connectionsOn(port: number): Promise<number> {
  const { body } = await getFresh(port, '/metrics');
  const match = /^tandem_connections (\d+)/m.exec(body);
  assert.ok(match, 'tandem_connections in /metrics');
  return Number(match[1]);
}

describe('npm run cluster', { skip }, () => {
  const run = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const schema = `tandem_cluster_test_${run}`;
  const prefix = `tandem-cluster-test-${run}:`;
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-cluster-'));
  const clients: DocClient[] = [];
  let cluster: ChildProcess | null = null;
  let output = '';

  after(async () => {
    for (const client of clients) client.destroy();
    if (cluster && cluster.exitCode === null && cluster.signalCode === null) {
      cluster.kill('SIGKILL');
      await once(cluster, 'exit');
    }
    const db = new pg.Client({ connectionString: postgresUrl() });
    await db.connect();
    await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db.end();
    const redis = createClient({ url: redisUrl() });
    await redis.connect();
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*` })) {
      if (keys.length > 0) await redis.del(keys);
    }
    await redis.quit();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('serves both instances through one balancer; clients on different instances converge; SIGTERM stops it cleanly', async () => {
    const balancerPort = await freePort();
    const instancePorts = [await freePort(), await freePort()];
    const publicOrigin = `http://localhost:${balancerPort}`;
    cluster = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts'], {
      cwd: root,
      env: {
        ...process.env,
        CLUSTER_PORT: String(balancerPort),
        CLUSTER_INSTANCE_PORTS: instancePorts.join(','),
        DATABASE_URL: postgresUrl(),
        REDIS_URL: redisUrl(),
        DATABASE_SCHEMA: schema,
        REDIS_PREFIX: prefix,
        DATA_DIR: dataDir,
        CLIENT_DIR: '',
        LOG_LEVEL: 'warn',
        // Long enough that edits are still waiting in memory at SIGTERM.
        PERSIST_DEBOUNCE_MS: '30000',
        PERSIST_MAX_DELAY_MS: '30000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    cluster.stdout?.on('data', collect);
    cluster.stderr?.on('data', collect);
    const exited = once(cluster, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    try {
      await scenario(balancerPort, instancePorts, publicOrigin, exited);
    } catch (error) {
      console.error(`--- npm run cluster output ---\n${output}--- end ---`);
      throw error;
    }
  });

  async function scenario(
    balancerPort: number,
    instancePorts: number[],
    publicOrigin: string,
    exited: Promise<[number | null, NodeJS.Signals | null]>,
  ): Promise<void> {
    await waitUntil(
      'the cluster is ready behind its balancer',
      () =>
        getFresh(balancerPort, '/readyz').then(
          (r) => r.status === 200,
          () => false,
        ),
      120_000,
    );
    await waitUntil('the cluster printed its URLs', () => output.includes('Tandem cluster is ready'), 10_000);
    assert.ok(output.includes(publicOrigin), 'it prints the origin browsers use');

    // Round robin per TCP connection: consecutive connections alternate between the instances.
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await getFresh(balancerPort, '/healthz');
      assert.equal(answer.status, 200);
      seen.push((JSON.parse(answer.body) as { instance: string }).instance);
    }
    assert.deepEqual([...new Set(seen)].sort(), ['tandem-1', 'tandem-2']);
    for (let i = 1; i < seen.length; i++) assert.notEqual(seen[i], seen[i - 1], `alternates: ${seen}`);

    // Accounts and boards through the balancer (PUBLIC_ORIGIN is the balancer's origin).
    const base = `http://127.0.0.1:${balancerPort}`;
    const owner = await new ApiClient(base, publicOrigin).signup('Owner');
    const boardId = await owner.createBoard('Across instances');
    const guest = await new ApiClient(base, publicOrigin).signup('Guest');
    await owner.share(boardId, guest, 'editor');

    // Open y-websocket clients through the balancer until one sits on each instance.
    const wsBase = `ws://127.0.0.1:${balancerPort}`;
    const placed = new Map<number, DocClient>();
    const counts = () => Promise.all(instancePorts.map(connectionsOn));
    const total = (list: number[]) => list.reduce((a, b) => a + b, 0);
    for (let attempt = 0; attempt < 8 && placed.size < 2; attempt++) {
      const user = placed.size === 0 ? owner : guest;
      const before = await counts();
      const client = connectDoc(wsBase, boardId, { cookie: user.cookie, origin: publicOrigin });
      await waitSynced(client);
      let now = before;
      await waitUntil('the new connection is counted', async () => {
        now = await counts();
        return total(now) === total(before) + 1;
      });
      const index = now.findIndex((n, i) => n > (before[i] ?? 0));
      if (placed.has(index)) {
        client.destroy();
        await waitUntil('the extra connection is gone', async () => total(await counts()) === total(before));
      } else {
        placed.set(index, client);
        clients.push(client);
      }
    }
    assert.equal(placed.size, 2, 'one client on each instance');
    const [a, b] = [placed.get(0), placed.get(1)] as [DocClient, DocClient];

    // Concurrent edits on both instances, including one Y.Text typed into from both sides.
    addShape(a.doc, 'from-1', { type: 'sticky', x: 1, y: 1, color: 'yellow' }, 'one');
    addShape(b.doc, 'from-2', { type: 'rect', x: 2, y: 2, color: 'blue' }, 'two');
    await waitUntil('both shapes everywhere', () => {
      const shapes = a.doc.getMap('shapes');
      return shapes.has('from-2') && b.doc.getMap('shapes').has('from-1');
    });
    const textOn = (client: DocClient) =>
      (client.doc.getMap('shapes').get('from-1') as Y.Map<unknown>).get('text') as Y.Text;
    textOn(a).insert(0, 'A');
    textOn(b).insert(textOn(b).length, 'B');
    await waitUntil('the replicas converge on both edits', () => {
      const json = shapesJson(a.doc);
      return json === shapesJson(b.doc) && json.includes('AoneB');
    });
    const final = shapesJson(a.doc);

    // Graceful stop: clients are told 1001 (go elsewhere), pending edits are stored, exit 0.
    cluster?.kill('SIGTERM');
    const [code, signal] = await exited;
    assert.equal(signal, null);
    assert.equal(code, 0, 'the cluster exits cleanly');
    await waitUntil('both clients were told 1001', () =>
      [a, b].every((client) => client.closes.some((close) => close.code === CloseCode.GOING_AWAY)),
    );
    for (const client of [a, b]) client.provider.disconnect();
    assert.match(output, /Every instance has stopped/);

    const store = await openStore({ databaseUrl: postgresUrl(), dataDir, schema });
    try {
      assert.equal(await storedShapes(store, boardId), final, 'every edit was stored at shutdown');
    } finally {
      await store.close();
    }
  }
});

describe('npm run cluster without its services', () => {
  test('stops at once with a sentence naming the variable', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tandem-cluster-'));
    t.after(() => rmSync(dataDir, { recursive: true, force: true }));
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts'], {
      cwd: root,
      env: {
        ...process.env,
        CLUSTER_PORT: String(await freePort()),
        CLUSTER_INSTANCE_PORTS: `${await freePort()},${await freePort()}`,
        REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
        DATA_DIR: dataDir,
        CLIENT_DIR: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 1);
    assert.match(stderr, /nothing answers at redis:\/\/127\.0\.0\.1:\d+\. Start it, or point REDIS_URL/);
  });
});
