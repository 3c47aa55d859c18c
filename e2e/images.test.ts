// Images in the browser (docs/api.md §13), two people on one board in Chromium: paste, drop, a viewer's
// refused paste, an offline paste that survives a reload, exports that embed the image, and a
// JSON round trip into a new board. Screenshots go to test-artifacts/.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { assetSentences, BoardExport } from '@tandem/shared';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import {
  artifacts,
  boardArea,
  canvas,
  createBoard,
  exported,
  newUser,
  pasteImage,
  sharedBoard,
  until,
  waitStatus,
  withApp,
} from './helpers.ts';

/** A picture with four coloured quarters, so an export can be checked pixel by pixel. */
async function quarters(width: number, height: number, colors: string[]): Promise<Buffer> {
  const w = Math.floor(width / 2);
  const h = Math.floor(height / 2);
  const tiles = await Promise.all(
    colors.map((background) =>
      sharp({ create: { width: w, height: h, channels: 3, background } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp({ create: { width, height, channels: 3, background: '#000' } })
    .composite([
      { input: tiles[0]!, left: 0, top: 0 },
      { input: tiles[1]!, left: w, top: 0 },
      { input: tiles[2]!, left: 0, top: h },
      { input: tiles[3]!, left: w, top: h },
    ])
    .png()
    .toBuffer();
}

/** Drags a file from the desktop and drops it at canvas (x, y). */
async function dropImage(page: Page, bytes: Buffer, x: number, y: number) {
  await canvas(page).evaluate(
    (el, { b64, x, y }) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], 'dropped.png', { type: 'image/png' }));
      // The board's area: the canvas itself may be scaled while a zoom rests (helpers.boardArea).
      const r = (el.parentElement as Element).getBoundingClientRect();
      const at = { clientX: r.left + x, clientY: r.top + y, bubbles: true, cancelable: true };
      el.dispatchEvent(new DragEvent('dragover', { ...at, dataTransfer: transfer }));
      el.dispatchEvent(new DragEvent('drop', { ...at, dataTransfer: transfer }));
    },
    { b64: bytes.toString('base64'), x, y },
  );
}

const images = (page: Page) => page.locator('[data-shape-type="image"] image');

/** True once every image element on the page has loaded its picture. */
async function imagesLoaded(page: Page, count: number): Promise<boolean> {
  return page.evaluate(async (count) => {
    const els = Array.from(document.querySelectorAll('[data-shape-type="image"] image'));
    if (els.length !== count) return false;
    const results = await Promise.all(
      els.map(async (el) => {
        const res = await fetch(el.getAttribute('href') ?? '', { credentials: 'same-origin' });
        if (!res.ok) return false;
        const img = new Image();
        img.src = URL.createObjectURL(await res.blob());
        return img.decode().then(
          () => img.naturalWidth > 0,
          () => false,
        );
      }),
    );
    return results.every(Boolean);
  }, count);
}

