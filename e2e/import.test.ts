// A large import (20,000 shapes, ~5 MB, more than MAX_MESSAGE_BYTES) travels in pieces: progress
// is shown, the connection stays live the whole time, a second person sees every shape, and the
// Store holds them all. An import made offline reaches the server in pieces on reconnect too.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { storedDoc } from '../testing/clients.ts';
import type { TestServer } from '../testing/server.ts';
import {
  artifacts,
  canvas,
  createBoard,
  gridBoardFile,
  newUser,
  sharedBoard,
  until,
  waitStatus,
  withApp,
} from './helpers.ts';

async function storedShapes(server: TestServer, boardId: string): Promise<number> {
  const doc = await storedDoc(server.store, boardId);
  return doc.getMap('shapes').size;
}

/** Records every status the page shows, from now on. */
async function watchStatus(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const el = document.querySelector('[role="status"][data-status]')!;
    const seen: string[] = [el.getAttribute('data-status')!];
    (window as unknown as { seenStatus: string[] }).seenStatus = seen;
    new MutationObserver(() => seen.push(el.getAttribute('data-status')!)).observe(el, {
      attributes: true,
      attributeFilter: ['data-status'],
    });
  });
  return () => page.evaluate(() => (window as unknown as { seenStatus: string[] }).seenStatus);
}

const count = async (page: Page) => Number(await canvas(page).getAttribute('data-shape-count'));

describe('large imports', () => {
  const app = withApp();

  it('20,000 shapes reach a second person and the Store, with progress, the page live throughout', async () => {
    const ada = (await newUser(app, 'Ada')).page;
    const bo = (await newUser(app, 'Bo')).page;
    const boardId = await sharedBoard(ada, 'Big import', { editors: [bo] });

    const file = gridBoardFile(20_000, { perRow: 200, text: (i) => `Imported note number ${i}` });
    assert.ok(statSync(file).size > 2 * 1024 * 1024, 'the file is over MAX_MESSAGE_BYTES');
    const seen = await watchStatus(ada);
    // Every progress value the page shows, as it shows it.
    await ada.evaluate(() => {
      const values: number[] = [];
      (window as unknown as { progressSeen: number[] }).progressSeen = values;
      new MutationObserver(() => {
        const bar = document.querySelector('progress[aria-label="Importing shapes"]');
        if (bar) values.push(Number(bar.getAttribute('aria-valuenow')));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await ada.getByLabel('Import JSON file').setInputFiles(file);
    await ada.getByText('Imported 20000 shapes.').waitFor({ timeout: 120_000 });
    await ada.screenshot({ path: join(artifacts, 'import-done.png') });
    const progress = await ada.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    assert.ok(
      progress.filter((v) => v > 0 && v < 20_000).length >= 5,
      `progress shown along the way: ${progress.slice(0, 10).join(', ')}…`,
    );
    assert.equal(await count(ada), 20_000);

    await until(async () => (await count(bo)) === 20_000, 'every shape on Bo’s screen', 120_000);
    await until(
      async () => (await storedShapes(app.server, boardId)) === 20_000,
      'every shape stored',
      60_000,
    );
    assert.deepEqual([...new Set(await seen())], ['live'], 'the connection never left live');
    // The view moved to the import: shapes are on screen.
    assert.ok(Number(await canvas(ada).getAttribute('data-rendered-count')) > 0);

    // A reload opens live, with everything, and Undo still works on new edits.
    await ada.reload();
    await waitStatus(ada, 'live');
    await until(async () => (await count(ada)) === 20_000, 'all shapes after reload', 60_000);
  });

  it('an import made offline reaches the server in pieces when the connection returns', async () => {
    const { page, context } = await newUser(app, 'Cy');
    const boardId = await createBoard(page, 'Offline import');
    await context.setOffline(true);
    await waitStatus(page, 'offline');
    const file = gridBoardFile(12_000, { perRow: 150, text: (i) => `Offline note ${i}` });
    await page.getByLabel('Import JSON file').setInputFiles(file);
    await page.getByText('Imported 12000 shapes.').waitFor({ timeout: 120_000 });
    await context.setOffline(false);
    await waitStatus(page, 'live');
    await until(
      async () => (await storedShapes(app.server, boardId)) === 12_000,
      'stored after reconnect',
      90_000,
    );
    // And it stays live: nothing was refused.
    await waitStatus(page, 'live');
  });
});
