// Version history in Chromium: two people edit, the owner opens History, previews an
// older version read-only, restores it and the other person sees it live; then the owner undoes
// the other person's changes since a time. Screenshots of the panel and the preview banner go to
// test-artifacts/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  answerConfirm,
  artifacts,
  canvas,
  covered,
  createBoard,
  exported,
  newUser,
  place,
  shapes,
  sharedBoard,
  until,
  withApp,
} from './helpers.ts';

const count = async (page: Page) => shapes(page).count();
/** Waits until each page says "All changes saved": the server confirmed its edits are in the Store. */
const stored = (...pages: Page[]) =>
  Promise.all(pages.map((page) => page.locator('[data-saved="saved"]').waitFor()));
/** Waits until the live region that speaks for the selection says `text`. */
const untilSaid = (page: Page, text: string) =>
  until(
    async () => (await page.locator('[data-selection-announcer]').textContent()) === text,
    `the live region says “${text}”`,
  );

describe('version history in the browser', () => {
  let ada: Page;
  let bo: Page;

  const app = withApp();
  before(async () => {
    ada = (await newUser(app, 'Ada')).page;
    bo = (await newUser(app, 'Bo')).page;
  });
  /** Each test on a board of its own, made by Ada and opened by Bo through an edit link. */
  async function boardForBoth(title: string, viewers: Page[] = []) {
    await ada.goto('/boards');
    await sharedBoard(ada, title, { editors: [bo], viewers });
  }

  it('preview an older version, restore it, and the other person sees it live', async () => {
    await boardForBoth('Retro');
    await place(ada, 'Rectangle', 300, 300);
    await ada.keyboard.press('Escape');
    await place(bo, 'Ellipse', 600, 300);
    await bo.keyboard.press('Escape');
    await until(async () => (await count(ada)) === 2 && (await count(bo)) === 2, 'two shapes for both');

    // A named version of the two-shape board.
    await ada.keyboard.press('Control+Alt+KeyH');
    const panel = ada.getByRole('complementary', { name: 'Version history' });
    await panel.waitFor();
    await ada.getByLabel('Version name').fill('Two shapes');
    // The edits are stored before the version is taken.
    await stored(ada, bo);
    await ada.getByRole('button', { name: 'Save version' }).click();
    await panel.getByText('Two shapes').waitFor();

    // Bo adds two more; Ada's canvas shows four.
    await place(bo, 'Diamond', 450, 500);
    await bo.keyboard.press('Escape');
    await place(bo, 'Sticky note', 700, 550);
    await bo.keyboard.press('Escape');
    await until(async () => (await count(ada)) === 4, 'four shapes on Ada’s board');

    // Preview the named version: read-only, with the banner.
    await panel.getByRole('button', { name: /Two shapes/ }).click();
    const banner = ada.getByRole('status').filter({ hasText: 'Viewing the board as it was at' });
    await banner.waitFor();
    await until(async () => (await count(ada)) === 2, 'the preview shows the version');
    assert.equal(await count(bo), 4, 'Bo still sees the live board');
    assert.ok(await ada.getByRole('button', { name: 'Restore this version' }).isVisible());
    assert.ok(await ada.getByRole('button', { name: 'Back to live' }).isVisible());
    await ada.screenshot({ path: join(artifacts, 'history-preview.png') });

    // Back to live, then preview again and restore.
    await ada.getByRole('button', { name: 'Back to live' }).click();
    await until(async () => (await count(ada)) === 4, 'live again');
    await panel.getByRole('button', { name: /Two shapes/ }).click();
    await banner.waitFor();
    // Restoring asks first; declining changes nothing.
    const declined = await answerConfirm(
      ada,
      ada.getByRole('button', { name: 'Restore this version' }),
      false,
    );
    assert.match(declined, /^The board goes back to how it was at .+, for everyone at once\./);
    assert.equal(await count(bo), 4, 'nothing restored when declined');
    await answerConfirm(ada, ada.getByRole('button', { name: 'Restore this version' }), 'Restore');
    await banner.waitFor({ state: 'detached' });
    await until(async () => (await count(bo)) === 2, 'Bo sees the restore live');
    await until(async () => (await count(ada)) === 2, 'Ada’s live board restored');
    await panel.getByText(/^Restored Two shapes/).waitFor();
    // The panel ends above the zoom bar with room between them (it touched it, by half a pixel).
    const panelBox = await panel.boundingBox();
    const zoomBox = await ada.getByRole('toolbar', { name: 'Zoom' }).boundingBox();
    assert.ok(panelBox && zoomBox);
    assert.ok(
      zoomBox.y - (panelBox.y + panelBox.height) >= 6,
      `${zoomBox.y - (panelBox.y + panelBox.height)} px between`,
    );
    await ada.screenshot({ path: join(artifacts, 'history-panel.png') });

    // Ctrl+Z after the restore takes back nobody's older edit: Ada's rectangle and Bo's ellipse
    // (each one's own first edit, under the restore) stay. A restore is taken back in History.
    for (const page of [ada, bo]) {
      await canvas(page).focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press('Control+z');
    }
    // Edits made after the restore are undone as before: a diamond Ada draws now, then Ctrl+Z.
    await place(ada, 'Diamond', 800, 200);
    await ada.keyboard.press('Escape');
    await ada.locator('[data-shape-type="diamond"]').waitFor();
    assert.equal(await count(ada), 3, 'the two restored shapes and the new diamond');
    await until(async () => (await count(bo)) === 3, 'Bo sees the diamond');
    await canvas(ada).focus();
    await ada.keyboard.press('Control+z');
    await ada.locator('[data-shape-type="diamond"]').waitFor({ state: 'detached' });
    await until(async () => (await count(bo)) === 2, 'Bo sees the diamond go');
    assert.equal(await count(ada), 2, 'the restored rectangle and ellipse stay');
    assert.equal(await ada.locator('[data-shape-type="rect"]').count(), 1);
    assert.equal(await bo.locator('[data-shape-type="ellipse"]').count(), 1);
  });

  it('Enter and Tab during a preview walk the shapes of the version shown, not the live board', async () => {
    await ada.goto('/boards');
    await createBoard(ada, 'Tab through the past');
    // The version holds a rectangle only.
    await place(ada, 'Rectangle', 500, 400);
    await ada.keyboard.press('Escape');
    await until(async () => (await count(ada)) === 1, 'the rectangle is drawn');
    await ada.keyboard.press('Control+Alt+KeyH');
    const panel = ada.getByRole('complementary', { name: 'Version history' });
    await panel.waitFor();
    await ada.getByLabel('Version name').fill('Only the rectangle');
    await stored(ada);
    await ada.getByRole('button', { name: 'Save version' }).click();
    await panel.getByText('Only the rectangle').waitFor();

    // The live board then holds an ellipse only: the rectangle is not on it any more.
    await canvas(ada).focus();
    await ada.keyboard.press('Control+a');
    await ada.keyboard.press('Delete');
    await until(async () => (await count(ada)) === 0, 'the rectangle is deleted');
    await place(ada, 'Ellipse', 200, 200);
    await ada.keyboard.press('Escape');
    await until(async () => (await count(ada)) === 1, 'the ellipse is drawn');

    await panel.getByRole('button', { name: /Only the rectangle/ }).click();
    await ada.getByRole('status').filter({ hasText: 'Viewing the board as it was at' }).waitFor();
    await ada.locator('[data-shape-type="rect"]').waitFor();
    await canvas(ada).focus();
    await ada.keyboard.press('Escape');
    // Enter (nothing selected) and then Tab select the rectangle on screen, not the live ellipse.
    await ada.keyboard.press('Enter');
    await untilSaid(ada, 'Selected: Rectangle, 1 of 1');
    await ada.keyboard.press('Tab');
    await untilSaid(ada, 'Selected: Rectangle, 1 of 1');
    assert.equal(await ada.locator('[data-selected-id]').count(), 1, 'the rectangle is outlined');
    await ada.getByRole('button', { name: 'Back to live' }).click();
  });

  it("the owner undoes all of Bo's changes since a time", async () => {
    const vi = (await newUser(app, 'Vi', { guest: true })).page;
    await boardForBoth('Undo Bo', [vi]);
    // Bo's shape from before `since` stays.
    await place(bo, 'Ellipse', 600, 300);
    await bo.keyboard.press('Escape');
    await until(async () => (await count(ada)) === 1 && (await count(bo)) === 1, 'one shape for both');
    await stored(ada, bo);
    // Kept on purpose: `since` must fall strictly between the times of the edits before and after
    // it, to the second the revert works at, so real time has to pass on each side.
    await new Promise((r) => setTimeout(r, 1100));
    const since = new Date();
    await new Promise((r) => setTimeout(r, 1100));
    await place(bo, 'Diamond', 450, 500);
    await bo.keyboard.press('Escape');
    await place(bo, 'Rectangle', 800, 200);
    await bo.keyboard.press('Escape');
    await place(ada, 'Ellipse', 200, 550);
    await ada.keyboard.press('Escape');
    await until(async () => (await count(ada)) === 4 && (await count(bo)) === 4, 'four shapes for both');
    await stored(ada, bo);
    await ada.keyboard.press('Control+Alt+KeyH');
    await ada.getByRole('complementary', { name: 'Version history' }).waitFor();
    // Nothing recorded yet (a version is kept after HISTORY_INTERVAL_S of editing): said, with when.
    await ada
      .getByRole('list', { name: 'Versions' })
      .getByText(
        'No versions yet: one is kept after every few minutes of editing, and “Save version” keeps one now.',
      )
      .waitFor();

    const people = ada.getByRole('region', { name: "Undo one person's changes" });
    const undoBo = people.getByRole('button', { name: "Undo all of Bo's changes since…" });
    // The button is whole inside the panel, and the panel leaves the facilitation bar uncovered.
    const panel = (await ada.getByRole('complementary', { name: 'Version history' }).boundingBox())!;
    const button = (await undoBo.boundingBox())!;
    assert.ok(button.x + button.width <= panel.x + panel.width, 'the button ends inside the panel');
    assert.equal(
      await undoBo.evaluate((el) => el.scrollWidth <= el.clientWidth + 1),
      true,
      'its text is not cut',
    );
    const vote = (await ada.getByRole('button', { name: 'Vote', exact: true }).boundingBox())!;
    const under = await ada.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.getAttribute('aria-label') ?? null,
      { x: vote.x + vote.width / 2, y: vote.y + vote.height / 2 },
    );
    assert.equal(under, 'Vote', 'the History panel does not cover the facilitation bar');
    await undoBo.click();
    // A viewer cannot edit, so there is nothing of theirs to undo.
    assert.equal(await people.getByRole('button', { name: /Vi's changes/ }).count(), 0);
    const p = (n: number) => String(n).padStart(2, '0');
    const local = `${since.getFullYear()}-${p(since.getMonth() + 1)}-${p(since.getDate())}T${p(since.getHours())}:${p(since.getMinutes())}`;
    // datetime-local has minute precision; Bo's earlier shape was made more than a second before
    // `since`, but may share its minute, so give the exact time through the field's seconds.
    await ada.getByLabel('Since').fill(`${local}:${p(since.getSeconds())}`);
    await ada.screenshot({ path: join(artifacts, 'history-undo-person.png') });
    const asked = await answerConfirm(
      ada,
      ada.getByRole('button', { name: "Undo Bo's changes" }),
      'Undo all',
    );
    // It says how much it will undo: Bo's diamond and rectangle, counted by the server.
    assert.match(asked, /^Bo's changes since .+ are undone, on 2 shapes\./);
    await until(
      async () => (await count(bo)) === 2 && (await count(ada)) === 2,
      'Bo’s two shapes gone for both',
    );
    assert.equal(await shapes(ada, 'ellipse').count(), 2, "Ada's ellipse kept");
    // Bo is told, live, who undid his changes and how many; Ada (who did it) is not.
    const told = bo
      .getByRole('status')
      .filter({ hasText: /^Ada undid your changes since .+, on 2 shapes\.$/ });
    await told.waitFor();
    await bo.screenshot({ path: join(artifacts, 'history-changes-undone.png') });
    assert.equal(await ada.getByRole('status').filter({ hasText: 'undid your changes' }).count(), 0);
    // The revert's entry says in words what its figures mean: as its name and as its tooltip.
    const entry = ada.getByRole('button', { name: /Undid Bo's changes since .+ 2 shapes removed/ });
    await entry.waitFor();
    assert.equal(await entry.locator('.history-stats').getAttribute('title'), '2 shapes removed');
    await entry.locator('.history-stats').hover();
    await ada.screenshot({ path: join(artifacts, 'history-stats-words.png') });
  });

  it('the menus of the top bar open over the History and Comments panels, every item clickable', async () => {
    await boardForBoth('Menus');
    await place(ada, 'Rectangle', 300, 300);
    await ada.keyboard.press('Escape');
    const menu = ada.getByRole('menu');
    const items = menu.locator('[role^="menuitem"]');
    for (const [button, panel] of [
      ['History', 'Version history'],
      ['Comments', 'Comments panel'],
    ] as const) {
      await ada.getByRole('button', { name: button, exact: true }).click();
      await ada.getByRole('complementary', { name: panel }).waitFor();
      // Export and Templates open down the right, where the panel is: each of their items is what
      // a click at its centre reaches.
      for (const opener of ['Export', 'Templates']) {
        await ada.getByRole('button', { name: opener, exact: true }).click();
        await items.first().waitFor();
        assert.deepEqual(await covered(items), [], `${opener}'s items over the ${panel}`);
        if (opener === 'Export')
          await ada.screenshot({ path: join(artifacts, `history-export-over-${button}.png`) });
        await ada.keyboard.press('Escape');
        await menu.waitFor({ state: 'detached' });
      }
    }
    // And the export itself works with History open (its JSON item was under the panel).
    await ada.getByRole('button', { name: 'History', exact: true }).click();
    await ada.getByRole('complementary', { name: 'Version history' }).waitFor();
    const json = JSON.parse((await exported(ada, 'Board as JSON')).toString('utf8'));
    assert.equal(json.shapes.length, 1, 'the board exported with its rectangle');

    // On a phone the panel takes the width under the top bar: the More menu and the "+1" menu of
    // the people on the board (Bo) open over it.
    await ada.setViewportSize({ width: 390, height: 844 });
    try {
      const more = ada.getByRole('button', { name: 'More', exact: true });
      await more.click();
      await ada.locator('.fold-items').getByRole('button', { name: 'Export', exact: true }).waitFor();
      assert.deepEqual(await covered(ada.locator('.fold-items button')), [], 'More’s items over History');
      await ada.screenshot({ path: join(artifacts, 'history-phone-more.png') });
      await more.click();
      await ada.getByRole('button', { name: '1 more person on this board', exact: true }).click();
      await items.first().waitFor();
      assert.deepEqual(await covered(items), [], 'the people menu over History');
      await ada.screenshot({ path: join(artifacts, 'history-phone-people.png') });
      await ada.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
    } finally {
      await ada.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
