// "All changes saved" that is true (docs/api.md §4), in Chromium against a real server whose PostgreSQL
// Store sits behind a TCP proxy the test can cut: after an edit the status shows "Saving…" and
// then "All changes saved"; with the Store cut off it stays "Saving…" (the server has the edit,
// the Store does not) and leaving the page asks first; when the Store returns it reaches "All
// changes saved", and the Store holds every edit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Dialog } from 'playwright-core';
import { storedShapes } from '../testing/clients.ts';
import { type CutStore, cuttablePostgres } from '../testing/cutStore.ts';
import type { TestServer } from '../testing/server.ts';
import { skipUnless } from '../testing/services.ts';
import { artifacts, createBoard, launch, newUser, place, shapes, startApp, until } from './helpers.ts';

describe('all changes saved', { skip: await skipUnless('postgres') }, () => {
  let cut: CutStore;
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    cut = await cuttablePostgres();
    browser = await launch();
    server = await startApp({}, { store: cut.store });
  });
  after(async () => {
    cut?.proxy.reconnect();
    await browser?.close();
    await server?.close();
    await cut?.close();
  });

  it('shows Saving… until the Store has the edit, stays there while the Store is cut off, and asks before leaving', async () => {
    const { page } = await newUser({ browser, server }, 'Saver');
    const boardId = await createBoard(page, 'Saving');
    const saved = page.locator('[role="status"] [data-saved]');
    await saved.waitFor();
    // Every value the indicator takes, in order, however briefly.
    // (A string: functions compiled by tsx carry helpers the page does not have.)
    await page.evaluate(`{
      const seen = [];
      window.savedSeen = seen;
      const target = document.querySelector('[role="status"]');
      const record = () => {
        const value = target.querySelector('[data-saved]')?.getAttribute('data-saved');
        if (value && seen.at(-1) !== value) seen.push(value);
      };
      record();
      new MutationObserver(record).observe(target, { subtree: true, attributes: true, childList: true });
    }`);
    const seen = () => page.evaluate(() => (window as unknown as { savedSeen: string[] }).savedSeen);

    await place(page, 'Sticky note', 400, 300);
    await page.locator('[data-saved="saved"]').waitFor();
    const first = await seen();
    assert.deepEqual(first.slice(-2), ['saving', 'saved'], `indicator went ${first.join(' → ')}`);
    assert.equal(await saved.textContent(), 'All changes saved');
    const storedFirst = await storedShapes(cut.direct, boardId);
    assert.ok(storedFirst.includes('"sticky"'), 'the Store has the sticky once it says saved');

    // The Store goes away: the server still receives the edit, but cannot store it.
    cut.proxy.disconnect();
    await place(page, 'Rectangle', 700, 300);
    await page.locator('[data-saved="saving"]').waitFor();
    await until(async () => {
      const room = server.app.rooms.get(boardId);
      return room !== undefined && room.doc.getMap('shapes').size === 2;
    }, 'the server has the rectangle');
    await until(
      async () =>
        (await server.app.metrics.registry.metrics()).includes('tandem_store_errors_total{op="append"}'),
      'a write to the Store failed',
    );
    assert.equal(await saved.textContent(), 'Saving…', 'not saved while the Store is cut off');
    assert.equal(await shapes(page).count(), 2);
    await page.screenshot({ path: `${artifacts}/saved-store-cut-off.png` });

    // Leaving now asks first (the person stays).
    const dialog = new Promise<Dialog>((resolve) => page.once('dialog', resolve));
    await page.close({ runBeforeUnload: true });
    const asked = await dialog;
    assert.equal(asked.type(), 'beforeunload');
    await asked.dismiss();
    assert.equal(page.isClosed(), false);
    assert.equal(await saved.textContent(), 'Saving…');

    // The Store returns: the retry stores the rectangle and the answer comes.
    cut.proxy.reconnect();
    await page.locator('[data-saved="saved"]').waitFor({ timeout: 60_000 });
    assert.equal(await saved.textContent(), 'All changes saved');
    await page.screenshot({ path: `${artifacts}/saved-after-store-returns.png` });
    const stored = await storedShapes(cut.direct, boardId);
    assert.ok(stored.includes('"sticky"') && stored.includes('"rect"'), 'the Store has both shapes');

    // Nothing unconfirmed: leaving does not ask.
    let askedAgain = false;
    page.on('dialog', (d) => {
      askedAgain = true;
      void d.dismiss();
    });
    await page.close({ runBeforeUnload: true });
    await until(async () => page.isClosed(), 'the page closed');
    assert.equal(askedAgain, false);
  });
});
