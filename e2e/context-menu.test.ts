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
});
