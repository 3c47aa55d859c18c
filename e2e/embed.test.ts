// Live embeds (docs/api.md §16) in real Chromium: a page on another origin (a static file served by
// this test on its own port, listed in EMBED_ORIGINS) frames /embed/:token and shows an editor's
// new sticky live; a page on an origin not in EMBED_ORIGINS cannot frame it, and no page can frame
// the rest of the app (the browser refuses both). The owner sees the watcher as a count. The public
// page of a board with pages lets a visitor switch between them. An embed loaded hidden logs no
// error and fits once shown.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { ApiClient, connectDoc, type DocClient, presence, waitSynced } from '../testing/clients.ts';
import {
  artifacts,
  covered,
  createBoard,
  failOnPageErrors,
  newUser,
  pageNames,
  pasteImage,
  pathOf,
  place,
  shareLink,
  until,
  withApp,
} from './helpers.ts';

/** Opens the Share dialog, makes a public link and answers its token. */
async function publicLink(owner: Page): Promise<{ url: string; token: string }> {
  await owner.getByRole('button', { name: 'Share', exact: true }).click();
  await owner.getByRole('button', { name: 'Create “public view” link' }).click();
  const field = owner.getByLabel('Public view link').first();
  await field.waitFor();
  const url = await field.inputValue();
  await owner.getByRole('button', { name: 'Close', exact: true }).click();
  const token = /\/p\/([^/?#]+)$/.exec(url)?.[1];
  assert.ok(token, url);
  return { url, token };
}

/** A static page on its own origin that frames `src`. */
async function framingSite(): Promise<{ server: Server; origin: string; frame: (src: string) => string }> {
  let src = '';
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>Wiki page</title><h1>Our retro</h1><iframe src="${src}" width="900" height="560" style="border:1px solid #ccc"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    origin,
    frame: (next) => {
      src = next;
      return `${origin}/`;
    },
  };
}

describe('live embeds', () => {
  const env: Record<string, string> = {};
  let allowed: Awaited<ReturnType<typeof framingSite>>;
  let other: Awaited<ReturnType<typeof framingSite>>;
  before(async () => {
    allowed = await framingSite();
    other = await framingSite();
    env.EMBED_ORIGINS = allowed.origin;
  });
  after(() => {
    allowed.server.close();
    other.server.close();
  });
  const app = withApp(env);

  it("an iframe on another site shows an editor's new sticky live; other sites cannot frame it", async () => {
    const { page: owner } = await newUser(app, 'Olga');
    await createBoard(owner, 'Retro');
    const { url, token } = await publicLink(owner);

    // The Share dialog gives the code to paste into the wiki: an iframe of the link's /embed/.
    await owner.getByRole('button', { name: 'Share', exact: true }).click();
    const code = await owner.getByLabel('Embed code').inputValue();
    const src = /^<iframe src="([^"]+)"[^>]*><\/iframe>$/.exec(code)?.[1];
    assert.equal(src, `${app.server.url}/embed/${token}`, code);
    const embedRow = owner.locator('li', { has: owner.getByLabel('Embed code') });
    await embedRow.getByRole('button', { name: 'Copy' }).click();
    await embedRow.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await owner.evaluate(() => navigator.clipboard.readText()), code);
    await owner.screenshot({ path: `${artifacts}/embed-share-code.png` });
    await owner.getByRole('button', { name: 'Close', exact: true }).click();

    // The allowed site frames the embed: it goes live with no sign-in and no guest name.
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Nobody watching asks who they are: it answered 401, a red error in every embedding page.
    const askedWho: string[] = [];
    context.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/me') askedWho.push(request.frame().url());
    });
    const wiki = await context.newPage();
    failOnPageErrors(wiki, 'wiki');
    await wiki.goto(allowed.frame(src));
    const embed = wiki.frameLocator('iframe');
    await embed.locator('.public-view[data-status="live"]').waitFor();
    assert.equal(await embed.getByRole('link', { name: 'Open in Tandem' }).count(), 1);

    await place(owner, 'Sticky note', 500, 400);
    await owner.keyboard.type('Seen in the wiki');
    await owner.keyboard.press('Escape');
    await embed.locator('svg text', { hasText: 'Seen in the wiki' }).waitFor();
    // The owner sees the watcher as a count, not as a person.
    const count = owner.getByRole('img', { name: '1 anonymous viewer' });
    await count.waitFor();
    // Seen, not only in the page: it was drawn inside the others' avatar strip, which has no width
    // at 1280 px when nobody else is there, so it was cut away.
    assert.deepEqual(await covered(count), [], 'the count is on screen, on top at its middle');
    await wiki.screenshot({ path: `${artifacts}/embed-wiki.png` });
    await owner.screenshot({ path: `${artifacts}/embed-owner-count.png` });

    // A site not in EMBED_ORIGINS: the browser refuses the frame (frame-ancestors).
    // Chromium shows its error page in the frame instead of the document it refused.
    const refused = async (page: Page, src: string, site: typeof allowed) => {
      await page.goto(site.frame(src));
      await until(async () => {
        const framed = page.frames().find((f) => f !== page.mainFrame());
        return framed?.url().startsWith('chrome-error://') ?? false;
      }, `the browser refuses to frame ${src}`);
      const framed = page.frames().find((f) => f !== page.mainFrame())!;
      assert.equal(
        await framed.locator('.public-view, #root').count(),
        0,
        'nothing of the app renders there',
      );
    };
    const stranger = await context.newPage();
    await refused(stranger, `${app.server.url}/embed/${token}`, other);
    // The same embed is still fine on the allowed site, so the refusal is the origin's.
    // The rest of the app refuses every frame, the allowed site's included (X-Frame-Options).
    const appPage = await context.newPage();
    await refused(appPage, `${app.server.url}/boards`, allowed);
    await stranger.screenshot({ path: `${artifacts}/embed-refused.png` });

    // The public page itself, full size, with no account.
    const visitor = await context.newPage();
    failOnPageErrors(visitor, 'visitor');
    await visitor.goto(url);
    await visitor.locator('.public-view[data-status="live"]').waitFor();
    await visitor.locator('svg text', { hasText: 'Seen in the wiki' }).waitFor();
    await visitor.screenshot({ path: `${artifacts}/public-view.png` });
    await visitor.setViewportSize({ width: 390, height: 844 });
    await visitor.screenshot({ path: `${artifacts}/public-view-phone.png` });
    assert.deepEqual(askedWho, [], 'no /api/me from the embed or the public page');
    await context.close();
  });
  it("a crowded top bar folds History, Templates and Export behind More; the viewers' count stays in sight", async () => {
    const { page: owner } = await newUser(app, 'Quinn');
    const boardId = await createBoard(owner, 'All hands');
    const more = owner.getByRole('button', { name: 'More', exact: true });
    assert.equal(await more.count(), 0, 'nothing folded while the bar has room');
    assert.ok(await owner.getByRole('button', { name: 'History', exact: true }).isVisible());
    const { url } = await publicLink(owner);
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const visitor = await context.newPage();
    failOnPageErrors(visitor, 'visitor');
    await visitor.goto(url);
    await visitor.locator('.public-view[data-status="live"]').waitFor();
    const count = owner.getByRole('img', { name: '1 anonymous viewer' });
    await count.waitFor();

    // A dozen people join through a link, over y-websocket, each with a presence.
    const link = await shareLink(owner, 'can edit');
    const token = link.split('/').pop()!;
    const crowd: DocClient[] = [];
    for (let i = 1; i <= 12; i++) {
      const guest = await new ApiClient(app.server.url).guest(`Guest ${i}`);
      assert.equal((await guest.call('POST', `/api/join/${token}`)).status, 200);
      const client = connectDoc(app.server.wsUrl, boardId, { cookie: guest.cookie });
      await waitSynced(client);
      client.provider.awareness.setLocalState(
        presence({ id: guest.userId, name: `Guest ${i}`, color: '#4f46e5' }, 100 + i * 10, 100),
      );
      crowd.push(client);
    }
    const bar = owner.getByRole('toolbar', { name: 'People on this board' });
    await bar.getByRole('button', { name: /^\d+ more people on this board$/ }).waitFor();
    await more.waitFor();

    // The count is drawn where it is, not under another control; Share is inside the window.
    assert.deepEqual(await covered(count), [], 'the count is on top at its middle');
    const share = (await owner.getByRole('button', { name: 'Share', exact: true }).boundingBox())!;
    assert.ok(share.x + share.width <= 1280 - 12, `Share ends inside the window (${share.x + share.width})`);
    for (const name of ['History', 'Templates', 'Export'])
      assert.equal(
        await owner.getByRole('button', { name, exact: true }).isVisible(),
        false,
        `${name} folded`,
      );
    await owner.screenshot({ path: `${artifacts}/embed-crowded-bar.png` });

    // Folded, they still work: History from the More column opens the History panel.
    await more.click();
    await owner.getByRole('button', { name: 'History', exact: true }).click();
    await owner.getByRole('complementary', { name: 'Version history' }).waitFor();
    await owner.screenshot({ path: `${artifacts}/embed-crowded-history.png` });
    await owner.keyboard.press('Escape');
    await owner.getByRole('complementary', { name: 'Version history' }).waitFor({ state: 'detached' });

    // Everyone leaves: the bar has room again and the controls are back in it.
    for (const client of crowd) client.destroy();
    await context.close();
    await count.waitFor({ state: 'detached' });
    await more.waitFor({ state: 'hidden' });
    assert.ok(await owner.getByRole('button', { name: 'History', exact: true }).isVisible());
  });

  it('a public view drawn while its page has no size yet logs no error, and fits once it has one', async () => {
    const { page: owner } = await newUser(app, 'Hana');
    await createBoard(owner, 'Folded');
    await place(owner, 'Sticky note', 500, 400);
    await owner.keyboard.type('Unfolded');
    await owner.keyboard.press('Escape');
    const { url } = await publicLink(owner);
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const visitor = await context.newPage();
    // The page has no layout while it loads (as in a container hidden at first), so the board is
    // drawn before its stage has a size: it was fitted to a negative scale, and Chromium logged
    // "<svg> attribute width: A negative value is not valid" (failOnPageErrors fails on that).
    failOnPageErrors(visitor, 'visitor');
    await visitor.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        document.documentElement.style.display = 'none';
      });
    });
    await visitor.goto(url);
    await visitor.locator('.public-view[data-status="live"]').waitFor({ state: 'attached' });
    await visitor.locator('svg text', { hasText: 'Unfolded' }).waitFor({ state: 'attached' });
    await visitor.evaluate(() => {
      document.documentElement.style.display = '';
    });
    const board = visitor.locator('.public-board');
    await board.locator('svg text', { hasText: 'Unfolded' }).waitFor();
    // Shown, it is fitted to the stage: neither nothing nor larger than it.
    await until(async () => ((await board.boundingBox())?.width ?? 0) > 100, 'the board fitted');
    const box = (await board.boundingBox())!;
    const stage = (await visitor.locator('.public-stage').boundingBox())!;
    assert.ok(box.width <= stage.width && box.height <= stage.height, JSON.stringify({ box, stage }));
    await visitor.screenshot({ path: `${artifacts}/public-view-shown-late.png` });
    await context.close();
  });

  it('the public view offers no board menu, and no key there edits the board', async () => {
    // A guard (docs/api.md §11, §16): the public page draws the board as a picture, with no
    // canvas, context menu or key handler of the editor's, so a right-click keeps the browser's
    // own menu (copy or save the picture) and the editing keys do nothing.
    const { page: owner } = await newUser(app, 'Jude');
    await createBoard(owner, 'Read only');
    await place(owner, 'Sticky note', 500, 400);
    await owner.keyboard.type('Keep me');
    await owner.keyboard.press('Escape');
    const { url } = await publicLink(owner);
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const visitor = await context.newPage();
    failOnPageErrors(visitor, 'visitor');
    await visitor.goto(url);
    await visitor.locator('.public-view[data-status="live"]').waitFor();
    const board = visitor.locator('.public-board');
    await board.locator('svg text', { hasText: 'Keep me' }).waitFor();
    await board.click({ button: 'right' });
    await board.click();
    for (const key of [
      'Control+a',
      'Delete',
      'Backspace',
      'Control+x',
      'Control+z',
      'Control+d',
      'Shift+F10',
    ])
      await visitor.keyboard.press(key);
    await visitor.waitForTimeout(500);
    assert.equal(await visitor.getByRole('menu').count(), 0, 'no menu of the editor’s');
    assert.equal(await visitor.getByRole('menuitem').count(), 0, 'no menu item');
    await board.locator('svg text', { hasText: 'Keep me' }).waitFor();
    assert.equal(
      await owner.locator('svg.canvas').getAttribute('data-shape-count'),
      '1',
      'the board still has its note',
    );
    await context.close();
  });

  it("the live public view draws the board's images, loaded by the link", async () => {
    const { page: owner } = await newUser(app, 'Ines');
    await createBoard(owner, 'Moodboard');
    const red = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#d02020' } })
      .png()
      .toBuffer();
    await pasteImage(owner, red);
    await owner.locator('[data-shape-type="image"] image').waitFor();
    const { url } = await publicLink(owner);

    const context = await app.browser.newContext({ viewport: { width: 1000, height: 700 } });
    const visitor = await context.newPage();
    failOnPageErrors(visitor, 'visitor');
    await visitor.goto(url);
    await visitor.locator('.public-view[data-status="live"]').waitFor();
    const image = visitor.locator('.public-board svg image');
    await image.waitFor();
    const href = (await image.getAttribute('href')) ?? '';
    assert.match(href, /^\/api\/public\/[^/]+\/assets\/[0-9a-f]{64}(\?w=\d+)?$/, href);
    // The picture's bytes, as the view loaded them (no cookie in this context): a decodable image.
    const picture = await visitor.evaluate(async (src) => {
      const res = await fetch(src);
      if (!res.ok) return { status: res.status, width: 0, red: 0 };
      const bitmap = await createImageBitmap(await res.blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const [r] = ctx.getImageData(Math.floor(bitmap.width / 2), Math.floor(bitmap.height / 2), 1, 1).data;
      return { status: res.status, width: bitmap.width, red: r ?? 0 };
    }, href);
    assert.equal(picture.status, 200);
    assert.ok(picture.width > 0);
    assert.ok(picture.red > 180, `the middle of the picture is red (${picture.red})`);
    assert.equal(
      await visitor.locator('.public-board svg rect[fill="#eef0f3"]').count(),
      0,
      'no grey placeholder',
    );
    await visitor.screenshot({ path: `${artifacts}/public-view-image.png` });
    await context.close();
  });

  it('the embed code of a page shown embeds that page live; a page the board does not list falls back to the first, saying so', async () => {
    const { page: owner } = await newUser(app, 'Pia');
    await createBoard(owner, 'Quarter');
    await place(owner, 'Sticky note', 500, 400);
    await owner.keyboard.type('On page one');
    await owner.keyboard.press('Escape');
    await owner.getByRole('button', { name: 'Pages' }).click();
    await owner.getByRole('button', { name: 'Add page' }).click();
    await owner.getByLabel('Page name').fill('Planning');
    await owner.getByLabel('Page name').press('Enter');
    await until(async () => (await pageNames(owner)).includes('Planning'), 'the new page is listed');
    await until(async () => /\/p\/[A-Za-z0-9_-]+$/.test(pathOf(owner)), 'the owner is on the new page');
    const pageId = pathOf(owner).split('/').pop()!;
    await owner.getByRole('button', { name: 'Close pages' }).click();
    await place(owner, 'Sticky note', 500, 400);
    await owner.keyboard.type('On page two');
    await owner.keyboard.press('Escape');
    const { token } = await publicLink(owner);
    // The Share dialog's embed code, opened on this page, embeds this page.
    await owner.getByRole('button', { name: 'Share', exact: true }).click();
    const code = await owner.getByLabel('Embed code').inputValue();
    await owner.getByRole('button', { name: 'Close', exact: true }).click();
    const src = /^<iframe src="([^"]+)"/.exec(code)?.[1];
    assert.equal(src, `${app.server.url}/embed/${token}?page=${pageId}`, code);

    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const wiki = await context.newPage();
    failOnPageErrors(wiki, 'wiki');
    await wiki.goto(allowed.frame(src));
    const embed = wiki.frameLocator('iframe');
    await embed.locator('.public-view[data-status="live"]').waitFor();
    await embed.locator('svg text', { hasText: 'On page two' }).waitFor();
    assert.equal(
      await embed.locator('svg text', { hasText: 'On page one' }).count(),
      0,
      "not the first page's",
    );
    // Live: the owner's next sticky on that page appears in the frame.
    await place(owner, 'Sticky note', 800, 300);
    await owner.keyboard.type('Added while watched');
    await owner.keyboard.press('Escape');
    await embed.locator('svg text', { hasText: 'Added while watched' }).waitFor();
    await wiki.screenshot({ path: `${artifacts}/embed-page.png` });
    assert.equal(await embed.getByLabel('Page').count(), 0, 'the embed shows the page it was given');

    // The public page lists the pages: a visitor switches to the second one and back.
    const visitor = await context.newPage();
    failOnPageErrors(visitor, 'visitor');
    await visitor.setViewportSize({ width: 390, height: 844 });
    await visitor.goto(`${app.server.url}/p/${token}`);
    await visitor.locator('.public-view[data-status="live"]').waitFor();
    await visitor.locator('svg text', { hasText: 'On page one' }).waitFor();
    const picker = visitor.getByLabel('Page', { exact: true });
    assert.deepEqual(await picker.locator('option').allTextContents(), ['Page 1', 'Planning']);
    await picker.selectOption({ label: 'Planning' });
    await visitor.locator('svg text', { hasText: 'On page two' }).waitFor();
    await visitor.locator('.public-view[data-status="live"]').waitFor();
    assert.equal(new URL(visitor.url()).search, `?page=${pageId}`, 'the address names the page, to share it');
    const bar = (await visitor.locator('.public-bar').boundingBox())!;
    const zoomIn = (await visitor.getByRole('button', { name: 'Zoom in' }).boundingBox())!;
    assert.ok(zoomIn.x + zoomIn.width <= bar.x + bar.width, 'the zoom buttons stay on a phone');
    await visitor.screenshot({ path: `${artifacts}/public-view-pages-phone.png` });
    await picker.selectOption({ label: 'Page 1' });
    await visitor.locator('svg text', { hasText: 'On page one' }).waitFor();

    // A page the board does not list: the first page, with a sentence.
    const lost = await context.newPage();
    failOnPageErrors(lost, 'lost');
    await lost.goto(`${app.server.url}/embed/${token}?page=no-such-page`);
    await lost.getByRole('status').filter({ hasText: 'This page is no longer on the board' }).waitFor();
    await lost.locator('.public-view[data-status="live"]').waitFor();
    await lost.locator('svg text', { hasText: 'On page one' }).waitFor();
    await lost.screenshot({ path: `${artifacts}/embed-page-fallback.png` });
    await lost.setViewportSize({ width: 390, height: 844 });
    await lost.screenshot({ path: `${artifacts}/embed-page-fallback-phone.png` });
    await context.close();
  });
});

describe('public view past the per-IP limit', () => {
  const app = withApp({ PUBLIC_REQUESTS_PER_MINUTE: '1' });

  it('a refused token (429) waits and says "Reconnecting…", not that the board is no longer shared', async () => {
    const { page: owner } = await newUser(app, 'Rita');
    await createBoard(owner, 'Busy');
    const { url } = await publicLink(owner);
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const first = await context.newPage();
    failOnPageErrors(first, 'first');
    await first.goto(url);
    await first.locator('.public-view[data-status="live"]').waitFor();
    // The same IP's second token within the minute is refused.
    const second = await context.newPage();
    failOnPageErrors(second, 'second');
    await second.goto(url);
    await second.locator('.public-view[data-status="reconnecting"]').waitFor();
    await second.getByText('Reconnecting…').waitFor();
    assert.equal(await second.getByText('This board is no longer shared').count(), 0);
    await second.screenshot({ path: `${artifacts}/public-view-rate-limited.png` });
    await context.close();
  });
});
