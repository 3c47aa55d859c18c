// The ephemeral facilitation fields of presence (docs/api.md §3, §14) across instances: a laser trail, a
// cursor chat bubble and a reaction sent by a viewer on one instance reach a member on another
// through Redis, clearing them reaches too, an oversized trail is dropped on the way, and none of
// it is ever stored in the board's document. Real instances, Redis, PostgreSQL and y-websocket
// clients.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_LASER_POINTS, type PresenceState } from '@tandem/shared';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  docFromStored,
  presence,
  waitSynced,
} from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { skipUnless, waitUntil } from '../../testing/services.ts';

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

describe('laser, chat and reaction across instances', { skip }, () => {
  const cluster = new TestCluster();
  const clients: DocClient[] = [];
  before(async () => {
    await cluster.start();
    await cluster.start();
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await cluster.close();
  });

  test('are carried from a viewer on one instance to a member on the other, and never stored', async () => {
    const [a, b] = [cluster.instances[0]!, cluster.instances[1]!];
    const owner = await new ApiClient(b.url).signup('Owner');
    const boardId = await owner.createBoard();
    const viewer = await new ApiClient(a.url).signup('Viewer');
    await owner.share(boardId, viewer, 'viewer');

    const sender = connectDoc(a.wsUrl, boardId, { cookie: viewer.cookie });
    const watcher = connectDoc(b.wsUrl, boardId, { cookie: owner.cookie });
    clients.push(sender, watcher);
    await Promise.all([waitSynced(sender), waitSynced(watcher)]);
    const senderId = sender.doc.clientID;
    const seen: PresenceState[] = [];
    watcher.provider.awareness.on('change', () => {
      const state = watcher.provider.awareness.getStates().get(senderId);
      if (state) seen.push(structuredClone(state) as PresenceState);
    });
    const theirs = () => watcher.provider.awareness.getStates().get(senderId) as PresenceState | undefined;

    // A full trail (the schema's limit), a chat bubble and a reaction, from the sender's clock.
    const t0 = Date.now();
    const points = Array.from({ length: MAX_LASER_POINTS }, (_, i): [number, number, number] => [
      i * 3.5,
      100 - i,
      t0 + i * 16,
    ]);
    const chat = 'Look at this corner, everyone';
    sender.provider.awareness.setLocalState({
      ...presence({ id: viewer.userId, name: 'Viewer', color: '#0969da' }, 10, 20),
      tool: 'laser',
      laser: { points },
      chat,
      reaction: { emoji: '🎉', at: t0 },
    });
    await waitUntil('the fields reach the other instance', () => theirs()?.chat === chat);
    const state = theirs()!;
    assert.deepEqual(state.laser, { points });
    assert.deepEqual(state.reaction, { emoji: '🎉', at: t0 });
    assert.equal(state.tool, 'laser');
    assert.equal(state.user.id, viewer.userId, 'stamped with the viewer’s own identity');
    assert.equal(state.role, 'viewer', 'a viewer may point, chat and react: presence is not content');

    // A trail over the limit is dropped on the way; the next valid state still arrives.
    const tooLong = [...points, [0, 0, t0 + 9999] as [number, number, number]];
    sender.provider.awareness.setLocalState({
      ...sender.provider.awareness.getLocalState(),
      laser: { points: tooLong },
    });
    // Clearing: each field goes back to null for the others.
    sender.provider.awareness.setLocalState({
      ...presence({ id: viewer.userId, name: 'Viewer', color: '#0969da' }, 10, 20),
      laser: null,
      chat: null,
      reaction: null,
    });
    await waitUntil('the cleared fields reach the other instance', () => theirs()?.chat === null);
    assert.equal(theirs()?.laser, null);
    assert.equal(theirs()?.reaction, null);
    assert.ok(
      seen.every((s) => (s.laser?.points.length ?? 0) <= MAX_LASER_POINTS),
      'the oversized trail never reached the other instance',
    );

    // Never stored: after an edit made later is in the store, the stored document holds that edit
    // and nothing of the presence (no `laser`, no chat text), on either instance's copy too.
    const ownerOnA = connectDoc(a.wsUrl, boardId, { cookie: owner.cookie });
    clients.push(ownerOnA);
    await waitSynced(ownerOnA);
    addShape(ownerOnA.doc, 'after-presence', { type: 'rect', x: 1, y: 2, w: 3, h: 4 }, 'a');
    let stored: { snapshot: Uint8Array | null; updates: Uint8Array[] } = { snapshot: null, updates: [] };
    await waitUntil('the edit is stored', async () => {
      stored = await a.store.loadDoc(boardId);
      const doc = docFromStored(stored);
      const has = doc.getMap('shapes').has('after-presence');
      doc.destroy();
      return has;
    });
    const bytes = Buffer.concat([...(stored.snapshot ? [stored.snapshot] : []), ...stored.updates]);
    for (const needle of [chat, 'laser', 'reaction', '🎉'])
      assert.equal(bytes.includes(Buffer.from(needle)), false, `"${needle}" is not in the stored document`);
    for (const server of [a, b]) {
      const room = server.app.rooms.get(boardId);
      if (!room) continue;
      const json = JSON.stringify(room.doc.toJSON());
      assert.equal(json.includes(chat) || json.includes('laser'), false, 'nor in the live document');
    }
  });
});
