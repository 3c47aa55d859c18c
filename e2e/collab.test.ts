// Two people on one board in two browser contexts, against the real server: shapes and text
// appear for both and merge, cursors and selections show, undo is per person, and offline edits
// survive a reload and converge.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  canvas,
  newUser,
  place,
  shapes,
  sharedBoard,
  stickyText,
  until,
  waitStatus,
  withApp,
  writeOfflineAndReload,
} from './helpers.ts';

describe('two people on one board', () => {
  let ada: Page;
  let bo: Page;
  let boContext: import('playwright-core').BrowserContext;
  let boardId: string;

  const app = withApp();
  before(async () => {
    ada = (await newUser(app, 'Ada')).page;
    const b = await newUser(app, 'Bo', { guest: true, offlineShell: true });
    bo = b.page;
    boContext = b.context;
    boardId = await sharedBoard(ada, 'Planning', { editors: [bo] });
  });
  /** Ada's cursor on Bo's screen (it shows once she moves), so a test need not follow another. */
  async function adaSeenByBo() {
    await ada.mouse.move(640, 420, { steps: 3 });
    await bo.locator('[data-cursor-name="Ada"]').waitFor();
  }

  it('a sticky made by one appears for the other, and text typed by both merges', async () => {
    await place(ada, 'Sticky note', 400, 350);
    await ada.keyboard.type('Plan');
    await ada.keyboard.press('Escape');
    await until(async () => (await stickyText(bo).textContent()) === 'Plan', 'the sticky on Bo’s screen');

    // Both open the note's editor, then both type: each sees the other's characters arrive.
    await ada.locator('[data-shape-type="sticky"]').dblclick();
    await bo.locator('[data-shape-type="sticky"]').dblclick();
    const adaField = ada.getByLabel('Shape text');
    const boField = bo.getByLabel('Shape text');
    await adaField.press('End');
    await adaField.pressSequentially(' by Ada');
    await until(async () => (await boField.inputValue()) === 'Plan by Ada', 'Ada’s typing in Bo’s editor');
    await boField.press('End');
    await boField.pressSequentially(' and Bo');
    await until(
      async () => (await adaField.inputValue()) === 'Plan by Ada and Bo',
      'Bo’s typing in Ada’s editor',
    );
    await adaField.press('Escape');
    await boField.press('Escape');
    assert.equal(await stickyText(ada).textContent(), 'Plan by Ada and Bo');
    assert.equal(await stickyText(bo).textContent(), 'Plan by Ada and Bo');
  });

  it('each sees the other’s cursor with a name and the other’s selection', async () => {
    await place(ada, 'Sticky note', 900, 250);
    await ada.keyboard.press('Escape');
    await ada.getByRole('button', { name: 'Select', exact: true }).click();
    await ada.locator('[data-shape-type="sticky"]').last().click();
    await ada.mouse.move(700, 500, { steps: 4 });
    await bo.mouse.move(300, 600, { steps: 4 });
    await bo.locator('[data-cursor-name="Ada"]').waitFor();
    await ada.locator('[data-cursor-name="Bo"]').waitFor();
    await bo.locator('[data-remote-selection="Ada"]').waitFor();
    assert.equal(await bo.locator('[data-cursor-name="Ada"] .cursor-name').textContent(), 'Ada');
    // Avatars: each sees the other in the top bar.
    await bo.getByRole('button', { name: /^Follow Ada/ }).waitFor();
    await ada.screenshot({ path: `${artifacts}/board-two-users.png` });
  });

  it('clicking an avatar follows that person’s viewport, and any move stops it', async () => {
    await adaSeenByBo();
    await bo.getByRole('button', { name: /^Follow Ada/ }).click();
    const banner = bo.getByRole('status').filter({ hasText: 'Following Ada' });
    await banner.waitFor();
    await canvas(ada).focus();
    await ada.keyboard.press('+');
    const zoom = (p: Page) => p.getByRole('button', { name: 'Reset zoom' }).textContent();
    await until(async () => (await zoom(bo)) === '125%', 'Bo’s view following Ada’s zoom');
    await bo.screenshot({ path: `${artifacts}/board-following.png` });
    await canvas(bo).focus();
    await bo.keyboard.press('-');
    await until(
      async () => (await bo.getByRole('button', { name: /^Follow Ada/, pressed: true }).count()) === 0,
      'following stopped',
    );
    await banner.waitFor({ state: 'detached' });
    // Ada zooms again and moves: once her cursor moved on Bo's screen (same awareness state as
    // her viewport), Bo's zoom is still his own.
    const cursor = bo.locator('[data-cursor-name="Ada"]');
    const before = await cursor.getAttribute('style');
    await ada.keyboard.press('+');
    await ada.mouse.move(520, 330, { steps: 3 });
    await until(
      async () => (await cursor.getAttribute('style')) !== before,
      'Ada’s next presence on Bo’s screen',
    );
    assert.equal(await zoom(bo), '100%', 'Bo’s own zoom, no longer Ada’s');
    await ada.keyboard.press('-');
  });

  it('the “Following” banner stops following', async () => {
    await adaSeenByBo();
    await bo.getByRole('button', { name: /^Follow Ada/ }).click();
    const banner = bo.getByRole('status').filter({ hasText: 'Following Ada' });
    await banner.getByRole('button', { name: 'Stop following' }).click();
    await banner.waitFor({ state: 'detached' });
    assert.equal(await bo.getByRole('button', { name: /^Follow Ada/, pressed: true }).count(), 0);
    // Stopped means stopped: Ada's next zoom leaves Bo's view alone.
    const zoom = (p: Page) => p.getByRole('button', { name: 'Reset zoom' }).textContent();
    const mine = await zoom(bo);
    const cursor = bo.locator('[data-cursor-name="Ada"]');
    const before = await cursor.getAttribute('style');
    await canvas(ada).focus();
    await ada.keyboard.press('+');
    await ada.mouse.move(540, 320, { steps: 3 });
    await until(async () => (await cursor.getAttribute('style')) !== before, 'Ada’s next presence');
    assert.equal(await zoom(bo), mine);
    await ada.keyboard.press('-');
  });

  it('undo in one undoes only that person’s own edit', async () => {
    await place(ada, 'Rectangle', 700, 250);
    await place(bo, 'Ellipse', 900, 550);
    for (const p of [ada, bo]) {
      await until(
        async () => (await shapes(p, 'rect').count()) === 1 && (await shapes(p, 'ellipse').count()) === 1,
        'both shapes',
      );
    }
    await canvas(ada).focus();
    await ada.keyboard.press('Control+z');
    for (const p of [ada, bo]) {
      await until(async () => (await shapes(p, 'rect').count()) === 0, 'Ada’s rectangle undone');
      assert.equal(await shapes(p, 'ellipse').count(), 1, 'Bo’s ellipse stays');
    }
    await ada.keyboard.press('Control+Shift+z');
    await until(async () => (await shapes(bo, 'rect').count()) === 1, 'redo reaches Bo');
  });

  it('edits made offline survive a reload and converge when back online', async () => {
    await writeOfflineAndReload(bo, boContext, boardId, 'Written offline', { x: 250, y: 200 });
    await waitStatus(bo, 'offline');
    assert.equal(
      (await stickyText(ada).allTextContents()).includes('Written offline'),
      false,
      'not sent while offline',
    );

    await boContext.setOffline(false);
    await waitStatus(bo, 'live');
    await until(
      async () => (await stickyText(ada).allTextContents()).includes('Written offline'),
      'the offline edit on Ada’s screen',
    );
    const a = (await stickyText(ada).allTextContents()).sort();
    const b = (await stickyText(bo).allTextContents()).sort();
    assert.deepEqual(a, b);
  });
});
