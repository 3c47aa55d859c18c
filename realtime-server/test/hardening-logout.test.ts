// Hardening: logout ends everything opened with the session, on every instance. Two real instances
// on Redis and PostgreSQL: the dashboard sockets (socket.io) of the logged-out session stop
// receiving board:changed and votes:changed, on the instance that took the logout and on the
// other; its document connections close with 4401; another session of the same person carries on.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CloseCode } from '@tandem/shared';
import { ApiClient, connectDoc, type DocClient, waitSynced } from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import type { TestServer } from '../../testing/server.ts';
import { PrivateRedis, skipUnless, waitUntil } from '../../testing/services.ts';
import { connectWorkspace, type Recorder } from '../../testing/workspace.ts';

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

describe('hardening: logout on every instance', { skip }, () => {
  const cluster = new TestCluster();
  let a: TestServer;
  let b: TestServer;
  const recorders: Recorder[] = [];
  const docs: DocClient[] = [];

  before(async () => {
    a = await cluster.start();
    b = await cluster.start();
  });
  after(async () => {
    for (const recorder of recorders) recorder.socket.disconnect();
    for (const doc of docs) doc.destroy();
    await cluster.close();
  });

  const workspace = async (server: TestServer, who: ApiClient) => {
    const recorder = await connectWorkspace(server.url, who.cookie, server.origin);
    recorders.push(recorder);
    return recorder;
  };
  const titled = (recorder: Recorder, title: string) =>
    recorder.events.some(
      (e) => e.name === 'board:changed' && (e.payload as { board: { title: string } }).board.title === title,
    );
  const voteEvents = (recorder: Recorder) => recorder.events.filter((e) => e.name === 'votes:changed').length;

  test('logout disconnects the session’s dashboard sockets and closes its document connections on both instances', async () => {
    const owner = await new ApiClient(a.url, a.origin).signup('Owner');
    const ada = await new ApiClient(a.url, a.origin).signup('Ada', 'ada-logout@example.com');
    const boardId = await owner.createBoard('Plan');
    await owner.share(boardId, ada, 'editor');
    // Ada on a second device: the same account, another session.
    const adaPhone = new ApiClient(b.url, b.origin);
    const login = await adaPhone.call('POST', '/api/auth/login', {
      email: 'ada-logout@example.com',
      password: 'correct horse battery',
    });
    assert.equal(login.status, 200);

    const onA = await workspace(a, ada);
    const onB = await workspace(b, ada);
    const phoneOnB = await workspace(b, adaPhone);
    const doc = connectDoc(b.wsUrl, boardId, { cookie: ada.cookie, origin: b.origin });
    docs.push(doc);
    await waitSynced(doc);

    // All of them are live before the logout.
    assert.equal((await owner.call('PATCH', `/api/boards/${boardId}`, { title: 'Before' })).status, 200);
    await waitUntil('every socket hears the rename', () =>
      [onA, onB, phoneOnB].every((r) => titled(r, 'Before')),
    );

    assert.equal((await ada.call('POST', '/api/auth/logout')).status, 204);
    await waitUntil(
      'the session’s socket on the instance that took the logout is disconnected',
      () => onA.socket.disconnected,
    );
    await waitUntil(
      'the session’s socket on the other instance is disconnected',
      () => onB.socket.disconnected,
    );
    await waitUntil('the session’s document connection closes with 4401', () =>
      doc.closes.some((c) => c.code === CloseCode.NOT_AUTHENTICATED),
    );

    // Board and vote events after the logout reach the other session only.
    const votesBefore = [voteEvents(onA), voteEvents(onB)];
    assert.equal((await owner.call('PATCH', `/api/boards/${boardId}`, { title: 'After' })).status, 200);
    assert.equal(
      (await owner.call('POST', `/api/boards/${boardId}/votes`, { votesPerPerson: 3 })).status,
      201,
    );
    await waitUntil(
      'the other session hears the rename and the vote',
      () => titled(phoneOnB, 'After') && voteEvents(phoneOnB) > 0,
    );
    assert.ok(phoneOnB.socket.connected, 'the other session’s socket stays connected');
    assert.equal(titled(onA, 'After') || titled(onB, 'After'), false, 'no rename after logout');
    assert.deepEqual([voteEvents(onA), voteEvents(onB)], votesBefore, 'no vote events after logout');
  });
});

describe('hardening: a logout while Redis is down', { skip }, () => {
  let redis: PrivateRedis;
  let cluster: TestCluster;
  let a: TestServer;
  let b: TestServer;
  const recorders: Recorder[] = [];

  before(async () => {
    redis = await PrivateRedis.start();
    cluster = new TestCluster({ redis: redis.url });
    a = await cluster.start();
    b = await cluster.start();
  });
  after(async () => {
    for (const recorder of recorders) recorder.socket.disconnect();
    await cluster.close();
    await redis.stop();
  });

  test('the other instance ends the session’s dashboard socket once the bus is back', async () => {
    const ada = await new ApiClient(a.url, a.origin).signup('Ada');
    const onB = await connectWorkspace(b.url, ada.cookie, b.origin);
    recorders.push(onB);
    await redis.kill();
    await waitUntil('instance B sees the bus down', async () => {
      const ready = (await (await fetch(`${b.url}/readyz`)).json()) as { bus: string };
      return ready.bus === 'unreachable';
    });
    // The logout's message to B is lost with the bus.
    assert.equal((await ada.call('POST', '/api/auth/logout')).status, 204);
    await redis.start();
    await waitUntil(
      'the socket on B is disconnected after the bus comes back',
      () => onB.socket.disconnected,
      30_000,
    );
  });
});
