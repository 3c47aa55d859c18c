// Hardening: MAX_DOC_BYTES holds for the merged board, not only per instance.
// Two real instances share the machine's Redis and PostgreSQL; a board sits at 150 kB against a
// 200 kB limit, and a 45 kB update arrives on each instance at the same moment. Each fits alone;
// together they do not. While other instances are alive, an instance takes an update only if the
// board would still fit were every live instance to take one as large at the same moment
// (docs/security.md, "Board size across instances"), so neither is taken and the board stays
// under its limit; smaller updates that fit together are both taken.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CloseCode } from '@tandem/shared';
import * as Y from 'yjs';
import { ApiClient } from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { type RawDoc, rawDoc, sendAndProbe, syncMessage } from '../../testing/hardening.ts';
import type { TestServer } from '../../testing/server.ts';
import { skipUnless, waitUntil } from '../../testing/services.ts';

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));
const LIMIT = 200 * 1000;

/** An update that adds `bytes` of text under its own key, on top of nothing (fresh client id). */
function textUpdate(key: string, bytes: number, letter: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getText(key).insert(0, letter.repeat(bytes));
  const update = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return update;
}

/** The size of the board as stored, merged: what MAX_DOC_BYTES is about. */
async function storedSize(server: TestServer, boardId: string): Promise<number> {
  const stored = await server.store.loadDoc(boardId);
  const parts = stored.snapshot ? [stored.snapshot, ...stored.updates] : stored.updates;
  return parts.length === 0 ? 0 : Y.mergeUpdates(parts).length;
}

describe('hardening: MAX_DOC_BYTES across instances', { skip }, () => {
  const cluster = new TestCluster({ env: { MAX_DOC_BYTES: String(LIMIT) } });
  let a: TestServer;
  let b: TestServer;
  const sockets: RawDoc[] = [];

  before(async () => {
    a = await cluster.start();
    b = await cluster.start();
    await waitUntil('the instances see each other', () =>
      [a, b].every((server) => server.app.rooms.instances.othersAlive()),
    );
  });
  after(async () => {
    for (const socket of sockets) socket.ws.terminate();
    await cluster.close();
  });

  async function boardAt(
    owner: ApiClient,
    bytes: number,
  ): Promise<{ boardId: string; onA: RawDoc; onB: RawDoc }> {
    const boardId = await owner.createBoard('Near the limit');
    const onA = await rawDoc(a, boardId, { cookie: owner.cookie });
    const onB = await rawDoc(b, boardId, { cookie: owner.cookie });
    sockets.push(onA, onB);
    // In five parts: near the limit, one update may take only its share of the room left.
    for (let part = 0; part < 5; part++)
      assert.equal(
        await sendAndProbe(onA, syncMessage(2, textUpdate(`base-${part}`, bytes / 5, 'b'))),
        'alive',
      );
    await waitUntil('both instances hold the base', () =>
      [a, b].every((server) => (server.app.rooms.get(boardId)?.size.bytes ?? 0) >= bytes),
    );
    return { boardId, onA, onB };
  }

  test('two 45 kB updates at once on two instances to a 150 kB board: the merged board stays under 200 kB', async () => {
    const owner = await new ApiClient(a.url).signup('Owner');
    const { boardId, onA, onB } = await boardAt(owner, 150 * 1000);
    const results = await Promise.all([
      sendAndProbe(onA, syncMessage(2, textUpdate('from-a', 45 * 1000, 'a'))),
      sendAndProbe(onB, syncMessage(2, textUpdate('from-b', 45 * 1000, 'c'))),
    ]);
    await Promise.all([a, b].map((server) => server.app.rooms.get(boardId)?.flush()));
    // Each instance applies what the other relayed (both then hold the same board), then stores
    // it. An instance whose room has unloaded (its socket was refused) stored what it held then.
    await waitUntil('both instances hold the same board', () => {
      const [onARoom, onBRoom] = [a, b].map((server) => server.app.rooms.get(boardId)?.doc);
      if (!onARoom || !onBRoom) return true;
      return Buffer.from(Y.encodeStateVector(onARoom)).equals(Buffer.from(Y.encodeStateVector(onBRoom)));
    });
    await Promise.all([a, b].map((server) => server.app.rooms.get(boardId)?.flush()));
    const size = await storedSize(a, boardId);
    assert.ok(
      size <= LIMIT,
      `${size} bytes stored against a limit of ${LIMIT} (results ${results.join(', ')})`,
    );
    for (const server of [a, b]) {
      const room = server.app.rooms.get(boardId);
      if (room) assert.ok(room.size.bytes <= LIMIT, `an instance holds ${room.size.bytes} bytes`);
    }
    assert.ok(
      results.some((result) => result === CloseCode.BOARD_TOO_LARGE),
      `at least one of the two was refused with 4413 (${results.join(', ')})`,
    );
  });

  test('two 20 kB updates at once to a 150 kB board both fit, and are both taken', async () => {
    const owner = await new ApiClient(a.url).signup('Owner');
    const { boardId, onA, onB } = await boardAt(owner, 150 * 1000);
    const results = await Promise.all([
      sendAndProbe(onA, syncMessage(2, textUpdate('from-a', 20 * 1000, 'a'))),
      sendAndProbe(onB, syncMessage(2, textUpdate('from-b', 20 * 1000, 'c'))),
    ]);
    assert.deepEqual(results, ['alive', 'alive']);
    await waitUntil('both edits reached both instances', () =>
      [a, b].every((server) => {
        const doc = server.app.rooms.get(boardId)?.doc;
        return doc?.getText('from-a').length === 20 * 1000 && doc.getText('from-b').length === 20 * 1000;
      }),
    );
  });
});
