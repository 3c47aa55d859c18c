// REST, accounts and sessions (docs/api.md §7, §8): signup, login, guest, logout, /api/me, the session
// cookie, validation, rate limits, and sessions that survive a restart.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { User } from '@tandem/shared';
import { ApiClient, uniqueEmail } from '../../testing/clients.ts';
import { assertError, assertSessionCookie, isoDate, sessionCookie } from '../../testing/rest.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { hashSessionId, newSessionId } from '../src/auth/tokens.ts';

const PASSWORD = 'correct horse battery';

function assertUser(user: User, expected: Partial<User>): void {
  assert.deepEqual(Object.keys(user).sort(), ['color', 'createdAt', 'email', 'id', 'isGuest', 'name']);
  assert.match(user.id, /^[A-Za-z0-9_-]{16,64}$/);
  assert.match(user.createdAt, isoDate);
  assert.ok(user.color.length > 0);
  for (const [key, value] of Object.entries(expected)) assert.deepEqual(user[key as keyof User], value, key);
}

describe('REST: accounts and sessions', () => {
  let server: TestServer;
  // Plenty of signups from one IP in this suite; the limit itself is tested on its own server below.
  before(async () => {
    server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '10000' } });
  });
  after(() => server.close());
  const client = () => new ApiClient(server.url);

  describe('GET /api/auth/session', () => {
    test('200 {user: null} for a signed-out visitor, 200 {user} as /api/me for a signed-in one', async () => {
      const visitor = client();
      const none = await visitor.call<{ user: User | null }>('GET', '/api/auth/session');
      assert.equal(none.status, 200, JSON.stringify(none.body));
      assert.deepEqual(none.body, { user: null });
      const email = uniqueEmail();
      const ada = client();
      const signedUp = await ada.call<{ user: User }>('POST', '/api/auth/signup', {
        email,
        name: 'Ada',
        password: PASSWORD,
      });
      const session = await ada.call<{ user: User | null }>('GET', '/api/auth/session');
      assert.equal(session.status, 200);
      assert.deepEqual(session.body.user, signedUp.body.user);
      assert.deepEqual(session.body, (await ada.call('GET', '/api/me')).body);
      await ada.call('POST', '/api/auth/logout');
      assert.deepEqual((await ada.call('GET', '/api/auth/session')).body, { user: null });
    });
  });

  describe('POST /api/auth/signup', () => {
    test('201 {user} with a lower-cased email, and an httpOnly SameSite=Lax session cookie on Path=/', async () => {
      const email = uniqueEmail();
      const ada = client();
      const answer = await ada.call<{ user: User }>('POST', '/api/auth/signup', {
        email: `  ${email.toUpperCase()} `,
        name: '  Ada Lovelace  ',
        password: PASSWORD,
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assertUser(answer.body.user, { name: 'Ada Lovelace', email, isGuest: false });
      assert.ok(!('passwordHash' in answer.body.user));
      assert.doesNotMatch(JSON.stringify(answer.body), /scrypt|correct horse/);
      const cookie = assertSessionCookie(answer);
      assert.equal(sessionCookie(answer)?.attributes.get('max-age'), String(30 * 24 * 60 * 60));
      // The cookie is the session: /api/me answers the same user.
      const me = await ada.call<{ user: User }>('GET', '/api/me');
      assert.equal(me.status, 200);
      assert.deepEqual(me.body.user, answer.body.user);
      assert.equal(ada.cookie, `tandem_session=${cookie}`);
    });

    test('409 EMAIL_TAKEN for an email in use, also in another letter case', async () => {
      const email = uniqueEmail();
      await client().signup('First', email);
      for (const variant of [email, email.toUpperCase(), ` ${email.replace(/^u/, 'U')} `]) {
        const again = client();
        const answer = await again.call('POST', '/api/auth/signup', {
          email: variant,
          name: 'Second',
          password: PASSWORD,
        });
        assertError(answer, 409, 'EMAIL_TAKEN', ['email'], variant);
        assert.equal(sessionCookie(answer), null, 'no cookie on a failed signup');
      }
    });

    test('422 VALIDATION names each bad field: name, email, password', async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{ email: uniqueEmail(), name: '', password: PASSWORD }, ['name']],
        [{ email: uniqueEmail(), name: '    ', password: PASSWORD }, ['name']],
        [{ email: uniqueEmail(), name: 'n'.repeat(41), password: PASSWORD }, ['name']],
        [{ email: uniqueEmail(), password: PASSWORD }, ['name']],
        [{ email: uniqueEmail(), name: 42, password: PASSWORD }, ['name']],
        [{ email: 'not-an-email', name: 'Ada', password: PASSWORD }, ['email']],
        [{ email: '', name: 'Ada', password: PASSWORD }, ['email']],
        [{ email: `${'a'.repeat(250)}@example.com`, name: 'Ada', password: PASSWORD }, ['email']],
        [{ name: 'Ada', password: PASSWORD }, ['email']],
        [{ email: uniqueEmail(), name: 'Ada', password: 'short12' }, ['password']],
        [{ email: uniqueEmail(), name: 'Ada', password: 'p'.repeat(201) }, ['password']],
        [{ email: uniqueEmail(), name: 'Ada' }, ['password']],
        [{ email: 'nope', name: '', password: '1' }, ['email', 'name', 'password']],
        [{}, ['email', 'name', 'password']],
      ];
      for (const [body, fields] of cases) {
        const answer = await client().call('POST', '/api/auth/signup', body);
        assertError(answer, 422, 'VALIDATION', fields, JSON.stringify(body).slice(0, 80));
        assert.equal(sessionCookie(answer), null);
      }
    });

    test('the limits are inclusive: a 40-character name and 8- and 200-character passwords are accepted', async () => {
      for (const password of ['p'.repeat(8), 'p'.repeat(200)]) {
        const answer = await client().call('POST', '/api/auth/signup', {
          email: uniqueEmail(),
          name: 'n'.repeat(40),
          password,
        });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
      }
    });
  });

  describe('POST /api/auth/login', () => {
    let email: string;
    let userId: string;
    before(async () => {
      email = uniqueEmail();
      userId = (await client().signup('Grace', email)).userId;
    });

    test('200 {user} and a new session cookie; the email is matched case-insensitively', async () => {
      const grace = client();
      const answer = await grace.call<{ user: User }>('POST', '/api/auth/login', {
        email: email.toUpperCase(),
        password: PASSWORD,
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertUser(answer.body.user, { id: userId, name: 'Grace', email, isGuest: false });
      assertSessionCookie(answer);
      assert.equal((await grace.call('GET', '/api/me')).status, 200);
    });

    test('401 BAD_CREDENTIALS, the same answer for an unknown email and a wrong password, and no cookie', async () => {
      const wrong = await client().call('POST', '/api/auth/login', { email, password: 'wrong password' });
      const unknown = await client().call('POST', '/api/auth/login', {
        email: uniqueEmail(),
        password: PASSWORD,
      });
      assertError(wrong, 401, 'BAD_CREDENTIALS');
      assertError(unknown, 401, 'BAD_CREDENTIALS');
      assert.deepEqual(wrong.body, unknown.body);
      assert.equal(sessionCookie(wrong), null);
      assert.equal(sessionCookie(unknown), null);
    });

    test('422 VALIDATION for a malformed email or a missing password', async () => {
      assertError(
        await client().call('POST', '/api/auth/login', { email: 'x', password: PASSWORD }),
        422,
        'VALIDATION',
        ['email'],
      );
      assertError(await client().call('POST', '/api/auth/login', { email }), 422, 'VALIDATION', ['password']);
      assertError(
        await client().call('POST', '/api/auth/login', { email, password: '' }),
        422,
        'VALIDATION',
        ['password'],
      );
    });
  });

  describe('POST /api/auth/guest', () => {
    test('201 {user} with isGuest, no email, a trimmed name, and a session cookie', async () => {
      const guest = client();
      const answer = await guest.call<{ user: User }>('POST', '/api/auth/guest', { name: '  Visitor ' });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assertUser(answer.body.user, { name: 'Visitor', email: null, isGuest: true });
      assertSessionCookie(answer);
      const me = await guest.call<{ user: User }>('GET', '/api/me');
      assert.deepEqual(me.body.user, answer.body.user);
    });

    test('422 VALIDATION with fields.name', async () => {
      for (const body of [{ name: '' }, { name: '   ' }, { name: 'g'.repeat(41) }, {}, { name: null }]) {
        assertError(
          await client().call('POST', '/api/auth/guest', body),
          422,
          'VALIDATION',
          ['name'],
          JSON.stringify(body),
        );
      }
    });
  });

  describe('POST /api/auth/logout and GET /api/me', () => {
    test('GET /api/me without a session, or with an unknown one: 401 AUTH_REQUIRED', async () => {
      assertError(await client().call('GET', '/api/me'), 401, 'AUTH_REQUIRED');
      const forged = client();
      forged.cookie = `tandem_session=${newSessionId()}`;
      assertError(await forged.call('GET', '/api/me'), 401, 'AUTH_REQUIRED');
      forged.cookie = 'tandem_session=%%%not-a-session';
      assertError(await forged.call('GET', '/api/me'), 401, 'AUTH_REQUIRED');
    });

    test('logout answers 204, clears the cookie, and the old cookie no longer works', async () => {
      const ada = await client().signup('Ada');
      const cookie = ada.cookie;
      const answer = await ada.call('POST', '/api/auth/logout');
      assert.equal(answer.status, 204);
      assert.equal(answer.body, null);
      const cleared = sessionCookie(answer);
      assert.ok(cleared, 'logout sets the cookie to clear it');
      assert.equal(cleared.value, '');
      assert.equal(cleared.attributes.get('path'), '/');
      const expires = cleared.attributes.get('expires');
      assert.ok(
        cleared.attributes.get('max-age') === '0' ||
          (expires !== undefined && Date.parse(expires) <= Date.now()),
        'the cookie is expired',
      );
      // A client that kept the old cookie (another tab, a copy) is signed out too.
      const stale = client();
      stale.cookie = cookie;
      assertError(await stale.call('GET', '/api/me'), 401, 'AUTH_REQUIRED');
      assertError(await stale.call('GET', '/api/boards'), 401, 'AUTH_REQUIRED');
      assertError(await stale.call('POST', '/api/boards', { title: 'x' }), 401, 'AUTH_REQUIRED');
    });

    test('logging out twice, or without a session, still answers 204', async () => {
      const ada = await client().signup('Ada');
      assert.equal((await ada.call('POST', '/api/auth/logout')).status, 204);
      assert.equal((await ada.call('POST', '/api/auth/logout')).status, 204);
      assert.equal((await client().call('POST', '/api/auth/logout')).status, 204);
    });

    test('logging out ends only that session: another login of the same user keeps working', async () => {
      const email = uniqueEmail();
      const laptop = await client().signup('Ada', email);
      const phone = client();
      assert.equal((await phone.call('POST', '/api/auth/login', { email, password: PASSWORD })).status, 200);
      assert.equal((await laptop.call('POST', '/api/auth/logout')).status, 204);
      assertError(await laptop.call('GET', '/api/me'), 401, 'AUTH_REQUIRED');
      assert.equal((await phone.call('GET', '/api/me')).status, 200);
    });

    test('an expired session is 401 AUTH_REQUIRED', async () => {
      const ada = await client().signup('Ada');
      const id = newSessionId();
      const past = new Date(Date.parse('2020-01-01T00:00:00Z'));
      await server.store.createSession({
        idHash: hashSessionId(id),
        userId: ada.userId,
        createdAt: past,
        expiresAt: new Date(past.getTime() + 1000),
      });
      const stale = client();
      stale.cookie = `tandem_session=${id}`;
      assertError(await stale.call('GET', '/api/me'), 401, 'AUTH_REQUIRED');
    });
  });
});

