// Signed webhooks (docs/api.md §15) against a real receiver PROCESS (testing/webhook-receiver.mjs):
// the signature verifies; a receiver that answers 500 three times gets the event on the fourth
// try; board.updated comes at most once per window per board under a stream of edits from two
// instances and names who changed what; a delivery whose instance is killed (SIGKILL) mid-send is
// delivered by the other instance (two real server processes on PostgreSQL and Redis); one waiting
// for its retry survives a restart (SQLite); private and loopback addresses are refused at creation
// and again at delivery.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  addPageEntry,
  apiPaths,
  type BoardUpdatedData,
  docKey,
  type WebhookDelivery,
  type WebhookPayload,
} from '@tandem/shared';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  waitSynced,
  whenStored,
} from '../../testing/clients.ts';
import { clusterEnv, type ServerProcess, startProcess } from '../../testing/process.ts';
import { Receiver, verifySignature } from '../../testing/receiver.ts';
import { assertError } from '../../testing/rest.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { dropSchema, postgresUrl, skipUnless, waitUntil } from '../../testing/services.ts';
import { PostgresStore } from '../src/store/postgres.ts';
import { PRIVATE_ADDRESS_SENTENCE } from '../src/webhooks/addresses.ts';

type Created = { webhook: { id: string; url: string; events: string[] }; secret: string };

async function createWebhook(owner: ApiClient, boardId: string, url: string, events: string[]) {
  const answer = await owner.call<Created>('POST', apiPaths.webhooks(boardId), { url, events });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body;
}

const deliveriesOf = async (owner: ApiClient, boardId: string, webhookId: string) =>
  (await owner.call<{ deliveries: WebhookDelivery[] }>('GET', apiPaths.webhookDeliveries(boardId, webhookId)))
    .body.deliveries;

const addComment = (owner: ApiClient, boardId: string, body: string) =>
  owner.call('POST', apiPaths.threads(boardId), { anchor: { x: 10, y: 20 }, body });

