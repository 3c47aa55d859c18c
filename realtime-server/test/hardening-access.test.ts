// Hardening: who may do what on the document channel, and presence (awareness) from hostile
// clients. Viewers that write, tokens that expire mid-session or belong to another board, a
// foreign Origin with a valid cookie, and awareness floods: each is refused or dropped while the
// ordinary clients on the same and another board carry on, nothing stored changes and the heap
// returns near its baseline.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CloseCode, limits } from '@tandem/shared';
import * as Y from 'yjs';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  presence,
  rawSocket,
  storedShapes,
  waitSynced,
} from '../../testing/clients.ts';
import {
  assertHeapNear,
  awarenessMessage,
  Bystanders,
  heapAfterGc,
  rawDoc,
  sendAndProbe,
  syncMessage,
} from '../../testing/hardening.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';
import { signAccessToken } from '../src/auth/tokens.ts';

describe('hardening: access and presence on the document channel', () => {
  let server: TestServer;
  let owner: ApiClient;
  let boardId: string;
  let bystanders: Bystanders;
  const extra: DocClient[] = [];

  before(async () => {
    server = await startServer();
    owner = await new ApiClient(server.url).signup('Owner');
    boardId = await owner.createBoard('Guarded');
    bystanders = await Bystanders.start(server, owner, boardId);
  });
  after(async () => {
    for (const client of extra) client.destroy();
    bystanders.destroy();
    await server.close();
  });

  const ownerUser = () => ({ id: owner.userId, name: 'Owner', color: '#e03131' });

  test("a viewer's update with new content closes it with 4403; its sync step 2 is never applied and closes nothing", async () => {
    const baseline = await heapAfterGc();
    const viewer = await new ApiClient(server.url).signup('Viewer');
    await owner.share(boardId, viewer, 'viewer');
    const room = server.app.rooms.get(boardId)!;
    const foreign = new Y.Doc();
    addShape(foreign, 'from-viewer', { type: 'rect', x: 1, y: 1 });
    const content = Y.encodeStateAsUpdate(foreign);
    foreign.destroy();

    for (const syncType of [1, 2] as const) {
      const socket = await rawDoc(server, boardId, { cookie: viewer.cookie });
      // What the server already has is harmless: a stock client sends it in answer to sync step 1.
      assert.equal(
        await sendAndProbe(socket, syncMessage(syncType, Y.encodeStateAsUpdate(room.doc))),
        'alive',
      );
      // A sync answer (1) is not an edit: a read-only copy may hold what this instance has not
      // integrated yet (Ingest.take). It is dropped unapplied. An update (2) is an edit: 4403.
      assert.equal(
        await sendAndProbe(socket, syncMessage(syncType, content)),
        syncType === 1 ? 'alive' : CloseCode.NO_ACCESS,
      );
      if (syncType === 1) socket.ws.close();
    }
    assert.ok(!room.doc.getMap('shapes').has('from-viewer'));
    assert.ok(!(await storedShapes(server.store, boardId)).includes('from-viewer'));
    await bystanders.checkSyncing('after viewer writes');
    await assertHeapNear(baseline, 'viewer writes');
  });

  test('an access token that expires mid-session closes the connection with 4401', async () => {
    const token = signAccessToken(server.config.secret, {
      boardId,
      userId: owner.userId,
      role: 'editor',
      expiresAt: Date.now() + 1500,
    });
    const socket = await rawDoc(server, boardId, { token });
    // Usable until it expires…
    assert.equal(await sendAndProbe(socket, new Uint8Array([3])), 'alive');
    // …then closed by the server without any message from the client.
    assert.equal((await socket.closed).code, CloseCode.NOT_AUTHENTICATED);
    // And refused at the door afterwards.
    const again = rawSocket(`${server.wsUrl}/yjs/${boardId}?token=${encodeURIComponent(token)}`);
    assert.equal((await again.closed).code, CloseCode.NOT_AUTHENTICATED);
    await bystanders.checkSyncing('after token expiry');
  });

  test('a token for another board gets 4403, and a foreign Origin with a valid cookie gets HTTP 403 before any board loads', async () => {
    const otherBoard = await owner.createBoard('Other');
    const token = signAccessToken(server.config.secret, {
      boardId: otherBoard,
      userId: owner.userId,
      role: 'owner',
      expiresAt: Date.now() + 60_000,
    });
    const wrong = rawSocket(`${server.wsUrl}/yjs/${boardId}?token=${encodeURIComponent(token)}`);
    assert.equal((await wrong.closed).code, CloseCode.NO_ACCESS);

    const fresh = await owner.createBoard('Never opened');
    for (const origin of ['https://evil.example', 'null', `${server.origin}.evil.example`]) {
      const socket = rawSocket(`${server.wsUrl}/yjs/${fresh}`, { cookie: owner.cookie, origin });
      await assert.rejects(socket.opened, /403/, origin);
    }
    assert.equal(server.app.rooms.get(fresh), undefined);
    await bystanders.checkSyncing('after foreign origins');
  });

  test('awareness floods: client ids past the per-connection bound, another connection’s id, a 1 MB state and invalid JSON are dropped', async () => {
    const baseline = await heapAfterGc();
    const room = server.app.rooms.get(boardId)!;
    const [victim, watcher] = bystanders.clients.filter((c) => c.provider.roomname === boardId) as [
      DocClient,
      DocClient,
    ];
    victim.provider.awareness.setLocalState(presence(ownerUser(), 1, 1));
    const victimId = victim.doc.clientID;
    await waitUntil('watcher sees the victim', () => watcher.provider.awareness.getStates().has(victimId));
    const victimState = JSON.stringify(watcher.provider.awareness.getStates().get(victimId));

    const attacker = await rawDoc(server, boardId, { cookie: owner.cookie });
    const good = (x: number) => JSON.stringify(presence(ownerUser(), x, x));
    const sizeBefore = room.presence.size;
    // 200 new client ids in one message, then 200 more one by one.
    const many = Array.from({ length: 200 }, (_, i) => ({ clientId: 900_000 + i, clock: 1, state: good(i) }));
    assert.equal(await sendAndProbe(attacker, awarenessMessage(many)), 'alive');
    for (let i = 200; i < 400; i++) {
      assert.equal(
        await sendAndProbe(attacker, awarenessMessage([{ clientId: 900_000 + i, clock: 1, state: good(i) }])),
        'alive',
      );
    }
    assert.ok(room.presence.size - sizeBefore <= limits.maxClientIdsPerConnection, 'client ids bounded');
    // Another connection's client id with a higher clock.
    const hijack = JSON.stringify(presence({ ...ownerUser(), name: 'Hijacker' }, 666, 666));
    assert.equal(
      await sendAndProbe(
        attacker,
        awarenessMessage([{ clientId: victimId, clock: 1_000_000, state: hijack }]),
      ),
      'alive',
    );
    // A 1 MB state and invalid JSON on a client id the attacker already owns.
    const owned = 900_000;
    const huge = JSON.stringify({ ...presence(ownerUser()), tool: 'x'.repeat(1024 * 1024) });
    for (const state of [huge, '{"user": {', '\u0000\uffff', '[1,2,3]']) {
      assert.equal(
        await sendAndProbe(attacker, awarenessMessage([{ clientId: owned, clock: 50, state }])),
        'alive',
      );
    }
    // A valid change after all of that: once the watcher has it, everything before was handled.
    assert.equal(
      await sendAndProbe(attacker, awarenessMessage([{ clientId: owned, clock: 51, state: good(4242) }])),
      'alive',
    );
    await waitUntil('watcher sees the marker', () => {
      const state = watcher.provider.awareness.getStates().get(owned) as
        | { cursor?: { x: number } }
        | undefined;
      return state?.cursor?.x === 4242;
    });
    assert.equal(JSON.stringify(watcher.provider.awareness.getStates().get(victimId)), victimState);
    const attackerIds = (id: number) => id >= 900_000 && id < 900_400;
    const seenIds = [...watcher.provider.awareness.getStates().keys()].filter(attackerIds);
    assert.ok(seenIds.length <= limits.maxClientIdsPerConnection, `watcher saw ${seenIds.length} ids`);
    const stamped = watcher.provider.awareness.getStates().get(owned) as { role?: string };
    assert.equal(stamped.role, 'owner', 'the server stamps the role');

    // A connection's states vanish for the others as soon as it closes (not after a timeout).
    attacker.ws.close();
    await waitUntil(
      'attacker states removed for the watcher',
      () => ![...watcher.provider.awareness.getStates().keys()].some(attackerIds),
      5000,
    );
    await waitUntil('attacker states removed on the server', () => room.presence.size === sizeBefore);
    await bystanders.checkSyncing('after awareness floods');
    await assertHeapNear(baseline, 'awareness floods');
  });

  test('presence cannot be signed with another user’s identity', async () => {
    const mallory = await new ApiClient(server.url).signup('Mallory');
    await owner.share(boardId, mallory, 'editor');
    const [watcher] = bystanders.clients.filter((c) => c.provider.roomname === boardId) as [DocClient];
    const socket = await rawDoc(server, boardId, { cookie: mallory.cookie });
    const spoofed = JSON.stringify(presence(ownerUser(), 7, 7));
    assert.equal(
      await sendAndProbe(socket, awarenessMessage([{ clientId: 777_777, clock: 1, state: spoofed }])),
      'alive',
    );
    await waitUntil('watcher got mallory’s state', () => watcher.provider.awareness.getStates().has(777_777));
    const state = watcher.provider.awareness.getStates().get(777_777) as {
      user: { id: string; name: string };
    };
    assert.equal(state.user.id, mallory.userId, 'the state carries the connection’s user');
    assert.equal(state.user.name, 'Mallory');
    socket.ws.close();
    await waitUntil(
      'the others no longer see mallory’s state',
      () => !watcher.provider.awareness.getStates().has(777_777),
    );
  });

  test('a client on a board it cannot see, and one whose membership is removed mid-session, are refused or closed', async () => {
    const stranger = await new ApiClient(server.url).signup('Stranger');
    const refused = rawSocket(`${server.wsUrl}/yjs/${boardId}`, { cookie: stranger.cookie });
    assert.equal((await refused.closed).code, CloseCode.NO_ACCESS);
    const member = await new ApiClient(server.url).signup('Member');
    await owner.share(boardId, member, 'editor');
    const client = connectDoc(server.wsUrl, boardId, { cookie: member.cookie });
    extra.push(client);
    await waitSynced(client);
    const removed = await owner.call('DELETE', `/api/boards/${boardId}/members/${member.userId}`);
    assert.equal(removed.status, 204);
    await waitUntil('member closed with 4403', () =>
      client.closes.some((c) => c.code === CloseCode.NO_ACCESS),
    );
    client.provider.shouldConnect = false;
    await bystanders.checkSyncing('after membership removal');
  });
});
