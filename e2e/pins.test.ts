// A user trial found comment pins drawn over the app's bars: panned under the History button, a
// pin took its click and opened the thread; on a phone a pin covered the Comments button and its
// unread badge. Pins are board content, so they pass under every bar as shapes do; the thread a
// person opens still sits above the board (and below the top bar). Checked in Chromium at
// 1280×800 and on a 390×844 phone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  boardArea,
  canvas,
  createBoard,
  newUser,
  onPhone,
  pickTool,
  place,
  shapes,
  until,
  withApp,
} from './helpers.ts';

const pin = (page: Page) => page.locator('.comment-pin').first();
const center = (b: { x: number; y: number; width: number; height: number }) => ({
  x: b.x + b.width / 2,
  y: b.y + b.height / 2,
});

/** A sticky at canvas (x, y) with one comment on it; its thread closed again. */
async function commentedSticky(page: Page, x: number, y: number): Promise<void> {
  await place(page, 'Sticky note', x, y);
  await page.keyboard.type('Logo');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  const sticky = (await shapes(page, 'sticky').first().boundingBox())!;
  const at = center(sticky);
  await page.mouse.click(at.x, at.y);
  const field = page.getByRole('dialog', { name: 'New comment' }).getByLabel('Comment');
  await field.fill('Bigger?');
  await field.press('Enter');
  await page.getByRole('region', { name: 'Comment thread' }).waitFor();
  await page.getByRole('button', { name: 'Close thread' }).click();
  await until(
    async () => (await page.getByRole('region', { name: 'Comment thread' }).count()) === 0,
    'closed',
  );
  // Nothing selected, so the bars stay home while the pin is panned under them (a selection
  // under the facilitation bar sends it aside: ui/clearOfSelection.ts).
  await canvas(page).focus();
  await page.keyboard.press('Escape');
  await until(
    async () => (await page.getByRole('toolbar', { name: 'Selection' }).count()) === 0,
    'nothing selected',
  );
}

/** Pans with the Hand tool until the pin's middle is on the middle of `target`. */
async function panPinOnto(page: Page, target: { x: number; y: number }): Promise<void> {
  await pickTool(page, 'Hand');
  const from = center((await pin(page).boundingBox())!);
  // Grab the board away from the pin (a button of its own) and the bars, and drag by the difference.
  const area = (await boardArea(page).boundingBox())!;
  const grab = { x: area.x + area.width * 0.35, y: area.y + area.height * 0.6 };
  await page.mouse.move(grab.x, grab.y);
  await page.mouse.down();
  await page.mouse.move(grab.x + (target.x - from.x) / 2, grab.y + (target.y - from.y) / 2, { steps: 4 });
  await page.mouse.move(grab.x + target.x - from.x, grab.y + target.y - from.y, { steps: 4 });
  await page.mouse.up();
  const now = center((await pin(page).boundingBox())!);
  assert.ok(
    Math.abs(now.x - target.x) < 6 && Math.abs(now.y - target.y) < 6,
    `the pin sits on the button: ${JSON.stringify(now)} vs ${JSON.stringify(target)}`,
  );
}

/** What a click at the middle of the named button reaches: that button's name, or what else. */
const under = (page: Page, at: { x: number; y: number }) =>
  page.evaluate(({ x, y }) => {
    const el = document.elementFromPoint(x, y);
    if (el?.closest('.comment-pin')) return 'a comment pin';
    return el?.closest('button')?.getAttribute('aria-label') ?? el?.tagName ?? null;
  }, at);

describe('comment pins pass under the bars', () => {
  const app = withApp();

  it('a pin panned under History: the click opens History, not the thread', async () => {
    const { page } = await newUser(app, 'Pia');
    await createBoard(page, 'Pins under bars');
    await commentedSticky(page, 640, 420);
    const history = page.getByRole('button', { name: 'History', exact: true });
    const at = center((await history.boundingBox())!);
    await panPinOnto(page, at);
    await page.screenshot({ path: `${artifacts}/pin-under-history.png` });
    assert.equal(await under(page, at), 'History', 'the History button is on top of the pin');
    await page.mouse.click(at.x, at.y);
    await page.getByRole('complementary', { name: 'Version history' }).waitFor();
    assert.equal(await page.getByRole('region', { name: 'Comment thread' }).count(), 0, 'no thread opened');

    // A pin under the tool bar and under the facilitation bar does not take their clicks either.
    for (const name of ['Rectangle', 'Frame']) {
      const button = center((await page.getByRole('button', { name, exact: true }).boundingBox())!);
      await panPinOnto(page, button);
      assert.equal(await under(page, button), name, `${name} is on top of the pin`);
    }

    // The thread a person opens stays above the board, beside its pin, clear of the top bar.
    await panPinOnto(page, { x: 640, y: 400 });
    await pin(page).click();
    const card = (await page.getByRole('region', { name: 'Comment thread' }).boundingBox())!;
    const bar = (await page.locator('.right-panel').boundingBox())!;
    assert.ok(card.y >= bar.y + bar.height, 'the thread card is below the top bar');
  });

  it('on a phone a pin under the Comments button leaves the button and its badge on top', async () => {
    const { page } = await newUser(app, 'Pim');
    await onPhone(app, page, async (phone) => {
      await commentedSticky(phone, 195, 420);
      // The pin sits by its sticky (its top-right corner): the Comment button's focus used to
      // scroll the editor's box by 391 px, and the comment landed that far from the note.
      const sticky = (await shapes(phone, 'sticky').first().boundingBox())!;
      const pinAt = center((await pin(phone).boundingBox())!);
      assert.ok(
        Math.abs(pinAt.x - (sticky.x + sticky.width)) < 40 && Math.abs(pinAt.y - sticky.y) < 40,
        `the pin ${JSON.stringify(pinAt)} by the sticky's corner ${JSON.stringify(sticky)}`,
      );
      const comments = phone.getByRole('button', { name: 'Comments', exact: true });
      const at = center((await comments.boundingBox())!);
      await panPinOnto(phone, at);
      await phone.screenshot({ path: `${artifacts}/pin-under-comments-phone.png` });
      assert.equal(await under(phone, at), 'Comments', 'the Comments button is on top of the pin');
      await phone.mouse.click(at.x, at.y);
      await phone.getByRole('complementary', { name: 'Comments panel' }).waitFor();
      assert.equal(await comments.getAttribute('aria-pressed'), 'true');
      await phone.mouse.click(at.x, at.y);
      await until(async () => (await comments.getAttribute('aria-pressed')) === 'false', 'the panel closed');

      // An open thread high on the screen stays under the menus of the top bar, as the bars do.
      await panPinOnto(phone, { x: 300, y: 110 });
      await pin(phone).click();
      await phone.getByRole('region', { name: 'Comment thread' }).waitFor();
      await phone.getByRole('button', { name: 'More', exact: true }).click();
      await phone.screenshot({ path: `${artifacts}/thread-under-more-phone.png` });
      for (const name of ['History', 'Templates', 'Export']) {
        const item = center((await phone.getByRole('button', { name, exact: true }).boundingBox())!);
        assert.equal(await under(phone, item), name, `More's ${name} is over the open thread`);
      }
    });
  });
});
