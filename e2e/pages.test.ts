// Pages (docs/api.md §17) in Chromium, two people on a three-page board: Ana adds and renames
// pages and Ben sees them appear; Ana follows Ben across pages; undoing a page's deletion brings
// it back for both; an edit made offline on page 2 survives a reload. A page the board does not
// list leaves no local copy behind, unless that copy holds edits.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import * as Y from 'yjs';
import { addShape } from '../testing/clients.ts';
import {
  artifacts,
  createBoard,
  exported,
  newUser,
  pageNames,
  pathOf,
  place,
  sharedBoard,
  stickyText,
  storedUpdates,
  until,
  waitStatus,
  withApp,
  writeOfflineAndReload,
} from './helpers.ts';

/** Drags the Pages panel's row of `name` above the first row. */
const dragPageToTop = (page: Page, name: string) =>
  page
    .locator('.page-row', { hasText: name })
    .dragTo(page.locator('.page-row').first(), { targetPosition: { x: 20, y: 4 } });

describe('pages, two people', () => {
  let ana: Page;
  let ben: Page;
  let benContext: BrowserContext;
  let boardId: string;
  const app = withApp();

  before(async () => {
    ana = (await newUser(app, 'Ana')).page;
    const b = await newUser(app, 'Ben', { guest: true, offlineShell: true });
    ben = b.page;
    benContext = b.context;
    boardId = await sharedBoard(ana, 'Quarter', { editors: [ben] });
  });

  async function addPage(name: string) {
    await ana.getByRole('button', { name: 'Add page' }).click();
    const field = ana.getByLabel('Page name');
    await field.fill(name);
    await field.press('Enter');
    await until(async () => (await pageNames(ana)).includes(name), `${name} in Ana’s list`);
  }

  it('Ana adds and renames pages; Ben sees them appear', async () => {
    await ana.getByRole('button', { name: 'Pages' }).click();
    await ben.getByRole('button', { name: 'Pages' }).click();
    await addPage('Planning');
    await waitStatus(ana, 'live');
    assert.match(pathOf(ana), new RegExp(`^/b/${boardId}/p/[A-Za-z0-9_-]+$`), 'the URL follows the page');
    await addPage('Architecture');
    // Renamed afterwards, from the pencil.
    await ana.getByRole('button', { name: 'Rename Page 1' }).click();
    await ana.getByLabel('Page name').fill('Retro');
    await ana.getByLabel('Page name').press('Enter');
    await until(
      async () => (await pageNames(ben)).join(',') === 'Retro,Planning,Architecture',
      'the three pages in Ben’s list',
    );
    await ana.screenshot({ path: `${artifacts}/pages-panel.png` });
  });

  it('each page has its own content, and Ana follows Ben across pages', async () => {
    await ben.locator('.pages-panel .page-name', { hasText: 'Planning' }).click();
    await waitStatus(ben, 'live');
    await place(ben, 'Sticky note', 400, 300);
    await ben.keyboard.type('On planning');
    await ben.keyboard.press('Escape');

    await ana.locator('.pages-panel .page-name', { hasText: 'Retro' }).click();
    await waitStatus(ana, 'live');
    assert.equal(await stickyText(ana).count(), 0, 'the first page does not show page 2’s note');

    await ana.getByRole('button', { name: /^Follow Ben/ }).click();
    await until(async () => pathOf(ana) === pathOf(ben), 'Ana is taken to Ben’s page');
    await until(
      async () => (await stickyText(ana).allTextContents()).includes('On planning'),
      'Ben’s note on Ana’s screen',
    );
    await ben.locator('.pages-panel .page-name', { hasText: 'Architecture' }).click();
    await until(async () => pathOf(ana) === pathOf(ben), 'Ana follows Ben to Architecture');
    await ana.locator('.follow-banner').waitFor();
    await ana.screenshot({ path: `${artifacts}/pages-following.png` });
    await ana.getByRole('button', { name: 'Stop following' }).click();
    // Both on Architecture: their avatars stack, so the page's name is not cut short beside
    // them (it was, at about ten characters), and the full name is its tooltip.
    const row = ana.locator('.pages-panel .page-row', { hasText: 'Architecture' });
    await until(
      async () => (await row.locator('.page-people .avatar').count()) === 2,
      'two avatars on the row',
    );
    const name = row.locator('.page-name');
    assert.equal(await name.getAttribute('title'), 'Architecture');
    const cut = await name.evaluate((el) => el.scrollWidth > el.clientWidth);
    await row.screenshot({ path: `${artifacts}/pages-row-two-people.png` });
    assert.equal(cut, false, 'the name fits beside two avatars');
  });

  it('undoing a page deletion brings it back for both', async () => {
    await ben.locator('.pages-panel .page-name', { hasText: 'Planning' }).click();
    await ana.locator('.pages-panel .page-name', { hasText: 'Retro' }).click();
    // A page not open here: its content is not known, so Ana is asked first. Cancel keeps it.
    await ana.getByRole('button', { name: 'Delete Architecture' }).click();
    const asked = ana.getByRole('alertdialog', { name: 'Delete “Architecture”?' });
    await asked.waitFor();
    assert.equal(
      await ana.locator(`[id="${await asked.getAttribute('aria-describedby')}"]`).textContent(),
      'Everything on it is deleted with it. Undo in the Pages panel brings it back; later, the board’s owner can restore it from “Recently deleted”.',
    );
    await ana.screenshot({ path: `${artifacts}/pages-delete-asked.png` });
    await asked.getByRole('button', { name: 'Cancel', exact: true }).click();
    await asked.waitFor({ state: 'detached' });
    assert.deepEqual(await pageNames(ana), ['Retro', 'Planning', 'Architecture'], 'kept on Cancel');
    await ana.getByRole('button', { name: 'Delete Architecture' }).click();
    await asked.getByRole('button', { name: 'Delete page', exact: true }).click();
    await until(async () => !(await pageNames(ben)).includes('Architecture'), 'deleted on Ben’s screen');
    await ana.getByRole('button', { name: 'Undo page deletion' }).click();
    await ana.screenshot({ path: `${artifacts}/pages-undone.png` });
    await until(
      async () => (await pageNames(ben)).join(',') === 'Retro,Planning,Architecture',
      'back on Ben’s screen, in its place',
    );
    assert.deepEqual(await pageNames(ana), ['Retro', 'Planning', 'Architecture']);
  });

  it('Ctrl+Z undoes page-list changes (add, rename, delete) like the panel’s Undo, and Ctrl+Y redoes them', async () => {
    const names = 'Retro,Planning,Architecture';
    // Rename, then delete: Ctrl+Z takes them back latest first, for both people.
    await ana.getByRole('button', { name: 'Rename Planning' }).click();
    await ana.getByLabel('Page name').fill('Roadmap');
    await ana.getByLabel('Page name').press('Enter');
    await ana.getByRole('button', { name: 'Delete Architecture' }).click();
    await ana.getByRole('alertdialog').getByRole('button', { name: 'Delete page', exact: true }).click();
    await until(
      async () => (await pageNames(ben)).join(',') === 'Retro,Roadmap',
      'renamed and deleted for Ben',
    );
    await ana.locator('.canvas').focus();
    await ana.keyboard.press('Control+z');
    await until(
      async () => (await pageNames(ben)).join(',') === 'Retro,Roadmap,Architecture',
      'deletion undone',
    );
    await ana.keyboard.press('Control+z');
    await until(async () => (await pageNames(ben)).join(',') === names, 'rename undone');
    await ana.keyboard.press('Control+y');
    await until(
      async () => (await pageNames(ana)).join(',') === 'Retro,Roadmap,Architecture',
      'rename redone',
    );
    await ana.keyboard.press('Control+z');
    // An added page goes away with Ctrl+Z too.
    await until(async () => (await pageNames(ana)).join(',') === names, 'rename undone again');
    await ana.getByRole('button', { name: 'Add page' }).click();
    await ana.getByLabel('Page name').press('Enter');
    await until(async () => (await pageNames(ben)).length === 4, 'a fourth page for Ben');
    await ana.locator('.pages-panel .page-name', { hasText: 'Retro' }).click();
    await ana.locator('.canvas').focus();
    await ana.keyboard.press('Control+z');
    await until(async () => (await pageNames(ben)).join(',') === names, 'the added page undone');
  });

  it('an edit made offline on page 2 survives a reload', async () => {
    await waitStatus(ben, 'live');
    const planning = pathOf(ben);
    const key = `${boardId}/${planning.split('/').pop()}`;
    await writeOfflineAndReload(ben, benContext, key, 'Offline on page 2', { x: 700, y: 400 });
    assert.equal(pathOf(ben), planning, 'still on page 2');
    await benContext.setOffline(false);
    await waitStatus(ben, 'live');
    await ana.locator('.pages-panel .page-name', { hasText: 'Planning' }).click();
    await until(
      async () => (await stickyText(ana).allTextContents()).includes('Offline on page 2'),
      'the offline edit on Ana’s screen',
    );
    await ana.setViewportSize({ width: 390, height: 844 });
    await ana.screenshot({ path: `${artifacts}/pages-phone.png` });
  });

  it('Board as JSON carries every page, and Import JSON brings them back as pages', async () => {
    await ana.setViewportSize({ width: 1280, height: 800 });
    await waitStatus(ana, 'live');
    const data = JSON.parse((await exported(ana, 'Board as JSON')).toString('utf8')) as {
      pages?: { name: string; shapes: { text?: string }[] }[];
    };
    assert.deepEqual(
      data.pages?.map((p) => p.name),
      ['Retro', 'Planning', 'Architecture'],
      'every page in the export, in order',
    );
    const texts = (i: number) => JSON.stringify(data.pages?.[i]?.shapes ?? []);
    assert.match(texts(1), /On planning/, 'page 2 carries its notes although it is not shown');
    assert.match(texts(1), /Offline on page 2/);
    const file = join(tmpdir(), `tandem-pages-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify(data));
    await ana.goto('/boards');
    await createBoard(ana, 'Imported quarter');
    await ana.getByLabel('Import JSON file').setInputFiles(file);
    await ana.getByText(/Imported \d+ shapes? and 2 more pages/).waitFor({ timeout: 60_000 });
    if (!(await ana.locator('.pages-panel').isVisible()))
      await ana.getByRole('button', { name: 'Pages' }).click();
    await until(
      async () => (await pageNames(ana)).join(',') === 'Retro,Planning,Architecture',
      'the three pages in the new board',
    );
    await ana.locator('.pages-panel .page-name', { hasText: 'Planning' }).click();
    await waitStatus(ana, 'live');
    await until(async () => {
      const notes = await stickyText(ana).allTextContents();
      return notes.includes('On planning') && notes.includes('Offline on page 2');
    }, 'page 2’s notes on the imported board');
    await ana.screenshot({ path: `${artifacts}/pages-imported.png` });
  });

  it('with the Pages panel open, a selected note’s style panel is beside it, not under it', async () => {
    await ana.getByRole('region', { name: 'Pages' }).waitFor();
    await ana.getByRole('button', { name: 'Select', exact: true }).click();
    const note = await ana
      .locator('[data-shape-type="sticky"]', { has: ana.locator('.shape-text', { hasText: 'On planning' }) })
      .boundingBox();
    assert.ok(note);
    await ana.mouse.click(note.x + note.width / 2, note.y + note.height / 2);
    const style = ana.getByRole('toolbar', { name: 'Selection' });
    await style.waitFor();
    const pages = await ana.getByRole('region', { name: 'Pages' }).boundingBox();
    const panel = await style.boundingBox();
    assert.ok(pages && panel);
    const apart =
      panel.x >= pages.x + pages.width ||
      pages.x >= panel.x + panel.width ||
      panel.y >= pages.y + pages.height ||
      pages.y >= panel.y + panel.height;
    await ana.screenshot({ path: `${artifacts}/pages-style-panel.png` });
    assert.ok(
      apart,
      `the style panel ${JSON.stringify(panel)} clear of the Pages panel ${JSON.stringify(pages)}`,
    );
  });

  it('the Pages panel copies a link to a page, and the link opens that page', async () => {
    const board = pathOf(ana).split('/')[2];
    await ana.getByRole('button', { name: 'Copy link to Architecture' }).click();
    await until(
      async () =>
        (await ana.getByRole('button', { name: 'Copy link to Architecture' }).getAttribute('title')) ===
        'Link copied',
      'the link copied',
    );
    const link = await ana.evaluate(() => navigator.clipboard.readText());
    assert.match(link, new RegExp(`^${app.server.url}/b/${board}/p/[A-Za-z0-9_-]+$`));
    const other = await ana.context().newPage();
    await other.goto(link);
    await waitStatus(other, 'live');
    await other.getByRole('button', { name: 'Pages' }).click();
    await until(
      async () =>
        (await other.locator('.pages-panel .page-name[aria-current="page"]').textContent()) ===
        'Architecture',
      'the linked page shown',
    );
    await other.close();
  });
});

describe('a page deleted under someone, and brought back after a reload', () => {
  const app = withApp();

  it('Ben is told who deleted which page; Ana, the owner, restores it from Recently deleted, whole', async () => {
    const ana = (await newUser(app, 'Ana')).page;
    const ben = (await newUser(app, 'Ben', { guest: true })).page;
    const boardId = await sharedBoard(ana, 'Ideas board', { editors: [ben] });
    await ana.getByRole('button', { name: 'Pages' }).click();
    await ana.getByRole('button', { name: 'Add page' }).click();
    await ana.getByLabel('Page name').fill('Ideas');
    await ana.getByLabel('Page name').press('Enter');
    await waitStatus(ana, 'live');
    await ana.locator('.pages-panel .page-name', { hasText: 'Page 1' }).click();
    await waitStatus(ana, 'live');

    await ben.getByRole('button', { name: 'Pages' }).click();
    await until(async () => (await pageNames(ben)).includes('Ideas'), 'Ideas in Ben’s list');
    await ben.locator('.pages-panel .page-name', { hasText: 'Ideas' }).click();
    await waitStatus(ben, 'live');
    const ideasPath = pathOf(ben);
    await place(ben, 'Sticky note', 400, 300);
    await ben.keyboard.type('Keep this');
    await ben.keyboard.press('Escape');
    await ben.getByText('All changes saved').waitFor();
    // An editor is not offered Recently deleted (the owner is).
    assert.equal(await ben.getByText(/^Recently deleted/).count(), 0);

    await ana.getByRole('button', { name: 'Delete Ideas' }).click();
    await ana.getByRole('alertdialog').getByRole('button', { name: 'Delete page', exact: true }).click();
    await until(async () => pathOf(ben) === `/b/${boardId}`, 'Ben taken to the first page');
    await ben
      .getByRole('status')
      .filter({ hasText: 'Ana deleted the page “Ideas”. The first page is shown.' })
      .waitFor();
    await ben.screenshot({ path: `${artifacts}/pages-deleted-by-ana.png` });

    // The page's link opened later (a reload, a link shared before) says who deleted it and when,
    // from the note in the first page's document, not just that the page is gone.
    const at = /at \d{1,2}:\d{2}(?: [AP]M)?, so/;
    await ben.goto(ideasPath);
    await until(async () => pathOf(ben) === `/b/${boardId}`, 'Ben taken to the first page from the link');
    const benTold = ben.getByRole('status').filter({ hasText: 'Ana deleted the page “Ideas”' });
    await benTold.waitFor();
    const benSentence = (await benTold.first().textContent()) ?? '';
    assert.match(benSentence, at, 'when');
    assert.match(benSentence, /so the first page is shown\.$/);
    assert.doesNotMatch(benSentence, /Recently deleted/, 'an editor cannot restore it');
    assert.equal(await ben.getByText('That page is no longer on the board').count(), 0);
    await ben.screenshot({ path: `${artifacts}/pages-deleted-link.png` });
    if (!(await ben.locator('.pages-panel').isVisible()))
      await ben.getByRole('button', { name: 'Pages' }).click();

    // After a reload Ana's Undo is gone; Recently deleted still has the page, with who deleted it.
    // Ana, the owner, opening the page's link is told she deleted it and where it can come back from.
    await ana.goto(ideasPath);
    await until(async () => pathOf(ana) === `/b/${boardId}`, 'Ana taken to the first page from the link');
    const anaTold = ana.getByRole('status').filter({ hasText: 'You deleted the page “Ideas”' });
    await anaTold.waitFor();
    assert.match(
      (await anaTold.first().textContent()) ?? '',
      /at \d{1,2}:\d{2}(?: [AP]M)?, so the first page is shown\. You can restore it from “Recently deleted” in the Pages panel\./,
    );
    await ana.screenshot({ path: `${artifacts}/pages-deleted-link-owner.png` });
    await waitStatus(ana, 'live');
    if (!(await ana.locator('.pages-panel').isVisible()))
      await ana.getByRole('button', { name: 'Pages' }).click();
    assert.equal(await ana.getByRole('button', { name: 'Undo page deletion' }).count(), 0);
    await ana.getByText('Recently deleted (1)').click();
    const row = ana.locator('.pages-recently-deleted li', { hasText: 'Ideas' });
    assert.equal((await row.textContent())?.includes('by you'), true, 'who deleted it');
    await ana.screenshot({ path: `${artifacts}/pages-recently-deleted.png` });
    await row.getByRole('button', { name: 'Restore Ideas' }).click();
    await until(async () => (await pageNames(ben)).includes('Ideas'), 'Ideas back in Ben’s list');
    assert.deepEqual(await pageNames(ana), ['Page 1', 'Ideas'], 'back in its place');
    assert.equal(await ana.getByText(/^Recently deleted/).count(), 0, 'no longer listed as deleted');
    await ben.locator('.pages-panel .page-name', { hasText: 'Ideas' }).click();
    await waitStatus(ben, 'live');
    await until(
      async () => (await stickyText(ben).allTextContents()).includes('Keep this'),
      'Ben’s note on the restored page',
    );
    // Each page has its own history, and the History panel says whose it shows.
    await ben.keyboard.press('Control+Alt+KeyH');
    await ben
      .getByRole('complementary', { name: 'Version history' })
      .getByText('History of this page, “Ideas”, only: each page has its own.')
      .waitFor();
    await ben.screenshot({ path: `${artifacts}/pages-history-scope.png` });
  });
});

describe('a page the board does not list', () => {
  const app = withApp();

  /** Writes a y-indexeddb copy named `name` holding `update`, as the client keeps one. */
  const seedCopy = (page: Page, name: string, update: Uint8Array) =>
    page.evaluate(
      ({ name, update }) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onupgradeneeded = () => {
            open.result.createObjectStore('updates', { autoIncrement: true });
            open.result.createObjectStore('custom');
          };
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const tx = db.transaction('updates', 'readwrite');
            tx.objectStore('updates').add(new Uint8Array(update));
            tx.oncomplete = () => {
              db.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
      { name, update: [...update] },
    );

  it('a link to a page no longer on the board opens the first page and says why', async () => {
    const { page } = await newUser(app, 'Vic');
    const boardId = await createBoard(page, 'Old links');
    await page.goto(`/b/${boardId}/p/gonePage01`);
    await until(async () => pathOf(page) === `/b/${boardId}`, 'the first page');
    await page
      .getByRole('status')
      .filter({ hasText: 'That page is no longer on the board, so its first page is shown.' })
      .waitFor();
    await waitStatus(page, 'live');
    await page.context().close();
  });

  it('links to a thread on a page since deleted open the thread on the first page', async () => {
    const { page } = await newUser(app, 'Wes');
    const boardId = await createBoard(page, 'Old threads');
    // A thread made on a page that is no longer on the board (deleted since).
    const threadId = await page.evaluate(async (id) => {
      const answer = await fetch(`/api/boards/${id}/threads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ anchor: { x: 40, y: 40 }, body: 'Still worth reading', pageId: 'gonePage02' }),
      });
      return ((await answer.json()) as { thread: { id: string } }).thread.id;
    }, boardId);
    // A mention's link (the first page, with the thread), and the address the thread's page had
    // while it was open there.
    for (const address of [
      `/b/${boardId}?thread=${threadId}`,
      `/b/${boardId}/p/gonePage02?thread=${threadId}`,
    ]) {
      await page.goto(address);
      await until(async () => pathOf(page) === `/b/${boardId}`, `the first page, from ${address}`);
      const card = page.locator(`section.thread-card[data-thread-id="${threadId}"]`);
      await card.getByText('Still worth reading').waitFor();
      await page
        .getByRole('status')
        .filter({ hasText: 'That page is no longer on the board, so its first page is shown.' })
        .waitFor();
    }
    await page.context().close();
  });

  it('leaves no IndexedDB copy of it behind, but keeps a copy that holds edits', async () => {
    const { page } = await newUser(app, 'Una');
    const boardId = await createBoard(page, 'Links');
    const copies = () => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));
    await until(async () => (await copies()).some((n) => n.endsWith(`:${boardId}`)), 'the first page’s copy');
    const first = (await copies()).find((n) => n.endsWith(`:${boardId}`))!;
    const copyOf = (pageId: string) => `${first}/${pageId}`;
    const landOnFirstPage = async (pageId: string) => {
      await page.goto(`/b/${boardId}/p/${pageId}`);
      await until(async () => pathOf(page) === `/b/${boardId}`, `from ${pageId} to the first page`);
      await waitStatus(page, 'live');
    };

    // A page added offline whose entry has not reached the server: refused like any unlisted page,
    // but its copy holds a note, which must survive until the page is listed.
    const offline = new Y.Doc();
    addShape(
      offline,
      'offline-note',
      { type: 'sticky', x: 0, y: 0, w: 200, h: 200, rotation: 0, color: 'yellow', z: 'a0', createdBy: 'u1' },
      'Made offline',
    );
    await seedCopy(page, copyOf('made-offline'), Y.encodeStateAsUpdate(offline));
    await landOnFirstPage('made-offline');

    // A mistyped link (a valid id the board does not list), and an id no page can have.
    for (const pageId of ['not-a-page', 'not.a.page']) {
      await landOnFirstPage(pageId);
      await until(async () => !(await copies()).includes(copyOf(pageId)), `no copy of ${pageId}`);
    }
    assert.ok((await copies()).includes(first), 'the first page’s copy stays');
    assert.ok((await copies()).includes(copyOf('made-offline')), 'the copy holding a note stays');
    assert.ok((await storedUpdates(page, `${boardId}/made-offline`)) >= 1, 'with its note');
  });
});

