// PostgreSQL connections that die while Tandem holds them. A pooled client checked out for a
// transaction, an advisory lock or an asset upload has no listener of the pool's; if its server
// goes away between two queries, pg emits 'error' on it, and an 'error' event nobody listens to
// ends the process (seen in CI: a PostgreSQL outage killed an instance during shutdown).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import type pg from 'pg';
import { CuttableProxy } from '../../testing/proxy.ts';
import { postgresUrl, skipUnless, waitUntil } from '../../testing/services.ts';
import { PostgresStore } from '../src/store/postgres.ts';

const skip = await skipUnless('postgres');

describe('PostgreSQL store: a connection that dies while checked out', { skip }, () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  test('does not end the process: the error is logged, and the store works again once the database answers', async () => {
    const target = new URL(postgresUrl());
    const proxy = await CuttableProxy.start(target.hostname, Number(target.port || 5432));
    cleanup.push(() => proxy.close());
    const viaProxy = new URL(postgresUrl());
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const warnings: string[] = [];
    const logger = { warn: (_obj: unknown, msg: string) => warnings.push(msg) };
    const store = new PostgresStore({
      connectionString: viaProxy.toString(),
      schema: `test_pgfault_${randomBytes(4).toString('hex')}`,
      timeoutMs: 2000,
      logger: logger as never,
    });
    cleanup.push(() => store.close().catch(() => undefined));
    await store.migrate();

    // Held the way a transaction holds it, between two of its queries.
    const pool = (store as unknown as { pool: pg.Pool }).pool;
    const held = await pool.connect();
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      proxy.disconnect();
      await waitUntil('the held connection noticed', () =>
        warnings.includes('postgres connection failed while checked out'),
      );
      assert.deepEqual(uncaught, [], 'no uncaught error');
      held.release(new Error('connection lost'));
    } finally {
      process.off('uncaughtException', onUncaught);
    }

    proxy.reconnect();
    await waitUntil('the store answers again', () =>
      store.ping().then(
        () => true,
        () => false,
      ),
    );
  });
});