describe('REST: login rate limits (LOGIN_ATTEMPTS_PER_MINUTE=3, addresses from X-Forwarded-For)', () => {
  let server: TestServer;
  const LIMIT = 3;
  before(async () => {
    server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'true' } });
  });
  after(() => server.close());
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  async function account(ip: string): Promise<string> {
    const email = uniqueEmail();
    const answer = await new ApiClient(server.url).call(
      'POST',
      '/api/auth/signup',
      { email, name: 'Target', password: PASSWORD },
      from(ip),
    );
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return email;
  }

  function assertLimited(answer: Awaited<ReturnType<ApiClient['call']>>): void {
    assertError(answer, 429, 'RATE_LIMITED');
    const retryAfter = answer.headers.get('retry-after');
    assert.match(retryAfter ?? '', /^\d+$/, 'Retry-After is a number of seconds');
    assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);
    assert.equal(sessionCookie(answer), null);
  }

  test('per email: attempts on one account from many addresses are cut off, even with the right password', async () => {
    const email = await account('10.1.0.1');
    const c = new ApiClient(server.url);
    for (let i = 0; i < LIMIT; i++) {
      const answer = await c.call(
        'POST',
        '/api/auth/login',
        { email, password: `wrong ${i}xxxx` },
        from(`10.1.1.${i}`),
      );
      assertError(answer, 401, 'BAD_CREDENTIALS', undefined, `attempt ${i + 1}`);
    }
    assertLimited(await c.call('POST', '/api/auth/login', { email, password: PASSWORD }, from('10.1.1.200')));
    // The same account in another letter case is the same email.
    assertLimited(
      await c.call(
        'POST',
        '/api/auth/login',
        { email: email.toUpperCase(), password: PASSWORD },
        from('10.1.1.201'),
      ),
    );
    // Another account is not affected.
    const other = await account('10.1.0.2');
    const ok = await c.call(
      'POST',
      '/api/auth/login',
      { email: other, password: PASSWORD },
      from('10.1.1.202'),
    );
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  test('per IP: one address trying many emails is cut off; other addresses are not', async () => {
    const c = new ApiClient(server.url);
    for (let i = 0; i < LIMIT; i++) {
      const answer = await c.call(
        'POST',
        '/api/auth/login',
        { email: uniqueEmail(), password: PASSWORD },
        from('10.2.0.1'),
      );
      assertError(answer, 401, 'BAD_CREDENTIALS', undefined, `attempt ${i + 1}`);
    }
    const real = await account('10.2.0.9');
    assertLimited(
      await c.call('POST', '/api/auth/login', { email: real, password: PASSWORD }, from('10.2.0.1')),
    );
    const elsewhere = await c.call(
      'POST',
      '/api/auth/login',
      { email: real, password: PASSWORD },
      from('10.2.0.2'),
    );
    assert.equal(elsewhere.status, 200, JSON.stringify(elsewhere.body));
  });
});

