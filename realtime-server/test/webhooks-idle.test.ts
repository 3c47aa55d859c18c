// No webhook, no polling cost (docs/api.md §15): an instance with no webhook anywhere does not
// look for deliveries every WEBHOOK_POLL_MS, only asks the Store every WORK_CHECK_MS whether there
// is any webhook work; a webhook made after a long idle still delivers at once, and one made on
// another instance wakes this one within a few seconds. Real servers, a real receiver process.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiPaths } from '@tandem/shared';
import { ApiClient } from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { Receiver } from '../../testing/receiver.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { skipUnless, waitUntil } from '../../testing/services.ts';
import type { Store } from '../src/store/store.ts';
import { WORK_CHECK_MS } from '../src/webhooks/webhooks.ts';

const POLL_MS = 50;

/** Counts the poller's looks for due deliveries (claims) on this Store from now on. */
function countClaims(store: Store): { readonly count: number } {
  const repository = store.webhooks;
  const claim = repository.claim.bind(repository);
  const counter = { count: 0 };
  repository.claim = (...args) => {
    counter.count += 1;
    return claim(...args);
  };
  return counter;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function webhookOn(owner: ApiClient, boardId: string, url: string) {
  const created = await owner.call('POST', apiPaths.webhooks(boardId), { url, events: ['comment.created'] });
  assert.equal(created.status, 201, JSON.stringify(created.body));
}

const comment = (owner: ApiClient, boardId: string, body: string) =>
  owner.call('POST', apiPaths.threads(boardId), { anchor: { x: 0, y: 0 }, body });

describe('webhook poller when idle (SQLite, one instance)', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    receiver = await Receiver.start();
    server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_POLL_MS: String(POLL_MS) } });
  });
  after(async () => {
    receiver?.stop();
    await server?.close();
  });

  test('with no webhook it does not look for deliveries; a webhook made after a long idle delivers at once', async () => {
    const owner = await new ApiClient(server.url).signup('Olive');
    const boardId = await owner.createBoard('Quiet');
    const claims = countClaims(server.store);
    // Thirty poll intervals with no webhook anywhere: not one look for deliveries.
    await sleep(30 * POLL_MS);
    assert.equal(claims.count, 0, 'no claims while there is no webhook');

    await webhookOn(owner, boardId, receiver.url('idle'));
    const sentAt = Date.now();
    assert.equal((await comment(owner, boardId, 'After the quiet')).status, 201);
    await waitUntil(
      'the receiver got the comment',
      async () => (await receiver.received('idle')).length === 1,
    );
    const took = Date.now() - sentAt;
    assert.ok(took < WORK_CHECK_MS / 2, `delivered in ${took} ms, not after the next idle check`);
    // And it keeps looking every WEBHOOK_POLL_MS now that a webhook exists.
    const before = claims.count;
    await sleep(20 * POLL_MS);
    assert.ok(claims.count - before >= 5, `${claims.count - before} looks in ${20 * POLL_MS} ms`);
  });
});

const clusterSkip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));
describe('webhook poller when idle (PostgreSQL, two instances)', { skip: clusterSkip }, () => {
  test('a webhook made on A wakes B within a few seconds', async () => {
    const receiver = await Receiver.start();
    const cluster = new TestCluster({
      env: { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_POLL_MS: String(POLL_MS) },
    });
    try {
      const a = await cluster.start();
      const b = await cluster.start();
      const owner = await new ApiClient(a.url).signup('Olive');
      const boardId = await owner.createBoard('Two');
      const claimsOnB = countClaims(b.store);
      await sleep(30 * POLL_MS);
      assert.equal(claimsOnB.count, 0, 'B does not look while there is no webhook');

      await webhookOn(owner, boardId, receiver.url('cluster'));
      const madeAt = Date.now();
      await waitUntil('B looks for deliveries again', () => claimsOnB.count > 0, WORK_CHECK_MS + 3000);
      assert.ok(Date.now() - madeAt <= WORK_CHECK_MS + 1000, `B woke after ${Date.now() - madeAt} ms`);
      // An event queued through B is delivered.
      const onB = new ApiClient(b.url);
      onB.cookie = owner.cookie;
      assert.equal((await comment(onB, boardId, 'Through B')).status, 201);
      await waitUntil('the receiver got it', async () => (await receiver.received('cluster')).length === 1);
    } finally {
      await cluster.close();
      receiver.stop();
    }
  });
});
