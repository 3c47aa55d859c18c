// What a new team of three tripped over on its first morning (owner, editor, commenter on one
// board, in Chromium at 1280×800): a vote one of them started that the others were not told about,
// and Ctrl+Z on the canvas taking back a page's rename (then the page) with nothing to see.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  artifacts,
  canvas,
  createBoard,
  joinByLink,
  newUser,
  pageNames,
  place,
  shareLink,
  stickyText,
  until,
  withApp,
} from './helpers.ts';

describe('a team of three on its first morning', () => {
  const app = withApp();

  it('a vote one person starts is told to the others: how to vote, or that only editors vote', async () => {
    const { page: ana } = await newUser(app, 'Ana');
    const { page: ben } = await newUser(app, 'Ben');
    const { page: cy } = await newUser(app, 'Cy');
    const boardId = await createBoard(ana, 'Q3 Planning');
    await place(ana, 'Sticky note', 400, 350);
    await ana.keyboard.type('Ship the beta');
    await ana.keyboard.press('Escape');
    await joinByLink(ben, await shareLink(ana, 'can edit'), boardId);
    await joinByLink(cy, await shareLink(ana, 'can comment'), boardId, 'read-only');
    for (const p of [ben, cy])
      await until(
        async () => (await stickyText(p).allTextContents()).includes('Ship the beta'),
        'the sticky',
      );

    await ana.getByRole('button', { name: 'Vote', exact: true }).click();
    await ana.getByLabel('Votes per person').fill('3');
    await ana.getByRole('button', { name: 'Start vote' }).click();
    await ana.getByText('3 votes left').waitFor();

    const told = (p: typeof ana, text: string) => p.getByRole('alert').filter({ hasText: text });
    await told(
      ben,
      'Ana started a vote: you have 3 votes. Click a sticky to give it a vote; right-click takes one back.',
    ).waitFor();
    await told(cy, 'Ana started a vote. Only editors vote; the results show here when it ends.').waitFor();
    await ben.screenshot({ path: `${artifacts}/trial-team-vote-editor.png` });
    await cy.screenshot({ path: `${artifacts}/trial-team-vote-commenter.png` });
    // The one who started it knows already.
    assert.equal(await told(ana, 'started a vote').count(), 0);
    // Ben does what the sentence says.
    await ben.getByRole('button', { name: /^Vote for Ship the beta/ }).click();
    await ben.getByRole('button', { name: 'Vote', exact: true }).click();
    await ben.getByText('2 votes left').waitFor();
  });

  it('Ctrl+Z that takes back a change to the closed page list says what it did, for everyone', async () => {
    const { page: ana } = await newUser(app, 'Ana');
    const { page: ben } = await newUser(app, 'Ben');
    const boardId = await createBoard(ana, 'Planning');
    await joinByLink(ben, await shareLink(ana, 'can edit'), boardId);
    await ana.getByRole('button', { name: 'Pages', exact: true }).click();
    await ana.getByRole('button', { name: 'Add page' }).click();
    await ana.getByLabel('Page name').fill('Retro');
    await ana.getByLabel('Page name').press('Enter');
    await ana.waitForURL('**/p/*');
    await ana.locator('.pages-panel .page-name', { hasText: 'Page 1' }).click();
    await ana.waitForURL(`**/b/${boardId}`);
    await ana.getByRole('button', { name: 'Close pages' }).click();
    await until(
      async () => (await ben.getByRole('button', { name: /^Pages/ }).textContent())?.includes('2') ?? false,
      'two pages for Ben',
    );

    // The list is closed: the key's step is said, since the canvas shows nothing of it.
    await canvas(ana).focus();
    await ana.keyboard.press('Control+z');
    const said = (text: string) => ana.getByRole('status').filter({ hasText: text });
    await said('Undo renamed the page “Retro” to “Page 2”.').waitFor();
    await ana.screenshot({ path: `${artifacts}/trial-team-undo-rename.png` });
    await ana.keyboard.press('Control+z');
    await said('Undo removed the page “Page 2”. Redo brings it back.').waitFor();
    await ben.getByRole('button', { name: /^Pages/ }).click();
    await until(async () => (await pageNames(ben)).join() === 'Page 1', 'the page gone for Ben too');
    await ana.keyboard.press('Control+y');
    await said('Redo brought back the page “Page 2”.').waitFor();
    await until(async () => (await pageNames(ben)).join() === 'Page 1,Page 2', 'the page back for Ben');
    // A canvas step says nothing of pages: the notices about them only leave, none comes.
    await place(ana, 'Sticky note', 400, 350);
    await ana.keyboard.press('Escape');
    await canvas(ana).focus();
    const before = await said('the page').count();
    await ana.keyboard.press('Control+z');
    await until(async () => (await stickyText(ana).count()) === 0, 'the sticky undone');
    assert.ok((await said('the page').count()) <= before, 'no notice about pages for a canvas step');
  });
});