describe('webhooks on one instance (SQLite)', () => {
  let server: TestServer;
  let strict: TestServer;
  let receiver: Receiver;
  before(async () => {
    receiver = await Receiver.start();
    server = await startServer({
      env: { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_POLL_MS: '50' },
    });
    strict = await startServer({ env: { WEBHOOK_POLL_MS: '50' } });
  });
  after(async () => {
    receiver?.stop();
    await server?.close();
    await strict?.close();
  });

  test('the owner creates a webhook (secret shown once); a comment arrives signed, with its id and type', async () => {
    const owner = await new ApiClient(server.url).signup('Olive');
    const boardId = await owner.createBoard('Retro');
    const { webhook, secret } = await createWebhook(owner, boardId, receiver.url('signed'), [
      'comment.created',
    ]);
    assert.match(secret, /^whsec_/);
    const listed = await owner.call<{ webhooks: { id: string }[] }>('GET', apiPaths.webhooks(boardId));
    assert.deepEqual(
      listed.body.webhooks.map((w) => w.id),
      [webhook.id],
    );
    assert.ok(!JSON.stringify(listed.body).includes(secret), 'the secret is never listed');
    // Only the owner manages webhooks.
    const editor = await new ApiClient(server.url).signup('Eddie');
    await owner.share(boardId, editor, 'editor');
    assertError(await editor.call('GET', apiPaths.webhooks(boardId)), 403, 'FORBIDDEN');

    assert.equal((await addComment(owner, boardId, 'Ship it')).status, 201);
    await waitUntil(
      'the receiver got the comment',
      async () => (await receiver.received('signed')).length === 1,
    );
    const [got] = await receiver.received('signed');
    assert.ok(got);
    assert.ok(
      verifySignature(secret, got.headers['tandem-signature'] ?? '', got.body),
      'the signature verifies',
    );
    assert.ok(!verifySignature(`${secret}x`, got.headers['tandem-signature'] ?? '', got.body));
    const t = Number(/t=(\d+)/.exec(got.headers['tandem-signature'] ?? '')?.[1]);
    assert.ok(Math.abs(t - Date.now() / 1000) < 120, 'the signature carries the time it was made');
    const payload = JSON.parse(got.body) as WebhookPayload<{ comment: { body: string } }>;
    assert.equal(payload.type, 'comment.created');
    assert.equal(payload.boardId, boardId);
    assert.equal(payload.data.comment.body, 'Ship it');
    assert.match(payload.id, /^evt_/);
    await waitUntil('the delivery is listed as delivered', async () => {
      const [d] = await deliveriesOf(owner, boardId, webhook.id);
      return d?.status === 'delivered' && d.id === got.headers['tandem-delivery'] && d.responseStatus === 200;
    });
  });

  test('a receiver that answers 500 three times gets the event on the fourth try; the owner sees why the first ones failed', async () => {
    const owner = await new ApiClient(server.url).signup('Olive');
    const boardId = await owner.createBoard('Retries');
    await receiver.plan('flaky', [500, 500, 500]);
    const { webhook, secret } = await createWebhook(owner, boardId, receiver.url('flaky'), [
      'comment.created',
    ]);
    await addComment(owner, boardId, 'Again');
    await waitUntil(
      'four attempts reached the receiver',
      async () => (await receiver.received('flaky')).length >= 4,
    );
    const got = await receiver.received('flaky');
    assert.deepEqual(
      got.map((r) => r.answer),
      [500, 500, 500, 200],
    );
    // One delivery, retried: the same id and body every time, each attempt signed.
    assert.equal(new Set(got.map((r) => r.headers['tandem-delivery'])).size, 1);
    assert.equal(new Set(got.map((r) => r.body)).size, 1);
    for (const r of got) assert.ok(verifySignature(secret, r.headers['tandem-signature'] ?? '', r.body));
    // Backoff: each wait at least the one before (100, 200, 400 ms).
    const gaps = got.slice(1).map((r, i) => r.at - (got[i] as { at: number }).at);
    assert.ok(gaps[1]! >= 190 && gaps[2]! >= 390, `backoff doubles: ${gaps.join(', ')}`);
    await waitUntil('delivered after four attempts', async () => {
      const [d] = await deliveriesOf(owner, boardId, webhook.id);
      return d?.status === 'delivered' && d.attempts === 4;
    });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await receiver.received('flaky')).length, 4, 'nothing is sent after a 2xx');

    // A failing one, listed with its status and sentence while it is retried.
    await receiver.plan('down', [503, 503, 503, 503, 503, 503]);
    const failing = await createWebhook(owner, boardId, receiver.url('down'), ['comment.created']);
    await addComment(owner, boardId, 'Down');
    await waitUntil('the failure is listed with its status and sentence', async () => {
      const [d] = await deliveriesOf(owner, boardId, failing.webhook.id);
      return (
        d?.status === 'pending' &&
        d.attempts >= 1 &&
        d.responseStatus === 503 &&
        d.error === 'The receiver answered 503.' &&
        d.nextAttemptAt !== null
      );
    });
  });

  test('bad input: a host name with a part over 63 characters, or over 253 in all, gets 422 with a sentence naming it (even with WEBHOOK_ALLOW_PRIVATE)', async () => {
    const owner = await new ApiClient(server.url).signup('Olive');
    const boardId = await owner.createBoard('Long names');
    const cases: [string, RegExp][] = [
      [`https://${'a'.repeat(64)}.example.com/hook`, /part of 64 characters.*at most 63/],
      [`http://${'a'.repeat(64)}/hook`, /part of 64 characters.*at most 63/],
      [
        `https://${Array.from({ length: 5 }, () => 'b'.repeat(60)).join('.')}.com/hook`,
        /308 characters long.*at most 253/,
      ],
    ];
    for (const [url, sentence] of cases) {
      const answer = await owner.call('POST', apiPaths.webhooks(boardId), {
        url,
        events: ['comment.created'],
      });
      assertError(answer, 422, 'VALIDATION');
      const fields = (answer.body as { error: { fields: { url?: string } } }).error.fields;
      assert.match(fields.url ?? '', sentence, url);
    }
    // The limits themselves are fine: a 63-character part, 253 characters in all.
    const longest = `${Array.from({ length: 3 }, () => 'c'.repeat(63)).join('.')}.${'d'.repeat(61)}`;
    assert.equal(longest.length, 253);
    for (const host of [`${'a'.repeat(63)}.example.com`, longest]) {
      const answer = await owner.call('POST', apiPaths.webhooks(boardId), {
        url: `http://${host}/hook`,
        events: ['comment.created'],
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
    }
  });

  test('bad input: a private or loopback URL without WEBHOOK_ALLOW_PRIVATE gets 422 with the sentence, at creation and again at delivery', async () => {
    const owner = await new ApiClient(strict.url).signup('Olive');
    const boardId = await owner.createBoard('Strict');
    const loopbackName = hostname();
    const resolved = await lookup(loopbackName).catch(() => null);
    const urls = [
      receiver.url('never'),
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://localhost/hook',
      // A name that resolves to loopback (this machine's own name, in /etc/hosts).
      ...(resolved && /^(127\.|::1$)/.test(resolved.address) ? [`https://${loopbackName}/hook`] : []),
    ];
    for (const url of urls) {
      const answer = await owner.call('POST', apiPaths.webhooks(boardId), {
        url,
        events: ['comment.created'],
      });
      assertError(answer, 422, 'VALIDATION');
      assert.deepEqual(
        (answer.body as { error: { fields: unknown } }).error.fields,
        { url: PRIVATE_ADDRESS_SENTENCE },
        url,
      );
    }
    assertError(
      await owner.call('POST', apiPaths.webhooks(boardId), {
        url: 'http://example.test/hook',
        events: ['comment.created'],
      }),
      422,
      'VALIDATION',
    );
    assertError(
      await owner.call('POST', apiPaths.webhooks(boardId), {
        url: 'https://example.test/x',
        events: ['board.deleted'],
      }),
      422,
      'VALIDATION',
    );
    assert.deepEqual(
      (await owner.call<{ webhooks: unknown[] }>('GET', apiPaths.webhooks(boardId))).body.webhooks,
      [],
    );

    // At delivery: a webhook whose name resolved to a public address when it was registered and
    // resolves to a loopback one now (DNS rebinding) is refused at send time. Written straight
    // into the Store, as if it had passed the check at creation.
    const me = await owner.call<{ user: { id: string } }>('GET', apiPaths.me());
    await strict.store.webhooks.create({
      id: 'rebound',
      boardId,
      url: `https://${loopbackName}:${new URL(receiver.base).port}/hook/rebound`,
      events: ['comment.created'],
      secret: 'whsec_test',
      createdBy: me.body.user.id,
      createdAt: new Date(),
    });
    await addComment(owner, boardId, 'Rebound');
    await waitUntil('the delivery failed with the private-address sentence', async () => {
      const [d] = await deliveriesOf(owner, boardId, 'rebound');
      return d?.attempts === 1 && d.error === PRIVATE_ADDRESS_SENTENCE && d.responseStatus === null;
    });
    assert.equal((await receiver.received('rebound')).length, 0, 'the receiver was never called');
    assert.equal((await receiver.received('never')).length, 0);
  });
});

