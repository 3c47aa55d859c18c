// Hardening (issue 9, item 3): revoking access is certain, whatever happens to the bus. Two real
// server processes share the machine's PostgreSQL and a private redis-server, which is killed
// after the clients are connected: the revocation's bus message can never arrive. Each instance
// must still notice (it compares every connection's access version with the Store), and no
// content may be stored for a board once it is deleted.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CloseCode } from '@tandem/shared';
import pg from 'pg';
import { ApiClient, addShape, connectDoc, type DocClient, waitSynced } from '../../testing/clients.ts';
import { type ServerProcess, startProcess } from '../../testing/process.ts';
import { PrivateRedis, postgresUrl, skipUnless, waitUntil } from '../../testing/services.ts';
import { PostgresStore } from '../src/store/postgres.ts';

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

describe('hardening: revocation without the bus', { skip }, () => {
  const schema = `test_revoke_${randomBytes(5).toString('hex')}`;
  let redis: PrivateRedis;
  let a: ServerProcess;
  let b: ServerProcess;
  let direct: PostgresStore;
  const clients: DocClient[] = [];

  before(async () => {
    redis = await PrivateRedis.start();
    const env = {
      DATABASE_URL: postgresUrl(),
      DATABASE_SCHEMA: schema,
      REDIS_URL: redis.url,
      REDIS_PREFIX: `test:${randomBytes(4).toString('hex')}:`,
      SECRET: randomBytes(32).toString('base64url'),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'tandem-revoke-')),
      PERSIST_DEBOUNCE_MS: '20',
      PERSIST_MAX_DELAY_MS: '100',
    };
    a = await startProcess(env);
    b = await startProcess(env);
    direct = new PostgresStore({ connectionString: postgresUrl(), schema });
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await redis?.stop();
    await direct?.close();
    const client = new pg.Client({ connectionString: postgresUrl() });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  test('with Redis dead: a removed member, a deleted board and a signed-out session are all cut off on the other instance, and nothing is stored after the deletion', async () => {
    const owner = await new ApiClient(a.url).signup('Owner');
    const removed = await new ApiClient(b.url).signup('Removed');
    const signedOut = await new ApiClient(b.url).signup('Signed out');
    const kept = await new ApiClient(b.url).signup('Kept');
    const board = await owner.createBoard('Removal');
    const doomed = await owner.createBoard('Deletion');
    for (const member of [removed, signedOut, kept]) {
      await owner.share(board, member, 'editor');
      await owner.share(doomed, member, 'editor');
    }
    const open = (who: ApiClient, boardId: string) => {
      const client = connectDoc(b.wsUrl, boardId, { cookie: who.cookie });
      clients.push(client);
      return client;
    };
    const removedDoc = open(removed, board);
    const signedOutDoc = open(signedOut, board);
    const keptDoc = open(kept, board);
    const onDoomed = open(kept, doomed);
    await Promise.all([removedDoc, signedOutDoc, keptDoc, onDoomed].map((c) => waitSynced(c)));
    addShape(onDoomed.doc, 'before-deletion', { type: 'rect', x: 0, y: 0 });
    await waitUntil('the first edit on the doomed board is stored', async () => {
      const stored = await direct.loadDoc(doomed);
      return stored.updates.length > 0 || stored.snapshot !== null;
    });

    await redis.kill();

    assert.equal((await owner.call('DELETE', `/api/boards/${board}/members/${removed.userId}`)).status, 204);
    assert.equal((await signedOut.call('POST', '/api/auth/logout')).status, 204);
    assert.equal((await owner.call('DELETE', `/api/boards/${doomed}`)).status, 204);
    // The member on the deleted board keeps typing, as fast as the server lets it.
    let typed = 0;
    const typing = setInterval(() => {
      addShape(onDoomed.doc, `after-deletion-${typed++}`, { type: 'rect', x: typed, y: 1 });
    }, 20);
    try {
      await waitUntil(
        'the removed member is closed with 4403',
        () => removedDoc.closes.some((c) => c.code === CloseCode.NO_ACCESS),
        15_000,
      );
      await waitUntil(
        'the signed-out session is closed with 4401',
        () => signedOutDoc.closes.some((c) => c.code === CloseCode.NOT_AUTHENTICATED),
        15_000,
      );
      await waitUntil(
        'the deleted board’s connection is closed with 4404',
        () => onDoomed.closes.some((c) => c.code === CloseCode.NO_SUCH_BOARD),
        15_000,
      );
    } finally {
      clearInterval(typing);
    }
    assert.ok(typed > 0, 'edits were made after the deletion');
    assert.ok(keptDoc.provider.wsconnected, 'the member who kept access is still connected');
    assert.deepEqual(keptDoc.closes, [], 'and was never closed');

    // Everyone leaves; give any persister time to write what it still held.
    for (const client of [removedDoc, signedOutDoc, onDoomed]) client.provider.shouldConnect = false;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const stored = await direct.loadDoc(doomed);
    assert.equal(stored.updates.length, 0, 'no update of the deleted board is stored');
    assert.equal(stored.snapshot, null, 'no snapshot of the deleted board is stored');
  });
});
