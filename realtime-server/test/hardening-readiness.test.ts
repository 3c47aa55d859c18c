// Hardening: /readyz follows the Store's ability to write, not only to answer. Every write is made
// to fail the way a full disk or a read-only database fails them — a trigger on every table of the
// instance's own database raises an error, while reads go on working — and readiness must drop
// (503, store "not writable"), then come back once writes work again. On both stores.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  ApiClient,
  addShape,
  connectDoc,
  shapesJson,
  storedShapes,
  waitSynced,
  whenStored,
} from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { mountSmallDisk } from '../../testing/hardening.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { postgresUrl, skipUnless, waitUntil } from '../../testing/services.ts';
import { SqliteStore } from '../src/store/sqlite.ts';

const postgresSkip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

interface WriteBreaker {
  breakWrites(): Promise<void>;
  restoreWrites(): Promise<void>;
  close(): Promise<void>;
}

/** A second connection to the server's SQLite file that adds (and drops) failing triggers. */
function sqliteBreaker(server: TestServer): WriteBreaker {
  const db = new Database(join(server.dataDir, 'tandem.db'));
  db.pragma('busy_timeout = 5000');
  const tables = () =>
    (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .all() as {
        name: string;
      }[]
    ).map((t) => t.name);
  return {
    async breakWrites() {
      for (const table of tables()) {
        for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
          db.exec(
            `CREATE TRIGGER "fail_${op}_${table}" BEFORE ${op} ON "${table}" BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
          );
        }
      }
    },
    async restoreWrites() {
      for (const table of tables()) {
        for (const op of ['INSERT', 'UPDATE', 'DELETE'])
          db.exec(`DROP TRIGGER IF EXISTS "fail_${op}_${table}"`);
      }
    },
    async close() {
      db.close();
    },
  };
}

/** The same on PostgreSQL, in the cluster's own schema: writes fail with disk_full (53100). */
async function postgresBreaker(schema: string): Promise<WriteBreaker> {
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  await client.query(`SET search_path TO "${schema}"`);
  const tables = async () =>
    (
      await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'",
        [schema],
      )
    ).rows.map((r) => r.table_name);
  return {
    async breakWrites() {
      await client.query(
        `CREATE FUNCTION fail_write() RETURNS trigger LANGUAGE plpgsql AS
         $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100'; END $$`,
      );
      for (const table of await tables()) {
        await client.query(
          `CREATE TRIGGER fail_write BEFORE INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION fail_write()`,
        );
      }
    },
    async restoreWrites() {
      await client.query('DROP FUNCTION fail_write() CASCADE');
    },
    async close() {
      await client.end();
    },
  };
}

const readiness = async (server: TestServer) => {
  const answer = await fetch(`${server.url}/readyz`);
  return { status: answer.status, body: (await answer.json()) as { status: string; store: string } };
};

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`hardening: readiness follows the Store's writes (${engine})`, {
    skip: engine === 'postgres' ? postgresSkip : undefined,
  }, () => {
    let server: TestServer;
    let cluster: TestCluster | null = null;
    let breaker: WriteBreaker;
    before(async () => {
      if (engine === 'sqlite') {
        server = await startServer();
        breaker = sqliteBreaker(server);
      } else {
        cluster = new TestCluster();
        server = await cluster.start();
        breaker = await postgresBreaker(cluster.schema);
      }
    });
    after(async () => {
      await breaker.close();
      if (cluster) await cluster.close();
      else await server.close();
    });

    test('/readyz is 503 "not writable" while every write fails, and ready again after', async () => {
      const owner = await new ApiClient(server.url, server.origin).signup('Owner');
      const ready = await readiness(server);
      assert.equal(ready.status, 200, JSON.stringify(ready.body));
      assert.equal(ready.body.store, 'ok');

      await breaker.breakWrites();
      try {
        // Reads still work; writes do not.
        assert.equal((await owner.call('GET', '/api/boards')).status, 200);
        assert.equal((await owner.call('POST', '/api/boards', { title: 'Lost' })).status, 500);
        await waitUntil('/readyz reports the store cannot write', async () => {
          const answer = await readiness(server);
          return answer.status === 503 && answer.body.store === 'not writable';
        });
        assert.equal((await readiness(server)).body.status, 'unavailable');
      } finally {
        await breaker.restoreWrites();
      }
      await waitUntil(
        '/readyz is ready again once writes work',
        async () => (await readiness(server)).status === 200,
      );
      assert.equal((await owner.call('POST', '/api/boards', { title: 'Kept' })).status, 201);
    });
  });
}

/** Writes a file at `path` until the disk it is on has no room left; answers how many bytes it took. */
function fillDisk(path: string): number {
  const chunk = Buffer.alloc(64 * 1024, 1);
  const fd = openSync(path, 'w');
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return written;
}

describe('hardening: readiness on a disk that is really full (SQLite)', () => {
  // The triggers above make every write fail; a real full disk does not: rewriting one row in
  // place (the write probe) still fits in pages the database holds, while storing edits needs new
  // ones. Readiness must follow the saves, not only the probe.
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-full-disk-'));
  const skip = mountSmallDisk(dataDir, '16m');
  let server: TestServer | undefined;

  const filler = join(dataDir, 'filler');
  after(async () => {
    // Room first, so that a failed test's server can store what it holds and stop.
    rmSync(filler, { force: true });
    await server?.close({ keepData: true });
    if (!skip) execFileSync('umount', [dataDir]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('/readyz is 503 while edits cannot be stored, and every edit is stored once there is room', {
    skip,
  }, async () => {
    server = await startServer({ dataDir });
    const owner = await new ApiClient(server.url, server.origin).signup('Owner');
    const boardId = await owner.createBoard('Full disk');
    const client = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie, origin: server.origin });
    try {
      await waitSynced(client);
      addShape(client.doc, 'first', { kind: 'sticky', x: 0, y: 0, w: 200, h: 200 }, 'before');
      await whenStored(client);
      assert.equal((await readiness(server)).status, 200);

      fillDisk(filler);
      // People go on editing: each sticky carries 4 KB of text, more than any free page holds.
      let written = 0;
      const writing = setInterval(() => {
        written += 1;
        addShape(
          client.doc,
          `note-${written}`,
          { kind: 'sticky', x: written * 10, y: 0, w: 200, h: 200 },
          'x'.repeat(4096),
        );
      }, 50);
      try {
        await waitUntil(
          '/readyz reports that the store cannot take the edits',
          async () => {
            const answer = await readiness(server!);
            return answer.status === 503 && answer.body.store === 'not writable';
          },
          20_000,
        );
      } finally {
        clearInterval(writing);
      }
      assert.equal((await readiness(server)).body.status, 'unavailable');

      rmSync(filler);
      await waitUntil(
        '/readyz is ready again once there is room',
        async () => (await readiness(server!)).status === 200,
        20_000,
      );
      await whenStored(client, 30_000);
      const live = shapesJson(client.doc);
      client.destroy();
      await server.close({ keepData: true });
      server = undefined;
      const store = new SqliteStore({ dataDir });
      try {
        assert.equal(
          await storedShapes(store, boardId),
          live,
          'the Store holds every edit made while the disk was full',
        );
      } finally {
        await store.close();
      }
      assert.ok(written > 0 && live.includes(`note-${written}`));
    } finally {
      client.destroy();
    }
  });
});