describe('REST: login rate limit per IP without a trusted proxy', () => {
  test('a spoofed X-Forwarded-For does not reset the per-IP budget', async () => {
    const server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '3' } });
    try {
      const c = new ApiClient(server.url);
      for (let i = 0; i < 3; i++) {
        const answer = await c.call(
          'POST',
          '/api/auth/login',
          { email: uniqueEmail(), password: PASSWORD },
          { 'x-forwarded-for': `203.0.113.${i}` },
        );
        assertError(answer, 401, 'BAD_CREDENTIALS', undefined, `attempt ${i + 1}`);
      }
      const answer = await c.call(
        'POST',
        '/api/auth/login',
        { email: uniqueEmail(), password: PASSWORD },
        { 'x-forwarded-for': '203.0.113.99' },
      );
      assertError(answer, 429, 'RATE_LIMITED');
      assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
    } finally {
      await server.close();
    }
  });
});

describe('REST: the session cookie behind https (PUBLIC_ORIGIN https://…)', () => {
  test('the cookie is also Secure', async () => {
    const origin = 'https://tandem.example.com';
    const server = await startServer({ env: { PUBLIC_ORIGIN: origin } });
    try {
      const c = new ApiClient(server.url, origin);
      const answer = await c.call('POST', '/api/auth/guest', { name: 'Secure' });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const cookie = sessionCookie(answer);
      assert.ok(cookie?.attributes.has('secure'), 'Secure');
      assert.ok(cookie?.attributes.has('httponly'), 'HttpOnly');
      assert.equal(cookie?.attributes.get('samesite')?.toLowerCase(), 'lax');
      assert.equal(cookie?.attributes.get('path'), '/');
      // The check is against PUBLIC_ORIGIN, not the address the server listens on.
      assertError(
        await new ApiClient(server.url).call('POST', '/api/auth/guest', { name: 'x' }),
        403,
        'FORBIDDEN',
      );
    } finally {
      await server.close();
    }
  });
});

