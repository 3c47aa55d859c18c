// Several instances act as one: real Redis, real PostgreSQL, real y-websocket clients.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CloseCode } from '@tandem/shared';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  presence,
  shapesJson,
  storedShapes,
  waitSynced,
  whenStored,
} from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { CuttableProxy } from '../../testing/proxy.ts';
import { PrivateRedis, skipUnless, waitUntil } from '../../testing/services.ts';
import { connectWorkspace } from '../../testing/workspace.ts';

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

describe('several instances', { skip }, () => {
  const clients: DocClient[] = [];
  const open = (wsUrl: string, boardId: string, cookie: string) => {
    const client = connectDoc(wsUrl, boardId, { cookie });
    clients.push(client);
    return client;
  };
  after(() => {
    for (const client of clients) client.destroy();
  });

  describe('on the shared Redis and PostgreSQL', () => {
    const cluster = new TestCluster();
    before(async () => {
      await cluster.start();
      await cluster.start();
    });
    after(() => cluster.close());

    test('clients on different instances converge, and a cursor on one is seen on the other', async () => {
      const [a, b] = cluster.instances as [
        NonNullable<(typeof cluster.instances)[0]>,
        NonNullable<(typeof cluster.instances)[0]>,
      ];
      const owner = await new ApiClient(a.url).signup('Owner');
      const boardId = await owner.createBoard();
      const onA = open(a.wsUrl, boardId, owner.cookie);
      const onB = open(b.wsUrl, boardId, owner.cookie);
      await Promise.all([waitSynced(onA), waitSynced(onB)]);
      addShape(onA.doc, 'from-a', { type: 'rect', x: 1, y: 1 }, 'a');
      addShape(onB.doc, 'from-b', { type: 'rect', x: 2, y: 2 }, 'b');
      await waitUntil(
        'converged',
        () => shapesJson(onA.doc) === shapesJson(onB.doc) && onA.doc.getMap('shapes').size === 2,
      );
      onA.provider.awareness.setLocalState(
        presence({ id: owner.userId, name: 'Cursor on A', color: '#123456' }, 42, 7),
      );
      await waitUntil('cursor crosses instances', () =>
        [...onB.provider.awareness.getStates().values()].some(
          // The server stamps the connection's own user on the state, whatever name the client sent.
          (state) =>
            state.user?.id === owner.userId && state.user?.name === 'Owner' && state.cursor?.x === 42,
        ),
      );
    });

    test('an instance that opens a board late catches up on edits not yet stored', async () => {
      const slow = await cluster.start({
        env: { PERSIST_DEBOUNCE_MS: '60000', PERSIST_MAX_DELAY_MS: '60000' },
      });
      const late = cluster.instances[0]!;
      const owner = await new ApiClient(slow.url).signup('Owner');
      const boardId = await owner.createBoard();
      const writer = open(slow.wsUrl, boardId, owner.cookie);
      await waitSynced(writer);
      for (let i = 0; i < 10; i++) addShape(writer.doc, `unstored-${i}`, { type: 'sticky', x: i, y: 0 });
      await waitUntil(
        'the slow instance has them',
        () => slow.app.rooms.get(boardId)?.doc.getMap('shapes').size === 10,
      );
      assert.equal(JSON.parse(await storedShapes(slow.store, boardId)).constructor, Object);
      assert.equal(
        Object.keys(JSON.parse(await storedShapes(slow.store, boardId))).length,
        0,
        'not stored yet',
      );
      const reader = open(late.wsUrl, boardId, owner.cookie);
      await waitSynced(reader);
      await waitUntil(
        'late instance caught up from its peer',
        () => shapesJson(reader.doc) === shapesJson(writer.doc),
      );
      await cluster.stop(slow);
    });

    test('a restore through an instance without the board open reaches the clients on another in slices, nobody reading the whole board back', async () => {
      const [a, b] = [cluster.instances[0]!, cluster.instances[1]!];
      const owner = await new ApiClient(b.url).signup('Owner');
      const boardId = await owner.createBoard();
      const onA = open(a.wsUrl, boardId, owner.cookie);
      await waitSynced(onA);
      const shapes = onA.doc.getMap('shapes');
      onA.doc.transact(() => {
        for (let i = 0; i < 300; i++) addShape(onA.doc, `r${i}`, { type: 'sticky', x: i, y: 0 }, `note ${i}`);
      });
      await whenStored(onA);
      const saved = await owner.call<{ version: { id: string } }>('POST', `/api/boards/${boardId}/versions`, {
        label: 'Three hundred',
      });
      assert.equal(saved.status, 201);
      onA.doc.transact(() => {
        for (const id of [...shapes.keys()]) shapes.delete(id);
      });
      await whenStored(onA);
      const catchUps = async () => {
        const text = await (await fetch(`${a.url}/metrics`)).text();
        return (
          text
            .split('\n')
            // A heartbeat that lapses on a loaded machine (or a bus reconnect) makes every open room
            // read the Store, and so do the lapse rounds of an instance's first day on Redis (only
            // what was stored since the head they saw): that is recovery, not the restore read back.
            .filter((line) => line.startsWith('tandem_store_catchups_total'))
            .filter((line) => !/reason="(lapsed|reconnect|lapse window)"/.test(line))
            .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0)
        );
      };
      const catchUpsBefore = await catchUps();
      // Counted where B's slices are applied, in A's room, one bus message at a time: A's fanout may
      // join the slices that arrive in one turn into one message to its clients (on a loaded
      // machine it did: 11 updates for 12 slices).
      let updates = 0;
      a.app.rooms.get(boardId)!.doc.on('update', () => updates++);
      const restored = await owner.call(
        'POST',
        `/api/boards/${boardId}/versions/${saved.body.version.id}/restore`,
      );
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
      await waitUntil('the client on A sees the restore', () => shapes.size === 300);
      assert.ok(updates >= 300 / 25, `it came in slices (${updates} updates)`);
      assert.equal(b.app.rooms.get(boardId), undefined, 'B never opened the board');
      assert.equal(await catchUps(), catchUpsBefore, 'A never read the board back from the Store');
      assert.equal(Object.keys(JSON.parse(await storedShapes(a.store, boardId))).length, 300, 'stored');
      addShape(onA.doc, 'after', { type: 'rect', x: 0, y: 0 });
      await whenStored(onA);
      assert.equal(
        Object.keys(JSON.parse(await storedShapes(a.store, boardId))).length,
        301,
        'still editable',
      );
    });

    test('a socket.io event raised on one instance reaches a user on the other; removing a member on one closes their connection on the other', async () => {
      const [a, b] = [cluster.instances[0]!, cluster.instances[1]!];
      const owner = await new ApiClient(a.url).signup('Owner');
      const member = await new ApiClient(b.url).signup('Member');
      const memberWs = await connectWorkspace(b.url, member.cookie);
      try {
        const boardId = await owner.createBoard('Shared');
        await owner.share(boardId, member, 'editor');
        await owner.call('PATCH', `/api/boards/${boardId}`, { title: 'Renamed on A' });
        await waitUntil('member on B sees the rename made on A', () =>
          memberWs.events.some(
            (e) =>
              e.name === 'board:changed' &&
              (e.payload as { board: { title: string } }).board.title === 'Renamed on A',
          ),
        );
        const memberDoc = open(b.wsUrl, boardId, member.cookie);
        await waitSynced(memberDoc);
        memberDoc.provider.shouldConnect = false;
        const removed = await owner.call('DELETE', `/api/boards/${boardId}/members/${member.userId}`);
        assert.equal(removed.status, 204);
        await waitUntil('closed on B with 4403', () =>
          memberDoc.closes.some((c) => c.code === CloseCode.NO_ACCESS),
        );
        await waitUntil('member told on B', () => memberWs.events.some((e) => e.name === 'board:removed'));
      } finally {
        memberWs.socket.disconnect();
      }
    });

    test('PostgreSQL unreachable for a while: edits are kept and written when it returns; a board that cannot load is never replaced by an empty one', async () => {
      const pgUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
      const proxy = await CuttableProxy.start(pgUrl.hostname, Number(pgUrl.port || 5432));
      const viaProxy = new URL(pgUrl);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      const instance = await cluster.start({ database: viaProxy.toString() });
      const direct = cluster.instances[0]!;
      try {
        const owner = await new ApiClient(instance.url).signup('Owner');
        const boardId = await owner.createBoard();
        const other = await owner.createBoard('Other');
        const seed = open(instance.wsUrl, other, owner.cookie);
        await waitSynced(seed);
        addShape(seed.doc, 'keep-me', { type: 'rect', x: 0, y: 0 });
        await waitUntil('other board stored', async () =>
          (await storedShapes(direct.store, other)).includes('keep-me'),
        );
        seed.destroy();
        await waitUntil('other board unloaded', () => instance.app.rooms.get(other) === undefined);

        const writer = open(instance.wsUrl, boardId, owner.cookie);
        await waitSynced(writer);
        proxy.disconnect();
        for (let i = 0; i < 5; i++) addShape(writer.doc, `during-outage-${i}`, { type: 'rect', x: i, y: i });
        await waitUntil(
          'readyz reports the outage',
          async () => (await fetch(`${instance.url}/readyz`)).status === 503,
        );
        // A board that is not open cannot load now: 1011, and nothing is written over it.
        const blocked = connectDoc(instance.wsUrl, other, { cookie: owner.cookie });
        blocked.provider.shouldConnect = false;
        await waitUntil('load failure closes with 1011', () =>
          blocked.closes.some((c) => c.code === CloseCode.INTERNAL),
        );
        blocked.destroy();

        proxy.reconnect();
        await waitUntil(
          'edits made during the outage are stored',
          async () => (await storedShapes(direct.store, boardId)).split('during-outage-').length === 6,
          30_000,
        );
        await waitUntil(
          'ready again',
          async () => (await fetch(`${instance.url}/readyz`)).status === 200,
          30_000,
        );
        assert.ok((await storedShapes(direct.store, other)).includes('keep-me'), 'the other board is intact');
        const reader = open(instance.wsUrl, other, owner.cookie);
        await waitSynced(reader);
        assert.ok(reader.doc.getMap('shapes').has('keep-me'));
      } finally {
        await cluster.stop(instance);
        await proxy.close();
      }
    });
  });

  describe('on a Redis that dies', () => {
    let redis: PrivateRedis;
    let cluster: TestCluster;
    before(async () => {
      redis = await PrivateRedis.start();
      cluster = new TestCluster({ redis: redis.url });
      await cluster.start();
      await cluster.start();
    });
    after(async () => {
      await cluster.close();
      await redis.stop();
    });

    test('Redis killed and restarted mid-edit: instances resubscribe, resync and converge; /readyz reports the outage', async () => {
      const [a, b] = [cluster.instances[0]!, cluster.instances[1]!];
      const owner = await new ApiClient(a.url).signup('Owner');
      const boardId = await owner.createBoard();
      const onA = open(a.wsUrl, boardId, owner.cookie);
      const onB = open(b.wsUrl, boardId, owner.cookie);
      await Promise.all([waitSynced(onA), waitSynced(onB)]);
      addShape(onA.doc, 'before', { type: 'rect', x: 0, y: 0 });
      await waitUntil('synced before the outage', () => onB.doc.getMap('shapes').has('before'));

      await redis.kill();
      await waitUntil('readyz reports the bus outage: degraded, still serving', async () => {
        const answer = await fetch(`${a.url}/readyz`);
        const body = (await answer.json()) as { status: string; bus: string };
        return answer.status === 200 && body.status === 'degraded' && body.bus === 'unreachable';
      });
      for (let i = 0; i < 5; i++) {
        addShape(onA.doc, `a-during-${i}`, { type: 'rect', x: i, y: 0 }, 'x');
        addShape(onB.doc, `b-during-${i}`, { type: 'ellipse', x: 0, y: i }, 'y');
      }
      await redis.start();
      await waitUntil(
        'both instances converge after the outage',
        () => shapesJson(onA.doc) === shapesJson(onB.doc),
        30_000,
      );
      assert.equal(onA.doc.getMap('shapes').size, 11);
      await waitUntil(
        'ready again',
        async () =>
          ((await (await fetch(`${a.url}/readyz`)).json()) as { status: string }).status === 'ready',
        30_000,
      );
      addShape(onB.doc, 'after', { type: 'rect', x: 9, y: 9 });
      await waitUntil('live again', () => onA.doc.getMap('shapes').has('after'));
    });
  });
});
