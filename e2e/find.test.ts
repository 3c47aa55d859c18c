// Find on this page (Ctrl+F): the browser's own find cannot see words drawn on the canvas, so the
// board takes Ctrl+F, and Enter walks the shapes that say what was typed, selecting each and
// bringing it into view; matches follow what others write meanwhile; Escape gives the caret back;
// the board's other pages that match are listed, and choosing one opens it on its first match.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  canvas,
  createBoard,
  failOnPageErrors,
  focused,
  inView,
  newUser,
  onPhone,
  pathOf,
  place,
  sharedBoard,
  until,
  waitStatus,
  withApp,
} from './helpers.ts';

const base = { rotation: 0, color: 'yellow', createdBy: 'x' };
/** Three rows and a far corner, written out of reading order; three of the shapes say "ship". */
const board = {
  version: 1,
  shapes: [
    { ...base, id: 'far', type: 'sticky', x: 4000, y: 2000, w: 200, h: 200, z: 'a0', text: 'Ship the docs' },
    { ...base, id: 'frame', type: 'frame', x: 0, y: 600, w: 600, h: 300, z: 'a1', name: 'Shipping lane' },
    { ...base, id: 'review', type: 'sticky', x: 300, y: 0, w: 200, h: 200, z: 'a2', text: 'Review' },
    { ...base, id: 'note', type: 'sticky', x: 0, y: 0, w: 200, h: 200, z: 'a3', text: 'SHIP it' },
  ],
};

/** A board of three pages: "budget" is said on the second only. */
const pagedBoard = {
  version: 1,
  shapes: [{ ...base, id: 'road', type: 'sticky', x: 0, y: 0, w: 200, h: 200, z: 'a0', text: 'Roadmap' }],
  pages: [
    {
      id: 'main',
      name: 'Overview',
      shapes: [{ ...base, id: 'road', type: 'sticky', x: 0, y: 0, w: 200, h: 200, z: 'a0', text: 'Roadmap' }],
    },
    {
      id: 'money',
      name: 'Money',
      shapes: [
        { ...base, id: 'fund', type: 'sticky', x: 0, y: 0, w: 200, h: 200, z: 'a0', text: 'Funding' },
        { ...base, id: 'budget', type: 'sticky', x: 900, y: 600, w: 200, h: 200, z: 'a1', text: 'Q3 Budget' },
      ],
    },
    {
      id: 'later',
      name: 'Later',
      shapes: [{ ...base, id: 'idea', type: 'sticky', x: 0, y: 0, w: 200, h: 200, z: 'a0', text: 'Ideas' }],
    },
  ],
};

const findBar = (page: Page) => page.getByRole('search', { name: 'Find on this page' });
const count = (page: Page) => page.locator('.find-count').textContent();
const untilCount = (page: Page, text: string) =>
  until(async () => (await count(page)) === text, `the find bar says “${text}”`);
/**
 * Waits until the live region that speaks for the selection (SelectionAnnouncer) names `label`
 * exactly, followed by its place in reading order (", 2 of 5"), which depends on the board.
 */
const untilSelected = (page: Page, label: string) =>
  until(async () => {
    const said = (await page.locator('[data-selection-announcer]').textContent()) ?? '';
    const m = /^(.*), \d+ of \d+$/.exec(said);
    return m?.[1] === `Selected: ${label}`;
  }, `${label} is selected`);