describe('webhooks across a restart (SQLite)', () => {
  let receiver: Receiver;
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-webhooks-'));
  const env = {
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_RETRY_BASE_MS: '1500',
    WEBHOOK_POLL_MS: '50',
    WEBHOOK_TIMEOUT_MS: '2000',
  };
  before(async () => {
    receiver = await Receiver.start();
  });
  after(() => {
    receiver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a delivery waiting for its retry when the server stops is sent by the server started again', async () => {
    const first = await startServer({ dataDir, env });
    const owner = await new ApiClient(first.url).signup('Olive');
    const boardId = await owner.createBoard('Restart');
    await receiver.plan('restart', [503]);
    const { webhook } = await createWebhook(owner, boardId, receiver.url('restart'), ['comment.created']);
    await addComment(owner, boardId, 'Before the restart');
    await waitUntil('the first attempt failed and a retry is due', async () => {
      const [d] = await deliveriesOf(owner, boardId, webhook.id);
      return d?.status === 'pending' && d.attempts === 1;
    });
    await first.close({ keepData: true });
    assert.equal((await receiver.received('restart')).length, 1);

    const second = await startServer({ dataDir, env, port: Number(new URL(first.url).port) });
    try {
      await waitUntil(
        'the restarted server delivers it',
        async () => (await receiver.received('restart')).length === 2,
      );
      const [one, two] = await receiver.received('restart');
      assert.equal(two!.headers['tandem-delivery'], one!.headers['tandem-delivery']);
      assert.equal(two!.answer, 200);
    } finally {
      await second.close({ keepData: true });
    }
  });
});

