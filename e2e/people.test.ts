// The dashboard and the people around a board, in the browser: rename validation, recovering after
// offline, a guest warned before signing out (and kept as a full account), the share dialog for
// editors and viewers, confirmations, same-site `next=`, form errors outside accessible names, and
// the phone dashboard fitting its screen.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { answerConfirm, artifacts, createBoard, newUser, sharedBoard, until, withApp } from './helpers.ts';

describe('dashboard and people', () => {
  const app = withApp();

  it('rename recovers from a validation error; a new board’s long title is refused the same way', async () => {
    const { page } = await newUser(app, 'Rae');
    await createBoard(page, 'Original');
    await page.goto('/boards');
    await page.getByRole('button', { name: 'Rename Original' }).click();
    const field = page.getByLabel('Board title', { exact: true });
    await field.fill('x'.repeat(121));
    await field.press('Enter');
    await page.getByRole('alert').filter({ hasText: /120/ }).waitFor();
    await field.fill('   ');
    await field.press('Enter');
    await page.getByRole('alert').filter({ hasText: /title/i }).waitFor();
    // Not stuck: a valid title now renames.
    await field.fill('Renamed');
    await field.press('Enter');
    await page.getByRole('link', { name: 'Renamed', exact: true }).waitFor();
    assert.equal(await page.getByLabel('Board title', { exact: true }).count(), 0);

    await page.getByLabel('New board title').fill('y'.repeat(130));
    await page.getByRole('button', { name: 'New board' }).click();
    await page.getByRole('alert').filter({ hasText: /120/ }).waitFor();
    assert.match(page.url(), /\/boards$/, 'no board made with a cut title');
  });

  it('the dashboard recovers after being offline', async () => {
    const { page, context } = await newUser(app, 'Otto');
    await page.route('**/api/boards', (route) => route.abort('internetdisconnected'));
    await page.reload();
    await page.getByText(/Cannot reach the server/).waitFor();
    await page.unroute('**/api/boards');
    await context.setOffline(true);
    await context.setOffline(false);
    await page.getByRole('heading', { name: 'My boards' }).waitFor();
    assert.equal(await page.getByText(/Cannot reach the server/).count(), 0);
    assert.equal(await page.getByText('Loading your boards…').count(), 0);
  });

  it('a guest is warned before signing out, and can keep their boards as a full account', async () => {
    const { page } = await newUser(app, 'Gia', { guest: true });
    const boardId = await createBoard(page, 'Guest board');
    await page.goto('/boards');
    await page.getByRole('button', { name: 'Sign out' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out of a guest account?' });
    await dialog.getByText(/lose access to your boards for good/).waitFor();
    await page.screenshot({ path: join(artifacts, 'guest-sign-out.png') });
    const email = `gia-${Date.now()}@example.com`;
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Password').fill('correct horse battery');
    await dialog.getByRole('button', { name: 'Create account and keep my boards' }).click();
    await until(async () => (await page.getByText('(guest)').count()) === 0, 'no longer a guest');
    // Signing out now is plain, and signing back in shows the same board.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/boards');
    await page.locator(`[data-board-id="${boardId}"]`).waitFor();
  });

  it('editors and viewers see the members read-only; the owner confirms removals and revocations', async () => {
    const owner = (await newUser(app, 'Owen')).page;
    const editor = (await newUser(app, 'Eda')).page;
    await sharedBoard(owner, 'Shared', { editors: [editor] });
    await editor.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = editor.getByRole('dialog', { name: 'Share board' });
    await dialog.getByText('Owen').waitFor();
    await dialog.getByText('Eda (you)').waitFor();
    assert.equal(await dialog.getByRole('alert').count(), 0, 'no error');
    assert.equal(await dialog.getByRole('button', { name: /Remove/ }).count(), 0, 'read-only');
    await editor.screenshot({ path: join(artifacts, 'share-editor.png') });

    await owner.getByRole('button', { name: 'Share', exact: true }).click();
    const od = owner.getByRole('dialog', { name: 'Share board' });
    const asked = await answerConfirm(owner, od.getByRole('button', { name: 'Remove Eda' }), false);
    assert.match(asked, /rejoin/);
    assert.equal(
      await od.getByRole('button', { name: 'Remove Eda' }).count(),
      1,
      'dismissed: still a member',
    );
    await answerConfirm(owner, od.getByRole('button', { name: 'Revoke' }), 'Revoke');
    await od.getByText('No active links.').waitFor();
  });

  it('a person who creates an account with the form, given next=//evil.example when signed in, lands on their boards', async () => {
    const { page } = await newUser(app, 'Nex', { form: true });
    for (const next of ['//evil.example/x', '/\\evil.example', 'https://evil.example/']) {
      await page.goto(`/signin?next=${encodeURIComponent(next)}`);
      await page.waitForURL('**/boards');
      await page.getByRole('heading', { name: 'My boards' }).waitFor();
    }
  });

  it('a form error is a description, not part of the field’s name', async () => {
    const page = await (await app.browser.newContext({ baseURL: app.server.url })).newPage();
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Create account' }).click();
    const email = page.getByRole('textbox', { name: 'Email', exact: true });
    await email.waitFor();
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    const described = await email.evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' '),
    );
    assert.ok(described.length > 0, 'the error describes the field');
  });

  it('the phone dashboard fits a 390 px screen', async () => {
    const { page, context } = await newUser(app, 'Phoebe');
    await createBoard(page, 'On the go');
    await page.goto('/boards');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'My boards' }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    await page.screenshot({ path: join(artifacts, 'dashboard-phone.png') });
    assert.ok(width <= 390, `page is ${width} px wide`);
    await context.close();
  });
});