describe('images on the board', () => {
  let ada: Page;
  let bo: Page;
  let boContext: BrowserContext;
  let vic: Page;
  let boardId: string;

  const app = withApp();
  before(async () => {
    ada = (await newUser(app, 'Ada')).page;
    const b = await newUser(app, 'Bo', { guest: true, offlineShell: true });
    bo = b.page;
    boContext = b.context;
    vic = (await newUser(app, 'Vic', { guest: true })).page;
    boardId = await sharedBoard(ada, 'Design review', { editors: [bo], viewers: [vic] });
  });

  it('one pastes an image, and the other sees it', async () => {
    const picture = await quarters(320, 200, ['#ff00ff', '#00c8ff', '#ffd800', '#20b020']);
    await pasteImage(ada, picture);
    await until(async () => (await images(bo).count()) === 1, 'the image on Bo’s screen');
    await until(() => imagesLoaded(bo, 1), 'the picture loaded for Bo');
    await until(() => imagesLoaded(ada, 1), 'the picture loaded for Ada');
    const shape = bo.locator('[data-shape-type="image"]');
    const box = (await shape.boundingBox())!;
    assert.ok(Math.abs(box.width / box.height - 320 / 200) < 0.02, `aspect ${box.width}×${box.height}`);
    assert.equal(await ada.locator('[data-pending-image]').count(), 0, 'no placeholder left');
    await bo.screenshot({ path: `${artifacts}/images-pasted-seen-by-bo.png` });
  });

  it('one drops a file, and it appears where it was dropped', async () => {
    const before = await images(bo).count();
    const picture = await quarters(160, 160, ['#ff0000', '#0000ff', '#0000ff', '#ff0000']);
    await dropImage(bo, picture, 1000, 600);
    await until(async () => (await images(bo).count()) === before + 1, 'the dropped image');
    const dropped = bo.locator('[data-shape-type="image"]').last();
    const box = (await dropped.boundingBox())!;
    const area = (await boardArea(bo).boundingBox())!;
    assert.ok(Math.abs(box.x + box.width / 2 - (area.x + 1000)) < 3, `centre x ${box.x + box.width / 2}`);
    assert.ok(Math.abs(box.y + box.height / 2 - (area.y + 600)) < 3, `centre y ${box.y + box.height / 2}`);
    await until(async () => (await images(ada).count()) === before + 1, 'the dropped image on Ada’s screen');
    await bo.screenshot({ path: `${artifacts}/images-dropped.png` });
  });

  it('a viewer’s paste does nothing and says why', async () => {
    const before = await app.server.app.assets.list(boardId);
    const shown = await images(vic).count();
    await pasteImage(vic, await quarters(40, 40, ['#000', '#fff', '#fff', '#000']));
    await vic.getByRole('alert').filter({ hasText: assetSentences.viewer }).waitFor();
    assert.equal(await vic.locator('[data-pending-image]').count(), 0);
    assert.equal(await images(vic).count(), shown);
    assert.equal((await app.server.app.assets.list(boardId)).length, before.length, 'nothing uploaded');
    assert.equal(await vic.getByRole('button', { name: 'Image' }).count(), 0, 'no Image tool for a viewer');
    await vic.screenshot({ path: `${artifacts}/images-viewer-refused.png` });
  });

  it('an image is resized keeping its aspect ratio, and deleting it is undone', async () => {
    // A square picture of its own, dropped where no other test puts one.
    const n = await images(bo).count();
    await dropImage(bo, await quarters(120, 120, ['#00ff00', '#ff0000', '#ff0000', '#00ff00']), 700, 650);
    await until(async () => (await images(ada).count()) === n + 1, 'the square on Ada’s screen');
    const shape = bo.locator('[data-shape-type="image"]').last();
    const box = (await shape.boundingBox())!;
    await bo.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const handle = bo.locator('[data-handle="se"]');
    const h = (await handle.boundingBox())!;
    await bo.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await bo.mouse.down();
    await bo.mouse.move(h.x + 120, h.y + 20, { steps: 5 });
    await bo.mouse.up();
    const after = (await shape.boundingBox())!;
    assert.ok(after.width > box.width + 60, 'it grew');
    assert.ok(Math.abs(after.width - after.height) < 2, `still square: ${after.width}×${after.height}`);
    await bo.keyboard.press('Delete');
    await until(async () => (await images(ada).count()) === n, 'deleted for Ada');
    await canvas(bo).focus();
    await bo.keyboard.press('Control+z');
    await until(async () => (await images(ada).count()) === n + 1, 'back for Ada');
  });

  it('I and the Image button open the file picker; the picked image lands on the board', async () => {
    const n = await images(ada).count();
    await canvas(bo).focus();
    const byKey = bo.waitForEvent('filechooser', { timeout: 5000 });
    // Waiting for a chooser asks the browser to hand choosers over, without waiting for its
    // answer: a round trip after it, so the key cannot arrive first (a busy machine lost that race).
    await bo.evaluate(() => 0);
    await bo.keyboard.press('i');
    const chooser = await byKey;
    assert.ok(chooser.isMultiple(), 'several images at once');
    const file = join(tmpdir(), `tandem-picked-${process.pid}.png`);
    writeFileSync(file, await quarters(80, 80, ['#0000ff', '#ffff00', '#ffff00', '#0000ff']));
    await chooser.setFiles(file);
    await until(async () => (await images(ada).count()) === n + 1, 'the picked image on Ada’s screen');
    const byButton = bo.waitForEvent('filechooser', { timeout: 5000 });
    await bo.evaluate(() => 0);
    await bo.getByRole('button', { name: 'Image', exact: true }).click();
    await (await byButton).setFiles([]);
  });

  it('offline paste, reload, online: the image uploads and appears for the other user', async () => {
    await bo.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const n = await images(ada).count();
    await boContext.setOffline(true);
    await waitStatus(bo, 'offline');
    await pasteImage(bo, await quarters(200, 120, ['#8000ff', '#8000ff', '#ff8000', '#ff8000']));
    await bo.locator('[data-pending-image="waiting"]').waitFor();
    await bo.screenshot({ path: `${artifacts}/images-offline-waiting.png` });
    await bo.reload();
    await bo.locator('[data-pending-image="waiting"]').waitFor();
    await waitStatus(bo, 'offline');
    assert.equal(await images(ada).count(), n, 'not on Ada’s screen while offline');

    await boContext.setOffline(false);
    await waitStatus(bo, 'live');
    await until(async () => (await images(ada).count()) === n + 1, 'the offline image on Ada’s screen');
    await until(() => imagesLoaded(ada, n + 1), 'its picture loaded for Ada');
    assert.equal(await bo.locator('[data-pending-image]').count(), 0, 'the placeholder is gone');
    await ada.screenshot({ path: `${artifacts}/images-after-offline.png` });
  });

  it('an exported PNG contains the image; the SVG embeds it', async () => {
    // A picture of its own with the three colours looked for below.
    const n = await images(ada).count();
    await pasteImage(ada, await quarters(240, 160, ['#ff00ff', '#00c8ff', '#8000ff', '#8000ff']));
    await until(() => imagesLoaded(ada, n + 1), 'the picture loaded');
    const png = await exported(ada, 'Board as PNG');
    writeFileSync(`${artifacts}/images-export.png`, png);
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const count = (r: number, g: number, b: number) => {
      let n = 0;
      for (let i = 0; i < data.length; i += 3) {
        if (Math.abs(data[i]! - r) < 8 && Math.abs(data[i + 1]! - g) < 8 && Math.abs(data[i + 2]! - b) < 8)
          n++;
      }
      return n;
    };
    const pixels = info.width * info.height;
    // Its magenta, cyan and violet quarters.
    for (const [name, [r, g, b]] of [
      ['magenta', [255, 0, 255]],
      ['cyan', [0, 200, 255]],
      ['violet', [128, 0, 255]],
    ] as const) {
      assert.ok(count(r, g, b) > pixels * 0.005, `${name} pixels in the export`);
    }
    const svg = (await exported(ada, 'Board as SVG')).toString();
    assert.equal((svg.match(/<image href="data:image\/png;base64,/g) ?? []).length, n + 1);
  });

  it('JSON export and then import into a new board brings the images along', async () => {
    if ((await images(ada).count()) === 0) {
      await pasteImage(ada, await quarters(80, 80, ['#ff00ff', '#00c8ff', '#ffd800', '#20b020']));
      await until(() => imagesLoaded(ada, 1), 'a picture to carry');
    }
    const json = BoardExport.parse(JSON.parse((await exported(ada, 'Board as JSON')).toString()));
    const ids = json.shapes.filter((s) => s.type === 'image').map((s) => s.assetId);
    const n = await images(ada).count();
    assert.equal(ids.length, n);
    for (const id of ids) assert.match(json.assets?.[id!] ?? '', /^data:image\/png;base64,/);
    const file = join(tmpdir(), `tandem-images-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify(json));

    await ada.goto('/boards');
    const copyId = await createBoard(ada, 'Design review (copy)');
    await ada.getByLabel('Import JSON file').setInputFiles(file);
    await ada.getByText(new RegExp(`^Imported ${json.shapes.length} shapes?\\.$`)).waitFor();
    await until(async () => (await images(ada).count()) === n, 'the imported images');
    await until(() => imagesLoaded(ada, n), 'the imported pictures loaded');
    const copied = await app.server.app.assets.list(copyId);
    assert.equal(copied.length, n, 'uploaded to the new board');
    const hrefs = await images(ada).evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    for (const href of hrefs) assert.match(href ?? '', new RegExp(`^/api/boards/${copyId}/assets/`));
    await ada.screenshot({ path: `${artifacts}/images-imported.png` });
  });
});