describe('find on this page', () => {
  let sam: Page;
  let kim: Page;

  const app = withApp();
  before(async () => {
    sam = (await newUser(app, 'Sam')).page;
    kim = (await newUser(app, 'Kim')).page;
    await sharedBoard(sam, 'Find me', { editors: [kim] });
    const file = join(tmpdir(), `tandem-find-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(board));
    await sam.getByLabel('Import JSON file').setInputFiles(file);
    await sam.getByText('Imported 4 shapes.').waitFor();
  });

  it('Ctrl+F opens the bar with the caret in it, and Enter walks the matches in reading order into view', async () => {
    // At 100 % only part of the board is in view (an import zooms to fit it all).
    await canvas(sam).focus();
    await sam.keyboard.press('Control+0');
    await until(
      async () => !(await inView(sam, 'Sticky note: Ship the docs')),
      'the far note is out of view',
    );
    await sam.keyboard.press('Control+f');
    await findBar(sam).waitFor();
    await until(async () => (await focused(sam)) === 'input Find on this page', 'the field has the caret');

    await sam.keyboard.type('ship');
    // The first match is shown while typing, as a browser's find does; case does not count.
    await untilCount(sam, '1 of 3');
    await untilSelected(sam, 'Sticky note: SHIP it');
    await sam.keyboard.press('Enter');
    await untilCount(sam, '2 of 3');
    await untilSelected(sam, 'Frame: Shipping lane');
    await sam.keyboard.press('Enter');
    await untilCount(sam, '3 of 3');
    await untilSelected(sam, 'Sticky note: Ship the docs');
    await until(() => inView(sam, 'Sticky note: Ship the docs'), 'the far note is brought into view');
    await sam.screenshot({ path: `${artifacts}/find-far-note.png` });
    // Round the end, and back with Shift+Enter and the buttons.
    await sam.keyboard.press('Enter');
    await untilCount(sam, '1 of 3');
    await sam.keyboard.press('Shift+Enter');
    await untilCount(sam, '3 of 3');
    await findBar(sam).getByRole('button', { name: 'Previous match' }).click();
    await untilCount(sam, '2 of 3');
    await findBar(sam).getByRole('button', { name: 'Next match' }).click();
    await untilCount(sam, '3 of 3');
  });

  it('follows what someone else writes meanwhile, and says when nothing matches', async () => {
    // Kim writes a note that says "ship" too: Sam's count grows without typing again.
    await canvas(kim).focus();
    await kim.keyboard.press('n');
    await kim.keyboard.press('Enter');
    await kim.keyboard.type('Ship on Friday');
    await kim.keyboard.press('Escape');
    await until(async () => /^\d of 4$/.test((await count(sam)) ?? ''), 'four matches on Sam’s bar');

    // A board of one page has no other page for the server to search.
    const searches: string[] = [];
    sam.on('request', (r) => {
      if (r.url().includes('/search?')) searches.push(r.url());
    });
    await findBar(sam).getByRole('searchbox').fill('nowhere on this board');
    await untilCount(sam, 'No matches');
    // The last match is no longer selected (as a browser's find drops its highlight).
    await until(
      async () => (await sam.locator('[data-selection-announcer]').textContent()) === 'Selection cleared',
      'the match is let go',
    );
    await sam.waitForTimeout(600); // past the list's 250 ms pause
    assert.deepEqual(searches, [], 'no search of other pages asked');
    assert.equal(await findBar(sam).getByRole('button', { name: 'Next match' }).isDisabled(), true);
    await sam.screenshot({ path: `${artifacts}/find-no-matches.png` });
  });

  it('Escape closes it and gives the caret back to the canvas; Ctrl+F takes it from the browser', async () => {
    await findBar(sam).getByRole('searchbox').focus();
    await sam.keyboard.press('Escape');
    await until(async () => (await findBar(sam).count()) === 0, 'the bar is closed');
    await until(
      async () => (await focused(sam)) === 'application Board canvas',
      'the canvas has focus again',
    );
    // Opened again, it starts empty.
    await sam.keyboard.press('Control+f');
    await findBar(sam).waitFor();
    assert.equal(await findBar(sam).getByRole('searchbox').inputValue(), '');
  });

  it('on a phone, with no Ctrl+F, the zoom bar’s Find button opens it, and the bar fits the screen', async () => {
    await onPhone(app, sam, async (phone) => {
      const file = join(tmpdir(), `tandem-find-phone-${process.pid}.json`);
      writeFileSync(file, JSON.stringify(board));
      await phone.getByLabel('Import JSON file').setInputFiles(file);
      await phone.getByText('Imported 4 shapes.').waitFor();
      await phone.getByRole('button', { name: 'Find on this page' }).click();
      await findBar(phone).getByRole('searchbox').fill('docs');
      await untilCount(phone, '1 of 1');
      await untilSelected(phone, 'Sticky note: Ship the docs');
      // The whole board was fitted (a dot per note): the match is zoomed in on, to be read.
      const found = canvas(phone).getByRole('img', { name: 'Sticky note: Ship the docs', exact: true });
      await until(
        async () => ((await found.boundingBox())?.width ?? 0) >= 96,
        'the note is drawn large enough to read',
      );
      assert.equal(
        await phone.locator('.style-panel').isVisible(),
        false,
        'the style panel stays out of the way',
      );
      const bar = (await findBar(phone).boundingBox())!;
      const width = phone.viewportSize()!.width;
      assert.ok(
        bar.x >= 0 && bar.x + bar.width <= width,
        `the bar (${bar.x}, ${bar.width} wide) is within ${width} px`,
      );
      await phone.screenshot({ path: `${artifacts}/find-phone.png` });
    });
  });

  it('lists the other pages that match; choosing one opens it with the bar on the same query and its match selected', async () => {
    await sam.goto('/boards');
    const boardId = await createBoard(sam, 'Find on every page');
    const file = join(tmpdir(), `tandem-find-pages-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(pagedBoard));
    await sam.getByLabel('Import JSON file').setInputFiles(file);
    await sam.getByText('Imported 1 shape and 2 more pages.').waitFor({ timeout: 60_000 });
    // The page ids the import gave the pages, as the server has them.
    const stored = (await (await sam.request.get(`/api/boards/${boardId}/export.json`)).json()) as {
      pages: { id: string; name: string }[];
    };
    const money = stored.pages.find((p) => p.name === 'Money')!;
    assert.equal(pathOf(sam), `/b/${boardId}`, 'on the first page');

    await canvas(sam).focus();
    await sam.keyboard.press('Control+f');
    await findBar(sam).waitFor();
    await sam.keyboard.type('budget');
    // Nothing on this page says it: the count is this page's, and the list offers the page that does.
    await untilCount(sam, 'No matches');
    const list = findBar(sam).getByRole('list', { name: 'Matches on other pages' });
    await list.waitFor();
    assert.deepEqual(await list.getByRole('button').allTextContents(), ['Money — 1 match']);
    await sam.screenshot({ path: `${artifacts}/find-other-pages.png` });

    // By keyboard: Tab from the field reaches the page's button (the step buttons are disabled).
    await sam.keyboard.press('Tab');
    await sam.keyboard.press('Tab');
    await until(async () => (await focused(sam)) === 'button Money — 1 match', 'the page’s button has focus');
    await sam.keyboard.press('Enter');
    await until(async () => pathOf(sam) === `/b/${boardId}/p/${money.id}`, 'the Money page is open');
    await findBar(sam).waitFor();
    assert.equal(await findBar(sam).getByRole('searchbox').inputValue(), 'budget');
    await untilSelected(sam, 'Sticky note: Q3 Budget');
    await untilCount(sam, '1 of 1');
    await until(() => inView(sam, 'Sticky note: Q3 Budget'), 'the match is in view');
    // On Money, no other page says "budget": no list.
    assert.equal(await findBar(sam).getByRole('list').count(), 0);

    // While the bar stays open, a page written on meanwhile joins the list: Sam, in a second tab
    // on the Later page, writes a note that says it.
    const later = stored.pages.find((p) => p.name === 'Later')!;
    const tab = await sam.context().newPage();
    failOnPageErrors(tab, 'Sam, second tab');
    await tab.goto(`/b/${boardId}/p/${later.id}`);
    await waitStatus(tab, 'live');
    await place(tab, 'Sticky note', 300, 300);
    await tab.getByLabel('Shape text').pressSequentially('Budget cuts');
    await tab.keyboard.press('Escape');
    await until(
      async () => (await list.getByRole('button').allTextContents()).join() === 'Later — 1 match',
      'the Later page listed on the Money page’s open bar',
      30_000,
    );
    assert.equal(await findBar(sam).getByRole('searchbox').inputValue(), 'budget', 'the query stands');
    await tab.close();
  });
});

