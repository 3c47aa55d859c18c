// The REST rate limits on two real instances over PostgreSQL and Redis (SPEC §8 `RATE_LIMITED` with
// `Retry-After`, §9): what one email, IP or user spends through either instance counts against one
// budget, kept in Redis, so a load balancer spreading an attacker's calls gives no extra budget.
// Each limit counts apart from the others; with Redis gone each instance counts on its own.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { apiPaths } from '@tandem/shared';
import { pino } from 'pino';
import { createClient } from 'redis';
import { type ApiAnswer, ApiClient, uniqueEmail } from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { PrivateRedis, redisUrl, skipUnless } from '../../testing/services.ts';
import { openBus } from '../src/bus/index.ts';

type ErrorAnswer = { error: { code: string; message: string } };

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

/** A 429 as SPEC §8 gives it: RATE_LIMITED, Retry-After within the minute, the sentence naming it. */
function assertLimited(answer: ApiAnswer<unknown>, what: string): void {
  assert.equal(answer.status, 429, `${what}: ${JSON.stringify(answer.body)}`);
  const { error } = answer.body as ErrorAnswer;
  assert.equal(error.code, 'RATE_LIMITED', what);
  const retryAfter = Number(answer.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  assert.equal(error.message, `Too many attempts. Try again in ${retryAfter} seconds.`, what);
}

/** A sign-in from `ip` (TRUST_PROXY reads it from X-Forwarded-For, as behind a balancer). */
const login = (server: TestServer, email: string, password: string, ip: string) =>
  new ApiClient(server.url).call('POST', '/api/auth/login', { email, password }, { 'x-forwarded-for': ip });

describe('rate limits across instances', { skip }, () => {
  test('sign-in attempts for one email, spread over A and B and over addresses, are refused once the total passes the limit', async () => {
    const cluster = new TestCluster({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '4', TRUST_PROXY: 'true' } });
    try {
      const a = await cluster.start();
      const b = await cluster.start();
      const email = uniqueEmail();
      await new ApiClient(a.url).signup('Target', email, 'the right password');
      // Alternating instances, each attempt from another address: only the email's budget binds.
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const answer = await login(i % 2 === 0 ? a : b, email, `guess ${i}`, `198.51.100.${i + 1}`);
        statuses.push(answer.status);
      }
      assert.deepEqual(statuses, [401, 401, 401, 401], 'two wrong guesses on each instance');
      assertLimited(await login(a, email, 'guess 5', '198.51.100.20'), 'the 5th attempt, on A');
      assertLimited(
        await login(b, email, 'the right password', '198.51.100.21'),
        'B, even the right password',
      );
      // Redis holds the counts under digests: no key names the email (or the addresses).
      const redis = createClient({ url: redisUrl() });
      await redis.connect();
      try {
        const keys = await redis.keys('*');
        assert.ok(
          keys.some((k) => k.includes('login-email')),
          'the email limit counts in Redis',
        );
        assert.deepEqual(
          keys.filter((k) => k.includes(email) || k.includes('198.51.100.')),
          [],
          'no key holds the email or an address',
        );
      } finally {
        await redis.quit();
      }
      // Another email has its own budget, on either instance.
      const other = uniqueEmail();
      await new ApiClient(b.url).signup('Other', other, 'another password');
      assert.equal((await login(b, other, 'another password', '198.51.100.22')).status, 200);
    } finally {
      await cluster.close();
    }
  });

  test('sign-in attempts from one address, for different emails over A and B, are refused past the limit', async () => {
    const cluster = new TestCluster({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '4', TRUST_PROXY: 'true' } });
    try {
      const a = await cluster.start();
      const b = await cluster.start();
      const ip = '203.0.113.7';
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await login(i % 2 === 0 ? a : b, uniqueEmail(), 'guess', ip)).status);
      assert.deepEqual(statuses, [401, 401, 401, 401]);
      assertLimited(await login(b, uniqueEmail(), 'guess', ip), 'the 5th attempt from the address, on B');
      assertLimited(await login(a, uniqueEmail(), 'guess', ip), 'and on A');
      // Another address is not affected.
      assert.equal((await login(a, uniqueEmail(), 'guess', '203.0.113.8')).status, 401);
    } finally {
      await cluster.close();
    }
  });

  test('invite-link lookups from one address over A and B are refused past JOIN_LOOKUPS_PER_MINUTE, and count apart from sign-ins', async () => {
    const cluster = new TestCluster({
      env: { JOIN_LOOKUPS_PER_MINUTE: '3', LOGIN_ATTEMPTS_PER_MINUTE: '3', TRUST_PROXY: 'true' },
    });
    try {
      const a = await cluster.start();
      const b = await cluster.start();
      const ip = '192.0.2.44';
      const lookup = (server: TestServer) =>
        new ApiClient(server.url).call('GET', '/api/join/no-such-token', undefined, {
          'x-forwarded-for': ip,
        });
      const statuses: number[] = [];
      for (const server of [a, b, a]) statuses.push((await lookup(server)).status);
      assert.deepEqual(statuses, [404, 404, 404], 'a guessed token counts like a live one');
      assertLimited(await lookup(b), 'the 4th lookup, on B');
      assertLimited(await lookup(a), 'and on A');
      // The address's sign-in budget (the same size) is its own: untouched by the lookups.
      assert.equal((await login(a, uniqueEmail(), 'guess', ip)).status, 401);
    } finally {
      await cluster.close();
    }
  });

  test("one user's comments over A and B are refused past COMMENTS_PER_MINUTE, and write nothing", async () => {
    const cluster = new TestCluster({ env: { COMMENTS_PER_MINUTE: '3' } });
    try {
      const a = await cluster.start();
      const b = await cluster.start();
      const onA = await new ApiClient(a.url).signup('Writer');
      const boardId = await onA.createBoard('Comments');
      const onB = new ApiClient(b.url);
      onB.cookie = onA.cookie;
      const comment = (who: ApiClient, body: string) =>
        who.call('POST', apiPaths.threads(boardId), { anchor: { x: 10, y: 20 }, body });
      const statuses: number[] = [];
      for (const [i, who] of [onA, onB, onA].entries()) statuses.push((await comment(who, `c${i}`)).status);
      assert.deepEqual(statuses, [201, 201, 201]);
      assertLimited(await comment(onB, 'one too many'), 'the 4th comment, on B');
      assertLimited(await comment(onA, 'and on A'), 'and on A');
      const listed = await onB.call<{ threads: unknown[] }>('GET', apiPaths.threads(boardId));
      assert.equal(listed.body.threads.length, 3, 'the refused comments wrote nothing');
    } finally {
      await cluster.close();
    }
  });

  test('with Redis gone, limits are counted on the instance alone, never refused for it, and the log says so once', async () => {
    const redis = await PrivateRedis.start();
    const lines: { msg?: string; limit?: string }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const prefix = `test:${randomBytes(5).toString('hex')}:`;
    const bus = await openBus({ redisUrl: redis.url, prefix, logger });
    const server = await startServer({
      bus,
      logger,
      env: {
        REDIS_URL: redis.url,
        REDIS_PREFIX: prefix,
        LOGIN_ATTEMPTS_PER_MINUTE: '3',
        JOIN_LOOKUPS_PER_MINUTE: '2',
        TRUST_PROXY: 'true',
      },
    });
    try {
      const email = uniqueEmail();
      await new ApiClient(server.url).signup('Target', email, 'the right password');
      assert.equal((await login(server, email, 'the right password', '198.51.100.1')).status, 200);
      await redis.kill();
      // Counted on this instance alone from here (LOGIN_ATTEMPTS_PER_MINUTE), never a 500.
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await login(server, email, `guess ${i}`, `198.51.100.${i + 2}`)).status);
      assert.deepEqual(statuses, [401, 401, 401, 429]);
      const lookups: number[] = [];
      for (let i = 0; i < 3; i++)
        lookups.push((await new ApiClient(server.url).call('GET', '/api/join/no-such-token')).status);
      assert.deepEqual(lookups, [404, 404, 429], 'another limit, counted alone too');
      const said = lines.filter((line) => line.msg?.startsWith('rate limits: redis unreachable'));
      assert.equal(said.length, 1, 'said once for the outage, whichever limits noticed it');
    } finally {
      await server.close();
      await redis.stop();
    }
  });
});
