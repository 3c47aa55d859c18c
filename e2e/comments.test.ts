// Comments and @mentions (docs/api.md §18) in Chromium, two people: Ana places a thread on a sticky
// and mentions Ben; Ben, who joined through a "can comment" link, sees the mention on his
// dashboard, opens it at the thread and replies (Shift+Enter for a new line; hostile text stays
// text); Ben, offline for a while, catches up when he is back; Ana moves the sticky and the pin
// follows on both screens; Ben resolves the thread and it leaves the open list on both. Then the
// same screens on a phone, and a viewer who reads only.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  boardArea,
  covered,
  createBoard,
  exported,
  failOnPageErrors,
  focused,
  joinByLink,
  newUser,
  onPhone,
  pageNames,
  pathOf,
  place,
  shapes,
  shareLink,
  stickyText,
  until,
  waitStatus,
  withApp,
} from './helpers.ts';

const pins = (page: Page) => page.locator('.comment-pin');
const pinBox = async (page: Page) => {
  const box = await pins(page).first().boundingBox();
  if (!box) throw new Error('no pin on screen');
  return box;
};
const card = (page: Page) => page.getByRole('region', { name: 'Comment thread' });

describe('comments: two people', () => {
  const app = withApp();
  let ana: Page;
  let ben: Page;
  let boardId: string;

  before(async () => {
    ana = (await newUser(app, 'Ana')).page;
    const b = await newUser(app, 'Ben');
    ben = b.page;
    boardId = await createBoard(ana, 'Design review');
    await place(ana, 'Sticky note', 400, 350);
    await ana.keyboard.type('New logo');
    await ana.keyboard.press('Escape');
    const link = await shareLink(ana, 'can comment');
    await joinByLink(ben, link, boardId, 'read-only');
    // Ben can comment but not edit: the Comment tool is there, the drawing tools are not.
    await ben.getByRole('button', { name: 'Comment', exact: true }).waitFor();
    assert.equal(await ben.getByRole('button', { name: 'Sticky note', exact: true }).count(), 0);
    await ben.getByRole('link', { name: 'All boards' }).click();
    await ben.waitForURL('**/boards');
  });

  it('Ana places a thread on the sticky and mentions Ben with @ completion', async () => {
    // C picks the Comment tool (docs/api.md §18).
    await ana.keyboard.press('c');
    await until(
      async () =>
        (await ana.getByRole('button', { name: 'Comment', exact: true }).getAttribute('aria-pressed')) ===
        'true',
      'the Comment tool picked by its shortcut',
    );
    const sticky = await shapes(ana, 'sticky').first().boundingBox();
    assert.ok(sticky);
    await ana.mouse.click(sticky.x + sticky.width / 2, sticky.y + sticky.height / 2);
    const field = ana.getByRole('dialog', { name: 'New comment' }).getByLabel('Comment');
    await field.waitFor();
    // Over the limit, Enter sends nothing: the sentence is beside the field, and no refusal comes.
    let posted = 0;
    ana.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/boards/${boardId}/threads`)) posted += 1;
    });
    await field.fill('x'.repeat(2001));
    await field.press('Enter');
    await ana.getByText('A comment has at most 2,000 characters.').waitFor();
    assert.equal(await field.inputValue(), 'x'.repeat(2001), 'the text stays in the field');
    await field.fill('');
    await field.pressSequentially('Is this bold enough, @Be');
    const option = ana.getByRole('option', { name: 'Ben' });
    await option.waitFor();
    await field.press('Enter');
    assert.equal(await field.inputValue(), 'Is this bold enough, @Ben ');
    // Punctuation typed right after the pick takes the place of its space (a trial: "@Ben ?").
    await field.pressSequentially('?');
    assert.equal(await field.inputValue(), 'Is this bold enough, @Ben?');
    await ana.screenshot({ path: `${artifacts}/comments-ana-composing.png` });
    await field.press('Enter');

    await card(ana).waitFor();
    assert.equal(posted, 1, 'only the comment within the limit was sent');
    assert.equal(await ana.getByText('Some fields need attention.').count(), 0);
    assert.equal(await pins(ana).count(), 1);
    assert.equal(await pins(ana).first().getAttribute('aria-label'), 'Comment thread by Ana, 1 comment');
    assert.equal(await card(ana).locator('.mention').textContent(), '@Ben');
    assert.equal(await card(ana).locator('.comment-body').textContent(), 'Is this bold enough, @Ben?');
    await ana.screenshot({ path: `${artifacts}/comments-ana-thread.png` });
  });

  it('Ben sees the mention on his dashboard, opens it at the thread and replies', async () => {
    const bell = ben.getByRole('button', { name: 'Mentions, 1 unread' });
    await bell.waitFor();
    await bell.click();
    const item = ben.getByRole('menuitem', { name: /Ana mentioned you on Design review/ });
    await item.waitFor();
    assert.match((await item.textContent()) ?? '', /Is this bold enough, @Ben\?/);
    await ben.screenshot({ path: `${artifacts}/comments-ben-dashboard.png` });
    await item.click();
    await ben.waitForURL(`**/b/${boardId}`);
    await card(ben).waitFor();
    assert.match(
      (await card(ben).locator('.comment-body').first().textContent()) ?? '',
      /Is this bold enough/,
    );
    // A commenter is told what he can do: the status said he could only view the board
    // ("Read-only", a viewer's word; the Share dialog's role is "can comment").
    assert.equal(await ben.locator('.status strong').textContent(), 'Can comment');
    assert.equal(
      await ben.locator('.status .sentence').textContent(),
      'You can view and comment on this board, but not change it.',
    );
    // The reply's hint keeps "@ mentions" on one line (the "@" ended one line, "mentions" began the next).
    const mentionLines = await card(ben)
      .locator('.composer-actions .hint')
      .evaluate((hint) => {
        const text = hint.firstChild as Text;
        const at = text.data.indexOf('@');
        // The tops of "@" and of the last letter of "mentions".
        return [at, text.data.length - 1].map((from) => {
          const range = document.createRange();
          range.setStart(text, from);
          range.setEnd(text, from + 1);
          return Math.round(range.getBoundingClientRect().top);
        });
      });
    assert.equal(mentionLines[0], mentionLines[1], `"@" and "mentions" on one line: ${mentionLines}`);

    const reply = card(ben).getByLabel('Reply');
    await reply.focus();
    await reply.pressSequentially('Looks good <script>window.hacked=1</script> javascript:alert(1)');
    await reply.press('Shift+Enter');
    await reply.pressSequentially('see https://example.com/brand.');
    assert.match(await reply.inputValue(), /javascript:alert\(1\)\nsee/);
    await reply.press('Enter');
    await until(async () => (await card(ben).locator('.comment').count()) === 2, 'the reply in Ben’s thread');
    await until(
      async () =>
        (await pins(ana).first().getAttribute('aria-label')) === 'Comment thread by Ana, 2 comments',
      'the reply counted on Ana’s pin',
    );
    await until(
      async () => (await card(ana).locator('.comment').count()) === 2,
      'the reply in Ana’s open thread',
    );

    // Hostile text is text: no script ran, no element made from it, one safe link only.
    const body = card(ana).locator('.comment-body').nth(1);
    assert.equal(
      await body.innerText(),
      'Looks good <script>window.hacked=1</script> javascript:alert(1)\nsee https://example.com/brand.',
    );
    assert.equal(await body.locator('script').count(), 0);
    const links = body.locator('a');
    assert.equal(await links.count(), 1);
    assert.equal(await links.first().getAttribute('href'), 'https://example.com/brand');
    assert.equal(await links.first().getAttribute('rel'), 'noopener noreferrer nofollow');
    assert.equal(await ana.evaluate(() => (window as { hacked?: number }).hacked ?? null), null);
    await ben.screenshot({ path: `${artifacts}/comments-ben-reply.png` });
  });

  it('Ben, offline meanwhile, catches up on what he missed when he is back', async () => {
    await ben.context().setOffline(true);
    await waitStatus(ben, 'offline');
    const reply = card(ana).getByLabel('Reply');
    await reply.focus();
    await reply.pressSequentially('Sent while Ben was away');
    await reply.press('Enter');
    await until(async () => (await card(ana).locator('.comment').count()) === 3, 'Ana’s reply in her thread');
    assert.equal(await card(ben).locator('.comment').count(), 2, 'not on Ben’s screen while he is offline');
    await ben.context().setOffline(false);
    await until(async () => (await card(ben).locator('.comment').count()) === 3, 'Ben catches up');
    assert.equal(await card(ben).locator('.comment-body').nth(2).textContent(), 'Sent while Ben was away');
  });

  it("the board's JSON export carries the thread", async () => {
    const data = JSON.parse((await exported(ana, 'Board as JSON')).toString('utf8')) as {
      shapes: { id: string }[];
      threads: { anchor: { shapeId?: string }; comments: { body: string }[] }[];
    };
    assert.equal(data.threads.length, 1);
    assert.equal(data.threads[0]?.anchor.shapeId, data.shapes[0]?.id);
    assert.equal(data.threads[0]?.comments.length, 3);
  });

  it('Ana moves the sticky and the pin follows on both screens', async () => {
    const before = { ana: await pinBox(ana), ben: await pinBox(ben) };
    await ana.getByRole('button', { name: 'Close thread' }).click();
    await ana.getByRole('button', { name: 'Select', exact: true }).click();
    const sticky = await shapes(ana, 'sticky').first().boundingBox();
    assert.ok(sticky);
    const from = { x: sticky.x + 30, y: sticky.y + sticky.height - 30 };
    await ana.mouse.move(from.x, from.y);
    await ana.mouse.down();
    await ana.mouse.move(from.x + 120, from.y + 60, { steps: 8 });
    await ana.mouse.move(from.x + 240, from.y + 120, { steps: 8 });
    await ana.mouse.up();
    await until(async () => (await pinBox(ana)).x > before.ana.x + 200, 'the pin follows on Ana’s screen');
    await until(async () => (await pinBox(ben)).x > before.ben.x + 100, 'the pin follows on Ben’s screen');
    // Still at the sticky's top-right corner on Ana's screen.
    const moved = await shapes(ana, 'sticky').first().boundingBox();
    const pin = await pinBox(ana);
    assert.ok(moved);
    assert.ok(
      Math.abs(pin.x - (moved.x + moved.width)) < 12,
      `pin x ${pin.x} by the corner ${moved.x + moved.width}`,
    );
    await ben.screenshot({ path: `${artifacts}/comments-ben-pin-followed.png` });
  });

  it('Ben resolves the thread and it leaves the open list on both screens', async () => {
    await ana.getByRole('button', { name: 'Comments', exact: true }).click();
    const anaPanel = ana.getByRole('complementary', { name: 'Comments panel' });
    await anaPanel.getByRole('button', { name: /Ana.*Is this bold enough/ }).waitFor();

    await card(ben).getByRole('button', { name: 'Resolve thread' }).click();
    await until(async () => (await card(ben).count()) === 0, 'Ben’s thread card closes');
    await until(async () => (await pins(ben).count()) === 0, 'the pin leaves Ben’s canvas');
    await until(async () => (await pins(ana).count()) === 0, 'the pin leaves Ana’s canvas');
    await anaPanel.getByText('No open threads.', { exact: false }).waitFor();
    await anaPanel.getByRole('tab', { name: 'Resolved' }).click();
    // Each says who resolved it: Ben to Ana, "you" to Ben.
    const resolved = anaPanel.getByRole('button', { name: /Ana.*Is this bold enough/ });
    await until(
      async () => /Resolved by Ben$/.test((await resolved.textContent()) ?? ''),
      'Ana’s list says by Ben',
    );
    await resolved.click();
    await until(
      async () => (await card(ana).locator('.thread-state').textContent()) === 'Resolved by Ben',
      'the thread card says who resolved it',
    );
    await card(ana).screenshot({ path: `${artifacts}/comments-resolved-by.png` });
    await card(ana).getByRole('button', { name: 'Close thread' }).click();

    await ben.getByRole('button', { name: 'Comments', exact: true }).click();
    const benPanel = ben.getByRole('complementary', { name: 'Comments panel' });
    await benPanel.getByText('No open threads.', { exact: false }).waitFor();
    await benPanel.getByRole('tab', { name: 'Mentions me' }).click();
    const mine = benPanel.getByRole('button', { name: /Ana.*Is this bold enough/ });
    await until(
      async () => /Resolved by you$/.test((await mine.textContent()) ?? ''),
      'Ben’s list says by you',
    );
    await ana.screenshot({ path: `${artifacts}/comments-ana-resolved.png` });
  });

  it('a thread whose sticky is deleted stays, marked, and can still be resolved', async () => {
    await ana.getByRole('tab', { name: 'Resolved' }).click();
    await ana.getByRole('button', { name: /Ana.*Is this bold enough/ }).click();
    await card(ana).getByRole('button', { name: 'Reopen thread' }).click();
    await until(async () => (await pins(ana).count()) === 1, 'the reopened thread’s pin');
    await ana.getByRole('button', { name: 'Close thread' }).click();
    await shapes(ana, 'sticky').first().click();
    await ana.keyboard.press('Delete');
    await until(async () => (await shapes(ben, 'sticky').count()) === 0, 'the sticky gone on Ben’s screen');
    await until(async () => (await pins(ana).count()) === 0, 'no pin without its sticky');
    const panel = ana.getByRole('complementary', { name: 'Comments panel' });
    await panel.getByRole('tab', { name: 'Open' }).click();
    const item = panel.getByRole('button', { name: /Ana.*Shape deleted.*Is this bold enough/ });
    await item.waitFor();
    await item.click();
    await card(ana).getByText('Shape deleted').waitFor();
    await ana.screenshot({ path: `${artifacts}/comments-ana-shape-deleted.png` });
    await card(ana).getByRole('button', { name: 'Resolve thread' }).click();
    await panel.getByText('No open threads.', { exact: false }).waitFor();
  });

  it('a mention while Ben is on the board shows as an unread count there, gone once he reads it', async () => {
    await ana.keyboard.press('Escape');
    await ana.getByRole('button', { name: 'Comment', exact: true }).click();
    await boardArea(ana).click({ position: { x: 300, y: 300 } });
    const field = ana.getByRole('dialog', { name: 'New comment' }).getByLabel('Comment');
    await field.pressSequentially('Also here @Be');
    await ana.getByRole('option', { name: 'Ben' }).waitFor();
    await field.press('Tab');
    // Picked: the list closes, so Enter sends.
    await ana.getByRole('listbox', { name: 'Members to mention' }).waitFor({ state: 'detached' });
    await field.press('Enter');
    // The button's name carries the count its badge shows (the badge itself is hidden from
    // screen readers): "Comments, 1 unread", as the dashboard's "Mentions, 1 unread".
    const button = ben.locator('.comments-button');
    const badge = button.locator('.badge');
    await ben.getByRole('button', { name: 'Comments, 1 unread', exact: true }).waitFor();
    assert.equal(await badge.textContent(), '1');
    await ben.screenshot({ path: `${artifacts}/comments-ben-unread-on-board.png` });
    const panel = ben.getByRole('complementary', { name: 'Comments panel' });
    await panel.getByRole('tab', { name: 'Open' }).click();
    await panel.getByRole('button', { name: /Ana.*Also here @Ben/ }).click();
    await card(ben).getByText('Also here').waitFor();
    await until(async () => (await badge.count()) === 0, 'the unread count goes once Ben opens the thread');
    assert.equal(await button.getAttribute('aria-label'), 'Comments');
  });

  it('a viewer reads threads but cannot write, resolve or place one', async () => {
    const cy = (await newUser(app, 'Cy')).page;
    const link = await shareLink(ana, 'can view');
    await joinByLink(cy, link, boardId, 'read-only');
    assert.equal(await cy.locator('.status strong').textContent(), 'Read-only', 'a viewer stays read-only');
    assert.equal(await cy.getByRole('button', { name: 'Comment', exact: true }).count(), 0);
    await pins(cy).first().click();
    await card(cy).getByText('Also here').waitFor();
    await card(cy).getByText('You can read comments; only editors and commenters can reply.').waitFor();
    assert.equal(await card(cy).getByLabel('Reply').count(), 0);
    assert.equal(await card(cy).getByRole('button', { name: 'Resolve thread' }).count(), 0);
    await card(cy).getByRole('button', { name: 'Close thread' }).click();
    await cy.keyboard.press('c');
    await cy
      .getByRole('alert')
      .getByText('You can read comments on this board, but only its editors and commenters can write them.')
      .waitFor();
    await cy.context().close();
  });

  it('on a phone, the panel and a thread fit the screen', async () => {
    await ben.setViewportSize({ width: 390, height: 844 });
    const benPanel = ben.getByRole('complementary', { name: 'Comments panel' });
    await benPanel.getByRole('tab', { name: 'Mentions me' }).click();
    await ben.screenshot({ path: `${artifacts}/comments-ben-phone-panel.png` });
    await benPanel.getByRole('button', { name: /Ana.*Is this bold enough/ }).click();
    await card(ben).waitFor();
    const box = await card(ben).boundingBox();
    assert.ok(box);
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the card (${box.x}, ${box.width}) is on the screen`);
    await ben.screenshot({ path: `${artifacts}/comments-ben-phone.png` });
  });

  it('the Share dialog offers “can comment” links and roles, and fits a phone', async () => {
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await ana.setViewportSize({ width, height });
      await ana.getByRole('button', { name: 'Share', exact: true }).click();
      const create = ana.getByRole('button', { name: 'Create “can comment” link' });
      await create.waitFor();
      const role = ana.getByLabel('Role of Ben');
      assert.equal(await role.inputValue(), 'commenter');
      for (const control of [create, role]) {
        const box = await control.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= width, `on screen at ${width}px`);
      }
      await ana.screenshot({ path: `${artifacts}/comments-share-${width}.png` });
      await ana.getByRole('button', { name: 'Close', exact: true }).click();
    }
  });
});

