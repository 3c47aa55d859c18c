// REST, sharing (docs/api.md §4, §6, §7): share links (create, list, revoke), joining through a link,
// and the owner managing members (list, change role, remove).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type JoinAnswer,
  type JoinPreviewAnswer,
  linkTokenPattern,
  type Member,
  type Role,
  type ShareLink,
} from '@tandem/shared';
import { ApiClient } from '../../testing/clients.ts';
import { assertError, isoDate } from '../../testing/rest.ts';
import { startServer, type TestServer } from '../../testing/server.ts';

describe('REST: share links, joining and members', () => {
  let server: TestServer;
  let owner: ApiClient;
  const client = () => new ApiClient(server.url);

  before(async () => {
    server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '10000' } });
    owner = await client().signup('Olivia Owner');
  });
  after(() => server.close());

  async function createLink(boardId: string, role: 'editor' | 'viewer'): Promise<ShareLink> {
    const answer = await owner.call<{ link: ShareLink }>('POST', `/api/boards/${boardId}/links`, { role });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.link;
  }
  const join = (who: ApiClient, token: string) => who.call<JoinAnswer>('POST', `/api/join/${token}`);
  const roleOf = async (who: ApiClient, boardId: string): Promise<Role | null> => {
    const answer = await who.call<{ role: Role }>('GET', `/api/boards/${boardId}`);
    return answer.status === 200 ? answer.body.role : null;
  };

  describe('POST / GET / DELETE /api/boards/:id/links', () => {
    test('create answers 201 {link: {token, role, url}} with an unguessable token and a /join/ URL on PUBLIC_ORIGIN', async () => {
      const id = await owner.createBoard();
      for (const role of ['editor', 'viewer'] as const) {
        const link = await createLink(id, role);
        assert.match(link.token, linkTokenPattern);
        assert.equal(link.role, role);
        assert.equal(link.url, `${server.origin}/join/${link.token}`);
        assert.match(link.createdAt, isoDate);
        assert.equal(link.createdBy, owner.userId);
      }
    });

    test('GET lists the active links, newest first; a revoked link leaves the list', async () => {
      const id = await owner.createBoard();
      assert.deepEqual((await owner.call('GET', `/api/boards/${id}/links`)).body, { links: [] });
      const a = await createLink(id, 'editor');
      const b = await createLink(id, 'viewer');
      const listed = await owner.call<{ links: ShareLink[] }>('GET', `/api/boards/${id}/links`);
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body.links.map((l) => l.token).sort(), [a.token, b.token].sort());
      assert.deepEqual(
        listed.body.links.find((l) => l.token === a.token),
        a,
      );
      const revoked = await owner.call('DELETE', `/api/boards/${id}/links/${a.token}`);
      assert.equal(revoked.status, 204);
      assert.equal(revoked.body, null);
      const after = await owner.call<{ links: ShareLink[] }>('GET', `/api/boards/${id}/links`);
      assert.deepEqual(after.body.links, [b]);
    });

    test('create: 422 VALIDATION with fields.role for owner, an unknown role, or none', async () => {
      const id = await owner.createBoard();
      for (const body of [{ role: 'owner' }, { role: 'admin' }, { role: '' }, {}, { role: ['editor'] }]) {
        assertError(
          await owner.call('POST', `/api/boards/${id}/links`, body),
          422,
          'VALIDATION',
          ['role'],
          JSON.stringify(body),
        );
      }
      assert.deepEqual((await owner.call('GET', `/api/boards/${id}/links`)).body, { links: [] });
    });

    test('revoke: 404 NOT_FOUND for an unknown token, a revoked one, and another board’s link', async () => {
      const id = await owner.createBoard();
      const other = await owner.createBoard();
      const link = await createLink(id, 'editor');
      const elsewhere = await createLink(other, 'editor');
      assertError(await owner.call('DELETE', `/api/boards/${id}/links/${'C'.repeat(32)}`), 404, 'NOT_FOUND');
      assertError(await owner.call('DELETE', `/api/boards/${id}/links/${elsewhere.token}`), 404, 'NOT_FOUND');
      assert.equal((await owner.call('DELETE', `/api/boards/${id}/links/${link.token}`)).status, 204);
      assertError(await owner.call('DELETE', `/api/boards/${id}/links/${link.token}`), 404, 'NOT_FOUND');
      // The other board's link was not touched.
      const stillThere = await owner.call<{ links: ShareLink[] }>('GET', `/api/boards/${other}/links`);
      assert.deepEqual(stillThere.body.links, [elsewhere]);
    });
  });

  describe('POST /api/join/:token', () => {
    test('200 {boardId, role}: adds a membership with the link’s role; the board shows in the joiner’s list', async () => {
      const id = await owner.createBoard('Join me');
      const editorLink = await createLink(id, 'editor');
      const viewerLink = await createLink(id, 'viewer');
      const ed = await client().signup('Ed');
      const vi = await client().guest('Vi');
      const asEditor = await join(ed, editorLink.token);
      assert.equal(asEditor.status, 200, JSON.stringify(asEditor.body));
      assert.deepEqual(asEditor.body, { boardId: id, role: 'editor' });
      assert.deepEqual((await join(vi, viewerLink.token)).body, { boardId: id, role: 'viewer' });
      assert.equal(await roleOf(ed, id), 'editor');
      assert.equal(await roleOf(vi, id), 'viewer');
      const list = await vi.call<{ boards: { id: string; role: Role; ownerName: string }[] }>(
        'GET',
        '/api/boards',
      );
      const item = list.body.boards.find((b) => b.id === id);
      assert.equal(item?.role, 'viewer');
      assert.equal(item?.ownerName, 'Olivia Owner');
      // Joining again is harmless.
      assert.deepEqual((await join(vi, viewerLink.token)).body, { boardId: id, role: 'viewer' });
      const members = await owner.call<{ members: Member[] }>('GET', `/api/boards/${id}/members`);
      assert.equal(members.body.members.filter((m) => m.userId === vi.userId).length, 1);
    });

    test('never lowers an existing role, but raises a lower one', async () => {
      const id = await owner.createBoard();
      const editorLink = await createLink(id, 'editor');
      const viewerLink = await createLink(id, 'viewer');
      // The owner following their own viewer link stays owner.
      assert.deepEqual((await join(owner, viewerLink.token)).body, { boardId: id, role: 'owner' });
      assert.deepEqual((await join(owner, editorLink.token)).body, { boardId: id, role: 'owner' });
      assert.equal(await roleOf(owner, id), 'owner');
      // An editor following a viewer link stays editor.
      const ed = await client().signup('Ed');
      await join(ed, editorLink.token);
      assert.deepEqual((await join(ed, viewerLink.token)).body, { boardId: id, role: 'editor' });
      assert.equal(await roleOf(ed, id), 'editor');
      // A viewer following an editor link becomes editor.
      const vi = await client().signup('Vi');
      await join(vi, viewerLink.token);
      assert.deepEqual((await join(vi, editorLink.token)).body, { boardId: id, role: 'editor' });
      assert.equal(await roleOf(vi, id), 'editor');
      const members = await owner.call<{ members: Member[] }>('GET', `/api/boards/${id}/members`);
      assert.deepEqual(
        members.body.members.map((m) => [m.userId, m.role]).sort(),
        [
          [owner.userId, 'owner'],
          [ed.userId, 'editor'],
          [vi.userId, 'editor'],
        ].sort(),
      );
    });

    test('404 NOT_FOUND for an unknown, revoked or malformed token, or a deleted board’s link', async () => {
      const id = await owner.createBoard();
      const link = await createLink(id, 'editor');
      const visitor = await client().guest('Visitor');
      assertError(await join(visitor, 'D'.repeat(32)), 404, 'NOT_FOUND');
      assertError(await join(visitor, 'short'), 404, 'NOT_FOUND');
      assert.equal((await owner.call('DELETE', `/api/boards/${id}/links/${link.token}`)).status, 204);
      assertError(await join(visitor, link.token), 404, 'NOT_FOUND');
      assert.equal(await roleOf(visitor, id), null);
      const doomed = await owner.createBoard();
      const doomedLink = await createLink(doomed, 'viewer');
      assert.equal((await owner.call('DELETE', `/api/boards/${doomed}`)).status, 204);
      assertError(await join(visitor, doomedLink.token), 404, 'NOT_FOUND');
      assert.deepEqual((await visitor.call('GET', '/api/boards')).body, { boards: [] });
    });

    test('401 AUTH_REQUIRED without a session, and the link still works afterwards', async () => {
      const id = await owner.createBoard();
      const link = await createLink(id, 'viewer');
      assertError(await join(client(), link.token), 401, 'AUTH_REQUIRED');
      const later = await client().guest('Later');
      assert.deepEqual((await join(later, link.token)).body, { boardId: id, role: 'viewer' });
    });

    test('revoking a link keeps the members who already joined through it', async () => {
      const id = await owner.createBoard();
      const link = await createLink(id, 'editor');
      const early = await client().signup('Early');
      await join(early, link.token);
      assert.equal((await owner.call('DELETE', `/api/boards/${id}/links/${link.token}`)).status, 204);
      assert.equal(await roleOf(early, id), 'editor');
      const renamed = await early.call('PATCH', `/api/boards/${id}`, { title: 'Still an editor' });
      assert.equal(renamed.status, 200);
      const late = await client().signup('Late');
      assertError(await join(late, link.token), 404, 'NOT_FOUND');
    });
  });

  describe('GET / PATCH / DELETE /api/boards/:id/members', () => {
    let id: string;
    let ed: ApiClient;
    let vi: ApiClient;
    before(async () => {
      id = await owner.createBoard('Members');
      ed = await client().signup('Ed');
      vi = await client().guest('Vi');
      await owner.share(id, ed, 'editor');
      await owner.share(id, vi, 'viewer');
    });

    test('GET: {members: [{userId, name, email, color, isGuest, role, createdAt}]}, the owner first', async () => {
      const answer = await owner.call<{ members: Member[] }>('GET', `/api/boards/${id}/members`);
      assert.equal(answer.status, 200);
      for (const member of answer.body.members) {
        assert.deepEqual(Object.keys(member).sort(), [
          'color',
          'createdAt',
          'email',
          'isGuest',
          'name',
          'role',
          'userId',
        ]);
        assert.match(member.createdAt, isoDate);
        assert.ok(!('passwordHash' in member));
      }
      const [first, ...rest] = answer.body.members;
      assert.equal(first?.userId, owner.userId);
      assert.equal(first?.role, 'owner');
      assert.equal(first?.name, 'Olivia Owner');
      const byId = new Map(rest.map((m) => [m.userId, m]));
      assert.equal(byId.size, 2);
      assert.equal(byId.get(ed.userId)?.role, 'editor');
      assert.equal(byId.get(ed.userId)?.isGuest, false);
      assert.equal(byId.get(vi.userId)?.role, 'viewer');
      assert.equal(byId.get(vi.userId)?.isGuest, true);
      assert.equal(byId.get(vi.userId)?.email, null);
    });

    test('PATCH changes a role: 200 {members}, and the member’s own view follows', async () => {
      const answer = await owner.call<{ members: Member[] }>(
        'PATCH',
        `/api/boards/${id}/members/${vi.userId}`,
        {
          role: 'editor',
        },
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.members.find((m) => m.userId === vi.userId)?.role, 'editor');
      assert.equal(await roleOf(vi, id), 'editor');
      // A change down takes effect too: the viewer can no longer rename.
      assert.equal(
        (await owner.call('PATCH', `/api/boards/${id}/members/${vi.userId}`, { role: 'viewer' })).status,
        200,
      );
      assert.equal(await roleOf(vi, id), 'viewer');
      assertError(await vi.call('PATCH', `/api/boards/${id}`, { title: 'No' }), 403, 'FORBIDDEN');
    });

    test('PATCH: 422 VALIDATION with fields.role for owner, an unknown role, or none', async () => {
      for (const body of [{ role: 'owner' }, { role: 'admin' }, {}, { role: 3 }]) {
        assertError(
          await owner.call('PATCH', `/api/boards/${id}/members/${ed.userId}`, body),
          422,
          'VALIDATION',
          ['role'],
          JSON.stringify(body),
        );
      }
      assert.equal(await roleOf(ed, id), 'editor');
    });

    test('the owner can be neither changed nor removed: 403 FORBIDDEN', async () => {
      for (const role of ['editor', 'viewer']) {
        assertError(
          await owner.call('PATCH', `/api/boards/${id}/members/${owner.userId}`, { role }),
          403,
          'FORBIDDEN',
        );
      }
      assertError(await owner.call('DELETE', `/api/boards/${id}/members/${owner.userId}`), 403, 'FORBIDDEN');
      assert.equal(await roleOf(owner, id), 'owner');
    });

    test('an unknown member, or a user who is not a member of this board: 404 NOT_FOUND', async () => {
      const outsider = await client().signup('Outsider');
      for (const userId of ['E'.repeat(22), outsider.userId]) {
        assertError(
          await owner.call('PATCH', `/api/boards/${id}/members/${userId}`, { role: 'viewer' }),
          404,
          'NOT_FOUND',
        );
        assertError(await owner.call('DELETE', `/api/boards/${id}/members/${userId}`), 404, 'NOT_FOUND');
      }
      assert.equal(await roleOf(outsider, id), null, 'a role change does not create a membership');
    });

    test('DELETE removes a member: 204, then 404 for them and gone from the list; removing again is 404', async () => {
      const board = await owner.createBoard();
      const leaving = await client().signup('Leaving');
      await owner.share(board, leaving, 'editor');
      const answer = await owner.call('DELETE', `/api/boards/${board}/members/${leaving.userId}`);
      assert.equal(answer.status, 204);
      assert.equal(answer.body, null);
      assertError(await leaving.call('GET', `/api/boards/${board}`), 404, 'NOT_FOUND');
      const list = await leaving.call<{ boards: { id: string }[] }>('GET', '/api/boards');
      assert.ok(!list.body.boards.some((b) => b.id === board));
      const members = await owner.call<{ members: Member[] }>('GET', `/api/boards/${board}/members`);
      assert.deepEqual(
        members.body.members.map((m) => m.userId),
        [owner.userId],
      );
      assertError(
        await owner.call('DELETE', `/api/boards/${board}/members/${leaving.userId}`),
        404,
        'NOT_FOUND',
      );
    });

    test('members of one board cannot be managed through another board the caller owns', async () => {
      const mine = await owner.createBoard();
      const theirs = await ed.createBoard();
      const friend = await client().signup('Friend');
      await ed.share(theirs, friend, 'editor');
      assertError(
        await owner.call('DELETE', `/api/boards/${mine}/members/${friend.userId}`),
        404,
        'NOT_FOUND',
      );
      assertError(
        await owner.call('PATCH', `/api/boards/${mine}/members/${friend.userId}`, { role: 'viewer' }),
        404,
        'NOT_FOUND',
      );
      assert.equal(await roleOf(friend, theirs), 'editor');
    });
  });
});

