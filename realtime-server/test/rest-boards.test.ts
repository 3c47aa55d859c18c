// REST, boards (docs/api.md §6, §7, §8): list, create, get, rename, delete, access tokens, export; the
// roles table; 401/404/400/413/403-Origin on every call; health, readiness, metrics, fallbacks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type Board,
  type BoardExport,
  type BoardListItem,
  boardIdPattern,
  type ErrorCode,
  type Member,
  type Role,
  type ShareLink,
} from '@tandem/shared';
import * as Y from 'yjs';
import { type ApiAnswer, ApiClient, connectDoc, waitSynced } from '../../testing/clients.ts';
import { assertError, isoDate } from '../../testing/rest.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';
import { verifyAccessToken } from '../src/auth/tokens.ts';

const FOREIGN = 'https://evil.example.com';

function assertBoard(board: Board, expected: Partial<Board>): void {
  assert.deepEqual(Object.keys(board).sort(), ['createdAt', 'id', 'ownerId', 'title', 'updatedAt']);
  assert.match(board.id, boardIdPattern);
  assert.match(board.createdAt, isoDate);
  assert.match(board.updatedAt, isoDate);
  for (const [key, value] of Object.entries(expected))
    assert.deepEqual(board[key as keyof Board], value, key);
}

/** One shape record as the editor writes it (docs/api.md §10). */
function addShape(doc: Y.Doc, id: string, fields: Record<string, unknown>, text?: string): void {
  doc.transact(() => {
    const shape = new Y.Map<unknown>();
    for (const [key, value] of Object.entries(fields)) shape.set(key, value);
    if (text !== undefined) shape.set('text', new Y.Text(text));
    doc.getMap('shapes').set(id, shape);
  });
}
const sticky = (z: string, x = 0) => ({
  type: 'sticky',
  x,
  y: 2,
  w: 100,
  h: 80,
  rotation: 0,
  color: 'yellow',
  z,
  createdBy: 'someone',
});

