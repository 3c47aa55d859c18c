// One person or two at the editor: the smaller bugs found in trials (a note deleted under the typist,
// the Export menu and Escape, the status when the server is down) and the basics users expect.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  boardArea,
  createBoard,
  launch,
  newUser,
  place,
  shapes,
  sharedBoard,
  startApp,
  until,
  withApp,
} from './helpers.ts';

const pressed = (page: Page, name: string) => page.getByRole('button', { name, exact: true, pressed: true });

describe('editor basics', () => {
  let ada: Page;
  let bo: Page;

  const app = withApp();
  before(async () => {
    ada = (await newUser(app, 'Ada')).page;
    bo = (await newUser(app, 'Bo')).page;
    await sharedBoard(ada, 'Basics', { editors: [bo] });
  });

  it('a note deleted under the typist: the editor closes with a notice, letters are not shortcuts', async () => {
    await place(ada, 'Sticky note', 400, 300);
    await ada.getByLabel('Shape text').pressSequentially('Typing here');
    await until(async () => (await shapes(bo, 'sticky').count()) === 1, 'note on Bo');
    await bo.getByRole('button', { name: 'Select', exact: true }).click();
    await shapes(bo, 'sticky').click();
    await bo.keyboard.press('Delete');
    await until(async () => (await shapes(ada, 'sticky').count()) === 0, 'deleted on Ada');
    await ada.getByText('Someone else deleted the note you were typing in.').waitFor();
    // Ada keeps typing: N (sticky), R (rectangle) and E (eraser) must not switch tools.
    await ada.keyboard.type('nre more');
    await pressed(ada, 'Select').waitFor();
    assert.equal(await ada.getByRole('toolbar', { name: 'Selection' }).count(), 0, 'no panel over nothing');
    // A click ends the guard: shortcuts work again.
    await boardArea(ada).click({ position: { x: 700, y: 600 } });
    await ada.keyboard.press('r');
    await pressed(ada, 'Rectangle').waitFor();
    await ada.keyboard.press('Escape');
  });

  it('a message stays while the pointer is on it, and leaves by itself once it is not', async () => {
    const file = join(tmpdir(), `tandem-basics-notice-${process.pid}.json`);
    const base = { rotation: 0, color: 'yellow', createdBy: 'x', w: 200, h: 200 };
    writeFileSync(
      file,
      JSON.stringify({ version: 1, shapes: [{ ...base, id: 'n', type: 'sticky', x: 900, y: 900, z: 'a0' }] }),
    );
    await ada.getByLabel('Import JSON file').setInputFiles(file);
    const notice = ada.locator('.toast', { hasText: 'Imported 1 shape.' });
    await notice.waitFor();
    await notice.hover();
    // Its reading time is 4 s (noticeMs); held under the pointer it is still there well after (and
    // after the 8 s every message used to stay).
    await ada.waitForTimeout(9000);
    assert.equal(await notice.count(), 1, 'held while the pointer is on it');
    await ada.mouse.move(700, 600);
    await notice.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('the Export menu closes on Escape and on a press outside', async () => {
    await ada.getByRole('button', { name: 'Export' }).click();
    await ada.getByRole('menu').waitFor();
    await ada.keyboard.press('Escape');
    await until(async () => (await ada.getByRole('menu').count()) === 0, 'closed by Escape');
    await ada.getByRole('button', { name: 'Export' }).click();
    await ada.getByRole('menu').waitFor();
    await boardArea(ada).click({ position: { x: 900, y: 500 } });
    await until(async () => (await ada.getByRole('menu').count()) === 0, 'closed by a press outside');
  });
});

describe('the server going away', () => {
  it('says the server cannot be reached, not that the person is offline', async () => {
    // The browser first: a missing Chromium then fails the test before a server is left running.
    const browser = await launch();
    const server = await startApp();
    try {
      const { page } = await newUser({ browser, server }, 'Sol');
      await createBoard(page, 'Down');
      await server.close();
      await page
        .getByRole('status')
        .getByText(/Cannot reach the server/)
        .waitFor();
      assert.equal(
        await page
          .getByRole('status')
          .getByText(/You are offline/)
          .count(),
        0,
      );
      await page.screenshot({ path: join(artifacts, 'server-down.png') });
    } finally {
      await browser.close();
    }
  });
});
