// REST, images (docs/api.md §13): upload and serving, every rule of the section, on the embedded store
// and across two instances sharing PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Asset, ErrorCode, mulberry32 } from '@tandem/shared';
import sharp from 'sharp';
import { ApiClient } from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { assertError, boardAndPeople, uploadAsset } from '../../testing/rest.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { skipUnless } from '../../testing/services.ts';

const upload = (
  who: ApiClient,
  boardId: string,
  body: Uint8Array | ReadableStream<Uint8Array>,
  contentType = 'application/octet-stream',
) => uploadAsset(who, boardId, body, contentType);

async function fetchAsset(who: ApiClient | null, path: string) {
  const response = await fetch(`${who?.baseUrl ?? ''}${path}`, {
    headers: who?.cookie ? { cookie: who.cookie } : {},
  });
  const data = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, data };
}

const png = (width: number, height: number, color = '#3080ff') =>
  sharp({ create: { width, height, channels: 4, background: color } })
    .png()
    .toBuffer();

/** Noise, so encoders cannot shrink it to nothing; seeded, so a fixture is the same every run. */
function noise(width: number, height: number, seed = 1): Buffer {
  const random = mulberry32(seed);
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(random() * 256);
  return raw;
}

/** A JPEG carrying EXIF with a GPS position (Paris), as a phone writes it. */
const jpegWithGps = () =>
  sharp({ create: { width: 120, height: 80, channels: 3, background: '#c06030' } })
    .jpeg()
    .withExif({
      IFD0: { Artist: 'Tandem test' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2964/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 4020/100',
      },
    })
    .toBuffer();

/** The first bytes of a Windows executable. */
const executable = () => {
  const exe = Buffer.alloc(4096, 0);
  exe.write('MZ', 0, 'latin1');
  exe.write('This program cannot be run in DOS mode.', 78, 'latin1');
  return exe;
};

function assertAsset(asset: Asset, boardId: string, expected: Partial<Asset>) {
  assert.match(asset.id, /^[0-9a-f]{64}$/);
  assert.equal(asset.url, `/api/boards/${boardId}/assets/${asset.id}`);
  for (const [key, value] of Object.entries(expected)) {
    assert.equal(asset[key as keyof Asset], value, key);
  }
  assert.ok(asset.bytes > 0);
}

