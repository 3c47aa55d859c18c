// One conformance suite for every AssetStore (docs/api.md §13): files under DATA_DIR and PostgreSQL
// must pass the same cases. PostgreSQL runs in a schema of its own, dropped afterwards.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BOARD_ID_LENGTH } from '@tandem/shared';
import { dropSchema, postgresUrl, skipUnless } from '../../testing/services.ts';
import { DiskAssetStore } from '../src/assets/disk.ts';
import { PostgresAssetStore } from '../src/assets/postgres.ts';
import type { AssetStore } from '../src/assets/store.ts';
import { PostgresStore } from '../src/store/postgres.ts';

interface AssetFixture {
  name: string;
  skip?: string | undefined;
  open(): Promise<AssetStore>;
  /** A second store on the same data, as another process or instance would open it. */
  reopen(): Promise<AssetStore>;
  tearDown(): Promise<void>;
}

function diskFixture(): AssetFixture {
  let dir = '';
  return {
    name: 'DiskAssetStore',
    async open() {
      dir = mkdtempSync(join(tmpdir(), 'tandem-assets-'));
      return new DiskAssetStore(dir);
    },
    async reopen() {
      return new DiskAssetStore(dir);
    },
    async tearDown() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const pgSkip = await skipUnless('postgres');

function postgresFixture(): AssetFixture {
  const schema = `test_assets_${randomBytes(6).toString('hex')}`;
  const stores: PostgresStore[] = [];
  const open = async () => {
    // The AssetStore rides on the Store's pool and migrations, as it does in the app.
    const store = new PostgresStore({ connectionString: postgresUrl(), schema, max: 4 });
    await store.migrate();
    stores.push(store);
    return new PostgresAssetStore(store.pool);
  };
  return {
    name: 'PostgresAssetStore',
    skip: pgSkip,
    open,
    reopen: open,
    async tearDown() {
      await Promise.allSettled(stores.map((s) => s.close()));
      await dropSchema(schema);
    },
  };
}

const boardId = () => randomBytes(16).toString('base64url').slice(0, BOARD_ID_LENGTH);
const bytes = (n: number, seed = randomBytes(4).toString('hex')) => {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = seed.charCodeAt(i % seed.length) ^ (i & 0xff);
  return out;
};
const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const meta = (board: string, data: Uint8Array, width = 40, height = 30) => ({
  boardId: board,
  id: sha(data),
  mime: 'image/png' as const,
  width,
  height,
  bytes: data.byteLength,
});
const BIG = Number.MAX_SAFE_INTEGER;

function assetContract(fixture: AssetFixture): void {
  describe(`AssetStore contract: ${fixture.name}`, { skip: fixture.skip }, () => {
    let assets: AssetStore;
    before(async () => {
      assets = await fixture.open();
    });
    after(async () => {
      await assets?.close();
      await fixture.tearDown();
    });

    test('put then get answers the same bytes and metadata; another store on the same data sees it', async () => {
      const board = boardId();
      const data = bytes(5000);
      const put = await assets.put(meta(board, data, 640, 480), data, BIG);
      assert.ok(put.ok);
      assert.equal(put.created, true);
      assert.equal(put.meta.id, sha(data));
      assert.equal(put.meta.bytes, 5000);
      assert.equal(put.meta.width, 640);
      assert.equal(put.meta.height, 480);
      assert.equal(put.meta.mime, 'image/png');
      const got = await assets.get(board, sha(data));
      assert.ok(got);
      assert.deepEqual(Buffer.from(got.data), data);
      assert.deepEqual({ ...got.meta, createdAt: 0 }, { ...put.meta, createdAt: 0 });
      assert.equal(Math.abs(got.meta.createdAt.getTime() - put.meta.createdAt.getTime()) < 1000, true);
      const other = await fixture.reopen();
      const seen = await other.get(board, sha(data));
      assert.deepEqual(Buffer.from(seen?.data ?? []), data);
      await other.close();
    });

    test('the same bytes are stored once per board: a second put answers created: false', async () => {
      const board = boardId();
      const data = bytes(3000);
      const first = await assets.put(meta(board, data), data, BIG);
      const second = await assets.put(meta(board, data), data, BIG);
      assert.ok(first.ok && second.ok);
      assert.equal(second.created, false);
      assert.equal(second.meta.id, first.meta.id);
      assert.equal((await assets.list(board)).length, 1);
      assert.equal(await assets.boardBytes(board), 3000);
    });

    test('assets belong to their board: another board does not see them', async () => {
      const a = boardId();
      const b = boardId();
      const data = bytes(100);
      await assets.put(meta(a, data), data, BIG);
      assert.equal(await assets.get(b, sha(data)), null);
      assert.equal(await assets.head(b, sha(data)), null);
      assert.deepEqual(await assets.list(b), []);
      assert.equal(await assets.boardBytes(b), 0);
    });

    test('unknown assets answer null', async () => {
      const board = boardId();
      const id = sha(bytes(10));
      assert.equal(await assets.get(board, id), null);
      assert.equal(await assets.head(board, id), null);
      assert.equal(await assets.getRendition(board, id, 256), null);
    });

    test('the board total: a put that would pass maxBoardBytes stores nothing', async () => {
      const board = boardId();
      const a = bytes(600, 'a');
      const b = bytes(600, 'b');
      assert.ok((await assets.put(meta(board, a), a, 1000)).ok);
      const refused = await assets.put(meta(board, b), b, 1000);
      assert.deepEqual(refused, { ok: false, reason: 'board-full' });
      assert.equal(await assets.head(board, sha(b)), null);
      assert.equal(await assets.boardBytes(board), 600);
      // An asset the board already holds is answered whatever the total.
      const again = await assets.put(meta(board, a), a, 100);
      assert.ok(again.ok && !again.created);
    });

    test('concurrent puts on one board never pass the total together', async () => {
      const board = boardId();
      const parts = Array.from({ length: 8 }, (_, i) => bytes(300, `p${i}`));
      const results = await Promise.all(parts.map((p) => assets.put(meta(board, p), p, 1000)));
      assert.equal(results.filter((r) => r.ok).length, 3);
      assert.equal(await assets.boardBytes(board), 900);
    });

    test('renditions: kept per width; a second put of one width still leaves one', async () => {
      const board = boardId();
      const data = bytes(2000);
      await assets.put(meta(board, data), data, BIG);
      const small = { mime: 'image/webp' as const, data: bytes(50, 'small') };
      await assets.putRendition(board, sha(data), 256, small);
      await assets.putRendition(board, sha(data), 256, { mime: 'image/webp', data: bytes(60, 'other') });
      await assets.putRendition(board, sha(data), 128, { mime: 'image/webp', data: bytes(20, 'tiny') });
      const got = await assets.getRendition(board, sha(data), 256);
      assert.equal(got?.mime, 'image/webp');
      assert.ok(got?.data.byteLength === 50 || got?.data.byteLength === 60);
      assert.equal((await assets.getRendition(board, sha(data), 128))?.data.byteLength, 20);
      assert.equal(await assets.getRendition(board, sha(data), 512), null);
      // Renditions do not count towards the board's total.
      assert.equal(await assets.boardBytes(board), 2000);
    });

    test('a rendition of an asset that does not exist is not kept', async () => {
      const board = boardId();
      const id = sha(bytes(7));
      await assets.putRendition(board, id, 128, { mime: 'image/webp', data: bytes(5) });
      assert.equal(await assets.getRendition(board, id, 128), null);
    });

    test('list (oldest first), boards, delete with renditions', async () => {
      const board = boardId();
      const a = bytes(100, 'first');
      const b = bytes(200, 'second');
      await assets.put(meta(board, a), a, BIG);
      // Kept on purpose: "oldest first" needs two distinct creation times, so real time must pass.
      await new Promise((r) => setTimeout(r, 5));
      await assets.put(meta(board, b), b, BIG);
      await assets.putRendition(board, sha(a), 128, { mime: 'image/webp', data: bytes(10) });
      assert.deepEqual(
        (await assets.list(board)).map((m) => m.id),
        [sha(a), sha(b)],
      );
      assert.ok((await assets.boards()).includes(board));
      await assets.delete(board, [sha(a), sha(bytes(1))]);
      assert.equal(await assets.get(board, sha(a)), null);
      assert.equal(await assets.getRendition(board, sha(a), 128), null);
      assert.deepEqual(
        (await assets.list(board)).map((m) => m.id),
        [sha(b)],
      );
      assert.equal(await assets.boardBytes(board), 200);
      await assets.delete(board, [sha(b)]);
      assert.equal((await assets.boards()).includes(board), false);
      // The same bytes can be stored again after a delete.
      assert.ok((await assets.put(meta(board, a), a, BIG)).ok);
      assert.ok(await assets.get(board, sha(a)));
    });

    test('unreferenced marks: the earliest mark is kept, cleared by a re-put or markReferenced; deleteUnreferenced takes only what is old enough', async () => {
      const board = boardId();
      const [a, b, c] = ['a', 'b', 'c'].map((seed) => bytes(100, `mark-${seed}`)) as [Buffer, Buffer, Buffer];
      for (const data of [a, b, c]) await assets.put(meta(board, data), data, BIG);
      const t0 = new Date(Date.UTC(2026, 0, 1));
      const t1 = new Date(Date.UTC(2026, 0, 10));
      await assets.markUnreferenced(board, [sha(a), sha(b), sha(c)], t0);
      await assets.markUnreferenced(board, [sha(a)], t1);
      assert.equal((await assets.head(board, sha(a)))?.unreferencedSince?.getTime(), t0.getTime());
      await assets.markReferenced(board, [sha(b)]);
      assert.equal((await assets.head(board, sha(b)))?.unreferencedSince, null);
      const again = await assets.put(meta(board, c), c, BIG);
      assert.ok(again.ok && !again.created);
      assert.equal(again.meta.unreferencedSince, null);
      assert.equal((await assets.head(board, sha(c)))?.unreferencedSince, null);
      assert.deepEqual(await assets.deleteUnreferenced(board, new Date(t0.getTime() - 1)), []);
      assert.deepEqual(await assets.deleteUnreferenced(board, t0), [sha(a)]);
      assert.deepEqual((await assets.list(board)).map((m) => m.id).sort(), [sha(b), sha(c)].sort());
    });
  });
}

assetContract(diskFixture());
assetContract(postgresFixture());
