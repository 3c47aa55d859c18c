// The one access rule (auth/access.ts) against live connections: a connection's role is the lower
// of the user's current membership and what its credential allows, whichever path brings the
// change — the live control message (same instance, or another one over Redis) or the periodic
// re-check when that message was lost. Two real instances share PostgreSQL and Redis; the
// clients are real y-websocket providers, some opened with a session cookie, some with an access
// token. Every connection is opened before the change it is tested against.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CloseCode, type Role } from '@tandem/shared';
import { ApiClient, addShape, connectDoc, type DocClient, waitSynced } from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import type { TestServer } from '../../testing/server.ts';
import { PrivateRedis, skipUnless, waitUntil } from '../../testing/services.ts';
import { signAccessToken } from '../src/auth/tokens.ts';

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

let shapeCounter = 0;

/**
 * Makes an edit on `client` and tells what the server did with it: 'accepted' once `watcher`
 * (another user's connection, or the room on the instance) has it, 'refused' once the server
 * closed the connection with 4403. Whichever comes first; the refused connection stops
 * reconnecting (it would resend the refused edit forever).
 */
async function editOutcome(
  client: DocClient,
  sees: (id: string) => boolean,
): Promise<'accepted' | 'refused'> {
  const id = `shape-${++shapeCounter}`;
  const closesBefore = client.closes.length;
  addShape(client.doc, id, { type: 'rect', x: shapeCounter, y: 0 });
  let outcome: 'accepted' | 'refused' | null = null;
  await waitUntil(`the edit ${id} is accepted or refused`, () => {
    if (client.closes.slice(closesBefore).some((c) => c.code === CloseCode.NO_ACCESS)) outcome = 'refused';
    else if (sees(id)) outcome = 'accepted';
    return outcome !== null;
  });
  if (outcome === 'refused') {
    client.provider.shouldConnect = false;
    client.provider.disconnect();
    assert.ok(!sees(id), `the refused edit ${id} reached the others`);
  }
  return outcome!;
}

/** The roles of a user's connections to a board on one instance. */
const rolesOn = (server: TestServer, boardId: string, userId: string): Role[] =>
  [...(server.app.rooms.get(boardId)?.peers ?? [])].filter((p) => p.userId === userId).map((p) => p.role);

