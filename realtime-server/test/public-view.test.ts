// Public links (docs/api.md §16) against two real instances on PostgreSQL and Redis, with real
// y-websocket clients: an anonymous viewer connects with no cookie and syncs, cannot write (4403),
// its presence is not relayed and it is sent nobody's; the people working see a count instead;
// revoking the link closes every open public view on both instances at once (the control path:
// the periodic re-check is an hour away here); board.svg draws the board, follows edits, answers
// 304 to its own ETag and 404 once the link is revoked; the viewer's token reads the board's images
// (the live view draws them) until then, and a member's token of another board does not.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  anonymousViewerCount,
  apiPaths,
  CloseCode,
  type LinkAnswer,
  type PresenceState,
  type PublicTokenAnswer,
  publicAssetHref,
} from '@tandem/shared';
import sharp from 'sharp';
import type * as Y from 'yjs';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  waitSynced,
  whenStored,
} from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { uploadAsset } from '../../testing/rest.ts';
import type { TestServer } from '../../testing/server.ts';
import { skipUnless, waitUntil } from '../../testing/services.ts';

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

const sticky = (n: number) => ({
  type: 'sticky',
  x: 100 * n,
  y: 0,
  w: 200,
  h: 200,
  rotation: 0,
  color: 'yellow',
  z: `a${n}`,
  createdBy: 'test',
});