describe('leaving a page while typing in a note', () => {
  const app = withApp();

  it('the next page opens without saying someone deleted the note, and the note keeps its text', async () => {
    const { page } = await newUser(app, 'Ida');
    await createBoard(page, 'Notes in progress');
    const deleted = page.getByText('Someone else deleted the note you were typing in.');
    await page.getByRole('button', { name: 'Pages' }).click();

    // Still typing on the first page when Add page is pressed: the new page is shown.
    await place(page, 'Sticky note', 400, 350);
    await page.keyboard.type('First page note');
    await page.getByRole('button', { name: 'Add page' }).click();
    await page.getByLabel('Page name').press('Enter');
    await until(async () => (await pageNames(page)).join() === 'Page 1,Page 2', 'the second page listed');
    await waitStatus(page, 'live');
    assert.equal(await stickyText(page).count(), 0, 'the second page is shown, empty');
    assert.equal(await deleted.count(), 0, 'no one deleted anything');

    // Typing on the second page, back to the first from the panel (the first page's document is
    // open all along, so its view comes in the same render).
    await place(page, 'Sticky note', 400, 350);
    await page.keyboard.type('Second page note');
    await page.locator('.pages-panel .page-name', { hasText: 'Page 1' }).click();
    await until(
      async () => (await stickyText(page).allTextContents()).join() === 'First page note',
      'the first page shown with its note',
    );
    await waitStatus(page, 'live');
    await page.screenshot({ path: `${artifacts}/pages-left-while-typing.png` });
    assert.equal(await deleted.count(), 0, 'no one deleted anything');
    // Nothing is left being typed in: keys are shortcuts again (N picks the Sticky note tool).
    await page.keyboard.press('n');
    await until(
      async () =>
        (await page
          .getByRole('button', { name: 'Sticky note', exact: true })
          .getAttribute('aria-pressed')) === 'true',
      'N picks the Sticky note tool',
    );
    await page.locator('.pages-panel .page-name', { hasText: 'Page 2' }).click();
    await until(
      async () => (await stickyText(page).allTextContents()).join() === 'Second page note',
      'the second page’s note kept its text',
    );
    assert.equal(await deleted.count(), 0);
    await page.context().close();
  });
});

