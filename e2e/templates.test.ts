// Templates (docs/api.md §19) and frames that behave (§14) in Chromium, as a facilitator runs a
// retro: a board started from Mad/Sad/Glad, two people adding notes in its frames, a frame saved
// as a shared template and inserted on another board (one Undo takes it away), a frame drawn by
// dragging, a marquee inside a frame that leaves the frame where it is, and a frame renamed by a
// double-click on its title. Screenshots at 1280×800 and 390×844 go to test-artifacts/templates-*.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import {
  artifacts,
  boardArea,
  createBoard,
  dragOnBoard,
  joinByLink,
  newUser,
  place,
  shapes,
  shareLink,
  until,
  waitStatus,
  withApp,
} from './helpers.ts';

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(artifacts, `templates-${name}.png`) });

/** The centre of `target`, relative to the board area (what `place` and clicks on it take). */
async function centreIn(page: Page, target: Locator, dx = 0, dy = 0): Promise<{ x: number; y: number }> {
  const area = (await boardArea(page).boundingBox())!;
  const box = (await target.boundingBox())!;
  return { x: box.x - area.x + box.width / 2 + dx, y: box.y - area.y + box.height / 2 + dy };
}

const frameNamed = (page: Page, name: string) =>
  page.locator('[data-frame-title]').filter({ has: page.locator('.frame-name', { hasText: name }) });
const frameBody = async (page: Page, name: string) => {
  const id = await frameNamed(page, name).getAttribute('data-frame-title');
  return page.locator(`[data-shape-id="${id}"]`);
};

async function addSticky(page: Page, at: { x: number; y: number }, text: string) {
  await place(page, 'Sticky note', at.x, at.y);
  await page.keyboard.type(text);
  await page.keyboard.press('Escape');
  await page.locator('[data-shape-type="sticky"] .shape-text', { hasText: text }).first().waitFor();
}

async function toast(page: Page, text: RegExp) {
  await page.locator('.toast[role="alert"]', { hasText: text }).waitFor();
  await page.locator('.toast[role="alert"]').getByRole('button', { name: 'Dismiss' }).click();
}