describe('one access rule: live changes', { skip, concurrency: false }, () => {
  // The periodic re-check is an hour away: only the live path (control channel) can act here.
  const cluster = new TestCluster({ env: { ACCESS_CHECK_MS: String(3_600_000) } });
  let a: TestServer;
  let b: TestServer;
  const clients: DocClient[] = [];

  before(async () => {
    a = await cluster.start();
    b = await cluster.start();
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await cluster.close();
  });

  const open = (server: TestServer, boardId: string, auth: { cookie?: string; token?: string }) => {
    const client = connectDoc(server.wsUrl, boardId, auth);
    clients.push(client);
    return client;
  };
  const tokenFor = (boardId: string, userId: string, role: Role) =>
    signAccessToken(cluster.secret, { boardId, userId, role, expiresAt: Date.now() + 10 * 60_000 });

  /** A board owned on instance A, an owner's connection on A that watches what is accepted. */
  async function board(title: string) {
    const owner = await new ApiClient(a.url).signup('Owner');
    const boardId = await owner.createBoard(title);
    const watcher = open(a, boardId, { cookie: owner.cookie });
    await waitSynced(watcher);
    const sees = (id: string) => watcher.doc.getMap('shapes').has(id);
    return { owner, boardId, sees };
  }

  for (const where of ['the same instance', 'another instance'] as const) {
    const instance = () => (where === 'the same instance' ? a : b);

    test(`promotion on ${where}: the session edits at once, a connection opened with a viewer token stays a viewer`, async () => {
      const { owner, boardId, sees } = await board(`Promotion ${where}`);
      const member = await new ApiClient(a.url).signup('Member');
      await owner.share(boardId, member, 'viewer');
      const session = open(instance(), boardId, { cookie: member.cookie });
      const viewerToken = open(instance(), boardId, { token: await member.token(boardId) });
      await Promise.all([waitSynced(session), waitSynced(viewerToken)]);

      const promoted = await owner.call('PATCH', `/api/boards/${boardId}/members/${member.userId}`, {
        role: 'editor',
      });
      assert.equal(promoted.status, 200);
      // On another instance the change arrives over the bus a moment later.
      await waitUntil('the change reached the instance', () =>
        rolesOn(instance(), boardId, member.userId).includes('editor'),
      );
      assert.equal(await editOutcome(session, sees), 'accepted', 'the promoted session edits');
      assert.equal(await editOutcome(viewerToken, sees), 'refused', 'the viewer token may not edit');
    });

    test(`a link join on ${where}: the joining session is raised at once, its viewer token stays a viewer`, async () => {
      const { owner, boardId, sees } = await board(`Link ${where}`);
      const member = await new ApiClient(a.url).signup('Member');
      await owner.share(boardId, member, 'viewer');
      const session = open(instance(), boardId, { cookie: member.cookie });
      const viewerToken = open(instance(), boardId, { token: await member.token(boardId) });
      await Promise.all([waitSynced(session), waitSynced(viewerToken)]);

      await owner.share(boardId, member, 'editor');
      await waitUntil('the change reached the instance', () =>
        rolesOn(instance(), boardId, member.userId).includes('editor'),
      );
      assert.equal(await editOutcome(session, sees), 'accepted', 'the session raised by the link edits');
      assert.equal(await editOutcome(viewerToken, sees), 'refused', 'the viewer token may not edit');
    });

    test(`demotion and removal on ${where}: session and editor token both lose writing, then the connection`, async () => {
      const { owner, boardId, sees } = await board(`Demotion ${where}`);
      const member = await new ApiClient(a.url).signup('Member');
      await owner.share(boardId, member, 'editor');
      const session = open(instance(), boardId, { cookie: member.cookie });
      const editorToken = open(instance(), boardId, { token: tokenFor(boardId, member.userId, 'editor') });
      const kept = open(instance(), boardId, { cookie: member.cookie });
      await Promise.all([waitSynced(session), waitSynced(editorToken), waitSynced(kept)]);
      assert.equal(await editOutcome(editorToken, sees), 'accepted', 'the editor token edits before');

      const demoted = await owner.call('PATCH', `/api/boards/${boardId}/members/${member.userId}`, {
        role: 'viewer',
      });
      assert.equal(demoted.status, 200);
      await waitUntil('the change reached the instance', () =>
        rolesOn(instance(), boardId, member.userId).every((role) => role === 'viewer'),
      );
      assert.equal(await editOutcome(session, sees), 'refused', 'the demoted session may not edit');
      const secondToken = open(instance(), boardId, { token: tokenFor(boardId, member.userId, 'editor') });
      await waitSynced(secondToken);
      assert.equal(
        await editOutcome(secondToken, sees),
        'refused',
        'an editor token of a viewer may not edit',
      );

      const removed = await owner.call('DELETE', `/api/boards/${boardId}/members/${member.userId}`);
      assert.equal(removed.status, 204);
      await waitUntil('the removed member’s connection is closed with 4403', () =>
        kept.closes.some((c) => c.code === CloseCode.NO_ACCESS),
      );
      kept.provider.shouldConnect = false;
    });
  }

  test('a viewer token of a member who is demoted and promoted again never edits; the session follows each change', async () => {
    const { owner, boardId, sees } = await board('Round trip');
    const member = await new ApiClient(a.url).signup('Member');
    await owner.share(boardId, member, 'editor');
    const viewerTokens = [a, b, a, b].map((server) =>
      open(server, boardId, { token: tokenFor(boardId, member.userId, 'viewer') }),
    );
    const session = open(b, boardId, { cookie: member.cookie });
    await Promise.all([...viewerTokens, session].map((c) => waitSynced(c)));
    const setRole = async (role: Role) =>
      assert.equal(
        (await owner.call('PATCH', `/api/boards/${boardId}/members/${member.userId}`, { role })).status,
        200,
      );
    await setRole('viewer');
    await waitUntil('the demotion reached B', () =>
      rolesOn(b, boardId, member.userId).every((role) => role === 'viewer'),
    );
    await setRole('editor');
    await waitUntil('the promotion reached B', () => rolesOn(b, boardId, member.userId).includes('editor'));
    assert.equal(await editOutcome(session, sees), 'accepted', 'the session is an editor again');
    assert.equal(
      await editOutcome(viewerTokens[0]!, sees),
      'refused',
      'viewer token on A after the round trip',
    );
    assert.equal(
      await editOutcome(viewerTokens[1]!, sees),
      'refused',
      'viewer token on B after the round trip',
    );
  });
});

describe('one access rule: the periodic re-check when the bus message is lost', { skip }, () => {
  let redis: PrivateRedis;
  let cluster: TestCluster;
  let a: TestServer;
  let b: TestServer;
  const clients: DocClient[] = [];

  before(async () => {
    redis = await PrivateRedis.start();
    cluster = new TestCluster({ redis: redis.url, env: { ACCESS_CHECK_MS: '300' } });
    a = await cluster.start();
    b = await cluster.start();
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await cluster.close();
    await redis.stop();
  });

  test('with Redis dead, a link join on one instance raises the member’s session on the other (the join moves the access version); their viewer token stays a viewer', async () => {
    const owner = await new ApiClient(a.url).signup('Owner');
    const member = await new ApiClient(a.url).signup('Member');
    const boardId = await owner.createBoard('Join without the bus');
    await owner.share(boardId, member, 'viewer');
    const link = await owner.call<{ link: { token: string } }>('POST', `/api/boards/${boardId}/links`, {
      role: 'editor',
    });
    assert.equal(link.status, 201);
    const session = connectDoc(b.wsUrl, boardId, { cookie: member.cookie });
    const viewerToken = connectDoc(b.wsUrl, boardId, { token: await member.token(boardId) });
    clients.push(session, viewerToken);
    await Promise.all([waitSynced(session), waitSynced(viewerToken)]);

    await redis.kill();
    assert.equal((await member.call('POST', `/api/join/${link.body.link.token}`)).status, 200);
    // No bus: only B's re-check can raise the session. Its role is internal; wait for it, then
    // show what it means for the connection.
    const roomOnB = b.app.rooms.get(boardId)!;
    await waitUntil(
      'a connection of the member on B is an editor',
      () => [...roomOnB.peers].some((peer) => peer.userId === member.userId && peer.role === 'editor'),
      10_000,
    );
    const seesOnB = (id: string) => roomOnB.doc.getMap('shapes').has(id);
    assert.equal(await editOutcome(session, seesOnB), 'accepted', 'the raised session edits on B');
    assert.equal(await editOutcome(viewerToken, seesOnB), 'refused', 'the viewer token may not edit');
  });
});