describe('REST: boards', () => {
  let server: TestServer;
  let owner: ApiClient;
  let editor: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;
  const client = () => new ApiClient(server.url);

  /** The people on a shared board, each with their role. */
  const members = () =>
    [
      [owner, 'owner'],
      [editor, 'editor'],
      [viewer, 'viewer'],
    ] as const;

  /** A board of `owner` shared with `editor` and `viewer`. */
  async function sharedBoard(title = 'Shared board'): Promise<string> {
    const id = await owner.createBoard(title);
    await owner.share(id, editor, 'editor');
    await owner.share(id, viewer, 'viewer');
    return id;
  }

  before(async () => {
    server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '10000' } });
    owner = await client().signup('Olivia Owner');
    editor = await client().signup('Eddie Editor');
    viewer = await client().guest('Vera Viewer');
    stranger = await client().signup('Stan Stranger');
  });
  after(() => server.close());

  describe('POST /api/boards and GET /api/boards', () => {
    test('201 {board} with a URL-safe id of ≥ 120 bits and a trimmed title; the creator is its owner', async () => {
      const answer = await owner.call<{ board: Board }>('POST', '/api/boards', { title: '  Retro  ' });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assertBoard(answer.body.board, { title: 'Retro', ownerId: owner.userId });
      const got = await owner.call<{ board: Board; role: Role }>(
        'GET',
        `/api/boards/${answer.body.board.id}`,
      );
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, { board: answer.body.board, role: 'owner' });
    });

    test('ids are unguessable: 20 boards, 20 distinct ids', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 20; i++) ids.add(await stranger.createBoard(`b${i}`));
      assert.equal(ids.size, 20);
      for (const id of ids) assert.match(id, boardIdPattern);
    });

    test('422 VALIDATION with fields.title: empty, blank, over 120 characters, missing, not a string', async () => {
      for (const body of [{ title: '' }, { title: '   ' }, { title: 't'.repeat(121) }, {}, { title: 7 }]) {
        assertError(
          await owner.call('POST', '/api/boards', body),
          422,
          'VALIDATION',
          ['title'],
          JSON.stringify(body).slice(0, 40),
        );
      }
      const longest = await owner.call<{ board: Board }>('POST', '/api/boards', { title: 't'.repeat(120) });
      assert.equal(longest.status, 201);
      assert.equal(longest.body.board.title.length, 120);
    });

    test('{boards: [{id, title, role, ownerName, updatedAt, thumbnailAt}]}: my boards and boards shared with me, nobody else’s', async () => {
      const mine = await editor.createBoard('Editor’s own');
      const shared = await sharedBoard('Shared with everyone');
      const othersOnly = await stranger.createBoard('Not for you');
      const list = await editor.call<{ boards: BoardListItem[] }>('GET', '/api/boards');
      assert.equal(list.status, 200);
      for (const item of list.body.boards) {
        assert.deepEqual(Object.keys(item).sort(), [
          'id',
          'ownerName',
          'role',
          'thumbnailAt',
          'title',
          'updatedAt',
        ]);
        assert.match(item.updatedAt, isoDate);
      }
      const byId = new Map(list.body.boards.map((b) => [b.id, b]));
      assert.deepEqual(byId.get(mine), {
        id: mine,
        title: 'Editor’s own',
        role: 'owner',
        ownerName: 'Eddie Editor',
        updatedAt: byId.get(mine)?.updatedAt,
        thumbnailAt: null,
      });
      assert.equal(byId.get(shared)?.role, 'editor');
      assert.equal(byId.get(shared)?.ownerName, 'Olivia Owner');
      assert.equal(byId.get(shared)?.title, 'Shared with everyone');
      assert.ok(!byId.has(othersOnly));
      const viewerList = await viewer.call<{ boards: BoardListItem[] }>('GET', '/api/boards');
      assert.equal(viewerList.body.boards.find((b) => b.id === shared)?.role, 'viewer');
      const fresh = await client().guest('New');
      assert.deepEqual((await fresh.call('GET', '/api/boards')).body, { boards: [] });
    });
  });

  describe('GET / PATCH / DELETE /api/boards/:id', () => {
    test('GET answers {board, role} with each member’s own role', async () => {
      const id = await sharedBoard();
      for (const [who, role] of members()) {
        const answer = await who.call<{ board: Board; role: Role }>('GET', `/api/boards/${id}`);
        assert.equal(answer.status, 200);
        assert.equal(answer.body.role, role);
        assertBoard(answer.body.board, { id, ownerId: owner.userId, title: 'Shared board' });
      }
    });

    test('PATCH renames: 200 {board} with the new title, seen by the other members and in their lists', async () => {
      const id = await sharedBoard('Before');
      const answer = await editor.call<{ board: Board }>('PATCH', `/api/boards/${id}`, { title: ' After ' });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertBoard(answer.body.board, { id, title: 'After', ownerId: owner.userId });
      assert.ok(Date.parse(answer.body.board.updatedAt) >= Date.parse(answer.body.board.createdAt));
      const seen = await viewer.call<{ board: Board }>('GET', `/api/boards/${id}`);
      assert.equal(seen.body.board.title, 'After');
      const list = await owner.call<{ boards: BoardListItem[] }>('GET', '/api/boards');
      assert.equal(list.body.boards.find((b) => b.id === id)?.title, 'After');
    });

    test('PATCH: 422 VALIDATION with fields.title, and the title is unchanged', async () => {
      const id = await owner.createBoard('Kept');
      for (const body of [{ title: '' }, { title: ' ' }, { title: 'x'.repeat(121) }, {}]) {
        assertError(await owner.call('PATCH', `/api/boards/${id}`, body), 422, 'VALIDATION', ['title']);
      }
      const got = await owner.call<{ board: Board }>('GET', `/api/boards/${id}`);
      assert.equal(got.body.board.title, 'Kept');
    });

    test('DELETE: 204, then the board is gone for everyone: 404 on every call, absent from lists', async () => {
      const id = await sharedBoard('Doomed');
      const link = await owner.call<{ link: ShareLink }>('POST', `/api/boards/${id}/links`, {
        role: 'editor',
      });
      const answer = await owner.call('DELETE', `/api/boards/${id}`);
      assert.equal(answer.status, 204);
      assert.equal(answer.body, null);
      for (const who of [owner, editor, viewer]) {
        assertError(await who.call('GET', `/api/boards/${id}`), 404, 'NOT_FOUND');
        const list = await who.call<{ boards: BoardListItem[] }>('GET', '/api/boards');
        assert.ok(!list.body.boards.some((b) => b.id === id));
      }
      for (const [method, path, body] of boardCalls(id, owner.userId, link.body.link.token)) {
        assertError(await owner.call(method, path, body), 404, 'NOT_FOUND', undefined, `${method} ${path}`);
      }
      assertError(await stranger.call('POST', `/api/join/${link.body.link.token}`), 404, 'NOT_FOUND');
      assertError(
        await owner.call('DELETE', `/api/boards/${id}`),
        404,
        'NOT_FOUND',
        undefined,
        'deleted twice',
      );
    });
  });

  /** Every call on one board: [method, path, body]. */
  function boardCalls(id: string, memberId: string, token: string): [string, string, unknown][] {
    return [
      ['GET', `/api/boards/${id}`, undefined],
      ['PATCH', `/api/boards/${id}`, { title: 'New title' }],
      ['DELETE', `/api/boards/${id}`, undefined],
      ['GET', `/api/boards/${id}/members`, undefined],
      ['PATCH', `/api/boards/${id}/members/${memberId}`, { role: 'viewer' }],
      ['DELETE', `/api/boards/${id}/members/${memberId}`, undefined],
      ['POST', `/api/boards/${id}/links`, { role: 'viewer' }],
      ['GET', `/api/boards/${id}/links`, undefined],
      ['DELETE', `/api/boards/${id}/links/${token}`, undefined],
      ['POST', `/api/boards/${id}/token`, undefined],
      ['GET', `/api/boards/${id}/export.json`, undefined],
    ];
  }

  describe('roles (docs/api.md §6): owner, editor, viewer and anyone else on every board call', () => {
    type Who = 'owner' | 'editor' | 'viewer' | 'stranger';
    const people = (): Record<Who, ApiClient> => ({ owner, editor, viewer, stranger });
    // Expected status per action and person.
    const table: Record<string, Record<Who, number>> = {
      get: { owner: 200, editor: 200, viewer: 200, stranger: 404 },
      rename: { owner: 200, editor: 200, viewer: 403, stranger: 404 },
      'create link': { owner: 201, editor: 403, viewer: 403, stranger: 404 },
      'list links': { owner: 200, editor: 403, viewer: 403, stranger: 404 },
      'revoke link': { owner: 204, editor: 403, viewer: 403, stranger: 404 },
      // Everyone on the board sees who else is on it, read-only; only the owner manages them.
      'list members': { owner: 200, editor: 200, viewer: 200, stranger: 404 },
      'change role': { owner: 200, editor: 403, viewer: 403, stranger: 404 },
      'remove member': { owner: 204, editor: 403, viewer: 403, stranger: 404 },
      'access token': { owner: 200, editor: 200, viewer: 200, stranger: 404 },
      export: { owner: 200, editor: 200, viewer: 200, stranger: 404 },
      delete: { owner: 204, editor: 403, viewer: 403, stranger: 404 },
    };

    for (const [action, expected] of Object.entries(table)) {
      test(`${action}: ${Object.entries(expected)
        .map(([who, status]) => `${who} ${status}`)
        .join(', ')}`, async () => {
        // A fresh board each time, with an extra editor whose membership and a link the calls act on;
        // the owner goes last, so a destructive call by someone else would show in their answer.
        const id = await sharedBoard(`Roles: ${action}`);
        const extra = await client().guest('Extra');
        await owner.share(id, extra, 'editor');
        const order: Who[] = ['stranger', 'viewer', 'editor', 'owner'];
        for (const who of order) {
          const link = await owner.call<{ link: ShareLink }>('POST', `/api/boards/${id}/links`, {
            role: 'viewer',
          });
          const calls: Record<string, [string, string, unknown]> = {
            get: ['GET', `/api/boards/${id}`, undefined],
            rename: ['PATCH', `/api/boards/${id}`, { title: `Renamed by ${who}` }],
            'create link': ['POST', `/api/boards/${id}/links`, { role: 'editor' }],
            'list links': ['GET', `/api/boards/${id}/links`, undefined],
            'revoke link': ['DELETE', `/api/boards/${id}/links/${link.body.link.token}`, undefined],
            'list members': ['GET', `/api/boards/${id}/members`, undefined],
            'change role': ['PATCH', `/api/boards/${id}/members/${extra.userId}`, { role: 'viewer' }],
            'remove member': ['DELETE', `/api/boards/${id}/members/${extra.userId}`, undefined],
            'access token': ['POST', `/api/boards/${id}/token`, undefined],
            export: ['GET', `/api/boards/${id}/export.json`, undefined],
            delete: ['DELETE', `/api/boards/${id}`, undefined],
          };
          const [method, path, body] = calls[action]!;
          const answer = await people()[who].call(method, path, body);
          const status = expected[who];
          if (status === 403) assertError(answer, 403, 'FORBIDDEN', undefined, who);
          else if (status === 404) assertError(answer, 404, 'NOT_FOUND', undefined, who);
          else assert.equal(answer.status, status, `${who}: ${JSON.stringify(answer.body)}`);
        }
        // What the refused calls did not do.
        if (action === 'rename') {
          const got = await owner.call<{ board: Board }>('GET', `/api/boards/${id}`);
          assert.equal(got.body.board.title, 'Renamed by owner');
        }
        if (action === 'change role' || action === 'remove member') {
          const members = await owner.call<{ members: Member[] }>('GET', `/api/boards/${id}/members`);
          const role = members.body.members.find((m) => m.userId === extra.userId)?.role;
          assert.equal(role, action === 'change role' ? 'viewer' : undefined);
        }
      });
    }

    test('a member removed from the board is anyone else from then on: 404', async () => {
      const id = await sharedBoard();
      assert.equal((await owner.call('DELETE', `/api/boards/${id}/members/${editor.userId}`)).status, 204);
      assertError(await editor.call('GET', `/api/boards/${id}`), 404, 'NOT_FOUND');
      assertError(await editor.call('PATCH', `/api/boards/${id}`, { title: 'x' }), 404, 'NOT_FOUND');
      assertError(await editor.call('POST', `/api/boards/${id}/token`), 404, 'NOT_FOUND');
    });
  });

  describe('404 NOT_FOUND for ids that are unknown or malformed, never a 500', () => {
    const unknownId = 'AAAAAAAAAAAAAAAAAAAAA';
    const malformed = [
      'abc',
      'A'.repeat(20),
      'A'.repeat(22),
      `${'A'.repeat(20)}!`,
      `${'A'.repeat(20)}%20`,
      '%00',
      `${'A'.repeat(20)}%E2%82`,
      '%E0%A4%A',
      '%ZZ',
      'A'.repeat(500),
      "1'%20OR%20'1'='1",
    ];

    test('an unknown board id, on every call', async () => {
      assert.match(unknownId, boardIdPattern);
      for (const [method, path, body] of boardCalls(unknownId, editor.userId, 'B'.repeat(32))) {
        assertError(await owner.call(method, path, body), 404, 'NOT_FOUND', undefined, `${method} ${path}`);
      }
    });

    test('malformed board ids, on every call', async () => {
      for (const id of malformed) {
        for (const [method, path, body] of boardCalls(id, editor.userId, 'B'.repeat(32))) {
          assertError(await owner.call(method, path, body), 404, 'NOT_FOUND', undefined, `${method} ${path}`);
        }
      }
    });

    test('malformed link tokens and member ids', async () => {
      const id = await sharedBoard();
      for (const bad of malformed) {
        assertError(await owner.call('POST', `/api/join/${bad}`), 404, 'NOT_FOUND', undefined, `join ${bad}`);
        assertError(
          await owner.call('DELETE', `/api/boards/${id}/links/${bad}`),
          404,
          'NOT_FOUND',
          undefined,
          `revoke ${bad}`,
        );
        assertError(
          await owner.call('PATCH', `/api/boards/${id}/members/${bad}`, { role: 'viewer' }),
          404,
          'NOT_FOUND',
          undefined,
          `change role ${bad}`,
        );
        assertError(
          await owner.call('DELETE', `/api/boards/${id}/members/${bad}`),
          404,
          'NOT_FOUND',
          undefined,
          `remove ${bad}`,
        );
      }
    });
  });

  describe('401 AUTH_REQUIRED on every call that needs a session', () => {
    let calls: [string, string, unknown][];
    before(async () => {
      const id = await sharedBoard();
      const link = await owner.call<{ link: ShareLink }>('POST', `/api/boards/${id}/links`, {
        role: 'viewer',
      });
      calls = [
        ['GET', '/api/me', undefined],
        ['GET', '/api/boards', undefined],
        ['POST', '/api/boards', { title: 'Nope' }],
        ['POST', `/api/join/${link.body.link.token}`, undefined],
        ...boardCalls(id, editor.userId, link.body.link.token),
      ];
    });

    test('without a session', async () => {
      for (const [method, path, body] of calls) {
        assertError(
          await client().call(method, path, body),
          401,
          'AUTH_REQUIRED',
          undefined,
          `${method} ${path}`,
        );
      }
    });

    test('after logout, with the old cookie', async () => {
      const gone = await client().signup('Leaving');
      const cookie = gone.cookie;
      assert.equal((await gone.call('POST', '/api/auth/logout')).status, 204);
      const stale = client();
      stale.cookie = cookie;
      for (const [method, path, body] of calls) {
        assertError(
          await stale.call(method, path, body),
          401,
          'AUTH_REQUIRED',
          undefined,
          `${method} ${path}`,
        );
      }
    });
  });

  describe('request bodies: 400 BAD_REQUEST, 413 PAYLOAD_TOO_LARGE', () => {
    let id: string;
    let bodyCalls: [string, string][];
    before(async () => {
      id = await sharedBoard('Bodies');
      bodyCalls = [
        ['POST', '/api/auth/signup'],
        ['POST', '/api/auth/login'],
        ['POST', '/api/auth/guest'],
        ['POST', '/api/boards'],
        ['PATCH', `/api/boards/${id}`],
        ['POST', `/api/boards/${id}/links`],
        ['PATCH', `/api/boards/${id}/members/${editor.userId}`],
      ];
    });

    /** Each of `calls` sent each of `texts` as its body: every answer is that error. */
    async function assertEachRefused(
      calls: [string, string][],
      texts: string[],
      status: number,
      code: ErrorCode,
    ): Promise<void> {
      for (const [method, path] of calls) {
        for (const text of texts) {
          assertError(
            await owner.call(method, path, text),
            status,
            code,
            undefined,
            `${method} ${path} ${text.slice(0, 40)}`,
          );
        }
      }
    }

    test('malformed JSON is 400 BAD_REQUEST', async () => {
      await assertEachRefused(
        bodyCalls,
        ['{', '{"title": }', "{'title': 'x'}", 'title=x'],
        400,
        'BAD_REQUEST',
      );
    });

    test('a JSON body that is not an object (null, string, number, boolean, array) is 400 BAD_REQUEST', async () => {
      const texts = ['null', '"title"', '42', 'true', '[]', '[{"title":"x"}]'];
      await assertEachRefused(bodyCalls, texts, 400, 'BAD_REQUEST');
    });

    test('a missing body, or one that is not JSON, is 400 BAD_REQUEST', async () => {
      assertError(await owner.call('POST', '/api/boards'), 400, 'BAD_REQUEST');
      assertError(
        await owner.call('POST', '/api/boards', 'title=x', {
          'content-type': 'application/x-www-form-urlencoded',
        }),
        400,
        'BAD_REQUEST',
      );
      assertError(
        await owner.call('POST', '/api/boards', 'x', { 'content-type': 'text/plain' }),
        400,
        'BAD_REQUEST',
      );
    });

    test('a body over 1 MiB is 413 PAYLOAD_TOO_LARGE, and nothing happens', async () => {
      const before = await owner.call<{ boards: BoardListItem[] }>('GET', '/api/boards');
      const huge = JSON.stringify({ title: 'x'.repeat(1024 * 1024) });
      await assertEachRefused([...bodyCalls, ['POST', '/api/auth/logout']], [huge], 413, 'PAYLOAD_TOO_LARGE');
      const afterwards = await owner.call<{ boards: BoardListItem[] }>('GET', '/api/boards');
      assert.deepEqual(afterwards.body, before.body);
      assert.equal((await owner.call('GET', '/api/me')).status, 200, 'still signed in');
      // Just under the limit is parsed (and then validated).
      const under = JSON.stringify({ title: 'x'.repeat(1024 * 1024 - 100) });
      assertError(await owner.call('POST', '/api/boards', under), 422, 'VALIDATION', ['title']);
    });
  });

  describe('403 FORBIDDEN for a state-changing call from another Origin', () => {
    test('every state-changing call is refused and has no effect; reads are not affected', async () => {
      const id = await sharedBoard('Protected');
      const link = await owner.call<{ link: ShareLink }>('POST', `/api/boards/${id}/links`, {
        role: 'editor',
      });
      const calls: [string, string, unknown][] = [
        ['POST', '/api/auth/signup', { email: 'csrf@example.com', name: 'CSRF', password: 'password123' }],
        ['POST', '/api/auth/login', { email: 'csrf@example.com', password: 'password123' }],
        ['POST', '/api/auth/guest', { name: 'CSRF' }],
        ['POST', '/api/auth/logout', undefined],
        ['POST', '/api/boards', { title: 'CSRF' }],
        ['POST', `/api/join/${link.body.link.token}`, undefined],
        ...boardCalls(id, editor.userId, link.body.link.token).filter(([method]) => method !== 'GET'),
      ];
      const before = await owner.call<{ boards: BoardListItem[] }>('GET', '/api/boards');
      const linksBefore = await owner.call<{ links: ShareLink[] }>('GET', `/api/boards/${id}/links`);
      assert.equal(linksBefore.body.links.length, 3);
      for (const origin of [FOREIGN, 'null', server.origin.replace(/:\d+$/, ':1'), 'http://localhost']) {
        const evil = new ApiClient(server.url, origin);
        evil.cookie = owner.cookie;
        for (const [method, path, body] of calls) {
          const answer = await evil.call(method, path, body);
          assertError(answer, 403, 'FORBIDDEN', undefined, `${origin} ${method} ${path}`);
          assert.equal(answer.headers.getSetCookie().length, 0, 'no cookie set or cleared');
        }
        // Reads with that Origin still answer.
        assert.equal((await evil.call('GET', `/api/boards/${id}`, undefined, { origin })).status, 200);
      }
      const afterwards = await owner.call<{ boards: BoardListItem[] }>('GET', '/api/boards');
      assert.deepEqual(afterwards.body, before.body, 'no board created, renamed or deleted');
      const members = await owner.call<{ members: Member[] }>('GET', `/api/boards/${id}/members`);
      assert.deepEqual(
        members.body.members.map((m) => [m.userId, m.role]).sort(),
        [
          [owner.userId, 'owner'],
          [editor.userId, 'editor'],
          [viewer.userId, 'viewer'],
        ].sort(),
      );
      const links = await owner.call<{ links: ShareLink[] }>('GET', `/api/boards/${id}/links`);
      assert.deepEqual(links.body, linksBefore.body, 'no link created or revoked');
      assert.equal((await owner.call('GET', '/api/me')).status, 200, 'logout from another site did nothing');
      const login = await client().call('POST', '/api/auth/login', {
        email: 'csrf@example.com',
        password: 'password123',
      });
      assertError(login, 401, 'BAD_CREDENTIALS', undefined, 'the cross-site signup created no account');
    });
  });

  describe('POST /api/boards/:id/token', () => {
    test('200 {token, expiresAt}: signed for this board, this user and their role, 15 minutes ahead', async () => {
      const id = await sharedBoard();
      for (const [who, role] of members()) {
        const before = Date.now();
        const answer = await who.call<{ token: string; expiresAt: string }>(
          'POST',
          `/api/boards/${id}/token`,
        );
        const afterwards = Date.now();
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.deepEqual(Object.keys(answer.body).sort(), ['expiresAt', 'token']);
        assert.match(answer.body.expiresAt, isoDate);
        const expiresAt = Date.parse(answer.body.expiresAt);
        const fifteen = 15 * 60_000;
        assert.ok(
          expiresAt >= before + fifteen - 1000 && expiresAt <= afterwards + fifteen + 1000,
          answer.body.expiresAt,
        );
        const check = verifyAccessToken(server.config.secret, answer.body.token);
        assert.ok(check.ok, 'the token verifies with the server secret');
        assert.deepEqual(check.claims, {
          boardId: id,
          userId: who.userId,
          role,
          expiresAt: check.claims.expiresAt,
        });
        assert.equal(Math.floor(check.claims.expiresAt / 1000), Math.floor(expiresAt / 1000));
        const other = await sharedBoard();
        assert.notEqual((await who.token(other)).split('.')[0], answer.body.token.split('.')[0]);
      }
    });

    test('the token opens the board for a y-websocket client without a cookie', async () => {
      const id = await owner.createBoard('Token door');
      const token = await owner.token(id);
      const bot = connectDoc(server.wsUrl, id, { token });
      try {
        await waitSynced(bot);
        assert.equal(bot.closes.length, 0);
      } finally {
        bot.destroy();
      }
    });
  });

  describe('GET /api/boards/:id/export.json', () => {
    test('an empty board: {version: 1, shapes: []}', async () => {
      const id = await owner.createBoard('Empty');
      const answer = await viewerOf(id).then((v) =>
        v.call<BoardExport>('GET', `/api/boards/${id}/export.json`),
      );
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(answer.body.version, 1);
      assert.deepEqual(answer.body.shapes, []);
    });

    test('stored content: the shapes in z order with their text; records failing the schema are left out', async () => {
      const id = await owner.createBoard('Plan: Q3 / "launch"');
      const doc = new Y.Doc();
      addShape(doc, 'second', sticky('b', 10), 'world');
      addShape(doc, 'first', { ...sticky('a'), type: 'rect', color: 'blue' }, 'hello');
      addShape(doc, 'arrow', {
        ...sticky('c'),
        type: 'arrow',
        from: { shapeId: 'first', x: 0, y: 0 },
        to: { x: 50, y: 60 },
      });
      addShape(doc, 'pen', { ...sticky('d'), type: 'freehand', points: [0, 0, 1, 1, 2, 4] });
      addShape(doc, 'broken', { ...sticky('e'), type: 'hexagon' });
      addShape(doc, 'no-coordinates', { type: 'sticky', color: 'yellow', z: 'f' });
      doc.getMap('meta').set('background', 'dots');
      await server.store.append(id, [{ update: Y.encodeStateAsUpdate(doc), userId: null, at: new Date() }]);
      const answer = await owner.call<BoardExport>('GET', `/api/boards/${id}/export.json`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.version, 1);
      assert.deepEqual(
        answer.body.shapes.map((s) => s.id),
        ['first', 'second', 'arrow', 'pen'],
      );
      assert.deepEqual(answer.body.shapes[0], {
        id: 'first',
        ...sticky('a'),
        type: 'rect',
        color: 'blue',
        text: 'hello',
      });
      assert.equal(answer.body.shapes[1]?.text, 'world');
      assert.deepEqual(answer.body.shapes[2]?.from, { shapeId: 'first', x: 0, y: 0 });
      assert.deepEqual(answer.body.shapes[3]?.points, [0, 0, 1, 1, 2, 4]);
      assert.deepEqual(answer.body.meta, { background: 'dots' });
      const disposition = answer.headers.get('content-disposition') ?? '';
      assert.match(disposition, /^attachment; filename="[\w -]+\.json"$/);
      doc.destroy();
    });

    test('live content: edits made through a y-websocket client are in the export', async () => {
      const id = await owner.createBoard('Live');
      await owner.share(id, editor, 'editor');
      const live = connectDoc(server.wsUrl, id, { cookie: editor.cookie });
      try {
        await waitSynced(live);
        addShape(live.doc, 'n1', sticky('a0'), 'typed live');
        let shapes: BoardExport['shapes'] = [];
        await waitUntil('the export has the live shape', async () => {
          const answer = await viewerOf(id).then((v) =>
            v.call<BoardExport>('GET', `/api/boards/${id}/export.json`),
          );
          shapes = answer.body.shapes;
          return shapes.length === 1;
        });
        assert.deepEqual(shapes[0], { id: 'n1', ...sticky('a0'), text: 'typed live' });
      } finally {
        live.destroy();
      }
    });
  });

  async function viewerOf(id: string): Promise<ApiClient> {
    const v = await client().guest('Reader');
    await owner.share(id, v, 'viewer');
    return v;
  }
});