describe('templates and frames in a retro', () => {
  const app = withApp();
  let fay: Page;
  let ed: Page;
  before(async () => {
    fay = (await newUser(app, 'Fay')).page;
    ed = (await newUser(app, 'Ed')).page;
  });

  it('a facilitator starts from Mad/Sad/Glad, two people add notes, a frame becomes a shared template used on another board', async () => {
    // The "New board" gallery, at both sizes a person uses.
    await fay.getByLabel('New board title').fill('Sprint 12 retro');
    await fay.getByRole('button', { name: 'New board', exact: true }).click();
    const gallery = fay.getByRole('dialog', { name: 'New board' });
    await gallery.getByRole('button', { name: 'Use template Mad, Sad, Glad' }).waitFor();
    await shot(fay, 'gallery-1280');
    await fay.setViewportSize({ width: 390, height: 844 });
    await shot(fay, 'gallery-390');
    await fay.setViewportSize({ width: 1280, height: 800 });
    await gallery.getByRole('button', { name: 'Close' }).click();
    await gallery.waitFor({ state: 'detached' });
    assert.match(fay.url(), /\/boards$/, 'closing the gallery makes no board');

    const boardId = await createBoard(fay, 'Sprint 12 retro', 'Mad, Sad, Glad');
    await until(async () => (await shapes(fay, 'frame').count()) === 3, 'three frames');
    assert.deepEqual(await fay.locator('[data-frame-title] .frame-name').allTextContents(), [
      'Mad',
      'Sad',
      'Glad',
    ]);
    assert.equal(
      new URL(fay.url()).search,
      '',
      'the template parameter is gone, so a reload does not insert it again',
    );

    // Ed joins; each adds a note in the Mad frame, Ed one in Glad too.
    await joinByLink(ed, await shareLink(fay, 'can edit'), boardId);
    await until(async () => (await shapes(ed, 'frame').count()) === 3, 'Ed sees the three frames');
    await addSticky(fay, await centreIn(fay, await frameBody(fay, 'Mad'), 0, 60), 'Standups ran long');
    await addSticky(ed, await centreIn(ed, await frameBody(ed, 'Mad'), 0, 260), 'Flaky CI');
    await addSticky(ed, await centreIn(ed, await frameBody(ed, 'Glad'), 0, 60), 'Shipped search');
    await until(
      async () => (await fay.locator('.shape-text', { hasText: 'Flaky CI' }).count()) === 1,
      'Ed’s note reaches Fay',
    );
    await shot(fay, 'retro-1280');
    await fay.setViewportSize({ width: 390, height: 844 });
    await fay.getByRole('button', { name: 'Zoom to fit', exact: true }).click();
    await shot(fay, 'retro-390');
    // On a phone, Templates is folded behind More (FoldWhenCrowded.tsx).
    await fay.getByRole('button', { name: 'More', exact: true }).click();
    await fay.getByRole('button', { name: 'Templates' }).click();
    await fay.getByRole('menuitem', { name: 'Insert template…' }).waitFor();
    await shot(fay, 'menu-390');
    await fay.keyboard.press('Escape');
    await fay.setViewportSize({ width: 1280, height: 800 });

    // Fay takes hold of the Mad frame by its title and saves it as a shared template.
    await fay.getByRole('button', { name: 'Select', exact: true }).click();
    const madId = await frameNamed(fay, 'Mad').getAttribute('data-frame-title');
    const title = (await frameNamed(fay, 'Mad').locator('.frame-name').boundingBox())!;
    await fay.mouse.click(title.x + title.width / 2, title.y + title.height / 2);
    await fay.locator(`[data-selected-id="${madId}"]`).waitFor();
    await fay.getByRole('button', { name: 'Templates' }).click();
    await fay.getByRole('menuitem', { name: 'Save frame as template…' }).click();
    const save = fay.getByRole('dialog', { name: 'Save frame as template' });
    await save.getByLabel('Template name').fill('Our Mad column');
    // The field's name stands over its left edge, as every other form's does, not centred above it.
    const [nameLeft, fieldLeft] = await save.getByLabel('Template name').evaluate((input) => {
      const words = document.createRange();
      words.selectNodeContents(input.parentElement!.firstChild!);
      return [words.getBoundingClientRect().left, input.getBoundingClientRect().left];
    });
    assert.ok(Math.abs(nameLeft - fieldLeft) < 2, `the name at x ${nameLeft}, the field at x ${fieldLeft}`);
    await save.getByLabel('Share with everyone on this server').check();
    await save.getByText(/^5 shapes/).waitFor();
    await save.getByRole('button', { name: 'Save template' }).click();
    await toast(fay, /Saved the template “Our Mad column”, shared with everyone/);

    // Ed sees it in his gallery, by Fay.
    await ed.getByRole('button', { name: 'Templates' }).click();
    await ed.getByRole('menuitem', { name: 'Insert template…' }).click();
    const edGallery = ed.getByRole('dialog', { name: 'Insert template' });
    await edGallery
      .getByRole('button', { name: /Use template Our Mad column/ })
      .getByText('By Fay')
      .waitFor();
    await ed.keyboard.press('Escape');
    await edGallery.waitFor({ state: 'detached' });

    // On another board, Fay inserts it where she is looking; one Undo takes it all away.
    await fay.getByRole('link', { name: 'All boards' }).click();
    await createBoard(fay, 'Design review');
    await fay.getByRole('button', { name: 'Templates' }).click();
    await fay.getByRole('menuitem', { name: 'Insert template…' }).click();
    await fay
      .getByRole('dialog', { name: 'Insert template' })
      .getByRole('button', { name: /Use template Our Mad column/ })
      .click();
    await until(async () => (await shapes(fay).count()) === 5, 'the frame and its four shapes');
    assert.deepEqual(await fay.locator('[data-frame-title] .frame-name').allTextContents(), ['Mad']);
    for (const text of ['Standups ran long', 'Flaky CI'])
      assert.equal(await fay.locator('.shape-text', { hasText: text }).count(), 1, text);
    assert.equal(
      await fay.locator('.shape-text', { hasText: 'Shipped search' }).count(),
      0,
      'Glad stayed behind',
    );
    // Where she is looking: the frame is on screen.
    const frame = (await shapes(fay, 'frame').boundingBox())!;
    const area = (await boardArea(fay).boundingBox())!;
    assert.ok(frame.x >= area.x && frame.x + frame.width <= area.x + area.width, 'inside the view across');
    await toast(fay, /Inserted “Our Mad column”/);
    await fay.keyboard.press('Control+z');
    await until(async () => (await shapes(fay).count()) === 0, 'one Undo removes the whole template');
  });

  it('a frame is drawn by dragging, and a marquee inside it selects without moving the frame', async () => {
    await fay.goto('/boards');
    await createBoard(fay, 'Frames');
    await fay.keyboard.press('f');
    const frameButton = fay.getByRole('button', { name: 'Frame', exact: true });
    assert.equal(
      await frameButton.getAttribute('aria-pressed'),
      'true',
      'F with nothing selected picks the Frame tool',
    );
    await dragOnBoard(fay, { x: 250, y: 220 }, { x: 850, y: 620 });
    await until(async () => (await shapes(fay, 'frame').count()) === 1, 'a frame');
    const drawn = (await shapes(fay, 'frame').boundingBox())!;
    assert.ok(
      Math.abs(drawn.width - 600) < 4 && Math.abs(drawn.height - 400) < 4,
      `the size of the drag: ${drawn.width}×${drawn.height}`,
    );
    assert.equal(await frameButton.getAttribute('aria-pressed'), 'false', 'back to Select');

    await addSticky(fay, { x: 420, y: 400 }, 'Inside');
    await fay.getByRole('button', { name: 'Select', exact: true }).click();
    const frameId = await shapes(fay, 'frame').getAttribute('data-shape-id');
    const stickyId = await shapes(fay, 'sticky').getAttribute('data-shape-id');
    const before = await shapes(fay, 'frame').getAttribute('transform');
    await fay.keyboard.press('Escape');
    await dragOnBoard(fay, { x: 290, y: 270 }, { x: 600, y: 560 });
    await fay.locator(`[data-selected-id="${stickyId}"]`).waitFor();
    assert.equal(
      await fay.locator(`[data-selected-id="${frameId}"]`).count(),
      0,
      'the frame is not selected',
    );
    assert.equal(await shapes(fay, 'frame').getAttribute('transform'), before, 'the frame did not move');
    await shot(fay, 'marquee-1280');

    // Its border moves it.
    await fay.keyboard.press('Escape');
    await dragOnBoard(fay, { x: 850, y: 420 }, { x: 900, y: 420 });
    await until(
      async () => (await shapes(fay, 'frame').getAttribute('transform')) !== before,
      'the border moves the frame',
    );
    await waitStatus(fay, 'live');
  });

  it('a frame duplicated, copied or deleted takes its notes along; its copy lands beside it', async () => {
    await fay.goto('/boards');
    await createBoard(fay, 'Frames that carry');
    await fay.keyboard.press('f');
    await dragOnBoard(fay, { x: 200, y: 150 }, { x: 560, y: 450 });
    await until(async () => (await shapes(fay, 'frame').count()) === 1, 'a frame');
    await addSticky(fay, { x: 380, y: 300 }, 'Inside');
    await addSticky(fay, { x: 380, y: 640 }, 'Outside');
    await fay.getByRole('button', { name: 'Select', exact: true }).click();
    const original = (await shapes(fay, 'frame').boundingBox())!;
    const originalId = await shapes(fay, 'frame').getAttribute('data-shape-id');
    const inside = (await fay.locator('[data-shape-type="sticky"]', { hasText: 'Inside' }).boundingBox())!;
    const notes = (text: string) => fay.locator('[data-shape-type="sticky"]', { hasText: text });
    const selectFrame = async (at: number) => {
      const title = (await fay.locator('[data-frame-title] .frame-name').nth(at).boundingBox())!;
      await fay.mouse.click(title.x + title.width / 2, title.y + title.height / 2);
    };

    // Ctrl+D: a bare frame came, 24 units over the original and drawn above its note.
    await selectFrame(0);
    await fay.keyboard.press('Control+d');
    await until(async () => (await shapes(fay, 'frame').count()) === 2, 'the frame duplicated');
    await until(async () => (await notes('Inside').count()) === 2, 'with its note');
    assert.equal(await notes('Outside').count(), 1, 'what is outside it is not copied');
    const ids = await shapes(fay, 'frame').evaluateAll((els) =>
      els.map((el) => el.getAttribute('data-shape-id')),
    );
    const selected = await fay
      .locator('[data-selected-id]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-selected-id')));
    assert.equal(selected.length, 1, `the copy alone is selected: ${selected}`);
    assert.ok(ids.includes(selected[0]!) && selected[0] !== originalId, 'the copy of the frame');
    const copy = (await fay.locator(`[data-shape-id="${selected[0]}"]`).boundingBox())!;
    assert.ok(
      copy.x >= original.x + original.width,
      `beside the original: ${copy.x} ≥ ${original.x + original.width}`,
    );
    assert.ok(Math.abs(copy.y - original.y) < 2 && Math.abs(copy.width - original.width) < 2);
    const copiedNote = (await notes('Inside').nth(1).boundingBox())!;
    assert.ok(
      copiedNote.x > copy.x && copiedNote.x + copiedNote.width < copy.x + copy.width,
      'the copied note is inside the copy',
    );
    // The original note is not covered: a press on it finds it, not a frame.
    const hit = await fay.evaluate(
      ({ x, y }) =>
        document.elementFromPoint(x, y)?.closest('[data-shape-type]')?.getAttribute('data-shape-type'),
      { x: inside.x + inside.width / 2, y: inside.y + inside.height / 2 },
    );
    assert.equal(hit, 'sticky', 'the original note is on top, not under a frame');
    await shot(fay, 'frame-duplicated-1280');

    // Delete: the copy and its note go; one Undo brings both back. (After a pause longer than
    // the board's undo step, 400 ms, as a person's: else the duplicate and the delete are one.)
    await fay.waitForTimeout(600);
    await fay.keyboard.press('Delete');
    await until(async () => (await shapes(fay, 'frame').count()) === 1, 'the copy deleted');
    await until(async () => (await notes('Inside').count()) === 1, 'its note with it');
    assert.equal(await notes('Outside').count(), 1);
    await fay.waitForTimeout(600);
    await fay.keyboard.press('Control+z');
    await until(
      async () => (await shapes(fay, 'frame').count()) === 2 && (await notes('Inside').count()) === 2,
      'one Undo brings the frame and its note back',
    );
    await fay.keyboard.press('Control+z');
    await until(async () => (await shapes(fay, 'frame').count()) === 1, 'and the next takes the copy away');

    // Copy and paste: the pasted frame comes with its note.
    await selectFrame(0);
    await fay.keyboard.press('Control+c');
    const area = (await boardArea(fay).boundingBox())!;
    await fay.mouse.move(area.x + 950, area.y + 500);
    await fay.keyboard.press('Control+v');
    await until(
      async () => (await shapes(fay, 'frame').count()) === 2 && (await notes('Inside').count()) === 2,
      'the pasted frame brings its note',
    );
    await waitStatus(fay, 'live');
  });

  it("a double-click on a frame's title renames it; one inside its empty body writes text there", async () => {
    await fay.goto('/boards');
    await createBoard(fay, 'Sprint', 'Kanban');
    await until(async () => (await shapes(fay, 'frame').count()) === 3, 'the Kanban frames');
    const count = await shapes(fay).count();
    // By the mouse at the title: the canvas takes the pointer (its hit test finds the frame).
    const title = (await frameNamed(fay, 'Doing').locator('.frame-name').boundingBox())!;
    await fay.mouse.dblclick(title.x + title.width / 2, title.y + title.height / 2);
    const field = fay.getByLabel('Frame name', { exact: true });
    await field.waitFor();
    assert.equal(await field.inputValue(), 'Doing');
    assert.equal(await fay.getByLabel('Shape text').count(), 0, 'no text box over the title');
    await field.fill('In progress');
    await field.press('Enter');
    await frameNamed(fay, 'In progress').waitFor();
    assert.equal(await shapes(fay).count(), count, 'no new shape');
    await shot(fay, 'frame-renamed-1280');

    // Inside the frame, away from its prompt and starter note, a double-click is on the board.
    const body = (await (await frameBody(fay, 'In progress')).boundingBox())!;
    await fay.mouse.dblclick(body.x + body.width / 2, body.y + body.height - 40);
    await fay.getByLabel('Shape text').waitFor();
    await fay.keyboard.type('Review the embed');
    await fay.keyboard.press('Escape');
    await fay.locator('[data-shape-type="text"] .shape-text', { hasText: 'Review the embed' }).waitFor();
  });
});