describe('REST: invite previews per IP (JOIN_LOOKUPS_PER_MINUTE=3, addresses from X-Forwarded-For)', () => {
  let server: TestServer;
  const LIMIT = 3;
  before(async () => {
    server = await startServer({ env: { JOIN_LOOKUPS_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'true' } });
  });
  after(() => server.close());
  const preview = (token: string, ip: string) =>
    new ApiClient(server.url).call<JoinPreviewAnswer>('GET', `/api/join/${token}`, undefined, {
      'x-forwarded-for': ip,
    });

  test('GET /api/join/:token: a guessed token counts; past the limit 429 RATE_LIMITED with Retry-After, other IPs unaffected', async () => {
    const owner = await new ApiClient(server.url).signup('Olivia Owner');
    const id = await owner.createBoard();
    const made = await owner.call<{ link: ShareLink }>('POST', `/api/boards/${id}/links`, { role: 'editor' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const { token } = made.body.link;
    const guess = (i: number) => `${'G'.repeat(31)}${i}`;

    const live = await preview(token, '198.51.100.7');
    assert.equal(live.status, 200, JSON.stringify(live.body));
    assert.equal(live.body.role, 'editor');
    // Guesses answer 404 and use up the same budget as the live link.
    for (let i = 1; i < LIMIT; i++) assertError(await preview(guess(i), '198.51.100.7'), 404, 'NOT_FOUND');
    for (const next of [guess(LIMIT), token]) {
      const refused = await preview(next, '198.51.100.7');
      const { message } = assertError(refused, 429, 'RATE_LIMITED');
      const retryAfter = refused.headers.get('retry-after');
      assert.match(retryAfter ?? '', /^\d+$/, 'Retry-After is a number of seconds');
      assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);
      assert.equal(message, `Too many attempts. Try again in ${retryAfter} seconds.`);
    }
    // Another address has a budget of its own.
    const elsewhere = await preview(token, '203.0.113.9');
    assert.equal(elsewhere.status, 200, JSON.stringify(elsewhere.body));
    assert.deepEqual(elsewhere.body, live.body);
  });
});
