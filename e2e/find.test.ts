// Find on this page (Ctrl+F): the browser's own find cannot see words drawn on the canvas, so the
// board takes Ctrl+F, and Enter walks the shapes that say what was typed, selecting each and
// bringing it into view; matches follow what others write meanwhile; Escape gives the caret back.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  canvas,
  focused,
  inView,
  newUser,
  onPhone,
  sharedBoard,
  until,
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

const findBar = (page: Page) => page.getByRole('search', { name: 'Find on this page' });
const count = (page: Page) => page.locator('.find-count').textContent();
const untilCount = (page: Page, text: string) =>
  until(async () => (await count(page)) === text, `the find bar says “${text}”`);
/** The text of the live region that speaks for the selection (SelectionAnnouncer). */
const untilSelected = (page: Page, label: string) =>
  until(
    async () => (await page.locator('[data-selection-announcer]').textContent()) === `Selected: ${label}`,
    `${label} is selected`,
  );

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

    await findBar(sam).getByRole('searchbox').fill('nowhere on this board');
    await untilCount(sam, 'No matches');
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
});