describe('REST: sessions survive a restart on the same data dir', () => {
  test('a session cookie issued before the restart still signs the user in after it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tandem-rest-restart-'));
    try {
      const first = await startServer({ dataDir });
      let ada: ApiClient;
      let boardId: string;
      try {
        ada = await new ApiClient(first.url).signup('Ada');
        boardId = await ada.createBoard('Survives');
      } finally {
        await first.close({ keepData: true });
      }
      const second = await startServer({ dataDir });
      try {
        const again = new ApiClient(second.url);
        again.cookie = ada.cookie;
        const me = await again.call<{ user: User }>('GET', '/api/me');
        assert.equal(me.status, 200, JSON.stringify(me.body));
        assert.equal(me.body.user.id, ada.userId);
        const board = await again.call<{ board: { title: string }; role: string }>(
          'GET',
          `/api/boards/${boardId}`,
        );
        assert.equal(board.status, 200);
        assert.equal(board.body.board.title, 'Survives');
        assert.equal(board.body.role, 'owner');
        // Access tokens are signed with the secret kept in the data dir, so it must not change.
        assert.equal(second.config.secret, first.config.secret);
      } finally {
        await second.close({ keepData: true });
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('REST: signup limit per IP (SIGNUPS_PER_MINUTE), separate from login attempts', () => {
  test('more guests than login attempts may join from one address; past the signup limit, 429 with Retry-After', async () => {
    const server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '2', SIGNUPS_PER_MINUTE: '5' } });
    try {
      for (let i = 0; i < 5; i++) {
        const answer = await new ApiClient(server.url).call('POST', '/api/auth/guest', {
          name: `Guest ${i}`,
        });
        assert.equal(answer.status, 201, `guest ${i + 1}`);
      }
      const answer = await new ApiClient(server.url).call('POST', '/api/auth/guest', {
        name: 'One too many',
      });
      assertError(answer, 429, 'RATE_LIMITED');
      assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
    } finally {
      await server.close();
    }
  });

  test('a call with no body may still say it is JSON', async () => {
    const server = await startServer();
    try {
      const owner = await new ApiClient(server.url).signup();
      const boardId = await owner.createBoard();
      const answer = await owner.call('DELETE', `/api/boards/${boardId}`, undefined, {
        'content-type': 'application/json',
      });
      assert.equal(answer.status, 204);
      const logout = await owner.call('POST', '/api/auth/logout', undefined, {
        'content-type': 'application/json',
      });
      assert.equal(logout.status, 204);
    } finally {
      await server.close();
    }
  });
});
