// The workspace channel (socket.io): live dashboard events, and access changes reaching open
// document connections at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CloseCode } from '@tandem/shared';
import { ApiClient, connectDoc, waitSynced } from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';
import { type Client, connectWorkspace, type Recorder } from '../../testing/workspace.ts';

describe('workspace channel', () => {
  let server: TestServer;
  const sockets: Client[] = [];
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    for (const socket of sockets) socket.disconnect();
    await server.close();
  });
  const track = (recorder: Recorder) => {
    sockets.push(recorder.socket);
    return recorder;
  };

  test('refuses a handshake without a session, and one from a foreign origin', async () => {
    await assert.rejects(connectWorkspace(server.url, ''), /AUTH_REQUIRED/);
    const owner = await new ApiClient(server.url).signup();
    await assert.rejects(connectWorkspace(server.url, owner.cookie, 'https://evil.example'));
  });

  test('rename, membership and deletion reach every member live; presence lists who is on a board', async () => {
    const owner = await new ApiClient(server.url).signup('Owner');
    const member = await new ApiClient(server.url).signup('Member');
    const ownerWs = track(await connectWorkspace(server.url, owner.cookie));
    const memberWs = track(await connectWorkspace(server.url, member.cookie));
    const boardId = await owner.createBoard('Plan');
    await waitUntil('owner told of the new board', () =>
      ownerWs.events.some((e) => e.name === 'board:changed'),
    );

    await owner.share(boardId, member, 'editor');
    await waitUntil('owner told members changed', () =>
      ownerWs.events.some(
        (e) => e.name === 'members:changed' && (e.payload as { boardId: string }).boardId === boardId,
      ),
    );
    await owner.call('PATCH', `/api/boards/${boardId}`, { title: 'Plan v2' });
    await waitUntil('member sees the rename', () =>
      memberWs.events.some(
        (e) =>
          e.name === 'board:changed' && (e.payload as { board: { title: string } }).board.title === 'Plan v2',
      ),
    );

    const doc = connectDoc(server.wsUrl, boardId, { cookie: member.cookie });
    await waitSynced(doc);
    await waitUntil('owner sees the member on the board', () =>
      (ownerWs.presence[boardId] ?? []).some((u) => u.id === member.userId),
    );
    doc.destroy();
    await waitUntil('and then not', () => (ownerWs.presence[boardId] ?? []).length === 0);

    const deleted = await owner.call('DELETE', `/api/boards/${boardId}`);
    assert.equal(deleted.status, 204);
    await waitUntil('member told the board is gone', () =>
      memberWs.events.some(
        (e) => e.name === 'board:removed' && (e.payload as { boardId: string }).boardId === boardId,
      ),
    );
  });

  test('removing a member closes their open document connection with 4403; deleting a board closes everyone with 4404', async () => {
    const owner = await new ApiClient(server.url).signup('Owner');
    const member = await new ApiClient(server.url).signup('Member');
    const memberWs = track(await connectWorkspace(server.url, member.cookie));
    const boardId = await owner.createBoard();
    await owner.share(boardId, member, 'editor');
    const ownerDoc = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    const memberDoc = connectDoc(server.wsUrl, boardId, { cookie: member.cookie });
    await Promise.all([waitSynced(ownerDoc), waitSynced(memberDoc)]);
    memberDoc.provider.shouldConnect = false;
    const removed = await owner.call('DELETE', `/api/boards/${boardId}/members/${member.userId}`);
    assert.equal(removed.status, 204);
    await waitUntil('member connection closed 4403', () =>
      memberDoc.closes.some((c) => c.code === CloseCode.NO_ACCESS),
    );
    await waitUntil('member dashboard told', () => memberWs.events.some((e) => e.name === 'board:removed'));
    assert.ok(ownerDoc.provider.wsconnected, 'the owner stays connected');

    ownerDoc.provider.shouldConnect = false;
    await owner.call('DELETE', `/api/boards/${boardId}`);
    await waitUntil('owner connection closed 4404', () =>
      ownerDoc.closes.some((c) => c.code === CloseCode.NO_SUCH_BOARD),
    );
    ownerDoc.destroy();
    memberDoc.destroy();
  });

  test('demoting an editor to viewer makes their open connection read-only at once', async () => {
    const owner = await new ApiClient(server.url).signup('Owner');
    const member = await new ApiClient(server.url).signup('Member');
    const boardId = await owner.createBoard();
    await owner.share(boardId, member, 'editor');
    const memberDoc = connectDoc(server.wsUrl, boardId, { cookie: member.cookie });
    await waitSynced(memberDoc);
    memberDoc.provider.shouldConnect = false;
    const changed = await owner.call('PATCH', `/api/boards/${boardId}/members/${member.userId}`, {
      role: 'viewer',
    });
    assert.equal(changed.status, 200);
    memberDoc.doc.getMap('shapes').set('x', 1);
    await waitUntil('write refused 4403', () => memberDoc.closes.some((c) => c.code === CloseCode.NO_ACCESS));
    memberDoc.destroy();
  });
});