describe('webhooks on two server processes (PostgreSQL + Redis)', async () => {
  const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));
  const schema = `test_webhooks_${randomBytes(5).toString('hex')}`;
  const WINDOW_MS = 1500;
  const env = {
    ...clusterEnv(schema),
    PERSIST_DEBOUNCE_MS: '50',
    PERSIST_MAX_DELAY_MS: '200',
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_RETRY_BASE_MS: '200',
    WEBHOOK_POLL_MS: '100',
    WEBHOOK_UPDATE_WINDOW_MS: String(WINDOW_MS),
    // A hanging receiver holds its claim this long (plus 5 s): the kill must land inside it.
    WEBHOOK_TIMEOUT_MS: '20000',
  };
  const processes = new Map<string, ServerProcess>();
  const clients: DocClient[] = [];
  let receiver: Receiver;
  let store: PostgresStore;

  before(async () => {
    if (skip) return;
    receiver = await Receiver.start();
    // One after another: two processes compiling at once on a loaded machine start slowly.
    processes.set('alpha', await startProcess({ ...env, INSTANCE_NAME: 'alpha' }));
    processes.set('beta', await startProcess({ ...env, INSTANCE_NAME: 'beta' }));
    store = new PostgresStore({ connectionString: postgresUrl(), schema });
  });
  after(async () => {
    for (const client of clients) client.destroy();
    receiver?.stop();
    for (const p of processes.values()) await p.stop('SIGKILL');
    await store?.close();
    if (!skip) await dropSchema(schema);
  });

  test(`board.updated comes at most once per window (${WINDOW_MS} ms) per board under a stream of edits on both instances, naming who changed what`, {
    skip,
  }, async () => {
    const alpha = processes.get('alpha')!;
    const beta = processes.get('beta')!;
    const owner = await new ApiClient(alpha.url).signup('Olive');
    const boardId = await owner.createBoard('Busy');
    const editor = await new ApiClient(beta.url).signup('Eddie');
    await owner.share(boardId, editor, 'editor');
    const { secret } = await createWebhook(owner, boardId, receiver.url('updates'), ['board.updated']);
    const me = (await owner.call<{ user: { id: string } }>('GET', apiPaths.me())).body.user.id;
    const them = (await editor.call<{ user: { id: string } }>('GET', apiPaths.me())).body.user.id;

    const a = connectDoc(alpha.wsUrl, boardId, { cookie: owner.cookie, origin: new URL(alpha.url).origin });
    const b = connectDoc(beta.wsUrl, boardId, { cookie: editor.cookie, origin: new URL(beta.url).origin });
    clients.push(a, b);
    await Promise.all([waitSynced(a), waitSynced(b)]);
    const made = { olive: new Set<string>(), eddie: new Set<string>() };
    // One edit on another page of the board: the event says which page each shape is on.
    addPageEntry(a.doc, 'second', 'Second');
    await whenStored(a);
    const page = connectDoc(beta.wsUrl, docKey(boardId, 'second'), {
      cookie: editor.cookie,
      origin: new URL(beta.url).origin,
    });
    clients.push(page);
    await waitSynced(page);
    addShape(page.doc, 'p1', { type: 'rect', x: 0, y: 0, w: 10, h: 10 });
    made.eddie.add('p1');

    // A stream of edits from both instances for at least four windows, an edit every 50 ms.
    const started = Date.now();
    let n = 0;
    while (Date.now() - started < 4 * WINDOW_MS) {
      n += 1;
      addShape(a.doc, `o${n}`, { type: 'sticky', x: n, y: 0, w: 10, h: 10 }, 'a');
      made.olive.add(`o${n}`);
      addShape(b.doc, `e${n}`, { type: 'rect', x: n, y: 50, w: 10, h: 10 });
      made.eddie.add(`e${n}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const edits = n * 2;
    // Every change reported: wait until each shape made is named in some event.
    const reported = async () => {
      const events = (await receiver.received('updates')).map(
        (r) => JSON.parse(r.body) as WebhookPayload<BoardUpdatedData>,
      );
      const byUser = new Map<string, Set<string>>();
      for (const e of events)
        for (const c of e.data.changes) {
          const ids = byUser.get(c.userId) ?? new Set<string>();
          for (const id of c.shapeIds) ids.add(id);
          byUser.set(c.userId, ids);
        }
      return { events, byUser };
    };
    await waitUntil(
      'every edit is reported in some board.updated',
      async () => {
        const { byUser } = await reported();
        return (
          [...made.olive].every((id) => byUser.get(me)?.has(id)) &&
          [...made.eddie].every((id) => byUser.get(them)?.has(id))
        );
      },
      30_000,
      100,
    );
    const { events } = await reported();
    const received = await receiver.received('updates');
    for (const r of received) assert.ok(verifySignature(secret, r.headers['tandem-signature'] ?? '', r.body));
    // At most one per window: consecutive events are a window apart, so a stream of edits over
    // `span` gives at most span / window + 1 events, however many edits and instances.
    const times = events.map((e) => Date.parse(e.at));
    for (let i = 1; i < times.length; i++) {
      assert.ok(
        times[i]! - times[i - 1]! >= WINDOW_MS,
        `events ${i - 1} and ${i} are ${times[i]! - times[i - 1]!} ms apart`,
      );
    }
    const span = times.at(-1)! - started;
    assert.ok(events.length <= Math.floor(span / WINDOW_MS) + 1, `${events.length} events over ${span} ms`);
    assert.ok(events.length >= 2 && events.length < edits / 4, `${events.length} events for ${edits} edits`);
    // Who changed what, by name.
    const names = new Map(events.flatMap((e) => e.data.changes.map((c) => [c.userId, c.name] as const)));
    assert.equal(names.get(me), 'Olive');
    assert.equal(names.get(them), 'Eddie');
    // And where: every shape under the page it is on.
    const pageOf = new Map(
      events.flatMap((e) => e.data.pages.flatMap((p) => p.shapeIds.map((id) => [id, p.pageId] as const))),
    );
    assert.equal(pageOf.get('p1'), 'second');
    for (const id of [...made.olive, ...made.eddie].filter((id) => id !== 'p1'))
      assert.equal(pageOf.get(id), 'main', id);
    for (const e of events) assert.equal(e.type, 'board.updated');
  });

  test('an instance killed (SIGKILL) while sending a delivery does not lose it: the other instance delivers it', {
    skip,
  }, async () => {
    const alpha = processes.get('alpha')!;
    const owner = await new ApiClient(alpha.url).signup('Olive');
    const boardId = await owner.createBoard('Crash');
    await receiver.plan('crash', ['hang']);
    const { webhook, secret } = await createWebhook(owner, boardId, receiver.url('crash'), [
      'comment.created',
    ]);
    assert.equal((await addComment(owner, boardId, 'Survive')).status, 201);
    await waitUntil(
      'the receiver holds the first attempt',
      async () => (await receiver.received('crash')).length === 1,
    );
    const [first] = await receiver.received('crash');
    const deliveryId = first!.headers['tandem-delivery']!;
    const lease = await store.webhooks.leaseOf(deliveryId);
    const holder = lease?.owner?.split(':')[0];
    assert.ok(holder === 'alpha' || holder === 'beta', `claimed by ${lease?.owner}`);
    const [survivorName] = [...processes.keys()].filter((k) => k !== holder);
    await processes.get(holder!)!.stop('SIGKILL');
    processes.delete(holder!);
    const survivor = processes.get(survivorName!)!;

    await waitUntil(
      'the other instance sends it again once the claim lapses',
      async () => (await receiver.received('crash')).length >= 2,
      60_000,
      200,
    );
    const again = (await receiver.received('crash'))[1]!;
    assert.equal(again.headers['tandem-delivery'], deliveryId, 'the same delivery');
    assert.equal(again.body, first!.body);
    assert.ok(verifySignature(secret, again.headers['tandem-signature'] ?? '', again.body));
    // The owner, asking the survivor, sees it delivered.
    const viaSurvivor = new ApiClient(survivor.url);
    viaSurvivor.cookie = owner.cookie;
    await waitUntil('listed as delivered', async () => {
      const [d] = await deliveriesOf(viaSurvivor, boardId, webhook.id);
      return d?.status === 'delivered' && d.id === deliveryId;
    });
  });
});
