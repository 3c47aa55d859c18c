// The app's confirmation dialog (client/src/board/ui/Confirm.tsx), which replaced the browser's
// confirm(): an alertdialog named by its question and described by the place's sentence, focus on
// Cancel for a destructive action and kept inside, Escape cancelling with focus back on the button
// that asked, the action's own button doing it, above a modal dialog it is asked from, and the page
// not blocked while it is open (confirm() froze live updates). A screenshot goes to test-artifacts/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { BoardsAnswer } from '../shared/src/api.ts';
import {
  artifacts,
  confirmDialog,
  covered,
  createBoard,
  focused,
  newUser,
  place,
  shapes,
  shareLink,
  until,
  withApp,
} from './helpers.ts';

/** The titles of the person's boards, as the server lists them. */
const storedTitles = async (page: Page): Promise<string[]> => {
  const res = await page.request.get('/api/boards');
  assert.equal(res.status(), 200);
  return ((await res.json()) as BoardsAnswer).boards.map((b) => b.title).sort();
};

describe('confirmation dialog', () => {
  const app = withApp();

  it('deleting a board asks in the app: Escape keeps it, focus returns, the action button deletes it', async () => {
    const { page } = await newUser(app, 'Cora');
    const keepId = await createBoard(page, 'Keep');
    await page.goto('/boards');
    await createBoard(page, 'Doomed');
    await page.goto('/boards');
    const del = page.getByRole('button', { name: 'Delete Doomed' });

    await del.click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete board?' });
    await dialog.waitFor();
    assert.equal(await dialog.getAttribute('aria-modal'), 'true');
    const describedBy = await dialog.getAttribute('aria-describedby');
    assert.equal(
      await page.locator(`[id="${describedBy}"]`).textContent(),
      '“Doomed” is deleted for everyone. This cannot be undone.',
      'the sentence describes it',
    );
    const cancel = dialog.getByRole('button', { name: 'Cancel', exact: true });
    const confirm = dialog.getByRole('button', { name: 'Delete board', exact: true });
    // Destructive: focus starts on Cancel, and Tab goes round the dialog's two buttons.
    assert.equal(await focused(page), 'button Cancel');
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), 'button Delete board');
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), 'button Cancel');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(page), 'button Delete board');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(page), 'button Cancel');
    assert.deepEqual(await covered(dialog.getByRole('button')), [], 'its buttons are on top');
    await page.screenshot({ path: join(artifacts, 'confirm-delete-board.png') });

    // The page is not blocked while it asks (confirm() froze it): a rename made elsewhere shows.
    const renamed = await page.request.patch(`/api/boards/${keepId}`, { data: { title: 'Kept' } });
    assert.equal(renamed.status(), 200);
    await page
      .getByRole('link', { name: 'Kept', exact: true, includeHidden: true })
      .waitFor({ state: 'attached' });
    assert.equal(await confirmDialog(page).count(), 1, 'still asking');

    // Escape cancels: nothing deleted, focus back on the Delete button that asked.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await focused(page), 'button Delete Doomed');
    assert.deepEqual(await storedTitles(page), ['Doomed', 'Kept'], 'Escape deleted nothing');
    assert.equal(await page.getByRole('link', { name: 'Doomed', exact: true }).count(), 1);

    // Asked again, the action's own button deletes it.
    await del.click();
    await confirm.waitFor();
    assert.equal(await cancel.count(), 1);
    await confirm.click();
    await dialog.waitFor({ state: 'detached' });
    await until(async () => (await storedTitles(page)).join() === 'Kept', 'the board deleted on the server');
    await page.getByRole('link', { name: 'Doomed', exact: true }).waitFor({ state: 'detached' });
  });

  it('asked from the Share dialog, it is above it; Escape closes only the question', async () => {
    const { page } = await newUser(app, 'Dov');
    await createBoard(page, 'Linked');
    await shareLink(page, 'can view');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const share = page.getByRole('dialog', { name: 'Share board' });
    const revoke = share.getByRole('button', { name: 'Revoke the “can view” link', exact: true });
    await revoke.click();
    const dialog = page.getByRole('alertdialog', { name: 'Revoke the “can view” link?' });
    // The title asks; the sentence only says what happens.
    await dialog
      .getByText('Nobody new can join with it. People who already joined through it stay members.', {
        exact: true,
      })
      .waitFor();
    assert.deepEqual(await covered(dialog.getByRole('button')), [], 'above the Share dialog');
    await page.screenshot({ path: join(artifacts, 'confirm-over-share.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The Share dialog stays open with its link, and focus is back on Revoke in it.
    assert.equal(await share.count(), 1, 'the Share dialog is still open');
    assert.equal(await revoke.count(), 1, 'the link is still there');
    assert.equal(await focused(page), 'button Revoke the “can view” link');
    await revoke.click();
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await share.getByText('No active links.').waitFor();
  });

  it('deleting a comment asks; Escape leaves the thread card open with its comment', async () => {
    const { page } = await newUser(app, 'Eli');
    await createBoard(page, 'Comments');
    await place(page, 'Sticky note', 300, 300);
    await page.keyboard.type('Logo');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const sticky = (await shapes(page, 'sticky').first().boundingBox())!;
    await page.mouse.click(sticky.x + sticky.width / 2, sticky.y + sticky.height / 2);
    const field = page.getByRole('dialog', { name: 'New comment' }).getByLabel('Comment');
    await field.fill('Bigger?');
    await field.press('Enter');
    const thread = page.getByRole('region', { name: 'Comment thread' });
    await thread.getByText('Bigger?').waitFor();
    const del = thread.getByRole('button', { name: 'Delete', exact: true });

    await del.click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete comment?' });
    await dialog.getByText('It is gone for everyone. This cannot be undone.').waitFor();
    assert.deepEqual(await covered(dialog.getByRole('button')), [], 'above the thread card');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The key was the question's alone: the thread card is still open, its comment kept.
    assert.equal(await thread.getByText('Bigger?').count(), 1, 'the comment is kept');
    assert.equal(await focused(page), 'button Delete');

    await del.click();
    await dialog.getByRole('button', { name: 'Delete comment', exact: true }).click();
    await thread.waitFor({ state: 'detached' });
  });
});