describe('REST: images', () => {
  let server: TestServer;
  let owner: ApiClient;
  let editor: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;
  let boardId: string;
  const client = () => new ApiClient(server.url);

  before(async () => {
    server = await startServer({
      env: { MAX_ASSET_BYTES: String(256 * 1024), MAX_BOARD_ASSET_BYTES: String(600 * 1024) },
    });
    ({ owner, editor, viewer, stranger, boardId } = await boardAndPeople(server.url, 'Images'));
  });
  after(() => server.close());

  test('201 {asset} with the width and height read from the image; the declared type is ignored', async () => {
    const answer = await upload(owner, boardId, await png(321, 123), 'text/plain');
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assertAsset(answer.body.asset, boardId, { mime: 'image/png', width: 321, height: 123 });
    const gif = await upload(
      editor,
      boardId,
      await sharp(await png(20, 10))
        .gif()
        .toBuffer(),
      'image/png',
    );
    assert.equal(gif.status, 201);
    assertAsset(gif.body.asset, boardId, { mime: 'image/gif', width: 20, height: 10 });
    const webp = await upload(
      editor,
      boardId,
      await sharp(await png(30, 40))
        .webp()
        .toBuffer(),
      '',
    );
    assert.equal(webp.status, 201, JSON.stringify(webp.body));
    assertAsset(webp.body.asset, boardId, { mime: 'image/webp', width: 30, height: 40 });
  });

  test('the same bytes give the same id, stored once', async () => {
    const image = await png(64, 64, '#00ff00');
    const first = await upload(owner, boardId, image);
    const second = await upload(editor, boardId, image);
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.body.asset.id, first.body.asset.id);
    const stored = await server.app.assets.list(boardId);
    assert.equal(stored.filter((a) => a.id === first.body.asset.id).length, 1);
  });

  test('the served bytes are the stored image, with the headers that keep it from running as a page', async () => {
    const { asset } = (await upload(owner, boardId, await png(50, 20, '#ff0000'))).body;
    const got = await fetchAsset(owner, asset.url);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-type'), 'image/png');
    assert.equal(got.headers.get('cache-control'), 'private, max-age=31536000, immutable');
    assert.equal(got.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(got.headers.get('content-security-policy'), 'sandbox');
    assert.equal(got.data.byteLength, asset.bytes);
    const meta = await sharp(got.data).metadata();
    assert.equal(meta.width, 50);
    assert.equal(meta.height, 20);
  });

  test('a viewer can fetch but gets 403 on upload', async () => {
    const { asset } = (await upload(owner, boardId, await png(10, 10, '#123456'))).body;
    assert.equal((await fetchAsset(viewer, asset.url)).status, 200);
    assertError(await upload(viewer, boardId, await png(11, 11)), 403, ErrorCode.FORBIDDEN);
  });

  test('a non-member gets 404 on fetch and upload; so does an unknown board or asset', async () => {
    const { asset } = (await upload(owner, boardId, await png(12, 12))).body;
    const fetched = await fetchAsset(stranger, asset.url);
    assert.equal(fetched.status, 404);
    assertError(await upload(stranger, boardId, await png(13, 13)), 404, ErrorCode.NOT_FOUND);
    assert.equal((await fetchAsset(owner, `/api/boards/${boardId}/assets/${'0'.repeat(64)}`)).status, 404);
    assert.equal((await fetchAsset(owner, `/api/boards/${boardId}/assets/not-an-id`)).status, 404);
    assert.equal((await fetchAsset(owner, `/api/boards/nosuchboard/assets/${asset.id}`)).status, 404);
  });

  test('no session gets 401: upload and fetch', async () => {
    const { asset } = (await upload(owner, boardId, await png(14, 14))).body;
    const anonymous = client();
    assertError(await upload(anonymous, boardId, await png(15, 15)), 401, ErrorCode.AUTH_REQUIRED);
    const fetched = await fetch(`${server.url}${asset.url}`);
    assert.equal(fetched.status, 401);
    assert.equal(((await fetched.json()) as { error: { code: string } }).error.code, ErrorCode.AUTH_REQUIRED);
  });

  test('?token= from POST /api/boards/:id/token serves a member without a cookie; not another board’s token', async () => {
    const { asset } = (await upload(owner, boardId, await png(16, 16))).body;
    const token = await viewer.token(boardId);
    const withToken = await fetch(`${server.url}${asset.url}?token=${encodeURIComponent(token)}`);
    assert.equal(withToken.status, 200);
    assert.equal(withToken.headers.get('content-security-policy'), 'sandbox');
    const otherBoard = await viewer.createBoard('Mine');
    const otherToken = await viewer.token(otherBoard);
    const wrong = await fetch(`${server.url}${asset.url}?token=${encodeURIComponent(otherToken)}`);
    assert.equal(wrong.status, 404);
    const forged = await fetch(`${server.url}${asset.url}?token=${encodeURIComponent(`${token}x`)}`);
    assert.equal(forged.status, 401);
  });

  test('an asset of board A cannot be fetched through board B’s path, even by a member of both', async () => {
    const { asset } = (await upload(owner, boardId, await png(17, 17))).body;
    const boardB = await owner.createBoard('B');
    assert.equal((await fetchAsset(owner, `/api/boards/${boardB}/assets/${asset.id}`)).status, 404);
    assert.equal((await fetchAsset(owner, asset.url)).status, 200);
  });

  test('an executable renamed .png gets 415 UNSUPPORTED_MEDIA_TYPE; so do SVG, text and an empty body', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    for (const [what, body] of [
      ['exe', executable()],
      ['svg', svg],
      ['text', Buffer.from('hello, not an image')],
      ['empty', Buffer.alloc(0)],
      ['truncated png', (await png(200, 200)).subarray(0, 60)],
    ] as const) {
      const error = assertError(
        await upload(owner, boardId, body, 'image/png'),
        415,
        ErrorCode.UNSUPPORTED_MEDIA_TYPE,
        undefined,
        what,
      );
      assert.match(error.message, /PNG, JPEG, GIF and WebP/);
    }
    const stored = await server.app.assets.list(boardId);
    assert.ok(stored.every((a) => a.bytes > 0));
  });

  test('too large gets 413 PAYLOAD_TOO_LARGE with a sentence, whether or not the length is declared', async () => {
    const big = await sharp(noise(400, 400), { raw: { width: 400, height: 400, channels: 3 } })
      .png()
      .toBuffer();
    assert.ok(big.byteLength > 256 * 1024, `fixture is ${big.byteLength} bytes`);
    const declared = assertError(await upload(owner, boardId, big), 413, ErrorCode.PAYLOAD_TOO_LARGE);
    assert.match(declared.message, /larger than 256 KB/);
    // Chunked, no Content-Length: the limit is enforced while the bytes arrive.
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= big.byteLength) return controller.close();
        controller.enqueue(big.subarray(sent, sent + 16 * 1024));
        sent += 16 * 1024;
      },
    });
    assertError(await upload(owner, boardId, stream), 413, ErrorCode.PAYLOAD_TOO_LARGE);
    const ids = (await server.app.assets.list(boardId)).map((a) => a.bytes);
    assert.ok(ids.every((bytes) => bytes <= 256 * 1024));
  });

  test('a board past MAX_BOARD_ASSET_BYTES gets 413 with a sentence about the board', async () => {
    const full = await owner.createBoard('Full');
    const photo = (seed: number) =>
      sharp(noise(200, 200, seed), { raw: { width: 200, height: 200, channels: 3 } })
        .png()
        .toBuffer();
    let refused: Awaited<ReturnType<typeof upload>> | null = null;
    for (let i = 1; i <= 10 && !refused; i++) {
      const answer = await upload(owner, full, await photo(i));
      if (answer.status !== 201) refused = answer;
    }
    assert.ok(refused, 'some upload was refused');
    const error = assertError(refused, 413, ErrorCode.PAYLOAD_TOO_LARGE);
    assert.match(error.message, /This board already holds/);
    assert.ok((await server.app.assets.boardBytes(full)) <= 600 * 1024);
  });

  test('the EXIF of a JPEG, GPS included, is gone from the stored bytes', async () => {
    const original = await jpegWithGps();
    assert.ok((await sharp(original).metadata()).exif, 'the fixture carries EXIF');
    assert.ok(original.includes('Exif\0\0'));
    const answer = await upload(owner, boardId, original, 'image/jpeg');
    assert.equal(answer.status, 201);
    assertAsset(answer.body.asset, boardId, { mime: 'image/jpeg', width: 120, height: 80 });
    const stored = await server.app.assets.get(boardId, answer.body.asset.id);
    assert.ok(stored);
    const data = Buffer.from(stored.data);
    const meta = await sharp(data).metadata();
    assert.equal(meta.exif, undefined);
    assert.equal(meta.xmp, undefined);
    assert.equal(data.includes('Exif\0\0'), false);
    assert.equal(data.includes('Tandem test'), false);
    const served = await fetchAsset(owner, answer.body.asset.url);
    assert.deepEqual(served.data, data);
  });

  test('?w= answers a smaller rendition, made once and kept; no smaller asked gives the original', async () => {
    const image = await sharp(noise(1600, 900, 7), { raw: { width: 1600, height: 900, channels: 3 } })
      .jpeg({ quality: 60 })
      .toBuffer();
    const raised = await startServer({ env: {} });
    try {
      const o = await new ApiClient(raised.url).signup('Big');
      const b = await o.createBoard('Photos');
      const { asset } = (await upload(o, b, image)).body;
      assert.equal(asset.width, 1600);
      const small = await fetchAsset(o, `${asset.url}?w=200`);
      assert.equal(small.status, 200);
      assert.equal(small.headers.get('content-type'), 'image/webp');
      assert.equal(small.headers.get('content-security-policy'), 'sandbox');
      assert.equal((await sharp(small.data).metadata()).width, 256);
      assert.ok(small.data.byteLength < asset.bytes / 4);
      const kept = await raised.app.assets.getRendition(b, asset.id, 256);
      assert.deepEqual(Buffer.from(kept?.data ?? []), small.data);
      const again = await fetchAsset(o, `${asset.url}?w=256`);
      assert.deepEqual(again.data, small.data);
      const original = await fetchAsset(o, `${asset.url}?w=5000`);
      assert.equal(original.headers.get('content-type'), 'image/jpeg');
      assert.equal(original.data.byteLength, asset.bytes);
      const bad = await fetchAsset(o, `${asset.url}?w=abc`);
      assertError({ ...bad, body: JSON.parse(bad.data.toString()) }, 400, ErrorCode.BAD_REQUEST);
    } finally {
      await raised.close();
    }
  });

  test('an upload from another site is refused (Origin)', async () => {
    const other = new ApiClient(server.url, 'https://evil.example');
    other.cookie = owner.cookie;
    assertError(await upload(other, boardId, await png(18, 18)), 403, ErrorCode.FORBIDDEN);
  });
});

const clusterSkip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

describe('REST: images across instances', { skip: clusterSkip }, () => {
  const cluster = new TestCluster();
  after(() => cluster.close());

  test('an upload on instance A is fetched through instance B (PostgreSQL), rendition too', async () => {
    const a = await cluster.start();
    const b = await cluster.start();
    const onA = await new ApiClient(a.url).signup('Alice');
    const boardId = await onA.createBoard('Shared');
    const image = await sharp(noise(800, 600, 3), { raw: { width: 800, height: 600, channels: 3 } })
      .jpeg()
      .toBuffer();
    const answer = await upload(onA, boardId, image);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    const onB = new ApiClient(b.url);
    onB.cookie = onA.cookie;
    const got = await fetchAsset(onB, answer.body.asset.url);
    assert.equal(got.status, 200);
    assert.equal(got.data.byteLength, answer.body.asset.bytes);
    assert.equal((await sharp(got.data).metadata()).width, 800);
    const small = await fetchAsset(onB, `${answer.body.asset.url}?w=128`);
    assert.equal((await sharp(small.data).metadata()).width, 128);
    // Kept where instance A sees it too.
    assert.ok(await a.app.assets.getRendition(boardId, answer.body.asset.id, 128));
  });
});
