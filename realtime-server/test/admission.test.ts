// The document gateway's first two steps alone, without a socket: authorize against a real
// SQLite Store, and the per-instance limits of ConnectionLimits.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CloseCode, closeMeaning } from '@tandem/shared';
import { SESSION_COOKIE, Sessions } from '../src/auth/sessions.ts';
import { hashSessionId, signAccessToken } from '../src/auth/tokens.ts';
import { type AuthorizeDeps, authorize, ConnectionLimits } from '../src/documents/admission.ts';
import { SqliteStore } from '../src/store/sqlite.ts';

const SECRET = 'admission-test-secret';
const boardId = 'B'.repeat(21);
const otherBoardId = 'C'.repeat(21);
const inAMinute = () => Date.now() + 60_000;

describe('authorize', () => {
  let dataDir: string;
  let store: SqliteStore;
  let deps: AuthorizeDeps;
  let ownerCookie: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tandem-admission-'));
    store = new SqliteStore({ dataDir });
    await store.migrate();
    const sessions = new Sessions(store);
    deps = { secret: SECRET, store, sessions };
    for (const [id, name] of [
      ['owner-0000000000000', 'Owner'],
      ['viewer-000000000000', 'Viewer'],
      ['stranger-0000000000', 'Stranger'],
    ] as const) {
      await store.createUser({ id, name, email: null, passwordHash: null, color: '#123456', isGuest: true });
    }
    await store.createBoard({ id: boardId, title: 'One', ownerId: 'owner-0000000000000' });
    await store.createBoard({ id: otherBoardId, title: 'Two', ownerId: 'owner-0000000000000' });
    await store.grantAtLeast(boardId, 'viewer-000000000000', 'viewer');
    ownerCookie = `${SESSION_COOKIE}=${await sessions.create('owner-0000000000000')}`;
  });
  after(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a session cookie of a member is granted their role, with no expiry', async () => {
    const result = await authorize(deps, boardId, { cookieHeader: ownerCookie, token: null });
    // The viewer's join (grantAtLeast) moved the board's access version once.
    assert.equal((await store.accessVersions([boardId])).get(boardId), 1);
    assert.deepEqual(result, {
      ok: true,
      grant: {
        user: { id: 'owner-0000000000000', name: 'Owner', color: '#123456' },
        role: 'owner',
        expiresAt: null,
        credentialRole: 'owner',
        sessionHash: hashSessionId(ownerCookie.slice(`${SESSION_COOKIE}=`.length)),
        accessVersion: 1,
        anonymous: false,
      },
    });
  });

  test('no credential or a bad one is 4401; a malformed or unknown board is 4404', async () => {
    const refused = async (id: string, cookieHeader: string | undefined, token: string | null) => {
      const result = await authorize(deps, id, { cookieHeader, token });
      assert.equal(result.ok, false);
      return result.ok ? null : result.refusal.code;
    };
    assert.equal(await refused(boardId, undefined, null), CloseCode.NOT_AUTHENTICATED);
    assert.equal(await refused(boardId, `${SESSION_COOKIE}=nope`, null), CloseCode.NOT_AUTHENTICATED);
    assert.equal(await refused(boardId, undefined, 'not.a-token'), CloseCode.NOT_AUTHENTICATED);
    assert.equal(await refused('short', ownerCookie, null), CloseCode.NO_SUCH_BOARD);
    assert.equal(await refused('D'.repeat(21), ownerCookie, null), CloseCode.NO_SUCH_BOARD);
  });

  test('a token never grants more than the membership, nor any access to another board', async () => {
    const sign = (board: string, userId: string, role: 'owner' | 'editor' | 'viewer') =>
      signAccessToken(SECRET, { boardId: board, userId, role, expiresAt: inAMinute() });
    const viewerAsEditor = await authorize(deps, boardId, {
      cookieHeader: undefined,
      token: sign(boardId, 'viewer-000000000000', 'editor'),
    });
    assert.ok(viewerAsEditor.ok);
    assert.equal(viewerAsEditor.grant.role, 'viewer');
    assert.ok(viewerAsEditor.grant.expiresAt !== null && viewerAsEditor.grant.expiresAt > Date.now());

    const ownerAsViewer = await authorize(deps, boardId, {
      cookieHeader: undefined,
      token: sign(boardId, 'owner-0000000000000', 'viewer'),
    });
    assert.ok(ownerAsViewer.ok);
    assert.equal(ownerAsViewer.grant.role, 'viewer');

    const forAnotherBoard = await authorize(deps, boardId, {
      cookieHeader: undefined,
      token: sign(otherBoardId, 'owner-0000000000000', 'owner'),
    });
    assert.deepEqual(forAnotherBoard, {
      ok: false,
      refusal: { code: CloseCode.NO_ACCESS, reason: 'no access' },
    });

    const stranger = await authorize(deps, boardId, {
      cookieHeader: undefined,
      token: sign(boardId, 'stranger-0000000000', 'editor'),
    });
    assert.equal(stranger.ok ? null : stranger.refusal.code, CloseCode.NO_ACCESS);
  });
});

describe('ConnectionLimits', () => {
  test('connections per board: the one past the limit is refused with its own reason, and fits again once one leaves', () => {
    const limits = new ConnectionLimits({ connectionsPerBoard: 2, boardsOpenPerUser: 10 });
    assert.equal(limits.check('b1', 'u1'), null);
    limits.add('b1', 'u1');
    limits.add('b1', 'u2');
    const refusal = limits.check('b1', 'u3');
    assert.deepEqual(refusal, {
      code: CloseCode.TOO_MANY_CONNECTIONS,
      reason: 'too many connections on this board',
    });
    assert.equal(limits.check('b2', 'u3'), null, 'another board is not affected');
    limits.remove('b1', 'u2');
    assert.equal(limits.check('b1', 'u3'), null);
  });

  test('boards open per user: a new board past the limit is refused, one already open is not', () => {
    const limits = new ConnectionLimits({ connectionsPerBoard: 100, boardsOpenPerUser: 2 });
    limits.add('b1', 'u1');
    limits.add('b2', 'u1');
    assert.deepEqual(limits.check('b3', 'u1'), {
      code: CloseCode.TOO_MANY_BOARDS,
      reason: 'too many boards open at once',
    });
    assert.equal(limits.check('b2', 'u1'), null, 'another connection to an open board');
    assert.equal(limits.check('b3', 'u2'), null, 'another user');
    // Two connections to b1: closing one keeps the board open for the user.
    limits.add('b1', 'u1');
    limits.remove('b1', 'u1');
    assert.notEqual(limits.check('b3', 'u1'), null);
    limits.remove('b1', 'u1');
    assert.equal(limits.check('b3', 'u1'), null);
  });

  test('docs/api.md §9 keeps 4429 on the wire for both limits; the reason sent names the meaning', () => {
    const limits = new ConnectionLimits({ connectionsPerBoard: 1, boardsOpenPerUser: 1 });
    limits.add('b1', 'u1');
    const full = limits.check('b1', 'u2');
    const tooMany = limits.check('b2', 'u1');
    assert.ok(full && tooMany);
    assert.equal(full.code, 4429);
    assert.equal(tooMany.code, 4429);
    assert.equal(closeMeaning(full.code, full.reason), 'TOO_MANY_CONNECTIONS');
    assert.equal(closeMeaning(tooMany.code, tooMany.reason), 'TOO_MANY_BOARDS');
  });
});