describe('a page’s name stays with the page', () => {
  const app = withApp();

  it('reordering renames nothing, in the panel, Find and exports; Duplicate names the copy after the page', async () => {
    const { page } = await newUser(app, 'Rae');
    await createBoard(page, 'Renamed nothing');
    await page.getByRole('button', { name: 'Pages', exact: true }).click();
    // The trial's steps: Add page (Enter) twice, a note on Page 1, "Page 3" dragged to the top.
    for (const name of ['Page 2', 'Page 3']) {
      await page.getByRole('button', { name: 'Add page' }).click();
      await page.getByLabel('Page name').press('Enter');
      await until(async () => (await pageNames(page)).includes(name), `${name} listed`);
    }
    assert.deepEqual(await pageNames(page), ['Page 1', 'Page 2', 'Page 3']);
    await page.locator('.pages-panel .page-name', { hasText: 'Page 1' }).click();
    await waitStatus(page, 'live');
    await place(page, 'Sticky note', 500, 350);
    await page.keyboard.type('The work');
    await page.keyboard.press('Escape');
    const current = page.locator('.pages-panel .page-name[aria-current="page"]');
    await dragPageToTop(page, 'Page 3');
    await until(
      async () => (await pageNames(page)).join() === 'Page 3,Page 1,Page 2',
      'Page 3 at the top, every page under its own name',
    );
    assert.equal(await current.textContent(), 'Page 1', 'the page holding the note is still Page 1');
    assert.deepEqual(await stickyText(page).allTextContents(), ['The work']);
    await page.screenshot({ path: `${artifacts}/pages-reordered.png` });

    // The other places that name a page say the same: Find's other pages, and the exports.
    await page.locator('.pages-panel .page-name', { hasText: 'Page 3' }).click();
    await waitStatus(page, 'live');
    await page.locator('.canvas').focus();
    await page.keyboard.press('Control+f');
    await page.keyboard.type('the work');
    const others = page
      .getByRole('search', { name: 'Find on this page' })
      .getByRole('list', { name: 'Matches on other pages' });
    await others.waitFor();
    assert.deepEqual(await others.getByRole('button').allTextContents(), ['Page 1 — 1 match']);
    await page.keyboard.press('Escape');
    const svg = (await exported(page, 'All pages as SVG')).toString('utf8');
    const headings = ['>Page 3<', '>Page 1<', '>Page 2<'].map((h) => svg.indexOf(h));
    assert.ok(
      headings.every((at, i) => at > 0 && (i === 0 || at > headings[i - 1]!)),
      `the headings in the list's order: ${headings.join(', ')}`,
    );
    assert.ok(
      svg.indexOf('>Page 1<') < svg.indexOf('The work') && svg.indexOf('The work') < svg.indexOf('>Page 2<'),
    );

    // Duplicate names the copy after the page it copies, and the name stays after a move.
    await page.getByRole('button', { name: 'Duplicate Page 1' }).click();
    await until(
      async () => (await pageNames(page)).join() === 'Page 3,Page 1,Page 1 copy,Page 2',
      'the copy after Page 1',
    );
    await dragPageToTop(page, 'Page 2');
    await until(
      async () => (await pageNames(page)).join() === 'Page 2,Page 3,Page 1,Page 1 copy',
      'moved again, the names unchanged',
    );

    await page.context().close();
  });

  it('deleting asks only when it takes something: an empty open page goes at once, a page with notes asks, the main page cannot', async () => {
    const { page } = await newUser(app, 'Del');
    await createBoard(page, 'Deletions');
    await page.getByRole('button', { name: 'Pages', exact: true }).click();
    // The main page: its button is there, disabled, and says why (it was an unexplained gap).
    const keep = page.getByRole('button', { name: 'Delete Page 1' });
    assert.equal(await keep.getAttribute('aria-disabled'), 'true');
    assert.equal(
      await keep.getAttribute('title'),
      'The board’s main page, which its link opens, cannot be deleted.',
    );
    await keep.click({ force: true });
    assert.equal(await page.getByRole('alertdialog').count(), 0);
    assert.deepEqual(await pageNames(page), ['Page 1']);
    // An empty page, open here, nobody else on it: deleted at once, Undo at hand.
    await page.getByRole('button', { name: 'Add page' }).click();
    await page.getByLabel('Page name').press('Enter');
    await until(async () => (await pageNames(page)).includes('Page 2'), 'Page 2 listed');
    await waitStatus(page, 'live');
    await page.getByRole('button', { name: 'Delete Page 2' }).click();
    await until(async () => (await pageNames(page)).join() === 'Page 1', 'Page 2 deleted without a question');
    assert.equal(await page.getByRole('alertdialog').count(), 0);
    // A page with a note, open here: the question counts what goes.
    await page.getByRole('button', { name: 'Add page' }).click();
    await page.getByLabel('Page name').press('Enter');
    await until(async () => (await pageNames(page)).includes('Page 2'), 'a new Page 2');
    await waitStatus(page, 'live');
    await place(page, 'Sticky note', 500, 350);
    await page.keyboard.type('Keep me');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Delete Page 2' }).click();
    const asked = page.getByRole('alertdialog', { name: 'Delete “Page 2”?' });
    await asked.waitFor();
    assert.equal(
      await page.locator(`[id="${await asked.getAttribute('aria-describedby')}"]`).textContent(),
      'It holds 1 shape. Undo in the Pages panel brings it back; later, the board’s owner can restore it from “Recently deleted”.',
    );
    await asked.getByRole('button', { name: 'Delete page', exact: true }).click();
    await until(async () => (await pageNames(page)).join() === 'Page 1', 'deleted once confirmed');
  });

  it('renaming a page to spaces is refused in place, and the page keeps its name', async () => {
    const { page } = await newUser(app, 'Sol');
    await createBoard(page, 'Blank names');
    await page.getByRole('button', { name: 'Pages', exact: true }).click();
    await page.getByRole('button', { name: 'Add page' }).click();
    await page.getByLabel('Page name').fill('Page 3');
    await page.getByLabel('Page name').press('Enter');
    await until(async () => (await pageNames(page)).join() === 'Page 1,Page 3', 'two pages');
    await page.getByRole('button', { name: 'Rename Page 3' }).click();
    const field = page.getByLabel('Page name');
    assert.equal(await field.inputValue(), 'Page 3', 'the field holds the page’s name');
    await field.fill('   ');
    await field.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Enter a page name.' }).waitFor();
    assert.equal(await field.isVisible(), true, 'the field stays open');
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    await page.screenshot({ path: `${artifacts}/pages-blank-name.png` });
    await field.fill('Ideas');
    assert.equal(
      await page.getByText('Enter a page name.').count(),
      0,
      'the sentence goes as a name is typed',
    );
    await field.fill(' ');
    await field.press('Escape');
    await until(async () => (await field.count()) === 0, 'the field closed');
    assert.deepEqual(await pageNames(page), ['Page 1', 'Page 3'], 'Page 3 kept its name');
    // Leaving a blank field gives the edit up too.
    await page.getByRole('button', { name: 'Rename Page 1' }).click();
    await field.fill('');
    await field.blur();
    await until(async () => (await field.count()) === 0, 'the field closed');
    assert.deepEqual(await pageNames(page), ['Page 1', 'Page 3'], 'Page 1 kept its name');
    await page.context().close();
  });
});
