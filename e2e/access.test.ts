// Roles and access against the real server: a viewer sees live edits and cannot change anything;
// a deleted board and a removed member are told so in a sentence, live.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closeSentence } from '@tandem/shared';
import {
  answerConfirm,
  artifacts,
  boardArea,
  canvas,
  confirmDialog,
  covered,
  createBoard,
  failOnPageErrors,
  newUser,
  place,
  shapes,
  shareLink,
  signedOutVisitor,
  until,
  waitStatus,
  withApp,
} from './helpers.ts';

describe('roles and access', () => {
  const app = withApp();

  it('a viewer sees live edits and cannot change anything', async () => {
    const { page: owner } = await newUser(app, 'Olga');
    await owner.screenshot({ path: `${artifacts}/dashboard-empty.png` });
    const boardId = await createBoard(owner, 'Design review');
    const link = await shareLink(owner, 'can view');
    const { page: viewer } = await newUser(app, 'Vic', { guest: true });
    await viewer.goto(link);
    await viewer.waitForURL(`**/b/${boardId}`);
    await waitStatus(viewer, 'read-only');
    const note = viewer
      .getByRole('note')
      .filter({ hasText: 'You are viewing this board. Only editors can change it.' });
    // Held by the pointer on it (it leaves by itself after a while), until the viewer acts below.
    await note.hover();
    assert.equal(await viewer.getByRole('button', { name: 'Sticky note' }).count(), 0, 'no creation tools');

    await place(owner, 'Sticky note', 500, 400);
    await owner.keyboard.type('Seen by all');
    await owner.keyboard.press('Escape');
    await until(
      async () => (await shapes(viewer, 'sticky').count()) === 1,
      'the sticky on the viewer’s screen',
    );
    await until(
      async () => (await viewer.locator('.shape-text').textContent()) === 'Seen by all',
      'its text',
    );

    // Shortcuts, selection + Delete, dragging and paste do nothing for a viewer.
    await canvas(viewer).focus();
    assert.equal(await note.count(), 1, 'focusing the board is not an action');
    await viewer.keyboard.press('n');
    // The viewer's first action on the board takes the note away; the status bar still says it.
    await note.waitFor({ state: 'detached' });
    await waitStatus(viewer, 'read-only');
    await boardArea(viewer).click({ position: { x: 900, y: 200 } });
    await viewer.locator('[data-shape-type="sticky"]').click();
    await viewer.keyboard.press('Delete');
    await viewer.keyboard.press('Control+d');
    const box = (await viewer.locator('[data-shape-type="sticky"]').boundingBox())!;
    await viewer.mouse.move(box.x + 50, box.y + 50);
    await viewer.mouse.down();
    await viewer.mouse.move(box.x + 250, box.y + 250, { steps: 5 });
    await viewer.mouse.up();
    // The owner's own next edit arriving proves the viewer's (non-)edits would have arrived first.
    await place(owner, 'Rectangle', 900, 600);
    await until(async () => (await shapes(viewer, 'rect').count()) === 1, 'the owner’s next edit');
    assert.equal(await shapes(owner).count(), 2);
    assert.equal(await shapes(viewer).count(), 2);
    const after = (await owner.locator('[data-shape-type="sticky"]').getAttribute('transform'))!;
    assert.equal(after, await viewer.locator('[data-shape-type="sticky"]').getAttribute('transform'));
    await waitStatus(viewer, 'read-only');
    // The owner sees the viewer marked as a viewer.
    await owner.getByRole('button', { name: /^Follow Vic \(viewer\)/ }).waitFor();
    await viewer.screenshot({ path: `${artifacts}/board-viewer.png` });
  });

  it('the note saying only editors can change the board is dismissed, leaves by itself, and comes back with a new role', async () => {
    const { page: owner } = await newUser(app, 'Cora');
    const boardId = await createBoard(owner, 'Notes');
    const link = await shareLink(owner, 'can comment');
    const { page: cal } = await newUser(app, 'Cal', { guest: true });
    await cal.goto(link);
    await cal.waitForURL(`**/b/${boardId}`);
    await waitStatus(cal, 'read-only');
    const commenterNote = cal
      .getByRole('note')
      .filter({ hasText: 'You can comment on this board (C). Only editors can change it.' });
    await commenterNote.waitFor();
    await cal.screenshot({ path: `${artifacts}/board-commenter-note.png` });
    await commenterNote.getByRole('button', { name: 'Dismiss note' }).click();
    await commenterNote.waitFor({ state: 'detached' });
    assert.equal(await cal.getByText('Only editors can change it.').count(), 0);
    // The status bar keeps telling the role and what it allows.
    assert.equal(await cal.locator('.status strong').textContent(), 'Can comment');
    assert.equal(
      await cal.locator('.status .sentence').textContent(),
      'You can view and comment on this board, but not change it.',
    );
    await cal.screenshot({ path: `${artifacts}/board-commenter-note-dismissed.png` });

    // Lowered to viewer: a new role, so the note comes back, in the viewer's words.
    await cal.mouse.move(5, 400); // off the note: a pointer on it holds its time
    await owner.getByRole('button', { name: 'Share', exact: true }).click();
    await owner.getByLabel('Role of Cal').selectOption('viewer');
    const viewerNote = cal
      .getByRole('note')
      .filter({ hasText: 'You are viewing this board. Only editors can change it.' });
    await viewerNote.waitFor();
    const shownAt = Date.now();
    await until(async () => (await cal.locator('.status strong').textContent()) === 'Read-only', 'Read-only');
    // Nothing done on the board: it leaves by itself after about 8 s.
    await viewerNote.waitFor({ state: 'detached', timeout: 15_000 });
    const stayed = Date.now() - shownAt;
    assert.ok(stayed > 6000, `the note stayed its time (${stayed} ms)`);
    assert.equal(await cal.locator('.status strong').textContent(), 'Read-only');
  });

  it('a removed member is told so, live', async () => {
    const { page: owner } = await newUser(app, 'Omar');
    const boardId = await createBoard(owner, 'Sprint');
    const link = await shareLink(owner, 'can edit');
    // Mia opens the link signed out: she is asked to sign in or continue as a guest first.
    const memberContext = await app.browser.newContext({
      viewport: { width: 1280, height: 800 },
      baseURL: app.server.url,
    });
    const member = await memberContext.newPage();
    failOnPageErrors(member, 'Mia');
    await member.goto(link);
    await member.waitForURL('**/signin?next=*');
    await member.getByLabel('Your name').fill('Mia');
    await member.getByRole('button', { name: 'Continue as guest' }).click();
    await member.waitForURL(`**/b/${boardId}`);
    await waitStatus(member, 'live');

    await owner.getByRole('button', { name: 'Share', exact: true }).click();
    // Lowered to viewer: the member's board turns read-only, live.
    await owner.getByLabel('Role of Mia').selectOption('viewer');
    await waitStatus(member, 'read-only');
    await owner.screenshot({ path: `${artifacts}/share-dialog.png` });
    // Removing asks first (a removed member can rejoin through an active link).
    await answerConfirm(owner, owner.getByRole('button', { name: 'Remove Mia' }), 'Remove');
    await waitStatus(member, 'access-lost');
    await member.getByText(closeSentence.NO_ACCESS).first().waitFor();
    await member.getByRole('alertdialog', { name: 'Access lost' }).waitFor();
    await member.screenshot({ path: `${artifacts}/board-access-lost.png` });
  });

  it('a member removed while a confirmation is open sees the access-lost overlay, not the question', async () => {
    const { page: owner } = await newUser(app, 'Oren');
    const boardId = await createBoard(owner, 'Questions');
    const link = await shareLink(owner, 'can edit');
    const { page: member } = await newUser(app, 'Noa', { guest: true });
    await member.goto(link);
    await member.waitForURL(`**/b/${boardId}`);
    await waitStatus(member, 'live');
    // Noa comments on a sticky, then asks to delete her comment: the question stays open.
    await place(member, 'Sticky note', 400, 300);
    await member.keyboard.press('Escape');
    await member.getByRole('button', { name: 'Comment', exact: true }).click();
    const sticky = (await shapes(member, 'sticky').first().boundingBox())!;
    await member.mouse.click(sticky.x + sticky.width / 2, sticky.y + sticky.height / 2);
    const field = member.getByRole('dialog', { name: 'New comment' }).getByLabel('Comment');
    await field.fill('Keep?');
    await field.press('Enter');
    const thread = member.getByRole('region', { name: 'Comment thread' });
    await thread.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirmDialog(member).waitFor();

    await owner.getByRole('button', { name: 'Share', exact: true }).click();
    await answerConfirm(owner, owner.getByRole('button', { name: 'Remove Noa' }), 'Remove');
    await waitStatus(member, 'access-lost');
    const overlay = member.getByRole('alertdialog', { name: 'Access lost' });
    await overlay.waitFor();
    // The question is gone (cancelled, not answered), so the overlay is what Noa sees and reaches.
    await confirmDialog(member).waitFor({ state: 'detached' });
    assert.deepEqual(await covered(overlay.getByRole('heading')), [], 'nothing above the overlay');
    await member.screenshot({ path: `${artifacts}/access-lost-over-confirm.png` });
  });

  it('a deleted board is told so, live, on the board and on the dashboard', async () => {
    const { page: owner } = await newUser(app, 'Ola');
    const boardId = await createBoard(owner, 'Doomed');
    const link = await shareLink(owner, 'can edit');
    const { page: member } = await newUser(app, 'Max', { guest: true });
    const { page: memberDash } = { page: await member.context().newPage() };
    await member.goto(link);
    await member.waitForURL(`**/b/${boardId}`);
    await waitStatus(member, 'live');
    await memberDash.goto('/boards');
    await memberDash.getByRole('link', { name: 'Doomed', exact: true }).waitFor();
    // Search by title.
    await memberDash.getByLabel('Search boards').fill('zzz');
    await memberDash.getByText('No board of yours matches.').waitFor();
    assert.equal(await memberDash.getByRole('link', { name: 'Doomed', exact: true }).count(), 0);
    await memberDash.getByLabel('Search boards').fill('doo');
    await memberDash.getByRole('link', { name: 'Doomed', exact: true }).waitFor();
    // Who is on it now (Ola and Max), side by side: each avatar's initial is seen whole.
    const here = memberDash.locator('.board-card .here > *');
    await until(async () => (await here.count()) === 2, 'two people on the board');
    const [a, b] = [(await here.nth(0).boundingBox())!, (await here.nth(1).boundingBox())!];
    assert.ok(a.x + a.width <= b.x, `the avatars do not overlap: ${a.x + a.width} > ${b.x}`);
    await memberDash.screenshot({ path: `${artifacts}/dashboard.png` });

    // Both browsers keep a copy of the board for offline work while it exists.
    const copies = (page: typeof owner) =>
      page.evaluate(
        async (id) =>
          (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.includes(`:${id}`)),
        boardId,
      );
    await until(async () => (await copies(member)).length === 1, "the member's copy of the board");
    assert.equal((await copies(owner)).length, 1, "the owner's copy of the board");

    await owner.goto('/boards');
    await answerConfirm(owner, owner.getByRole('button', { name: 'Delete Doomed' }), 'Delete board');
    await waitStatus(member, 'access-lost');
    await member.getByText(closeSentence.NO_SUCH_BOARD).first().waitFor();
    await memberDash.getByText('“Doomed” was deleted or you no longer have access to it.').waitFor();
    assert.equal(await memberDash.getByRole('link', { name: 'Doomed', exact: true }).count(), 0);
    // A deleted board does not stay readable in the browsers that had it open.
    await until(async () => (await copies(member)).length === 0, "the member's copy deleted");
    await until(async () => (await copies(owner)).length === 0, "the owner's copy deleted");
  });

  it('a signed-out visitor opening a revoked or unknown invite link is told at once, before signing up', async () => {
    const { page: owner } = await newUser(app, 'Rhea');
    const boardId = await createBoard(owner, 'Planning');
    const link = await shareLink(owner, 'can edit');
    const token = new URL(link).pathname.split('/').pop() ?? '';
    const revoked = await owner.evaluate(
      async ([board, t]) => (await fetch(`/api/boards/${board}/links/${t}`, { method: 'DELETE' })).status,
      [boardId, token] as const,
    );
    assert.equal(revoked, 204);

    const { context, page } = await signedOutVisitor(app, 'visitor');
    const sentence = 'This invite link was revoked or the board was deleted. Ask for a new one.';
    for (const dead of [link, `/join/${'x'.repeat(32)}`, '/join/not-a-token']) {
      await page.goto(dead);
      await page.getByRole('alert').filter({ hasText: sentence }).waitFor();
      assert.equal(await page.getByRole('heading', { name: 'Cannot join' }).count(), 1, dead);
      assert.equal(await page.getByLabel('Password').count(), 0, `no sign-up form for a dead link: ${dead}`);
      assert.equal(await page.getByRole('button', { name: 'Continue as guest' }).count(), 0);
    }
    await page.screenshot({ path: `${artifacts}/invite-revoked.png` });
    // A way on: sign in (without the dead link as where to go next).
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL('**/signin');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);

    // A live link still shows the invitation and the form.
    await owner.reload();
    const live = await shareLink(owner, 'can view');
    await page.goto(live);
    await page.getByRole('note').filter({ hasText: 'Rhea invited you to view “Planning”' }).waitFor();
    assert.equal(await page.getByLabel('Password').count(), 1);
    // A commenter's link says what it lets one do: it said "to view".
    const commenting = await shareLink(owner, 'can comment');
    await page.goto(commenting);
    await page.getByRole('note').filter({ hasText: 'Rhea invited you to comment on “Planning”' }).waitFor();
    await context.close();
  });

  it('an invited visitor is told so on the sign-in page, and signing up from there lands on the board', async () => {
    const { page: owner } = await newUser(app, 'Ines');
    const boardId = await createBoard(owner, 'Kickoff');
    const link = await shareLink(owner, 'can edit');
    const { context, page } = await signedOutVisitor(app, 'invitee');
    const invited =
      "You've been invited to a board. Sign in, create an account or continue as a guest to join it.";
    const next = new URL(link).pathname;
    await page.goto(link);
    await page.waitForURL(`**/signin?next=${encodeURIComponent(next)}`);
    // The page says they were invited (they are usually new), not "Welcome back", and names the board.
    await page.getByRole('note').filter({ hasText: 'Ines invited you to edit “Kickoff”.' }).waitFor();
    assert.equal(await page.locator('.auth-card .hint').textContent(), invited);
    assert.equal(await page.getByText('Welcome back', { exact: false }).count(), 0);
    await page.screenshot({ path: `${artifacts}/invite-signin.png` });
    // Creating an account keeps the invitation: the same words, and the join is where it goes next.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(`**/signup?next=${encodeURIComponent(next)}`);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    assert.equal(await page.locator('.auth-card .hint').textContent(), invited);
    await page.getByRole('note').filter({ hasText: 'Ines invited you to edit “Kickoff”.' }).waitFor();
    await page.screenshot({ path: `${artifacts}/invite-signup.png` });
    await page.getByLabel('Name', { exact: true }).fill('Ivo');
    await page.getByLabel('Email').fill(`ivo-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`**/b/${boardId}`);
    await waitStatus(page, 'live');
    await owner.getByRole('button', { name: /^Follow Ivo/ }).waitFor();
    await context.close();
  });

  it('the sign-in page logs no console error for a signed-out visitor (the session probe is a 200)', async () => {
    const context = await app.browser.newContext({
      viewport: { width: 1280, height: 800 },
      baseURL: app.server.url,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto('/');
    await page.waitForURL('**/signin');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(errors, [], 'no console errors on the sign-in page');
    await context.close();
  });

  it('sign-in page and its errors are sentences', async () => {
    const { context, page } = await signedOutVisitor(app, 'visitor');
    await page.goto('/');
    await page.waitForURL('**/signin');
    await page.screenshot({ path: `${artifacts}/signin.png` });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter a valid email address.').waitFor();
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /\.$/);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await context.close();
  });
});
