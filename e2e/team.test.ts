// A small team's retro, checked in Chromium at 1280×800: Ana (owner), Ben (can edit) and Cy (can
// view) on one board. What they tripped over: Ben's own avatar in the Pages panel in a colour that
// was not his, Ben left editing a page Ana had deleted, and the top bar's panels sliding under the
// centred tools (three people, a long title, a 1600 px window).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { artifacts, newUser, pageNames, pathOf, sharedBoard, until, waitStatus, withApp } from './helpers.ts';

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
        (await ana.getByRole('toolbar', { name: 'People on this board' }).getByRole('button').count()) === 3,
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

  it('a page deleted while Ben is on it takes him to the first page, saying why', async () => {
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

    await ana.getByRole('button', { name: 'Delete Actions' }).click();
    await until(async () => pathOf(ben) === `/b/${boardId}`, 'Ben taken to the first page');
    await ben
      .getByRole('status')
      .filter({ hasText: 'This page was deleted, so the first page is shown.' })
      .waitFor();
    await ben.screenshot({ path: `${artifacts}/team-page-deleted.png` });
    assert.equal(
      await ana.getByRole('status').filter({ hasText: 'This page was deleted' }).count(),
      0,
      'the one who deleted it is not told',
    );
    // Undo brings the page back for both; Ben can open it again.
    await ana.getByRole('button', { name: 'Undo page deletion' }).click();
    await until(async () => (await pageNames(ben)).includes('Actions'), 'Actions back in Ben’s list');
    await ben.getByRole('button', { name: 'Close pages' }).click();
    await ana.getByRole('button', { name: 'Close pages' }).click();
  });
});
