// Every page at once (docs/api.md §17) in Chromium, on a three-page board of Ana's that Ben edits
// too: "All pages as PDF" has one PDF page per board page, "All pages as SVG" and "as PNG" hold
// every page one under the other under its name (a page not open in Ana's browser is read from
// the server); presenting steps from the last frame of page 1 to the first frame of page 2, and
// back, and Ben, following, is taken along.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import {
  artifacts,
  boardArea,
  canvas,
  exported,
  newUser,
  pageNames,
  pathOf,
  pdfPagePictures,
  place,
  shapes,
  sharedBoard,
  stickyText,
  until,
  waitStatus,
  withApp,
} from './helpers.ts';

const viewportOf = (page: Page) => page.locator('svg.canvas').getAttribute('data-viewport');
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `pages-${name}.png`) });

/** Whether the sticky reading `text` lies inside the canvas on screen. */
async function onScreen(page: Page, text: string): Promise<boolean> {
  const note = page.locator('[data-shape-type="sticky"]', { hasText: text });
  if ((await note.count()) === 0) return false;
  const [box, area] = await Promise.all([note.first().boundingBox(), boardArea(page).boundingBox()]);
  if (!box || !area) return false;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return cx > area.x && cx < area.x + area.width && cy > area.y && cy < area.y + area.height;
}

