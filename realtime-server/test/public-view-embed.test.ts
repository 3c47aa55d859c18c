// Public images and pages (docs/api.md §16), on one instance with the embedded store: board.svg
// embeds the board's uploaded images as data URLs and board.png draws them (read back with
// sharp); `?page=` draws that page, and a page the board does not list is 404; and the per-IP limit
// (PUBLIC_REQUESTS_PER_MINUTE) answers 429 with Retry-After past its budget, 304s not counted.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addPageEntry, apiPaths, BOARD_ID_LENGTH, ErrorCode, type LinkAnswer } from '@tandem/shared';
import { fillImages } from '@tandem/shared/render/images.ts';
import sharp from 'sharp';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  waitSynced,
  whenStored,
} from '../../testing/clients.ts';
import { uploadAsset } from '../../testing/rest.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { DiskAssetStore } from '../src/assets/disk.ts';
import { embeddedImages } from '../src/http/public.ts';

const base = { rotation: 0, createdBy: 'test' };
const sticky = (x: number, z: string) => ({
  ...base,
  type: 'sticky',
  x,
  y: 0,
  w: 200,
  h: 200,
  color: 'yellow',
  z,
});

/** A board with a public link, its owner and its first page's document. */
async function sharedBoard(server: TestServer, clients: DocClient[]) {
  const owner = await new ApiClient(server.url).signup('Owner');
  const boardId = await owner.createBoard('Photos');
  const main = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
  clients.push(main);
  await waitSynced(main);
  const created = await owner.call<LinkAnswer>('POST', apiPaths.links(boardId), { role: 'public-viewer' });
  assert.equal(created.status, 201);
  return { owner, boardId, main, link: created.body.link.token };
}

describe('public images and pages', () => {
  let server: TestServer;
  const clients: DocClient[] = [];
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await server.close();
  });

  test('board.svg embeds an uploaded image as a data URL; board.png draws it in place', async () => {
    const { owner, boardId, main, link } = await sharedBoard(server, clients);
    // A 600×300 red photo, drawn 200×100 at the board's origin: embedded at a kept width (256).
    const photo = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#e01010' } })
      .png()
      .toBuffer();
    const uploaded = await uploadAsset(owner, boardId, photo, 'image/png');
    assert.equal(uploaded.status, 201);
    addShape(main.doc, 'photo', {
      ...base,
      type: 'image',
      x: 0,
      y: 0,
      w: 200,
      h: 100,
      color: 'yellow',
      z: 'a1',
      assetId: uploaded.body.asset.id,
    });
    await whenStored(main);

    const svg = await fetch(`${server.url}${apiPaths.publicSvg(link)}`);
    assert.equal(svg.status, 200);
    const text = await svg.text();
    const href = /<image href="data:(image\/[a-z]+);base64,([A-Za-z0-9+/=]+)"/.exec(text);
    assert.ok(href, text.slice(0, 500));
    const embedded = await sharp(Buffer.from(href[2]!, 'base64')).metadata();
    assert.equal(embedded.width, 256, 'the kept rendition nearest above the drawn width, not the original');
    assert.doesNotMatch(text, /tandem-asset:/);

    // The PNG at the board's own size: margin 32, so the image covers (32..232, 32..132).
    const png = await fetch(`${server.url}${apiPaths.publicPng(link)}`);
    assert.equal(png.status, 200);
    const { data, info } = await sharp(Buffer.from(await png.arrayBuffer()))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
    ];
    const [r, g, b] = at(132, 82);
    assert.ok(r! > 200 && g! < 60 && b! < 60, `the photo's red at its place, got ${[r, g, b]}`);
  });

  test('an image too big to embed stays a placeholder, and board.png is still drawn', async () => {
    const { owner, boardId, main, link } = await sharedBoard(server, clients);
    // 1000×2900 of noise: an 8 MB PNG, kept as it is (1000 px wide, no narrower than 1024 is
    // asked for when it is drawn 1100 wide). As a data URL it would pass librsvg's 10 MB attribute
    // limit, and board.png would fail with 500.
    const side = { width: 1000, height: 2900 };
    const raw = Buffer.alloc(side.width * side.height * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = ((i * 2654435761) >>> 24) ^ (i * 7);
    const photo = await sharp(raw, { raw: { ...side, channels: 3 } })
      .png()
      .toBuffer();
    assert.ok(photo.byteLength > 7.5 * 1024 * 1024, String(photo.byteLength));
    const uploaded = await uploadAsset(owner, boardId, photo, 'image/png');
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    addShape(main.doc, 'huge', {
      ...base,
      type: 'image',
      x: 0,
      y: 0,
      w: 1100,
      h: 3190,
      color: 'yellow',
      z: 'a1',
      assetId: uploaded.body.asset.id,
    });
    await whenStored(main);
    const svg = await (await fetch(`${server.url}${apiPaths.publicSvg(link)}`)).text();
    assert.doesNotMatch(svg, /data:image/);
    assert.match(svg, /<rect width="1100" height="3190" fill="#eef0f3"\/>/);
    const png = await fetch(`${server.url}${apiPaths.publicPng(link)}?w=200`);
    assert.equal(png.status, 200);
  });

  test('?page= draws that page; a page the board does not list is 404', async () => {
    const { owner, boardId, main, link } = await sharedBoard(server, clients);
    addShape(main.doc, 'first', sticky(0, 'a1'), 'First page note');
    addPageEntry(main.doc, 'second', 'Second');
    await whenStored(main);
    const second = connectDoc(server.wsUrl, `${boardId}/second`, { cookie: owner.cookie });
    clients.push(second);
    await waitSynced(second);
    addShape(second.doc, 'other', sticky(0, 'a1'), 'Second page note');
    await whenStored(second);

    const svgOf = async (query: string) => {
      const answer = await fetch(`${server.url}${apiPaths.publicSvg(link)}${query}`);
      return { status: answer.status, etag: answer.headers.get('etag'), text: await answer.text() };
    };
    const first = await svgOf('');
    assert.match(first.text, /First page note/);
    const page = await svgOf('?page=second');
    assert.equal(page.status, 200);
    assert.match(page.text, /Second page note/);
    assert.doesNotMatch(page.text, /First page note/);
    assert.notEqual(page.etag, first.etag);
    const png = await fetch(`${server.url}${apiPaths.publicPng(link)}?page=second`);
    assert.equal(png.status, 200);
    for (const unknown of ['?page=gone', '?page=not%20a%20page']) {
      assert.equal((await svgOf(unknown)).status, 404, unknown);
      assert.equal((await fetch(`${server.url}${apiPaths.publicPng(link)}${unknown}`)).status, 404, unknown);
    }
  });
});