/** Notes far to the left and right of the middle one: Find has to move the view to each. */
const wideBoard = {
  version: 1,
  shapes: [
    { ...base, id: 'mid', type: 'sticky', x: 0, y: 0, w: 200, h: 200, z: 'a0', text: 'Middle' },
    { ...base, id: 'west', type: 'sticky', x: -3000, y: 0, w: 200, h: 200, z: 'a1', text: 'Westmost' },
    { ...base, id: 'east', type: 'sticky', x: 3000, y: 100, w: 200, h: 200, z: 'a2', text: 'Eastmost' },
  ],
};

type Box = { x: number; y: number; width: number; height: number };
const meet = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('find keeps its match clear of the panels', () => {
  const app = withApp();

  /**
   * The panels (by selector) that `name`'s note meets on screen, once the view has settled: [] when
   * it is wholly in sight. Also checks that the note is in the middle of what the panels leave.
   */
  async function under(page: Page, name: string): Promise<string[]> {
    const note = canvas(page).getByRole('img', { name, exact: true });
    let last = '';
    // Settled: the same box twice in a row (the view moves in the frame after the selection).
    await until(async () => {
      const now = JSON.stringify(await note.boundingBox());
      const same = now === last;
      last = now;
      return same;
    }, `${name} stands still`);
    const box = (await note.boundingBox())!;
    const hits: string[] = [];
    for (const selector of ['.style-panel', '.side-panel', '.pages-panel', '.find-bar', '.toolbar']) {
      for (const panel of await page.locator(selector).all()) {
        const b = await panel.boundingBox();
        if (b && meet(box, b)) hits.push(`${selector} ${JSON.stringify(b)} over ${JSON.stringify(box)}`);
      }
    }
    return hits;
  }

  it('brings a match beside an open Comments or Pages panel, and the style panel, not under them', async () => {
    const { page } = await newUser(app, 'Wes');
    await createBoard(page, 'Wide');
    const file = join(tmpdir(), `tandem-find-wide-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(wideBoard));
    await page.getByLabel('Import JSON file').setInputFiles(file);
    await page.getByText('Imported 3 shapes.').waitFor();
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 800 });
      await canvas(page).focus();
      await page.keyboard.press('Control+0');
      // The Comments panel open at the right: a note found to the east once landed under it.
      await page.getByRole('button', { name: 'Comments', exact: true }).click();
      await page.getByRole('complementary', { name: 'Comments panel' }).waitFor();
      await page.keyboard.press('Control+f');
      await findBar(page).getByRole('searchbox').fill('eastmost');
      await untilSelected(page, 'Sticky note: Eastmost');
      assert.deepEqual(await under(page, 'Sticky note: Eastmost'), [], `at ${width} px, Comments open`);
      await page.screenshot({ path: `${artifacts}/find-clear-comments-${width}.png` });
      await page.getByRole('button', { name: 'Comments', exact: true }).click();

      // The Pages panel open at the left, the style panel beside it: a note found to the west.
      await page.getByRole('button', { name: 'Pages', exact: true }).click();
      await page.locator('.pages-panel').waitFor();
      await findBar(page).getByRole('searchbox').fill('westmost');
      await untilSelected(page, 'Sticky note: Westmost');
      assert.deepEqual(await under(page, 'Sticky note: Westmost'), [], `at ${width} px, Pages open`);
      await page.screenshot({ path: `${artifacts}/find-clear-pages-${width}.png` });

      // Found again from the east, with Pages still open: the west note is a long way left.
      await findBar(page).getByRole('searchbox').fill('eastmost');
      await untilSelected(page, 'Sticky note: Eastmost');
      await findBar(page).getByRole('searchbox').fill('westmost');
      await untilSelected(page, 'Sticky note: Westmost');
      assert.deepEqual(await under(page, 'Sticky note: Westmost'), [], `at ${width} px, Pages open, again`);
      await page.getByRole('button', { name: 'Close find' }).click();
      await page.getByRole('button', { name: 'Pages', exact: true }).click();
    }
  });

  it('the style panel steps aside from a selection beside the open Pages panel', async () => {
    const { page } = await newUser(app, 'Pia');
    await createBoard(page, 'Beside pages');
    await page.getByRole('button', { name: 'Pages', exact: true }).click();
    // A note drawn just right of the Pages panel, where the style panel stands while it is open.
    await place(page, 'Rectangle', 400, 400);
    const shape = canvas(page).getByRole('img', { name: 'Rectangle', exact: true });
    await untilSelected(page, 'Rectangle');
    const note = (await shape.boundingBox())!;
    const style = page.locator('.style-panel');
    await until(async () => {
      const b = await style.boundingBox();
      return b !== null && !meet(note, b);
    }, 'the style panel clear of the rectangle');
    await page.screenshot({ path: `${artifacts}/style-panel-beside-pages.png` });
  });
});

describe('find on other pages, long names', () => {
  const app = withApp();

  it('lists a page with a long name whole, wrapped, not cut', async () => {
    const { page } = await newUser(app, 'Lou');
    await createBoard(page, 'Long names');
    const long = 'Quarterly planning for the marketing, sales and support teams, second half of next year';
    const note = { ...base, id: 'n', type: 'sticky', x: 0, y: 0, w: 200, h: 200, z: 'a0' };
    const file = join(tmpdir(), `tandem-find-long-${process.pid}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        shapes: [{ ...note, text: 'Hello' }],
        pages: [
          { id: 'main', name: 'Overview', shapes: [{ ...note, text: 'Hello' }] },
          { id: 'long', name: long, shapes: [{ ...note, text: 'Budget' }] },
        ],
      }),
    );
    await page.getByLabel('Import JSON file').setInputFiles(file);
    await page.getByText('Imported 1 shape and 1 more page.').waitFor({ timeout: 60_000 });
    await canvas(page).focus();
    await page.keyboard.press('Control+f');
    await findBar(page).getByRole('searchbox').fill('budget');
    const button = findBar(page).getByRole('list', { name: 'Matches on other pages' }).getByRole('button');
    await button.waitFor();
    // Named in full for a screen reader, and drawn in full: nothing of it is clipped.
    assert.equal(await button.textContent(), `${long} — 1 match`);
    const clipped = await button.evaluate(
      (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
    );
    assert.equal(clipped, false, 'the button shows the whole name');
    const bar = (await findBar(page).boundingBox())!;
    const box = (await button.boundingBox())!;
    assert.ok(box.x >= bar.x && box.x + box.width <= bar.x + bar.width + 0.5, 'within the bar');
    await findBar(page).screenshot({ path: `${artifacts}/find-long-page-name.png` });
  });
});
