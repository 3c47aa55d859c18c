// The board's context menu: right-click on a shape or on empty canvas, Shift+F10 with the
// keyboard, what a viewer is offered, and its place near the window's edges; its Comment starts
// a thread on the note or at the point it was opened on, for those who may comment.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  boardArea,
  canvas,
  focused,
  joinByLink,
  newUser,
  place,
  shapes,
  sharedBoard,
  shareLink,
  until,
  withApp,
} from './helpers.ts';

const menu = (page: Page) => page.getByRole('menu', { name: /^(Selection|Board) menu$/ });
const items = (page: Page) =>
  menu(page)
    .getByRole('menuitem')
    .evaluateAll((list) => list.map((b) => (b as HTMLButtonElement).textContent?.trim() ?? ''));
const names = async (page: Page) =>
  (await menu(page).getByRole('menuitem').allInnerTexts()).map((t) => t.split('\n')[0]!.trim());
const shapeCount = async (page: Page) => Number(await canvas(page).getAttribute('data-shape-count'));
const selectedCount = (page: Page) => page.locator('[data-selected-id]').count();

describe('context menu', () => {
  let ann: Page;
  let ben: Page;
  let vic: Page;
  let cal: Page;
  let boardId: string;

  const app = withApp();
  before(async () => {
    ann = (await newUser(app, 'Ann')).page;
    ben = (await newUser(app, 'Ben')).page;
    vic = (await newUser(app, 'Vic')).page;
    cal = (await newUser(app, 'Cal')).page;
    boardId = await sharedBoard(ann, 'Menus', { editors: [ben], viewers: [vic] });
    // Cal may comment but not edit (docs/api.md §18).
    await joinByLink(cal, await shareLink(ann, 'can comment'), boardId, 'read-only');
  });

  it('a right-click on a note selects it and opens its menu; Delete removes it for everyone', async () => {
    await place(ann, 'Sticky note', 300, 300);
    await ann.keyboard.press('Escape');
    await until(async () => (await shapeCount(ben)) === 1, 'Ben sees the note');
    await ann.keyboard.press('Escape'); // nothing selected: the right-click must select it
    await shapes(ann, 'sticky').click({ button: 'right' });
    await ann.getByRole('menu', { name: 'Selection menu' }).waitFor();
    assert.equal(await selectedCount(ann), 1, 'the note is selected');
    const shown = await names(ann);
    for (const name of ['Cut', 'Copy', 'Paste', 'Duplicate', 'Delete', 'Bring to front', 'Send to back'])
      assert.ok(shown.includes(name), `${name} is in the menu (${shown.join(', ')})`);
    // Each item shows its key, from the shortcut list.
    assert.ok((await items(ann)).some((t) => t.includes('Delete') && t.includes('Ctrl') === false));
    assert.equal(
      await menu(ann).getByRole('menuitem', { name: 'Duplicate' }).getAttribute('aria-keyshortcuts'),
      'Ctrl+D',
    );
    // Group needs two shapes: shown, but disabled.
    assert.equal(await menu(ann).getByRole('menuitem', { name: 'Group', exact: true }).isDisabled(), true);
    await ann.screenshot({ path: `${artifacts}/context-menu-shape.png` });
    await menu(ann).getByRole('menuitem', { name: 'Delete' }).click();
    await until(async () => (await shapeCount(ann)) === 0, 'the note is gone');
    await until(async () => (await shapeCount(ben)) === 0, 'Ben sees the note gone');
    assert.equal(await menu(ann).count(), 0, 'the menu closed');
  });

  it('a right-click on empty canvas selects nothing, and its Select all selects every shape', async () => {
    await place(ann, 'Rectangle', 300, 300);
    await place(ann, 'Rectangle', 500, 300);
    await until(async () => (await shapeCount(ann)) === 2, 'two rectangles');
    await boardArea(ann).click({ button: 'right', position: { x: 700, y: 550 } });
    await ann.getByRole('menu', { name: 'Board menu' }).waitFor();
    assert.equal(await selectedCount(ann), 0, 'nothing selected');
    assert.deepEqual(await names(ann), [
      'Paste here',
      'Select all',
      'Comment',
      'Zoom to fit',
      'Undo',
      'Redo',
    ]);
    await menu(ann).getByRole('menuitem', { name: 'Select all' }).click();
    await until(async () => (await selectedCount(ann)) === 2, 'both rectangles selected');
  });

  it('Shift+F10 opens it with the keyboard; arrows and Enter run an item; Escape gives focus back', async () => {
    await canvas(ann).focus();
    await ann.keyboard.press('Escape');
    await shapes(ann, 'rect').first().click();
    await until(async () => (await selectedCount(ann)) === 1, 'one rectangle selected');
    await ann.keyboard.press('Shift+F10');
    await ann.getByRole('menu', { name: 'Selection menu' }).waitFor();
    await until(async () => (await focused(ann)).startsWith('menuitem Cut'), 'focus on the first item');
    // The board's own keys do not see the menu's: Delete here must not delete the rectangle.
    await ann.keyboard.press('Delete');
    assert.equal(await shapeCount(ann), 2, 'Delete in the menu deleted nothing');
    await ann.keyboard.press('End');
    await until(async () => (await focused(ann)).startsWith('menuitem Zoom to selection'), 'End: last item');
    await ann.keyboard.press('Home');
    // Cut, Copy, Paste, Duplicate.
    for (let i = 0; i < 3; i++) await ann.keyboard.press('ArrowDown');
    await until(async () => (await focused(ann)).startsWith('menuitem Duplicate'), 'on Duplicate');
    await ann.keyboard.press('Enter');
    await until(async () => (await shapeCount(ann)) === 3, 'Duplicate made a copy');
    assert.equal(await menu(ann).count(), 0, 'the menu closed');
    await ann.keyboard.press('Shift+F10');
    await menu(ann).waitFor();
    await ann.keyboard.press('Escape');
    await until(async () => (await menu(ann).count()) === 0, 'Escape closed it');
    assert.equal(await focused(ann), 'application Board canvas');
    assert.equal(await selectedCount(ann), 1, 'Escape in the menu kept the selection');
  });

  it('a pan or zoom closes it', async () => {
    await boardArea(ann).click({ button: 'right', position: { x: 700, y: 550 } });
    await menu(ann).waitFor();
    await ann.mouse.wheel(0, 200);
    await until(async () => (await menu(ann).count()) === 0, 'the wheel closed it');
  });

  it('a viewer gets only the items that do not edit', async () => {
    await until(async () => (await shapeCount(vic)) === 3, 'Vic sees the shapes');
    await boardArea(vic).click({ button: 'right', position: { x: 700, y: 550 } });
    await vic.getByRole('menu', { name: 'Board menu' }).waitFor();
    // No Comment either: a viewer reads comments, and cannot write them.
    assert.deepEqual(await names(vic), ['Select all', 'Zoom to fit']);
    // Zoom to fit, from the menu, brings Ann's shapes into Vic's view.
    await menu(vic).getByRole('menuitem', { name: 'Zoom to fit' }).click();
    await until(async () => (await menu(vic).count()) === 0, 'the menu closed');
    await shapes(vic, 'rect').last().click({ button: 'right' });
    await vic.getByRole('menu', { name: 'Selection menu' }).waitFor();
    assert.deepEqual(await names(vic), ['Copy', 'Copy as PNG', 'Zoom to selection']);
    await vic.keyboard.press('Escape');
  });

  it('near the right and bottom edges it flips to stay inside the window', async () => {
    const view = ann.viewportSize()!;
    // Clear of the zoom controls and status bar in the bottom corner; the menu is taller than
    // the room left below the point, so it flips up too.
    const at = { x: view.width - 20, y: view.height - 140 };
    await ann.mouse.click(at.x, at.y, { button: 'right' });
    await menu(ann).waitFor();
    const box = (await menu(ann).boundingBox())!;
    assert.ok(box.x >= 0 && box.y >= 0, 'inside on the top left');
    assert.ok(box.x + box.width <= view.width, `inside on the right (${box.x + box.width} ≤ ${view.width})`);
    assert.ok(
      box.y + box.height <= view.height,
      `inside at the bottom (${box.y + box.height} ≤ ${view.height})`,
    );
    // Flipped: it ends at the pointer rather than starting there.
    assert.ok(box.x + box.width <= at.x + 1 && box.y + box.height <= at.y + 1, 'opened up and to the left');
    await ann.screenshot({ path: `${artifacts}/context-menu-edge.png` });
    await ann.keyboard.press('Escape');
  });
  it('Undo and Redo are greyed while there is nothing to undo or redo, in the menu and the toolbar', async () => {
    // Ben has changed nothing yet: his undo history (the toolbar's, Ctrl+Z's) is empty.
    const spot = { x: 700, y: 550 };
    const toolbar = (name: string) => ben.getByRole('button', { name, exact: true }).isDisabled();
    const undoRedo = async () => {
      const inMenu = {
        undo: await menu(ben).getByRole('menuitem', { name: 'Undo' }).isDisabled(),
        redo: await menu(ben).getByRole('menuitem', { name: 'Redo' }).isDisabled(),
      };
      // The toolbar's buttons say the same.
      assert.deepEqual(
        { undo: await toolbar('Undo'), redo: await toolbar('Redo') },
        inMenu,
        'the toolbar agrees',
      );
      return inMenu;
    };
    await until(async () => (await shapeCount(ben)) === 3, 'Ben sees the shapes');
    await boardArea(ben).click({ button: 'right', position: spot });
    await ben.getByRole('menu', { name: 'Board menu' }).waitFor();
    assert.deepEqual(await undoRedo(), { undo: true, redo: true }, 'nothing to undo or redo');
    await ben.screenshot({ path: `${artifacts}/context-menu-nothing-to-undo.png` });
    await ben.keyboard.press('Escape');
    await place(ben, 'Sticky note', 200, 500);
    await until(async () => (await shapeCount(ben)) === 4, 'Ben’s note');
    await ben.keyboard.press('Escape');
    await boardArea(ben).click({ button: 'right', position: spot });
    await menu(ben).waitFor();
    assert.deepEqual(await undoRedo(), { undo: false, redo: true }, 'his note can be undone');
    await menu(ben).getByRole('menuitem', { name: 'Undo' }).click();
    await until(async () => (await shapeCount(ben)) === 3, 'Undo took the note away');
    await boardArea(ben).click({ button: 'right', position: spot });
    await menu(ben).waitFor();
    assert.deepEqual(await undoRedo(), { undo: true, redo: false }, 'the note can be redone, nothing undone');
    await ben.keyboard.press('Escape');
  });

  it('a Ctrl+click opens it on a Mac, and is a click elsewhere', async () => {
    await ann.keyboard.press('Escape');
    await until(async () => (await selectedCount(ann)) === 0, 'nothing selected');
    await shapes(ann, 'rect')
      .last()
      .click({ modifiers: ['Control'] });
    await ann.waitForTimeout(300);
    assert.equal(await menu(ann).count(), 0, 'on Linux a Ctrl+click opens no menu');
    await ann.keyboard.press('Escape');
    // Stands in for a Mac: the menu reads navigator.platform at the click (a string, not a
    // function, since the test's build names functions with a helper the page lacks).
    const platform = (mac: boolean) =>
      ann.evaluate(
        mac
          ? "Object.defineProperty(navigator, 'platform', { value: 'MacIntel', configurable: true })"
          : 'delete navigator.platform',
      );
    await platform(true);
    try {
      await shapes(ann, 'rect')
        .last()
        .click({ modifiers: ['Control'] });
      await ann.getByRole('menu', { name: 'Selection menu' }).waitFor();
      assert.equal(await selectedCount(ann), 1, 'the rectangle is selected, as a right-click does');
      await ann.keyboard.press('Escape');
      await boardArea(ann).click({ modifiers: ['Control'], position: { x: 700, y: 550 } });
      await ann.getByRole('menu', { name: 'Board menu' }).waitFor();
      await ann.keyboard.press('Escape');
    } finally {
      await platform(false);
    }
  });

  it('owns the keyboard while open: Shift+Alt+C, a tool key or Ctrl+A run nothing on the board', async () => {
    await canvas(ann).focus();
    await ann.keyboard.press('Escape');
    await shapes(ann, 'rect').last().click();
    await until(async () => (await selectedCount(ann)) === 1, 'one rectangle selected');
    await ann.keyboard.press('Shift+F10');
    await menu(ann).waitFor();
    await ann.keyboard.press('Shift+Alt+C');
    await ann.keyboard.press('r');
    await ann.keyboard.press('Control+a');
    await ann.waitForTimeout(500);
    assert.equal(await ann.getByText(/as a picture|copied/i).count(), 0, 'no picture was copied');
    assert.equal(
      await ann.getByRole('button', { name: 'Rectangle', exact: true }).getAttribute('aria-pressed'),
      'false',
      'R picked no tool',
    );
    assert.equal(await selectedCount(ann), 1, 'Ctrl+A selected nothing more');
    assert.equal(await menu(ann).count(), 1, 'the menu is still open');
    await ann.keyboard.press('Escape');
    await until(async () => (await menu(ann).count()) === 0, 'Escape closed it');
    // Closed, the keys are the board's again.
    await ann.keyboard.press('Shift+Alt+C');
    await ann.getByText('Copied the selection as a picture.').waitFor();
  });
  it('Comment starts a thread on the note right-clicked, or at the point on empty canvas', async () => {
    type Thread = { anchor: { shapeId?: string; x?: number; y?: number }; comments: { body: string }[] };
    const threads = () =>
      ann.evaluate(
        async (id) =>
          ((await (await fetch(`/api/boards/${id}/threads`)).json()) as { threads: Thread[] }).threads,
        boardId,
      );
    const pins = ann.locator('.comment-pin:not(.draft)');
    const composer = (page: Page) => page.getByRole('dialog', { name: 'New comment' }).getByLabel('Comment');
    const thread = ann.getByRole('region', { name: 'Comment thread' });
    await canvas(ann).focus();
    await ann.keyboard.press('Escape');
    const area = (await boardArea(ann).boundingBox())!;

    // On empty canvas: at the board point under the pointer.
    const spot = { x: 750, y: 450 };
    await boardArea(ann).click({ button: 'right', position: spot });
    await ann.getByRole('menu', { name: 'Board menu' }).waitFor();
    const item = menu(ann).getByRole('menuitem', { name: 'Comment' });
    // Its key is the Comment tool's, from the one shortcut list.
    assert.equal(await item.getAttribute('aria-keyshortcuts'), 'C');
    await item.click();
    await composer(ann).waitFor();
    assert.equal(await composer(ann).getAttribute('placeholder'), 'Add a comment…');
    // The field has the caret: typing goes into it, not to the board's keys.
    await ann.keyboard.type('Room for a legend here');
    assert.equal(await composer(ann).inputValue(), 'Room for a legend here');
    await ann.keyboard.press('Enter');
    await thread.waitFor();
    await until(async () => (await pins.count()) === 1, 'a pin for the thread');
    let list = await threads();
    assert.equal(list.length, 1);
    assert.equal(list[0]!.anchor.shapeId, undefined, 'at a point, on no shape');
    assert.equal(list[0]!.comments[0]!.body, 'Room for a legend here');
    // The pin stands at the point right-clicked (up and to the right of it, as every pin does).
    const pin = (await pins.first().boundingBox())!;
    assert.ok(
      Math.abs(pin.x - 8 - (area.x + spot.x)) < 3 && Math.abs(pin.y + 36 - (area.y + spot.y)) < 3,
      `the pin at the point (${pin.x}, ${pin.y} for ${area.x + spot.x}, ${area.y + spot.y})`,
    );
    assert.equal(
      await ann.getByRole('button', { name: 'Comment', exact: true }).getAttribute('aria-pressed'),
      'false',
      'posted, the tool is Select again, as after the Comment tool’s thread',
    );

    // On a note: the thread is anchored to it, and its pin follows it.
    await place(ann, 'Sticky note', 250, 450);
    await ann.keyboard.press('Escape');
    await ann.keyboard.press('Escape');
    const note = shapes(ann, 'sticky');
    const noteId = await note.getAttribute('data-shape-id');
    await note.click({ button: 'right' });
    await ann.getByRole('menu', { name: 'Selection menu' }).waitFor();
    assert.deepEqual((await names(ann)).slice(0, 6), [
      'Cut',
      'Copy',
      'Paste',
      'Duplicate',
      'Delete',
      'Comment',
    ]);
    await ann.screenshot({ path: `${artifacts}/context-menu-comment.png` });
    await menu(ann).getByRole('menuitem', { name: 'Comment' }).click();
    await composer(ann).waitFor();
    assert.equal(await composer(ann).getAttribute('placeholder'), 'Comment on this shape…');
    await ann.keyboard.type('Too close to the title?');
    await ann.screenshot({ path: `${artifacts}/context-menu-comment-composer.png` });
    await ann.keyboard.press('Enter');
    await until(async () => (await pins.count()) === 2, 'a second pin');
    list = await threads();
    const onNote = list.find((t) => t.comments[0]!.body === 'Too close to the title?');
    assert.equal(onNote?.anchor.shapeId, noteId, 'anchored to the note');
    // Its pin at the note's top-right corner, where a thread on a shape is pinned.
    const box = (await note.boundingBox())!;
    const pinOnNote = async () => {
      const all = await pins.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()));
      return all as { x: number; y: number }[];
    };
    const near = (p: { x: number; y: number }, b: { x: number; y: number; width: number }) =>
      Math.abs(p.x - 8 - (b.x + b.width)) < 4 && Math.abs(p.y + 36 - b.y) < 4;
    assert.ok(
      (await pinOnNote()).some((p) => near(p, box)),
      'a pin at the note’s corner',
    );
    // From the keyboard, on the one shape selected.
    await note.click();
    await ann.keyboard.press('Shift+F10');
    await menu(ann).getByRole('menuitem', { name: 'Comment' }).click();
    assert.equal(await composer(ann).getAttribute('placeholder'), 'Comment on this shape…');
    await ann.keyboard.press('Escape');
    await until(async () => (await composer(ann).count()) === 0, 'Escape closed the composer');
    assert.equal(
      await ann.getByRole('button', { name: 'Comment', exact: true }).getAttribute('aria-pressed'),
      'false',
      'cancelled, the tool is Select again: the next click selects rather than starting a thread',
    );
    const before = (await threads()).length;
    await note.click();
    assert.equal(await composer(ann).count(), 0, 'a click on the note after cancelling opens no composer');
    assert.equal((await threads()).length, before);

    // A commenter, on his read-only board, has it too and comments on the note.
    await until(async () => (await shapes(cal, 'sticky').count()) === 1, 'Cal sees the note');
    await canvas(cal).focus();
    await cal.keyboard.press('Shift+1');
    await shapes(cal, 'sticky').click({ button: 'right' });
    await cal.getByRole('menu', { name: 'Selection menu' }).waitFor();
    assert.deepEqual(await names(cal), ['Copy', 'Comment', 'Copy as PNG', 'Zoom to selection']);
    await menu(cal).getByRole('menuitem', { name: 'Comment' }).click();
    await composer(cal).waitFor();
    await cal.keyboard.type('Agreed');
    await cal.keyboard.press('Enter');
    await cal.getByRole('region', { name: 'Comment thread' }).waitFor();
    await until(async () => (await threads()).length === 3, 'Cal’s thread on the server');
    list = await threads();
    assert.equal(list.find((t) => t.comments[0]!.body === 'Agreed')?.anchor.shapeId, noteId);

    // A viewer has no Comment, on the note either.
    await until(async () => (await shapes(vic, 'sticky').count()) === 1, 'Vic sees the note');
    await canvas(vic).focus();
    await vic.keyboard.press('Shift+1');
    await shapes(vic, 'sticky').click({ button: 'right' });
    await vic.getByRole('menu', { name: 'Selection menu' }).waitFor();
    assert.deepEqual(await names(vic), ['Copy', 'Copy as PNG', 'Zoom to selection']);
    await vic.keyboard.press('Escape');
  });
});
