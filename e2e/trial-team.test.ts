// What a new team of three tripped over on its first morning (owner, editor, commenter on one
// board, in Chromium at 1280×800): a vote one of them started that the others were not told about.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  artifacts,
  createBoard,
  joinByLink,
  newUser,
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
});
