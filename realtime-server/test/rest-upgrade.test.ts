// A guest turned into a full account keeps their boards (POST /api/auth/upgrade), and every
// member of a board can read its member list, with other people's emails for the owner only.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Member, User } from '@tandem/shared';
import { ApiClient, uniqueEmail } from '../../testing/clients.ts';
import { assertError } from '../../testing/rest.ts';
import { startServer, type TestServer } from '../../testing/server.ts';

const PASSWORD = 'correct horse battery';

describe('REST: guest upgrade and member lists', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '10000' } });
  });
  after(() => server.close());
  const client = () => new ApiClient(server.url);

  describe('POST /api/auth/upgrade', () => {
    test('200 {user}: same id, no longer a guest, boards kept, and the new credentials sign in', async () => {
      const guest = await client().guest('Gus');
      const board = await guest.createBoard('Kept');
      const oldCookie = guest.cookie;
      const email = uniqueEmail();
      const answer = await guest.call<{ user: User }>('POST', '/api/auth/upgrade', {
        email: email.toUpperCase(),
        password: PASSWORD,
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.user.id, guest.userId);
      assert.equal(answer.body.user.isGuest, false);
      assert.equal(answer.body.user.email, email);
      assert.equal(answer.body.user.name, 'Gus');
      assert.notEqual(guest.cookie, oldCookie, 'a fresh session');
      const boards = await guest.call<{ boards: { id: string; role: string }[] }>('GET', '/api/boards');
      assert.deepEqual(
        boards.body.boards.map((b) => [b.id, b.role]),
        [[board, 'owner']],
      );
      // The guest session is gone; the email and password open the same account.
      const old = new ApiClient(server.url);
      old.cookie = oldCookie;
      assertError(await old.call('GET', '/api/me'), 401, 'AUTH_REQUIRED');
      const again = client();
      const login = await again.call<{ user: User }>('POST', '/api/auth/login', {
        email,
        password: PASSWORD,
      });
      assert.equal(login.status, 200);
      assert.equal(login.body.user.id, guest.userId);
      const theirs = await again.call<{ boards: { id: string }[] }>('GET', '/api/boards');
      assert.deepEqual(
        theirs.body.boards.map((b) => b.id),
        [board],
      );
    });

    test('a new name may be given with the upgrade', async () => {
      const guest = await client().guest('G');
      const answer = await guest.call<{ user: User }>('POST', '/api/auth/upgrade', {
        email: uniqueEmail(),
        password: PASSWORD,
        name: '  Grace  ',
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.user.name, 'Grace');
    });

    test('409 EMAIL_TAKEN for an email in use, and the guest stays a guest', async () => {
      const email = uniqueEmail();
      await client().signup('Taken', email);
      const guest = await client().guest('Gil');
      const answer = await guest.call('POST', '/api/auth/upgrade', { email, password: PASSWORD });
      assertError(answer, 409, 'EMAIL_TAKEN');
      const me = await guest.call<{ user: User }>('GET', '/api/me');
      assert.equal(me.body.user.isGuest, true);
    });

    test('409 CONFLICT for a full account, 401 signed out, 422 for a bad body', async () => {
      const full = await client().signup('Full');
      assertError(
        await full.call('POST', '/api/auth/upgrade', { email: uniqueEmail(), password: PASSWORD }),
        409,
        'CONFLICT',
      );
      assertError(
        await client().call('POST', '/api/auth/upgrade', { email: uniqueEmail(), password: PASSWORD }),
        401,
        'AUTH_REQUIRED',
      );
      const guest = await client().guest('Gwen');
      const bad = await guest.call<{ error: { fields: Record<string, string> } }>(
        'POST',
        '/api/auth/upgrade',
        {
          email: 'not an email',
          password: 'short',
        },
      );
      assertError(bad, 422, 'VALIDATION');
      assert.ok(bad.body.error.fields.email && bad.body.error.fields.password);
    });
  });

  describe('GET /api/boards/:id/members for every member', () => {
    test('editors and viewers see the members read-only, other people’s emails hidden; outsiders get 404', async () => {
      const owner = await client().signup('Olga');
      const ed = await client().signup('Ed');
      const vi = await client().signup('Vi');
      const id = await owner.createBoard('Team');
      await owner.share(id, ed, 'editor');
      await owner.share(id, vi, 'viewer');
      for (const who of [ed, vi]) {
        const answer = await who.call<{ members: Member[] }>('GET', `/api/boards/${id}/members`);
        assert.equal(answer.status, 200);
        assert.deepEqual(
          answer.body.members.map((m) => m.userId).sort(),
          [owner.userId, ed.userId, vi.userId].sort(),
        );
        for (const m of answer.body.members) {
          if (m.userId === who.userId) assert.ok(m.email, 'my own email');
          else assert.equal(m.email, null, 'others’ emails hidden');
        }
        // Reading is all they can do.
        assertError(await who.call('DELETE', `/api/boards/${id}/members/${owner.userId}`), 403, 'FORBIDDEN');
      }
      const owners = await owner.call<{ members: Member[] }>('GET', `/api/boards/${id}/members`);
      assert.ok(
        owners.body.members.every((m) => m.email),
        'the owner sees every email',
      );
      assertError(
        await client()
          .signup('Out')
          .then((o) => o.call('GET', `/api/boards/${id}/members`)),
        404,
        'NOT_FOUND',
      );
    });
  });
});