// A thread belongs to the page it was placed on (docs/api.md §17, §18): its pin shows there only,
// the panel of another page names its page (not "Shape deleted": the shape is on the other page),
// and opening it, from the panel or from a mention on the dashboard, goes to its page.
describe('comments on a board of several pages', () => {
  const app = withApp();

  it('a comment placed by a click takes what is typed next, also after moving it elsewhere', async () => {
    const pia = (await newUser(app, 'Pia')).page;
    await createBoard(pia, 'Typed comments');
    await pia.getByRole('button', { name: 'Comment', exact: true }).click();
    await boardArea(pia).click({ position: { x: 500, y: 300 } });
    const field = pia.getByRole('dialog', { name: 'New comment' }).getByLabel('Comment');
    await field.waitFor();
    // Typed on the keyboard, not filled in: the caret must be in the field. On the canvas, these
    // letters are tool shortcuts (O an ellipse, T text, Enter places a shape).
    await pia.keyboard.type('Too tight');
    assert.equal(await field.inputValue(), 'Too tight');
    // A click elsewhere moves the comment being written, its text and caret with it.
    await boardArea(pia).click({ position: { x: 650, y: 420 } });
    await pia.keyboard.type(' here');
    assert.equal(await field.inputValue(), 'Too tight here');
    // A pin marks where it will land (its tip at the click), and the empty board's hint is not
    // shown through the card.
    const area = (await boardArea(pia).boundingBox())!;
    const pin = (await pia.locator('.comment-pin.draft').boundingBox())!;
    assert.ok(pin, 'a pin where the comment will be');
    assert.ok(Math.abs(pin.x - 8 - (area.x + 650)) <= 3, `pin at x ${pin.x}`);
    assert.ok(Math.abs(pin.y + pin.height + 8 - (area.y + 420)) <= 3, `pin at y ${pin.y}`);
    assert.equal(await pia.locator('.empty-hint').count(), 0, 'no hint behind the comment');
    await pia.screenshot({ path: `${artifacts}/comments-typed-after-click.png` });
    await pia.keyboard.press('Enter');
    await card(pia).getByText('Too tight here').waitFor();
    assert.equal(await shapes(pia).count(), 0, 'no shape made by the letters typed');
    await card(pia).getByRole('button', { name: 'Close thread' }).click();

    // Escape drops a comment begun, and the caret goes back to the board, not the page's top.
    await pia.keyboard.press('c');
    await boardArea(pia).click({ position: { x: 300, y: 500 } });
    await field.waitFor();
    await pia.keyboard.type('Never mind');
    await pia.keyboard.press('Escape');
    await field.waitFor({ state: 'detached' });
    assert.equal(await focused(pia), 'application Board canvas');
    await pia.context().close();
  });

  it('a thread on the second page is pinned there, listed as on it elsewhere, and opens there', async () => {
    const olga = (await newUser(app, 'Olga')).page;
    const ben = (await newUser(app, 'Ben')).page;
    const boardId = await createBoard(olga, 'Q3 Planning');
    await place(olga, 'Sticky note', 400, 350);
    await olga.keyboard.type('Launch checklist');
    await olga.keyboard.press('Escape');
    await olga.getByRole('button', { name: 'Pages' }).click();
    await olga.getByRole('button', { name: 'Add page' }).click();
    await olga.getByLabel('Page name').fill('Risks');
    await olga.getByLabel('Page name').press('Enter');
    await until(async () => (await pageNames(olga)).join(',') === 'Page 1,Risks', 'the Risks page');
    await waitStatus(olga, 'live');
    const risks = pathOf(olga);
    assert.match(risks, new RegExp(`^/b/${boardId}/p/`));
    await place(olga, 'Sticky note', 500, 400);
    await olga.keyboard.type('Vendor delay');
    await olga.keyboard.press('Escape');
    const link = await shareLink(olga, 'can edit');
    await olga.getByRole('link', { name: 'All boards' }).click();
    await olga.waitForURL('**/boards');

    // Ben comments on the Risks page's sticky and mentions Olga.
    await joinByLink(ben, link, boardId);
    await ben.getByRole('button', { name: 'Pages' }).click();
    await ben.locator('.pages-panel .page-name', { hasText: 'Risks' }).click();
    await ben.waitForURL(`**${risks}`);
    await waitStatus(ben, 'live');
    await until(
      async () => (await stickyText(ben).allTextContents()).includes('Vendor delay'),
      'Risks shown',
    );
    await ben.getByRole('button', { name: 'Comment', exact: true }).click();
    const sticky = await shapes(ben, 'sticky').first().boundingBox();
    assert.ok(sticky);
    await ben.mouse.click(sticky.x + sticky.width / 2, sticky.y + sticky.height / 2);
    const field = ben.getByRole('dialog', { name: 'New comment' }).getByLabel('Comment');
    await field.pressSequentially('Who owns this, @Ol');
    await ben.getByRole('option', { name: 'Olga' }).waitFor();
    await field.press('Enter');
    await field.press('Enter');
    await card(ben).waitFor();
    assert.equal(await pins(ben).count(), 1, 'the pin on the Risks page');

    // On the first page, no pin, and the panel says where the thread is.
    await ben.locator('.pages-panel .page-name', { hasText: 'Page 1' }).click();
    await ben.waitForURL(`**/b/${boardId}`);
    await until(
      async () => (await stickyText(ben).allTextContents()).includes('Launch checklist'),
      'Page 1 shown',
    );
    assert.equal(await pins(ben).count(), 0, 'no pin of the Risks page’s thread on Page 1');
    await ben.getByRole('button', { name: 'Comments', exact: true }).click();
    const panel = ben.getByRole('complementary', { name: 'Comments panel' });
    const item = panel.getByRole('button', { name: /Ben.*Who owns this/ });
    await item.waitFor();
    assert.match((await item.textContent()) ?? '', /On Risks/);
    assert.doesNotMatch((await item.textContent()) ?? '', /Shape deleted/);
    await ben.screenshot({ path: `${artifacts}/comments-pages-panel.png` });
    await item.click();
    await ben.waitForURL(`**${risks}`);
    await card(ben).getByText('Who owns this').waitFor();
    assert.equal(await card(ben).getByText('Shape deleted').count(), 0);
    await until(async () => (await pins(ben).count()) === 1, 'the pin again on the Risks page');

    // Olga's mention on the dashboard opens the Risks page at the thread.
    await olga.getByRole('button', { name: 'Mentions, 1 unread' }).click();
    const mention = olga.getByRole('menuitem', { name: /Ben mentioned you on Q3 Planning/ });
    // It says when, as the board cards do.
    assert.match((await mention.locator('time').textContent()) ?? '', /^(just now|1 min ago)$/);
    await mention.click();
    await olga.waitForURL(`**${risks}`);
    await card(olga).getByText('Who owns this').waitFor();
    assert.equal(await pins(olga).count(), 1);
    await olga.screenshot({ path: `${artifacts}/comments-pages-mention.png` });
    // Read, and the server was told: back on the dashboard the bell counts nothing (the board's
    // load had updates pending when the thread opened; the mention was marked read only here).
    await olga.goto('/boards');
    await olga.getByRole('button', { name: 'Mentions', exact: true }).waitFor();
  });

  it('a side panel that opens closes the ones it would cover (Comments and History; on a phone, Pages too)', async () => {
    const cara = (await newUser(app, 'Cara')).page;
    await createBoard(cara, 'Panels');
    const commentsButton = cara.getByRole('button', { name: 'Comments', exact: true });
    const commentsPanel = cara.getByRole('complementary', { name: 'Comments panel' });
    const historyPanel = cara.getByRole('complementary', { name: 'Version history' });
    await commentsButton.click();
    await commentsPanel.waitFor();
    await cara.getByRole('button', { name: 'History', exact: true }).click();
    await historyPanel.waitFor();
    // Comments was under History, its button still pressed: pressing it closed what nobody saw.
    await commentsPanel.waitFor({ state: 'detached' });
    assert.equal(await commentsButton.getAttribute('aria-pressed'), 'false');
    await commentsButton.click();
    await commentsPanel.waitFor();
    await historyPanel.waitFor({ state: 'detached' });
    // Pages sits at the left, beside Comments, on a wide screen.
    await cara.getByRole('button', { name: 'Pages' }).click();
    await cara.getByRole('region', { name: 'Pages' }).waitFor();
    assert.equal(await commentsPanel.count(), 1);

    await onPhone(app, cara, async (phone) => {
      const pages = phone.getByRole('region', { name: 'Pages' });
      const comments = phone.getByRole('complementary', { name: 'Comments panel' });
      await phone.getByRole('button', { name: 'Pages' }).click();
      await pages.waitFor();
      await phone.getByRole('button', { name: 'Comments', exact: true }).click();
      await comments.waitFor();
      await pages.waitFor({ state: 'detached' });
      await phone.screenshot({ path: `${artifacts}/comments-phone-one-panel.png` });
      await phone.getByRole('button', { name: 'Pages' }).click();
      await pages.waitFor();
      await comments.waitFor({ state: 'detached' });
    });
  });
});

