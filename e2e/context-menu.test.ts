// The board's context menu: right-click on a shape or on empty canvas, Shift+F10 with the
// keyboard, what a viewer is offered, and its place near the window's edges.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  boardArea,
  canvas,
  focused,
  newUser,
  place,
  shapes,
  sharedBoard,
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

  const app = withApp();
  before(async () => {
    ann = (await newUser(app, 'Ann')).page;
    ben = (await newUser(app, 'Ben')).page;
    vic = (await newUser(app, 'Vic')).page;
    await sharedBoard(ann, 'Menus', { editors: [ben], viewers: [vic] });
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
    assert.deepEqual(await names(ann), ['Paste here', 'Select all', 'Zoom to fit', 'Undo', 'Redo']);
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
});
