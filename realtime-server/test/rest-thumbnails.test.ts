// REST, board thumbnails: who may store and read one, the size and type limits, and
// that what is served is a fresh WebP that can never run as a page — on the embedded SQLite
// store and on PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { type BoardListItem, ErrorCode, mulberry32, thumbnailLimits } from '@tandem/shared';
import sharp from 'sharp';
import { ApiClient } from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { assertError, boardAndPeople, isoDate, sendBytes } from '../../testing/rest.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { skipUnless } from '../../testing/services.ts';

/** What a stored thumbnail is answered with. */
type Stored = { thumbnailAt: string; width: number; height: number };

const put = (who: ApiClient, boardId: string, body: Uint8Array, contentType = 'image/png') =>
  sendBytes<Stored>(who, 'PUT', `/api/boards/${boardId}/thumbnail`, body, contentType);

async function get(who: ApiClient, boardId: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${who.baseUrl}/api/boards/${boardId}/thumbnail?v=1`, {
    headers: { ...(who.cookie ? { cookie: who.cookie } : {}), ...headers },
  });
  return {
    status: response.status,
    headers: response.headers,
    data: Buffer.from(await response.arrayBuffer()),
  };
}

const png = (width: number, height: number, color = '#ffd84d') =>
  sharp({ create: { width, height, channels: 4, background: color } })
    .png()
    .toBuffer();

/** Noise, so no encoder can make it small; seeded, so the fixture is the same every run. */
function noisePng(width: number, height: number): Promise<Buffer> {
  const random = mulberry32(7);
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(random() * 256);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const thumbnailAt = async (who: ApiClient, boardId: string) =>
  (await who.call<{ boards: BoardListItem[] }>('GET', '/api/boards')).body.boards.find(
    (b) => b.id === boardId,
  )?.thumbnailAt;

function thumbnailSuite(start: () => Promise<TestServer>) {
  let server: TestServer;
  let owner: ApiClient;
  let editor: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;
  let boardId: string;
  const client = () => new ApiClient(server.url);

  before(async () => {
    server = await start();
  });
  // A board and members of its own for each test, so what one test stored is never what another
  // finds: each passes alone and in any order.
  beforeEach(async () => {
    ({ owner, editor, viewer, stranger, boardId } = await boardAndPeople(server.url, 'Thumbs'));
  });

  /** The owner stores an 800 × 600 PNG (declared as text: the type is read from the bytes). */
  const storeLargePng = async () => {
    const stored = await put(owner, boardId, await png(800, 600), 'text/plain');
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    return stored;
  };
  /** An editor stores a 120 × 80 WebP. */
  const storeSmallWebp = async () => {
    const webp = await sharp(await png(120, 80, '#54a0ff'))
      .webp()
      .toBuffer();
    const stored = await put(editor, boardId, webp, 'image/webp');
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    return stored;
  };

  test('a board has no thumbnail until one is stored; the list says so', async () => {
    assert.equal(await thumbnailAt(owner, boardId), null);
    assertError(await get(owner, boardId).then(asAnswer), 404, ErrorCode.NOT_FOUND);
  });

  test('an owner stores a PNG; it is kept as a WebP that fits the box, and every member reads it', async () => {
    const stored = await storeLargePng();
    assert.match(stored.body.thumbnailAt, isoDate);
    // 800 × 600 scaled into 480 × 300 keeps its aspect.
    assert.deepEqual([stored.body.width, stored.body.height], [400, 300]);
    assert.equal(await thumbnailAt(viewer, boardId), stored.body.thumbnailAt);
    for (const member of [owner, editor, viewer]) {
      const got = await get(member, boardId);
      assert.equal(got.status, 200);
      assert.equal(got.headers.get('content-type'), 'image/webp');
      assert.equal(got.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(got.headers.get('content-security-policy'), 'sandbox');
      assert.match(got.headers.get('cache-control') ?? '', /private/);
      const meta = await sharp(got.data).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 400, 300]);
    }
  });

  test('a small WebP is kept at its size; a second store replaces the first', async () => {
    const first = await storeLargePng();
    const before = await thumbnailAt(owner, boardId);
    assert.equal(before, first.body.thumbnailAt, 'the first is listed');
    const stored = await storeSmallWebp();
    assert.deepEqual([stored.body.width, stored.body.height], [120, 80]);
    assert.notEqual(stored.body.thumbnailAt, before);
    const got = await get(viewer, boardId);
    const { width, height } = await sharp(got.data).metadata();
    assert.deepEqual([width, height], [120, 80]);
    // Unchanged since: the browser's copy is good.
    const again = await get(viewer, boardId, { 'if-none-match': got.headers.get('etag')! });
    assert.equal(again.status, 304);
  });

  test('viewers may not store one, strangers learn nothing, the signed-out are asked to sign in', async () => {
    const image = await png(40, 30);
    assertError(asAnswer(await put(viewer, boardId, image)), 403, ErrorCode.FORBIDDEN);
    assertError(asAnswer(await put(stranger, boardId, image)), 404, ErrorCode.NOT_FOUND);
    assertError(asAnswer(await get(stranger, boardId)), 404, ErrorCode.NOT_FOUND);
    const nobody = client();
    assertError(asAnswer(await put(nobody, boardId, image)), 401, ErrorCode.AUTH_REQUIRED);
    assertError(asAnswer(await get(nobody, boardId)), 401, ErrorCode.AUTH_REQUIRED);
  });

  test('over the size limit is 413; anything but PNG or WebP (an SVG with a script, a JPEG, junk) is 415', async () => {
    await storeSmallWebp();
    const big = await noisePng(400, 300);
    assert.ok(big.length > thumbnailLimits.maxBytes, `the fixture is ${big.length} bytes`);
    const tooLarge = assertError(asAnswer(await put(owner, boardId, big)), 413, ErrorCode.PAYLOAD_TOO_LARGE);
    assert.match(tooLarge.message, /at most 256 KB/);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><script>alert(2)</script></svg>',
    );
    const refused = [
      svg,
      await sharp(await png(40, 30))
        .jpeg()
        .toBuffer(),
      Buffer.from('not an image at all'),
      (await png(40, 30)).subarray(0, 60),
      Buffer.alloc(0),
    ];
    for (const [i, body] of refused.entries()) {
      const answer = asAnswer(await put(owner, boardId, body, 'image/png'));
      const error = assertError(answer, 415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, undefined, `body ${i}`);
      assert.equal(error.message, 'A board thumbnail must be a PNG or WebP image.');
    }
    // The last good picture is still the one served.
    const got = await get(owner, boardId);
    assert.equal((await sharp(got.data).metadata()).width, 120);
  });

  test('a deleted board’s thumbnail is gone with it', async () => {
    const id = await owner.createBoard('Short-lived');
    assert.equal((await put(owner, id, await png(60, 40))).status, 200);
    assert.equal((await owner.call('DELETE', `/api/boards/${id}`)).status, 204);
    assertError(asAnswer(await get(owner, id)), 404, ErrorCode.NOT_FOUND);
    assertError(asAnswer(await put(owner, id, await png(60, 40))), 404, ErrorCode.NOT_FOUND);
    assert.equal(await server.store.getThumbnail(id), null);
  });
}

/** An answer whose body is parsed JSON, for assertError. */
function asAnswer(a: { status: number; headers: Headers; body?: unknown; data?: Buffer }) {
  const body = a.body !== undefined ? a.body : a.data?.length ? JSON.parse(a.data.toString()) : null;
  return { status: a.status, headers: a.headers, body };
}

describe('REST: board thumbnails (SQLite)', () => {
  let server: TestServer | undefined;
  after(() => server?.close());
  thumbnailSuite(async () => {
    server = await startServer();
    return server;
  });
});

const clusterSkip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

describe('REST: board thumbnails (PostgreSQL)', { skip: clusterSkip }, () => {
  const cluster = new TestCluster();
  after(() => cluster.close());
  thumbnailSuite(() => cluster.start());
});