describe('REST: health, readiness, metrics and fallbacks', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());
  const get = (path: string, method = 'GET'): Promise<ApiAnswer> =>
    new ApiClient(server.url).call(method, path);

  test('GET /healthz: 200, naming the instance that answered', async () => {
    const answer = await get('/healthz');
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { status: 'ok', instance: server.config.instanceName });
  });

  test('GET /readyz: 200 {status: "ready"} with the store and the bus reachable', async () => {
    const answer = await get('/readyz');
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { status: 'ready', store: 'ok', bus: 'ok' });
  });

  test('GET /metrics: Prometheus text with tandem_connections', async () => {
    const answer = await get('/metrics');
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(typeof answer.body, 'string');
    assert.match(answer.body as string, /^# TYPE tandem_connections gauge$/m);
    assert.match(answer.body as string, /^tandem_connections \d+$/m);
  });

  test('an unknown /api/ path is 404 NOT_FOUND as JSON, whatever the method', async () => {
    for (const [method, path] of [
      ['GET', '/api/nope'],
      ['GET', '/api/'],
      ['GET', '/api/boards/AAAAAAAAAAAAAAAAAAAAA/nope'],
      ['POST', '/api/nope'],
      ['DELETE', '/api/me'],
      ['PUT', '/api/boards'],
    ] as const) {
      assertError(await get(path, method), 404, 'NOT_FOUND', undefined, `${method} ${path}`);
    }
  });

  test('GET /readyz: 503 {status: "unavailable"} when the store cannot be reached', async () => {
    const ping = server.store.ping;
    server.store.ping = async () => {
      throw new Error('database unreachable');
    };
    try {
      const answer = await get('/readyz');
      assert.equal(answer.status, 503);
      assert.deepEqual(answer.body, { status: 'unavailable', store: 'unreachable', bus: 'ok' });
    } finally {
      server.store.ping = ping;
    }
    assert.equal((await get('/readyz')).status, 200);
  });

  test('an unexpected failure is 500 INTERNAL with a request id, and neither the error nor a stack trace', async () => {
    const user = await new ApiClient(server.url).guest('Unlucky');
    const listBoards = server.store.listBoards;
    server.store.listBoards = async () => {
      throw new Error('secret detail at /srv/tandem/store.ts:12:34');
    };
    try {
      const answer = await user.call('GET', '/api/boards');
      const error = assertError(answer, 500, 'INTERNAL');
      assert.match(error.requestId ?? '', /^[0-9a-f]{16}$/);
      assert.ok(error.message.includes(error.requestId ?? '-'), 'the message quotes the request id');
      assert.doesNotMatch(JSON.stringify(answer.body), /secret detail|store\.ts/);
    } finally {
      server.store.listBoards = listBoards;
    }
    assert.equal((await user.call('GET', '/api/boards')).status, 200);
  });

  test('a client route when no client is built: 503 with a plain-text sentence', async () => {
    for (const path of ['/', '/boards', '/signin', '/b/AAAAAAAAAAAAAAAAAAAAA', '/join/x', '/no/such/page']) {
      const answer = await get(path);
      assert.equal(answer.status, 503, path);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/plain/);
      assert.match(answer.body as string, /client is not built/);
    }
  });
});