test('images past the embedded-bytes cap stay placeholders; those that fit are embedded, in paint order', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-embed-cap-'));
  const assets = new DiskAssetStore(dir);
  try {
    const boardId = randomBytes(16).toString('base64url').slice(0, BOARD_ID_LENGTH);
    // Noise, so each PNG is about its pixels' size: the second is the largest, the third the smallest.
    const noisy = (side: number) =>
      sharp(Buffer.from(Array.from({ length: side * side * 3 }, (_, i) => (i * 2654435761) >>> 24)), {
        raw: { width: side, height: side, channels: 3 },
      })
        .png()
        .toBuffer();
    const stored: { id: string; bytes: number }[] = [];
    for (const side of [60, 90, 40]) {
      const data = await noisy(side);
      const id = createHash('sha256').update(data).digest('hex');
      const put = await assets.put(
        { boardId, id, mime: 'image/png', width: side, height: side, bytes: data.byteLength },
        data,
        1 << 30,
      );
      assert.ok(put.ok);
      stored.push({ id, bytes: data.byteLength });
    }
    const [a, b, c] = stored as [(typeof stored)[0], (typeof stored)[0], (typeof stored)[0]];
    const drawn = stored.map(({ id }) => ({ assetId: id, width: 60 }));
    // Room for the first and the third, not the second: the second is skipped, the third still fits.
    const cap = a.bytes + c.bytes;
    assert.ok(b.bytes > c.bytes, `the fixture sizes allow the check: ${stored.map((x) => x.bytes)}`);
    const hrefs = await embeddedImages(assets, boardId, drawn, 1, 'svg', cap);
    assert.deepEqual([...hrefs.keys()], [a.id, c.id]);
    const svg = fillImages(
      drawn
        .map(
          ({ assetId }) =>
            `<image href="tandem-asset:${assetId}" width="60" height="60" preserveAspectRatio="none"/>`,
        )
        .join(''),
      hrefs,
    );
    assert.equal(svg.match(/<image href="data:image\/png;base64,/g)?.length, 2);
    assert.equal(svg.match(/<rect width="60" height="60" fill="#eef0f3"\/>/g)?.length, 1);
    // With the default cap, all three.
    assert.equal((await embeddedImages(assets, boardId, drawn, 1, 'svg')).size, 3);
  } finally {
    await assets.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('public routes: the per-IP limit', () => {
  let server: TestServer;
  const clients: DocClient[] = [];
  before(async () => {
    server = await startServer({ env: { PUBLIC_REQUESTS_PER_MINUTE: '3' } });
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await server.close();
  });

  test('the limit+1th call from one IP is 429 with Retry-After; a 304 is not counted', async () => {
    const { link } = await sharedBoard(server, clients);
    const anonymous = new ApiClient(server.url);
    assert.equal((await anonymous.call('POST', apiPaths.publicToken(link))).status, 200);
    assert.equal((await anonymous.call('POST', apiPaths.publicToken(link))).status, 200);
    const drawn = await fetch(`${server.url}${apiPaths.publicSvg(link)}`);
    assert.equal(drawn.status, 200);
    const etag = drawn.headers.get('etag')!;
    for (let i = 0; i < 5; i++) {
      const revalidated = await fetch(`${server.url}${apiPaths.publicSvg(link)}`, {
        headers: { 'if-none-match': etag },
      });
      assert.equal(revalidated.status, 304);
    }
    const refused = await anonymous.call<{ error: { code: string } }>('POST', apiPaths.publicToken(link));
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, ErrorCode.RATE_LIMITED);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
    for (const path of [apiPaths.publicSvg(link), apiPaths.publicPng(link)]) {
      const image = await fetch(`${server.url}${path}`);
      assert.equal(image.status, 429, path);
      assert.ok(Number(image.headers.get('retry-after')) >= 1);
    }
  });
});
