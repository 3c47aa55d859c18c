// A small team's retro, checked in Chromium at 1280×800: Ana (owner), Ben (can edit) and Cy (can
// view) on one board. What they tripped over: Ben's own avatar in the Pages panel in a colour that
// was not his, Ben left editing a page Ana had deleted, and the top bar's panels sliding under the
// centred tools (three people, a long title, a 1600 px window).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  boardArea,
  newUser,
  pageNames,
  pathOf,
  sharedBoard,
  until,
  waitStatus,
  withApp,
} from './helpers.ts';

type Box = { x: number; y: number; width: number; height: number };
const apart = (a: Box, b: Box) =>
  a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

/** Whether a click at the centre of `name`'s button reaches that button (nothing lies over it). */
async function reachable(page: Page, name: string): Promise<boolean> {
  const button = page.getByRole('button', { name, exact: true });
  const box = (await button.boundingBox())!;
  return button.evaluate((el, { x, y }) => el.contains(document.elementFromPoint(x, y)), {
    x: box.x + box.width / 2,
    y: box.y + box.height / 2,
  });
}

describe('a team of three on one board', () => {
  const app = withApp();
  let ana: Page;
  let ben: Page;
  let cy: Page;
  let boardId: string;

  before(async () => {
    ana = (await newUser(app, 'Ana')).page;
    ben = (await newUser(app, 'Ben')).page;
    cy = (await newUser(app, 'Cy')).page;
    boardId = await sharedBoard(ana, 'Sprint retro', { editors: [ben], viewers: [cy] });
    await until(
      async () =>
        (await ana.getByRole('toolbar', { name: 'People on this board' }).locator('.avatar-btn').count()) ===
        3,
      'Ben, Cy and Ana in Ana’s top bar',
    );
  });

  it('Ben’s own avatar in the Pages panel is in the colour he picked (violet)', async () => {
    await ben.getByRole('button', { name: 'Ben (you): your colour' }).click();
    await ben.getByRole('menuitemradio', { name: 'Colour violet' }).click();
    const own = ben.locator('.avatar-me .avatar');
    const picked = await own.evaluate((el) => getComputedStyle(el).backgroundColor);
    await ben.getByRole('button', { name: 'Pages', exact: true }).click();
    const inPanel = ben.locator('.pages-panel .page-people .avatar[title="Ben"]');
    await inPanel.waitFor();
    assert.equal(await inPanel.evaluate((el) => getComputedStyle(el).backgroundColor), picked);
    await ben.getByRole('button', { name: 'Close pages' }).click();
  });

  it('Ben’s comment pin and dot, his name in mention suggestions and his row in the Share dialog are in the colour his avatar shows, not his account’s', async () => {
    // Ben's account takes Ana's colour; opening the board again, he is shown in another one.
    const anaColor = await ana.evaluate(
      async () => (await (await fetch('/api/me')).json()).user.color as string,
    );
    const put = await ben.evaluate(
      async (color) =>
        (
          await fetch('/api/me/color', {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ color }),
          })
        ).status,
      anaColor,
    );
    assert.equal(put, 200);
    await ben.reload();
    await waitStatus(ben, 'live');
    const background = (el: Element) => getComputedStyle(el).backgroundColor;
    const benOnAnas = ana
      .getByRole('toolbar', { name: 'People on this board' })
      .locator('.avatars-others .avatar[title="Ben"]');
    const anaOwn = await ana.locator('.avatar-me .avatar').evaluate(background);
    let shown = '';
    await until(async () => {
      shown = await benOnAnas.evaluate(background);
      return shown !== anaOwn;
    }, 'Ben shown in a colour of his own beside Ana');

    await ben.getByRole('button', { name: 'Comment', exact: true }).click();
    await boardArea(ben).click({ position: { x: 400, y: 420 } });
    const field = ben.getByRole('dialog', { name: 'New comment' }).getByLabel('Comment');
    await field.fill('Start with what went well');
    await field.press('Enter');
    const pin = ana.locator('.comment-pin[aria-label^="Comment thread by Ben"]');
    await pin.waitFor();
    assert.equal(
      await pin.evaluate((el) => getComputedStyle(el).borderColor),
      shown,
      'the pin on Ana’s screen',
    );
    await pin.click();
    const card = ana.getByRole('region', { name: 'Comment thread' });
    assert.equal(
      await card.locator('.comment-dot').first().evaluate(background),
      shown,
      'the dot in the thread',
    );
    // Ana mentions Ben in her reply: the suggestion carries his colour too.
    const reply = card.getByLabel('Reply');
    await reply.pressSequentially('Agreed @Be');
    const option = ana.getByRole('option', { name: 'Ben' });
    await option.waitFor();
    assert.equal(await option.locator('.mention-dot').evaluate(background), shown, 'the mention suggestion');
    await reply.press('Escape');
    await reply.fill('');
    await card.getByRole('button', { name: 'Close thread' }).click();
    assert.equal(
      await ben
        .locator('.comment-pin')
        .first()
        .evaluate((el) => getComputedStyle(el).borderColor),
      await ben.locator('.avatar-me .avatar').evaluate(background),
      'the pin on Ben’s own screen is in his own avatar’s colour',
    );

    await ana.getByRole('button', { name: 'Share', exact: true }).click();
    const row = ana.locator('.members li', { hasText: 'Ben' }).locator('.avatar');
    await row.waitFor();
    assert.equal(await row.evaluate(background), shown, 'Ben’s row in the Share dialog');
    await ana.screenshot({ path: `${artifacts}/team-colours-share.png` });
    await ana.keyboard.press('Escape');
    await ana.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it('a page deleted while Ben is on it takes him to the first page, saying who deleted which page', async () => {
    await ana.getByRole('button', { name: 'Pages', exact: true }).click();
    await ana.getByRole('button', { name: 'Add page' }).click();
    await ana.getByLabel('Page name').fill('Actions');
    await ana.getByLabel('Page name').press('Enter');
    await waitStatus(ana, 'live');
    await ana.locator('.pages-panel .page-name', { hasText: 'Page 1' }).click();
    await waitStatus(ana, 'live');

    await ben.getByRole('button', { name: 'Pages', exact: true }).click();
    await until(async () => (await pageNames(ben)).includes('Actions'), 'Actions in Ben’s list');
    await ben.locator('.pages-panel .page-name', { hasText: 'Actions' }).click();
    await waitStatus(ben, 'live');
    assert.notEqual(pathOf(ben), `/b/${boardId}`);

    // Ben is on it: Ana is asked, and told so.
    await ana.getByRole('button', { name: 'Delete Actions' }).click();
    const asked = ana.getByRole('alertdialog', { name: 'Delete “Actions”?' });
    await asked.waitFor();
    assert.equal(
      await ana.locator(`[id="${await asked.getAttribute('aria-describedby')}"]`).textContent(),
      'Everything on it is deleted with it, and Ben is on it. Undo in the Pages panel brings it back; later, the board’s owner can restore it from “Recently deleted”.',
    );
    await asked.getByRole('button', { name: 'Delete page', exact: true }).click();
    await until(async () => pathOf(ben) === `/b/${boardId}`, 'Ben taken to the first page');
    await ben
      .getByRole('status')
      .filter({ hasText: 'Ana deleted the page “Actions”. The first page is shown.' })
      .waitFor();
    await ben.screenshot({ path: `${artifacts}/team-page-deleted.png` });
    assert.equal(
      await ana
        .getByRole('status')
        .filter({ hasText: /deleted the page|This page was deleted/ })
        .count(),
      0,
      'the one who deleted it is not told',
    );
    // Undo brings the page back for both; Ben can open it again.
    await ana.getByRole('button', { name: 'Undo page deletion' }).click();
    await until(async () => (await pageNames(ben)).includes('Actions'), 'Actions back in Ben’s list');
    await ben.getByRole('button', { name: 'Close pages' }).click();
    await ana.getByRole('button', { name: 'Close pages' }).click();
  });

  it('the title and the people stay beside the tools, never under them', async () => {
    await ana.locator('.title-button').click();
    await ana
      .locator('.title-input')
      .fill('Q3 retro of the platform, infrastructure and developer experience teams, all of it');
    await ana.locator('.title-input').press('Enter');
    await until(async () => (await cy.title()).startsWith('Q3 retro'), 'the new title on Cy’s tab');
    await until(
      async () =>
        (await ben.getByRole('toolbar', { name: 'People on this board' }).locator('.avatar-btn').count()) ===
        3,
      'everyone in Ben’s top bar',
    );
    for (const page of [ana, ben, cy]) {
      for (const width of [1280, 1600]) {
        await page.setViewportSize({ width, height: 800 });
        const tools = (await page.getByRole('toolbar', { name: 'Tools' }).boundingBox())!;
        const title = (await page.locator('.title-panel').boundingBox())!;
        const right = (await page.locator('.right-panel').boundingBox())!;
        assert.ok(apart(tools, title), `the title panel is beside the tools at ${width} px`);
        assert.ok(apart(tools, right), `the right panel is beside the tools at ${width} px`);
        for (const name of ['Pages', 'Comments', 'History', 'Share'])
          assert.ok(await reachable(page, name), `${name} can be clicked at ${width} px`);
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await ben.screenshot({ path: `${artifacts}/team-top-bar.png` });
  });

  it('avatars the top bar has no room for are counted ("+N") and listed, each to follow; none when all fit', async () => {
    const bar = ana.getByRole('toolbar', { name: 'People on this board' });
    const more = bar.getByRole('button', { name: /^\d+ more (person|people) on this board$/ });
    await more.waitFor();
    const outOfSight = await bar.locator('.avatars-others').evaluate((strip) => {
      const box = strip.getBoundingClientRect();
      return Array.from(strip.querySelectorAll('.avatar-btn')).filter((b) => {
        const r = b.getBoundingClientRect();
        return r.right <= box.left + 1 || r.left >= box.right - 1;
      }).length;
    });
    assert.ok(outOfSight >= 1, 'at 1280 px with a long title, someone is out of sight');
    assert.equal(
      await more.getAttribute('aria-label'),
      `${outOfSight} more ${outOfSight === 1 ? 'person' : 'people'} on this board`,
    );
    // With no room for a single one of the two, the button shows the first one's face and "+1".
    const faces = await more.locator('.avatar').count();
    if (outOfSight === 2) {
      assert.equal(faces, 1, 'a face when nobody else is in sight');
      assert.equal(await more.locator('.avatars-more-count').textContent(), '+1');
    } else {
      assert.equal(faces, 0);
      assert.equal(await more.textContent(), `+${outOfSight}`);
    }
    await more.click();
    const menu = ana.getByRole('menu', { name: 'Everyone on this board' });
    assert.deepEqual(await menu.locator('.people-menu-name').allTextContents(), ['Ben', 'Cy (viewer)']);
    await ana.screenshot({ path: `${artifacts}/team-everyone-menu.png` });
    await menu.getByRole('menuitemcheckbox', { name: 'Cy (viewer)' }).click();
    assert.equal(await menu.count(), 0, 'the menu closes');
    const cyAvatar = bar.getByRole('button', { name: 'Follow Cy (viewer)' });
    await until(async () => (await cyAvatar.getAttribute('aria-pressed')) === 'true', 'Ana follows Cy');
    await more.click();
    await menu.getByRole('menuitemcheckbox', { name: 'Cy (viewer)', checked: true }).click();
    await until(
      async () => (await cyAvatar.getAttribute('aria-pressed')) === 'false',
      'Ana stops following Cy',
    );

    await ana.setViewportSize({ width: 1920, height: 900 });
    await until(async () => (await more.count()) === 0, 'no "+N" when everyone fits');
    await ana.setViewportSize({ width: 1280, height: 800 });
    await more.waitFor();
  });

  it('? lists every keyboard shortcut; Escape closes the list; the button beside the zoom opens it too', async () => {
    await ben.keyboard.press('Escape');
    await ben.keyboard.press('?');
    const dialog = ben.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    for (const group of ['Tools', 'Edit', 'Arrange', 'View', 'With others'])
      await dialog.getByRole('region', { name: group }).waitFor();
    const row = (what: string) => dialog.locator('.shortcut', { has: ben.getByText(what, { exact: true }) });
    assert.deepEqual(await row('Sticky note').locator('kbd').allTextContents(), ['N']);
    assert.deepEqual(await row('Align centre').locator('kbd').allTextContents(), ['Alt+H']);
    assert.deepEqual(await row('Redo').locator('kbd').allTextContents(), ['Ctrl+Shift+Z', 'Ctrl+Y']);
    await ben.screenshot({ path: `${artifacts}/team-shortcuts.png` });
    // Keys pressed in the list are not board commands: N does not pick the Sticky note tool.
    await ben.keyboard.press('n');
    assert.equal(
      await ben.getByRole('button', { name: 'Sticky note', exact: true }).getAttribute('aria-pressed'),
      'false',
    );
    await ben.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await ben.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('a long text pasted on the board is a note that holds all of it, and a longer one says it was cut', async () => {
    await ben.keyboard.press('Escape');
    await ben.evaluate((text) => {
      const transfer = new DataTransfer();
      transfer.setData('text/plain', text);
      document.body.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    }, 'The deploy logs, line by line. '.repeat(250));
    const note = ben.locator('[data-shape-type="sticky"]').filter({ hasText: 'The deploy logs' });
    await note.waitFor();
    const { text, rect } = await note.evaluate((g) => ({
      text: g.querySelector('.shape-text')!.getBoundingClientRect().bottom,
      rect: g.querySelector('rect.sticky')!.getBoundingClientRect().bottom,
    }));
    assert.ok(text <= rect + 1, `the text (to ${text}) stays inside its note (to ${rect})`);
    await ben
      .getByRole('status')
      .filter({ hasText: 'Only the first 5,000 characters were pasted.' })
      .waitFor();
  });
});
