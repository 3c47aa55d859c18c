// The content API's write limit (SPEC §15: 60 writes a minute per key) on two real instances over
// PostgreSQL and Redis: the writes a key makes through either instance count against one budget,
// kept in Redis. With Redis gone the writes go on, counted on each instance alone.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiPaths, contentPaths } from '@tandem/shared';
import { ApiClient, withKey } from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { PrivateRedis, skipUnless } from '../../testing/services.ts';

type ErrorAnswer = { error: { code: string; message: string } };
type ShapesAnswer = { shapes: { id: string }[] };

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

/** A board with an editor key, made through `url`. */
async function boardWithKey(url: string): Promise<{ boardId: string; key: string }> {
  const owner = await new ApiClient(url).signup('Olive');
  const boardId = await owner.createBoard('Limits');
  const created = await owner.call<{ key: string }>('POST', apiPaths.integrations(boardId), {
    name: 'Sorter',
    role: 'editor',
  });
  assert.equal(created.status, 201);
  return { boardId, key: created.body.key };
}

const addSticky = (url: string, key: string, boardId: string, text: string) =>
  withKey<ShapesAnswer & ErrorAnswer>(url, key, 'POST', contentPaths.shapes(boardId), {
    shapes: [{ type: 'sticky', x: 0, y: 0, text }],
  });

const shapeCount = async (url: string, key: string, boardId: string) => {
  const read = await withKey<ShapesAnswer>(url, key, 'GET', contentPaths.board(boardId));
  assert.equal(read.status, 200);
  return read.body.shapes.length;
};

describe('content-API write limit across instances', { skip }, () => {
  test("a key's 61st write in a minute, 30 through A and 31 through B, is 429 with Retry-After and changes nothing", async () => {
    const cluster = new TestCluster();
    try {
      const a = await cluster.start();
      const b = await cluster.start();
      const { boardId, key } = await boardWithKey(a.url);
      for (let i = 0; i < 30; i++) {
        const added = await addSticky(a.url, key, boardId, `a${i}`);
        assert.equal(added.status, 201, `write ${i + 1} on A: ${JSON.stringify(added.body)}`);
      }
      for (let i = 0; i < 30; i++) {
        const added = await addSticky(b.url, key, boardId, `b${i}`);
        assert.equal(added.status, 201, `write ${i + 31} on B: ${JSON.stringify(added.body)}`);
      }
      assert.equal(await shapeCount(b.url, key, boardId), 60);

      const refused = await addSticky(b.url, key, boardId, 'one too many');
      assert.equal(refused.status, 429, 'the 61st write of the minute, across both instances');
      assert.equal(refused.body.error.code, 'RATE_LIMITED');
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.equal((await addSticky(a.url, key, boardId, 'and on A')).status, 429, 'A refuses it too');
      assert.equal(await shapeCount(a.url, key, boardId), 60, 'the refused writes changed nothing');

      // Another key has its own budget.
      const other = await boardWithKey(b.url);
      assert.equal((await addSticky(a.url, other.key, other.boardId, 'mine')).status, 201);
    } finally {
      await cluster.close();
    }
  });

  test('with Redis gone, writes are not refused: each instance counts on its own', async () => {
    const redis = await PrivateRedis.start();
    const cluster = new TestCluster({ redis: redis.url, env: { CONTENT_WRITES_PER_MINUTE: '3' } });
    try {
      const a = await cluster.start();
      const { boardId, key } = await boardWithKey(a.url);
      assert.equal((await addSticky(a.url, key, boardId, 'before')).status, 201);
      await redis.kill();
      // The limit goes on being counted (CONTENT_WRITES_PER_MINUTE on this instance), never a 500.
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await addSticky(a.url, key, boardId, `during${i}`)).status);
      assert.deepEqual(statuses, [201, 201, 201, 429]);
    } finally {
      await cluster.close();
      await redis.stop();
    }
  });
});