describe('public view', { skip, concurrency: false }, () => {
  // Only the live control path can close a revoked viewer within the test's second.
  const cluster = new TestCluster({ env: { ACCESS_CHECK_MS: String(3_600_000) } });
  let a: TestServer;
  let b: TestServer;
  const clients: DocClient[] = [];
  const open = (server: TestServer, boardId: string, auth: { cookie?: string; token?: string }) => {
    const client = connectDoc(server.wsUrl, boardId, auth);
    clients.push(client);
    return client;
  };
  /** A new public token, asked for with no cookie at all. */
  const publicToken = async (server: TestServer, token: string) => {
    const answer = await new ApiClient(server.url).call<PublicTokenAnswer>(
      'POST',
      apiPaths.publicToken(token),
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };

  let owner: ApiClient;
  let boardId: string;
  let link: string;
  let ownerDoc: DocClient;
  /** The image uploaded by the images test, read again after the revocation. */
  let imageUrl = '';

  before(async () => {
    a = await cluster.start();
    b = await cluster.start();
    owner = await new ApiClient(a.url).signup('Owner');
    boardId = await owner.createBoard('Retro');
    ownerDoc = open(a, boardId, { cookie: owner.cookie });
    await waitSynced(ownerDoc);
    addShape(ownerDoc.doc, 'note-1', sticky(1), 'Ship the embed');
    await whenStored(ownerDoc);
    const created = await owner.call<LinkAnswer>('POST', apiPaths.links(boardId), { role: 'public-viewer' });
    assert.equal(created.status, 201);
    assert.match(created.body.link.url, /\/p\/[\w-]+$/);
    link = created.body.link.token;
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await cluster.close();
  });

  test('an anonymous viewer connects with no cookie, syncs, and sees edits live', async () => {
    const { token, boardId: answered } = await publicToken(a, link);
    assert.equal(answered, boardId);
    const viewer = open(b, boardId, { token });
    await waitSynced(viewer);
    const text = () => (viewer.doc.getMap('shapes').get('note-1') as Y.Map<unknown> | undefined)?.get('text');
    assert.equal(String(text()), 'Ship the embed');
    addShape(ownerDoc.doc, 'note-2', sticky(2), 'Live');
    await waitUntil('the viewer on the other instance sees the new sticky', () =>
      viewer.doc.getMap('shapes').has('note-2'),
    );
    // A public link makes no membership.
    const stranger = await new ApiClient(a.url).signup('Stranger');
    assert.equal((await stranger.call('POST', apiPaths.join(link))).status, 404);
  });

  test('its writes are refused (4403) and never reach anyone', async () => {
    const viewer = open(a, boardId, { token: (await publicToken(a, link)).token });
    await waitSynced(viewer);
    addShape(viewer.doc, 'intruder', sticky(9), 'nope');
    await waitUntil('the write is refused with 4403', () =>
      viewer.closes.some((c) => c.code === CloseCode.NO_ACCESS),
    );
    viewer.provider.shouldConnect = false;
    viewer.provider.disconnect();
    await whenStored(ownerDoc);
    assert.ok(!ownerDoc.doc.getMap('shapes').has('intruder'));
  });

  test('presence: not relayed from anonymous viewers, not sent to them; members see a count', async () => {
    const member = await new ApiClient(a.url).signup('Member');
    await owner.share(boardId, member, 'editor');
    const memberDoc = open(b, boardId, { cookie: member.cookie });
    await waitSynced(memberDoc);
    const viewers = [open(a, boardId, { token: (await publicToken(a, link)).token })];
    viewers.push(open(b, boardId, { token: (await publicToken(b, link)).token }));
    for (const v of viewers) await waitSynced(v);
    for (const v of viewers) v.provider.awareness.setLocalStateField('cursor', { x: 1, y: 2 });
    ownerDoc.provider.awareness.setLocalStateField('cursor', { x: 5, y: 5 });
    const memberStates = () =>
      [...memberDoc.provider.awareness.getStates().values()] as Partial<PresenceState>[];
    // The anonymous viewers still open from earlier tests count too; at least these two do.
    await waitUntil(
      'the member sees the owner and the anonymous count',
      () =>
        memberStates().some((s) => s.user?.id === owner.userId && s.cursor?.x === 5) &&
        anonymousViewerCount(memberStates()) >= 2,
    );
    const counted = anonymousViewerCount(memberStates());
    const open_ = [...(a.app.rooms.get(boardId)?.peers ?? []), ...(b.app.rooms.get(boardId)?.peers ?? [])];
    assert.equal(counted, open_.filter((p) => p.anonymous).length);
    // No state of an anonymous viewer reached the member; the count's own state is no person.
    for (const s of memberStates()) assert.ok(!s.user?.id?.startsWith('public:'), JSON.stringify(s));
    // And the viewers were sent nobody's presence: only their own state is in their awareness.
    for (const v of viewers) {
      const others = [...v.provider.awareness.getStates().keys()].filter((id) => id !== v.doc.clientID);
      assert.deepEqual(others, []);
    }
    // Dashboards list people, not anonymous viewers.
    assert.ok(a.app.gateway.localUsers(boardId).every((u) => !u.id.startsWith('public:')));
  });

  test('board.svg draws the stored board, follows edits, 304 to its own ETag', async () => {
    const client = new ApiClient(a.url);
    const first = await client.call<string>('GET', apiPaths.publicSvg(link));
    assert.equal(first.status, 200);
    assert.match(first.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    assert.match(String(first.body), /^<svg /);
    assert.match(String(first.body), /Ship the embed/);
    const etag = first.headers.get('etag')!;
    assert.ok(etag);
    const again = await client.call('GET', apiPaths.publicSvg(link), undefined, { 'if-none-match': etag });
    assert.equal(again.status, 304);
    // An edit, stored: the image changes and the old ETag no longer matches.
    ownerDoc.doc.transact(() => {
      const text = (ownerDoc.doc.getMap('shapes').get('note-1') as Y.Map<unknown>).get('text') as Y.Text;
      text.insert(text.length, ' today');
    });
    await whenStored(ownerDoc);
    const changed = await client.call<string>('GET', apiPaths.publicSvg(link), undefined, {
      'if-none-match': etag,
    });
    assert.equal(changed.status, 200);
    assert.match(String(changed.body), /Ship the embed today/);
    assert.notEqual(changed.headers.get('etag'), etag);
    const png = await fetch(`${b.url}${apiPaths.publicPng(link)}?w=300`);
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    const bytes = new Uint8Array(await png.arrayBuffer());
    assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47]);
    // PNG width, big-endian at byte 16.
    assert.equal(new DataView(bytes.buffer).getUint32(16), 300);
  });

  test("the viewer's token reads the board's images, on either instance, and no other board's", async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#e04040' } })
      .png()
      .toBuffer();
    const uploaded = await uploadAsset(owner, boardId, png, 'image/png');
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    imageUrl = uploaded.body.asset.url;
    const anonymous = new ApiClient(b.url);
    assert.equal((await anonymous.call('GET', imageUrl)).status, 401, 'no token, no image');
    const { token } = await publicToken(a, link);
    const read = await fetch(`${b.url}${imageUrl}?token=${encodeURIComponent(token)}&w=128`);
    assert.equal(read.status, 200);
    assert.match(read.headers.get('content-type') ?? '', /^image\//);
    const readBytes = new Uint8Array(await read.arrayBuffer());
    assert.ok(readBytes.byteLength > 0);
    // Another board's image with this token: the token is this board's only.
    const otherBoard = await owner.createBoard('Private');
    const other = await uploadAsset(owner, otherBoard, png, 'image/png');
    assert.equal(other.status, 201);
    const elsewhere = await fetch(`${a.url}${other.body.asset.url}?token=${encodeURIComponent(token)}`);
    assert.equal(elsewhere.status, 404);
    // By the link itself, the URL the live view uses (it stays the same as tokens are renewed).
    const assetId = imageUrl.split('/').at(-1)!;
    const byLink = await fetch(`${a.url}${publicAssetHref(link, assetId, 128)}`);
    assert.equal(byLink.status, 200);
    assert.match(byLink.headers.get('cache-control') ?? '', /immutable/);
    assert.deepEqual(new Uint8Array(await byLink.arrayBuffer()), readBytes);
    // (The same bytes are the same asset id on any board: another picture for the other board.)
    const blue = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#2040e0' } })
      .png()
      .toBuffer();
    const onlyThere = await uploadAsset(owner, otherBoard, blue, 'image/png');
    assert.equal(onlyThere.status, 201);
    const otherId = (onlyThere.body.asset.url as string).split('/').at(-1)!;
    assert.equal(
      (await fetch(`${b.url}${publicAssetHref(link, otherId, null)}`)).status,
      404,
      'not another board’s',
    );
    assert.equal((await fetch(`${b.url}${publicAssetHref(link, 'nope', null)}`)).status, 404);
  });

  test('revoking the link closes every public view (4403) on both instances within a second, and 404s its images', async () => {
    const { token: viewerToken } = await publicToken(a, link);
    const viewers = [
      open(a, boardId, { token: (await publicToken(a, link)).token }),
      open(b, boardId, { token: (await publicToken(b, link)).token }),
    ];
    for (const v of viewers) await waitSynced(v);
    const live = clients.filter((c) => c.provider.wsconnected && c !== ownerDoc && c.provider.awareness);
    const revoked = await owner.call('DELETE', apiPaths.link(boardId, link));
    assert.equal(revoked.status, 204);
    const at = Date.now();
    await waitUntil('both viewers are closed with 4403', () =>
      viewers.every((v) => v.closes.some((c) => c.code === CloseCode.NO_ACCESS)),
    );
    const took = Date.now() - at;
    assert.ok(took < 1000, `closed after ${took} ms`);
    for (const v of viewers) {
      v.provider.shouldConnect = false;
      v.provider.disconnect();
    }
    // Every anonymous connection of every instance is gone; the owner's stays.
    await waitUntil('no anonymous connection remains', () =>
      [...(a.app.rooms.get(boardId)?.peers ?? []), ...(b.app.rooms.get(boardId)?.peers ?? [])].every(
        (p) => !p.anonymous,
      ),
    );
    assert.ok(live.length > 0);
    assert.ok(ownerDoc.provider.wsconnected);
    const client = new ApiClient(b.url);
    assert.equal((await client.call('GET', apiPaths.publicSvg(link))).status, 404);
    assert.equal((await client.call('GET', apiPaths.publicPng(link))).status, 404);
    assert.equal((await client.call('POST', apiPaths.publicToken(link))).status, 404);
    // A token minted before the revocation no longer reads the board's images.
    const image = await fetch(`${b.url}${imageUrl}?token=${encodeURIComponent(viewerToken)}`);
    assert.equal(image.status, 404);
    const assetId = imageUrl.split('/').at(-1)!;
    assert.equal(
      (await fetch(`${a.url}${publicAssetHref(link, assetId, null)}`)).status,
      404,
      'nor by the link',
    );
  });
});
