// Hardening: /readyz follows the Store's ability to write, not only to answer. Every write is made
// to fail the way a full disk or a read-only database fails them — a trigger on every table of the
// instance's own database raises an error, while reads go on working — and readiness must drop
// (503, store "not writable"), then come back once writes work again. On both stores.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ApiClient } from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { postgresUrl, skipUnless, waitUntil } from '../../testing/services.ts';

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