describe('pages: export of every page, and presenting across pages', () => {
  let ana: Page;
  let ben: Page;
  let boardId: string;
  const app = withApp();

  before(async () => {
    ana = (await newUser(app, 'Ana')).page;
    ben = (await newUser(app, 'Ben', { guest: true })).page;
    boardId = await sharedBoard(ana, 'Slides', { editors: [ben] });
  });

  /** Stickies on the page shown, each in a frame of its own when `framed` (Select, click, F). */
  async function notes(texts: string[], framed: boolean) {
    const panelOpen = await ana.locator('.pages-panel').isVisible();
    if (panelOpen) await ana.getByRole('button', { name: 'Pages', exact: true }).click();
    const before = await shapes(ana, 'sticky').count();
    for (const [i, text] of texts.entries()) {
      await place(ana, 'Sticky note', 450 + i * 450, 350);
      await ana.keyboard.type(text);
      await ana.keyboard.press('Escape');
    }
    await until(
      async () => (await shapes(ana, 'sticky').count()) === before + texts.length,
      `${texts.join(', ')} placed`,
    );
    if (framed) {
      await ana.getByRole('button', { name: 'Select', exact: true }).click();
      for (const text of texts) {
        await ana.locator('[data-shape-type="sticky"]', { hasText: text }).click();
        await ana.keyboard.press('f');
      }
      await until(async () => (await shapes(ana, 'frame').count()) === texts.length, 'the frames');
      await canvas(ana).focus();
      await ana.keyboard.press('Escape');
    }
    if (panelOpen) await ana.getByRole('button', { name: 'Pages', exact: true }).click();
  }

  async function addPage(name: string) {
    await ana.getByRole('button', { name: 'Add page' }).click();
    const field = ana.getByLabel('Page name');
    await field.fill(name);
    await field.press('Enter');
    await until(async () => (await pageNames(ana)).includes(name), `${name} in Ana’s list`);
    await waitStatus(ana, 'live');
  }

  it('a board of three pages: two framed notes on each of the first two, one note on the third', async () => {
    await notes(['Intro A', 'Intro B'], true);
    await ana.getByRole('button', { name: 'Pages', exact: true }).click();
    await ana.getByRole('button', { name: 'Rename Page 1' }).click();
    await ana.getByLabel('Page name').fill('Intro');
    await ana.getByLabel('Page name').press('Enter');
    await addPage('Details');
    await notes(['Details A', 'Details B'], true);
    await addPage('Wrap-up');
    await notes(['Wrap-up note'], false);
    await ben.getByRole('button', { name: 'Pages', exact: true }).click();
    await until(
      async () => (await pageNames(ben)).join(',') === 'Intro,Details,Wrap-up',
      'the three pages in Ben’s list',
    );
    // A link to a page the board does not list opens its first page, not "Board deleted".
    await ben.goto(`/b/${boardId}/p/not-a-page`);
    await until(async () => pathOf(ben) === `/b/${boardId}`, 'Ben is on the first page');
    await waitStatus(ben, 'live');
    assert.equal(await ben.getByRole('alertdialog', { name: 'Access lost' }).count(), 0);
    await ben.getByRole('button', { name: 'Pages', exact: true }).click();
  });

  it('All pages as PDF has one PDF page per board page; as SVG and PNG, every page under its name', async () => {
    // Ana is on the third page: the second is neither shown nor the first, so it comes from the server.
    assert.match(pathOf(ana), new RegExp(`^/b/${boardId}/p/`));
    await ana.getByRole('button', { name: 'Export' }).click();
    await ana.getByRole('menuitem', { name: 'All pages as PDF' }).waitFor();
    await shot(ana, 'export-menu');
    await ana.getByRole('button', { name: 'Export' }).click();

    const pdfBytes = await exported(ana, 'All pages as PDF');
    const pdf = await PDFDocument.load(pdfBytes);
    assert.equal(pdf.getPageCount(), 3, 'one PDF page per board page');
    const pictures = pdfPagePictures(pdf);
    // The pictures are deflated: stored raw, three pages of a few notes made a file of megabytes.
    const rawBytes = pictures.reduce((sum, p) => sum + p.pixels.width * p.pixels.height * 3, 0);
    assert.ok(
      pdfBytes.length < rawBytes / 5,
      `the PDF is ${pdfBytes.length} bytes for ${rawBytes} bytes of pixels: not compressed`,
    );
    // Pages one and two hold two frames side by side, page three one note: it is the narrowest.
    const widths = pictures.map((p) => p.width);
    assert.ok(widths[0]! > widths[2]! && widths[1]! > widths[2]!, `page widths ${widths.join(', ')}`);
    for (const [i, { pictures: painted, pixels, rgb, colours }] of pictures.entries()) {
      assert.equal(painted, 1, `PDF page ${i + 1} paints one picture of its board page`);
      assert.ok(colours > 20, `PDF page ${i + 1}'s picture has ${colours} colours: blank`);
      await sharp(rgb, { raw: { width: pixels.width, height: pixels.height, channels: 3 } })
        .png()
        .toFile(join(artifacts, `pages-all-pdf-page-${i + 1}.png`));
    }
    const page = await PDFDocument.load(await exported(ana, 'Page as PDF'));
    assert.equal(page.getPageCount(), 1, 'Page as PDF: the page shown');

    const svg = (await exported(ana, 'All pages as SVG')).toString('utf8');
    const at = (s: string) => svg.indexOf(s);
    for (const text of [
      '>Intro<',
      '>Details<',
      '>Wrap-up<',
      'Intro A',
      'Intro B',
      'Details A',
      'Details B',
      'Wrap-up note',
    ])
      assert.ok(at(text) > 0, `${text} in the SVG`);
    assert.ok(
      at('>Intro<') < at('Intro A') &&
        at('Intro B') < at('>Details<') &&
        at('>Details<') < at('Details A') &&
        at('Details B') < at('>Wrap-up<') &&
        at('>Wrap-up<') < at('Wrap-up note'),
      'the pages in order, each under its name',
    );
    const ids = [...svg.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    assert.equal(ids.length, 4, 'a clip path per frame');
    assert.equal(new Set(ids).size, ids.length, 'no id twice in the one file');
    const [, w, h] = svg.match(/^<svg [^>]*width="(\d+)" height="(\d+)"/) ?? [];
    const width = Number(w);
    const height = Number(h);
    assert.ok(height > 3 * 56, 'three headed pages high');

    const png = await exported(ana, 'All pages as PNG');
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    const scale = Math.min(2, 8192 / Math.max(width, height));
    assert.deepEqual(
      [png.readUInt32BE(16), png.readUInt32BE(20)],
      [Math.round(width * scale), Math.round(height * scale)],
      'the PNG is the SVG drawn',
    );
  });

  it('presenting steps from the last frame of page 1 to the first frame of page 2, and Ben is taken along', async () => {
    await ana.locator('.pages-panel .page-name', { hasText: 'Intro' }).click();
    await ben.locator('.pages-panel .page-name', { hasText: 'Wrap-up' }).click();
    await waitStatus(ana, 'live');
    const intro = pathOf(ana);
    await ana.getByRole('button', { name: 'Present', exact: true }).click();
    await ana.getByRole('button', { name: 'Start presenting' }).click();
    const same = async () => (await viewportOf(ben)) === (await viewportOf(ana));
    await until(async () => pathOf(ben) === intro && (await same()), 'Ben follows Ana to page 1');
    assert.ok(await onScreen(ana, 'Intro A'));
    assert.equal(await onScreen(ana, 'Intro B'), false, 'one frame at a time');

    await canvas(ana).focus();
    await ana.keyboard.press('ArrowRight');
    await until(
      async () => (await onScreen(ana, 'Intro B')) && !(await onScreen(ana, 'Intro A')),
      'the last frame of page 1',
    );
    await ana.keyboard.press('ArrowRight');
    await until(async () => pathOf(ana) !== intro, 'Ana is taken to page 2');
    await until(
      async () => (await onScreen(ana, 'Details A')) && !(await onScreen(ana, 'Details B')),
      'the first frame of page 2 on Ana’s screen',
    );
    await until(async () => pathOf(ben) === pathOf(ana) && (await same()), 'Ben lands there too');
    assert.ok(await onScreen(ben, 'Details A'), 'page 2’s first frame on Ben’s screen');
    await ben.locator('.presenting-chip').waitFor();
    await shot(ben, 'presenting-page-2');
    await shot(ana, 'presenting-page-2-presenter');

    // And back: before page 2's first frame comes page 1's last.
    await ana.keyboard.press('ArrowLeft');
    await until(async () => pathOf(ana) === intro, 'Ana is back on page 1');
    await until(
      async () => (await onScreen(ana, 'Intro B')) && !(await onScreen(ana, 'Intro A')),
      'page 1’s last frame',
    );
    await until(async () => pathOf(ben) === intro && (await same()), 'Ben is back too');
    assert.equal(await stickyText(ben).filter({ hasText: 'Intro B' }).count(), 1);
    await ana.getByRole('button', { name: 'Stop', exact: true }).click();
    await ben.locator('.presenting-chip').waitFor({ state: 'detached' });
  });
});