// The card of an open thread among the rest of the screen: beside the Comments and History panels
// on a wide screen, never under or over them; on a phone, under a menu opened after it.
describe('comments: the thread card and what else is open', () => {
  const app = withApp();
  let dee: Page;
  before(async () => {
    dee = (await newUser(app, 'Dee')).page;
  });

  /** A sticky at board-area (x, y) and a thread on it, posted: its card stays open. */
  async function threadOnSticky(page: Page, x: number, y: number, text: string) {
    await place(page, 'Sticky note', x, y);
    await page.keyboard.type('Note');
    await page.keyboard.press('Escape');
    await page.keyboard.press('c');
    const sticky = (await shapes(page, 'sticky').last().boundingBox())!;
    await page.mouse.click(sticky.x + sticky.width / 2, sticky.y + sticky.height / 2);
    const field = page.getByRole('dialog', { name: 'New comment' }).getByLabel('Comment');
    await field.fill(text);
    await field.press('Enter');
    await card(page).getByText(text).waitFor();
  }
  const intersect = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  it('on a wide screen the open thread sits beside the Comments and History panels, not over them', async () => {
    await createBoard(dee, 'Cards');
    // Right of the middle: the card, to the right of the pin, reached into where the panel opens.
    await threadOnSticky(dee, 760, 420, 'Beside the panel');
    for (const [button, name] of [
      ['Comments', 'Comments panel'],
      ['History', 'Version history'],
    ] as const) {
      await dee.getByRole('button', { name: button, exact: true }).click();
      const panel = dee.getByRole('complementary', { name });
      await panel.waitFor();
      // Opened from the panel too (Comments), or left open as the panel opens (History).
      if (button === 'Comments') await panel.getByRole('button', { name: /Beside the panel/ }).click();
      await card(dee).waitFor();
      const cardBox = (await card(dee).boundingBox())!;
      const panelBox = (await panel.boundingBox())!;
      assert.ok(
        !intersect(cardBox, panelBox),
        `the card (${cardBox.x}–${cardBox.x + cardBox.width}) is clear of the ${name} (${panelBox.x}–${panelBox.x + panelBox.width})`,
      );
      assert.ok(cardBox.x >= 0, 'the card is on screen');
      assert.deepEqual(await covered(card(dee).getByRole('button', { name: 'Close thread' })), []);
      await dee.screenshot({ path: `${artifacts}/comments-card-beside-${button}.png` });
    }
  });

  it('on a phone, the Timer opened after posting a comment is above its thread card, its controls clickable', async () => {
    await onPhone(app, dee, async (phone) => {
      failOnPageErrors(phone, 'Dee on a phone');
      // Low enough that the card, below its pin, reaches down to where the Timer opens.
      await threadOnSticky(phone, 195, 500, 'Over the timer');
      await phone.getByRole('button', { name: 'Timer', exact: true }).click();
      const timer = phone.getByRole('region', { name: 'Timer controls' });
      await timer.waitFor();
      await phone.screenshot({ path: `${artifacts}/comments-phone-timer.png` });
      assert.deepEqual(await covered(timer.locator('button, input')), [], 'every Timer control is on top');
      await timer
        .getByRole('button', { name: /^Start \d+ min$/ })
        .first()
        .click();
      await timer.getByRole('button', { name: 'Pause', exact: true }).waitFor();
      assert.deepEqual(
        await covered(timer.locator('button, input')),
        [],
        'and so are those of the running timer',
      );
    });
  });
});
