// Clean-up of unused images (docs/api.md §13), with a clock the test moves: an image nothing references
// is deleted HISTORY_DAYS after it was last seen unreferenced, never earlier; referencing it
// again (or uploading it again) restarts the count; a deleted board's images go too.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { AssetAnswer } from '@tandem/shared';
import sharp from 'sharp';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  storedShapes,
  waitSynced,
} from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';
import { AssetCleanup } from '../src/assets/cleanup.ts';

const DAY = 24 * 60 * 60 * 1000;

const png = (color: string) =>
  sharp({ create: { width: 20, height: 10, channels: 3, background: color } })
    .png()
    .toBuffer();

async function upload(who: ApiClient, boardId: string, body: Buffer): Promise<string> {
  const response = await fetch(`${who.baseUrl}/api/boards/${boardId}/assets`, {
    method: 'POST',
    headers: { cookie: who.cookie, origin: who.origin, 'content-type': 'image/png' },
    body,
  });
  assert.equal(response.status, 201);
  return ((await response.json()) as AssetAnswer).asset.id;
}

// Each test gets a board of its own, on a server and clock of its own, and replays the earlier
// steps of the story it needs itself (the helpers below): a sweep counts every board of its
// server, so the counts asserted here only hold on a server no other test has touched, and a
// test that relied on an earlier one's sweeps would pass or fail by the order they ran in.
describe('clean-up of unused images', () => {
  let server: TestServer;
  let owner: ApiClient;
  let client: DocClient;
  let boardId: string;
  let now: number;
  let cleanup: AssetCleanup;
  let ids: Record<string, string>;

  const exists = async (board: string, id: string) => (await server.app.assets.head(board, id)) !== null;
  const markedSince = async (id: string) =>
    (await server.app.assets.head(boardId, id))?.unreferencedSince?.getTime() ?? null;
  const image = (shapeId: string, assetId: string) =>
    addShape(client.doc, shapeId, {
      type: 'image',
      x: 0,
      y: 0,
      w: 20,
      h: 10,
      rotation: 0,
      color: 'grey',
      z: 'a0',
      createdBy: owner.userId,
      assetId,
    });
  const referencedInRoom = () => {
    const doc = server.app.rooms.get(boardId)?.doc;
    return doc ? [...doc.getMap('shapes').keys()].length : 0;
  };

  // The board every test starts from: images a, b, c and d uploaded, shapes showing a and c.
  beforeEach(async () => {
    now = Date.UTC(2026, 0, 1);
    ids = {};
    server = await startServer({ env: { HISTORY_DAYS: '30' } });
    owner = await new ApiClient(server.url).signup('Olivia');
    boardId = await owner.createBoard('Moodboard');
    for (const [name, color] of [
      ['a', '#ff0000'],
      ['b', '#00ff00'],
      ['c', '#0000ff'],
      ['d', '#ffff00'],
    ] as const) {
      ids[name] = await upload(owner, boardId, await png(color));
    }
    client = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie, origin: server.origin });
    await waitSynced(client);
    image('shape-a', ids.a!);
    image('shape-c', ids.c!);
    cleanup = new AssetCleanup({
      assets: server.app.assets,
      store: server.store,
      rooms: server.app.rooms,
      historyDays: server.config.historyDays,
      now: () => now,
    });
    await waitUntil('the shapes in the room', () => referencedInRoom() === 2);
  });
  afterEach(async () => {
    client?.destroy();
    await server?.close();
  });

  /** The story's first sweep: b and d, which no shape shows, are marked now. */
  const sweepAtStart = async () => {
    assert.deepEqual(await cleanup.sweep(), { marked: 2, deleted: 0 }, 'b and d are unused');
  };
  /** 29 days on, shape-c is deleted and the sweep marks c (b and d are one day short of deletion). */
  const deleteShapeCAfter29Days = async () => {
    now += 29 * DAY;
    client.doc.getMap('shapes').delete('shape-c');
    await waitUntil('c deleted in the room', () => referencedInRoom() === 1);
    assert.deepEqual(await cleanup.sweep(), { marked: 1, deleted: 0 });
  };
  /** d is uploaded again: the same id, and its mark cleared. */
  const uploadDAgain = async () => {
    assert.equal(await upload(owner, boardId, await png('#ffff00')), ids.d);
  };

  test('an unreferenced image is marked, and kept until HISTORY_DAYS have passed', async () => {
    const first = await cleanup.sweep();
    assert.deepEqual(first, { marked: 2, deleted: 0 }, 'b and d are unused');
    assert.ok(await exists(boardId, ids.b!));
    assert.equal((await server.app.assets.head(boardId, ids.b!))?.unreferencedSince?.getTime(), now);
    now += 29 * DAY;
    assert.deepEqual(await cleanup.sweep(), { marked: 0, deleted: 0 });
    assert.ok(await exists(boardId, ids.b!), 'kept at 29 days');
  });

  test('deleting its shape starts the count for that image only', async () => {
    await sweepAtStart();
    now += 29 * DAY;
    client.doc.getMap('shapes').delete('shape-c');
    await waitUntil('c deleted in the room', () => referencedInRoom() === 1);
    assert.deepEqual(await cleanup.sweep(), { marked: 1, deleted: 0 });
    assert.equal(await markedSince(ids.c!), now, 'c counts from its deletion');
    assert.equal(await markedSince(ids.a!), null, 'a is still shown');
  });

  test('uploading an image again clears its mark', async () => {
    await sweepAtStart();
    // Marked first, so that the cleared mark below is the upload's doing.
    assert.equal(await markedSince(ids.d!), now);
    assert.equal(await upload(owner, boardId, await png('#ffff00')), ids.d);
    assert.equal((await server.app.assets.head(boardId, ids.d!))?.unreferencedSince, null);
  });

  test('past HISTORY_DAYS the image is deleted, and no longer served; the others stay', async () => {
    // b and d marked at the start; c 29 days later; then d's mark cleared by its upload.
    await sweepAtStart();
    await deleteShapeCAfter29Days();
    await uploadDAgain();
    now += 1 * DAY + 60_000; // 30 days and a minute after b was marked
    const swept = await cleanup.sweep();
    assert.equal(swept.deleted, 1);
    assert.equal(await exists(boardId, ids.b!), false);
    const served = await fetch(`${server.url}/api/boards/${boardId}/assets/${ids.b}`, {
      headers: { cookie: owner.cookie },
    });
    assert.equal(served.status, 404);
    for (const name of ['a', 'c', 'd']) assert.ok(await exists(boardId, ids[name]!), `${name} stays`);
  });

  test('referencing an image again restarts its count', async () => {
    await sweepAtStart();
    await deleteShapeCAfter29Days();
    // Marked first, so that the cleared mark below is the new shape's doing.
    assert.equal(await markedSince(ids.c!), now);
    image('shape-c-again', ids.c!);
    await waitUntil('c back in the room', () => referencedInRoom() === 2);
    await cleanup.sweep();
    assert.equal((await server.app.assets.head(boardId, ids.c!))?.unreferencedSince, null);
    now += 40 * DAY;
    await cleanup.sweep();
    assert.ok(await exists(boardId, ids.c!), 'referenced: never deleted');
    assert.ok(await exists(boardId, ids.a!));
  });

  test('a board read from the store counts as well as an open one', async () => {
    await waitUntil('stored', async () => {
      const stored = await storedShapes(server.store, boardId);
      return stored.includes(ids.a!) && stored.includes(ids.c!);
    });
    const offline = new AssetCleanup({
      assets: server.app.assets,
      store: server.store,
      historyDays: 30,
      now: () => now,
    });
    // Two sweeps HISTORY_DAYS apart: one clock for both would delete nothing even if the store
    // were never read, since whatever the first marks is not yet old enough for the second.
    await offline.sweep();
    now += 31 * DAY;
    await offline.sweep();
    assert.ok(await exists(boardId, ids.a!));
    assert.ok(await exists(boardId, ids.c!));
    assert.equal(await exists(boardId, ids.b!), false, 'what the stored board does not show goes');
    assert.equal(await exists(boardId, ids.d!), false);
  });

  test('kept versions are a seam: what they reference is kept', async () => {
    const other = await owner.createBoard('Old versions');
    const kept = await upload(owner, other, await png('#123456'));
    const gone = await upload(owner, other, await png('#654321'));
    const withVersions = new AssetCleanup({
      assets: server.app.assets,
      store: server.store,
      historyDays: 30,
      now: () => now,
      keptReferences: async (board) => (board === other ? [kept] : []),
    });
    await withVersions.sweep();
    now += 31 * DAY;
    await withVersions.sweep();
    assert.ok(await exists(other, kept));
    assert.equal(await exists(other, gone), false);
  });

  test('the images of a deleted board are deleted HISTORY_DAYS later', async () => {
    const doomed = await owner.createBoard('Doomed');
    const id = await upload(owner, doomed, await png('#abcdef'));
    assert.equal((await owner.call('DELETE', `/api/boards/${doomed}`)).status, 204);
    await cleanup.sweep();
    assert.ok(await exists(doomed, id), 'not at once');
    now += 30 * DAY;
    await cleanup.sweep();
    assert.equal(await exists(doomed, id), false);
    assert.equal((await server.app.assets.boards()).includes(doomed), false);
  });
});
