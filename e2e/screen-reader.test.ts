// The board as a screen reader meets it, judged by Chromium's accessibility tree: every shape on
// the canvas is one named image ("Sticky note: Ship it"), decoration is left out, a change of
// selection is said once by a polite live region, and Tab / Shift+Tab walk the selection through
// the shapes in reading order, bringing each into view, while Tab with nothing selected still
// leaves the canvas.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  canvas,
  createBoard,
  focused,
  inView,
  joinByLink,
  newUser,
  shareLink,
  underCanvas,
  until,
  withApp,
} from './helpers.ts';

const base = { rotation: 0, color: 'yellow', createdBy: 'x' };
/**
 * A small board in three rows and a far corner: a note, two rectangles joined by an arrow, then a
 * drawing, a frame, and a note 4,000 units away. Written out of reading order on purpose.
 */
const board = {
  version: 1,
  shapes: [
    { ...base, id: 'far', type: 'sticky', x: 4000, y: 2000, w: 200, h: 200, z: 'a0', text: 'Far away' },
    { ...base, id: 'frame', type: 'frame', x: 0, y: 600, w: 600, h: 300, z: 'a1', name: 'Sprint 3' },
    { ...base, id: 'end', type: 'rect', x: 600, y: 0, w: 200, h: 120, z: 'a2', text: 'End' },
    { ...base, id: 'note', type: 'sticky', x: 0, y: 0, w: 200, h: 200, z: 'a3', text: 'Ship it' },
    { ...base, id: 'start', type: 'rect', x: 300, y: 0, w: 200, h: 120, z: 'a4', text: 'Start' },
    {
      ...base,
      id: 'arrow',
      type: 'arrow',
      x: 0,
      y: 0,
      w: 0,
      h: 0,
      z: 'a5',
      from: { shapeId: 'start', x: 500, y: 60 },
      to: { shapeId: 'end', x: 600, y: 60 },
    },
    {
      ...base,
      id: 'pen',
      type: 'freehand',
      x: 0,
      y: 300,
      w: 200,
      h: 100,
      z: 'a6',
      points: [0, 0, 100, 50, 200, 100],
    },
  ],
};

/** The text of the live region that speaks for the selection. */
const said = (page: Page) => page.locator('[data-selection-announcer]').textContent({ timeout: 3000 });

/** Waits until the selection's live region says `text`. */
const untilSaid = (page: Page, text: string) =>
  until(async () => (await said(page).catch(() => null)) === text, `the live region says “${text}”`);

/**
 * What Chromium's accessibility tree holds in polite live regions: the text of each node inside
 * one (a screen reader speaks them when they change).
 */
async function politelySaid(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  type Node = {
    nodeId: string;
    parentId?: string;
    role?: { value: string };
    name?: { value: string };
    properties?: { name: string; value: { value: unknown } }[];
  };
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: Node[] };
  await cdp.detach();
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const polite = (n: Node | undefined): boolean => {
    for (let at = n; at; at = at.parentId ? byId.get(at.parentId) : undefined)
      if (at.properties?.some((p) => p.name === 'live' && p.value.value === 'polite')) return true;
    return false;
  };
  return nodes.filter((n) => n.role?.value === 'StaticText' && polite(n)).map((n) => n.name?.value ?? '');
}

/** The canvas's accessibility tree, one line per node ('img "Frame: Sprint 3"' unquoted). */
async function canvasLines(page: Page): Promise<string[]> {
  const tree = await canvas(page).ariaSnapshot();
  return tree.split('\n').map((line) => line.trim().replace(/^- '(.*)'$/, '- $1'));
}

/** The nodes in the canvas that are not a named shape: decoration or text a reader would hear. */
const loose = async (page: Page) => (await underCanvas(page)).filter((line) => !/^image \S/.test(line));

describe('a screen reader on the board', () => {
  let sam: Page;
  let boardId: string;

  const app = withApp();
  before(async () => {
    sam = (await newUser(app, 'Sam')).page;
    boardId = await createBoard(sam, 'Heard, not seen');
  });

  it('the empty board says how to start, Enter included, and a screen reader reads it', async () => {
    const tree = await sam.locator('.editor').ariaSnapshot();
    assert.match(tree, /press N for a sticky note or R for a rectangle, then Enter to place it/, tree);
    await sam.screenshot({ path: `${artifacts}/screen-reader-empty.png` });
  });

  it('names every shape, hides the decoration, and says how many shapes the canvas holds', async () => {
    const file = join(tmpdir(), `tandem-sr-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(board));
    await sam.getByLabel('Import JSON file').setInputFiles(file);
    await sam.getByText('Imported 7 shapes.').waitFor();

    const lines = await canvasLines(sam);
    const tree = lines.join('\n');
    for (const name of [
      'Sticky note: Ship it',
      'Rectangle: Start',
      'Rectangle: End',
      'Arrow from Start to End',
      'Drawing',
      'Frame: Sprint 3',
      'Sticky note: Far away',
    ])
      assert.ok(lines.includes(`- img "${name}"`), `${name} in\n${tree}`);
    // Nothing but the named shapes: no loose text (the frame's title, a note's lines) run together.
    assert.deepEqual(await loose(sam), [], (await underCanvas(sam)).join('\n'));

    // The canvas keeps its name, and its description counts the shapes.
    const cdp = await sam.context().newCDPSession(sam);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { role?: { value: string }; name?: { value: string }; description?: { value: string } }[];
    };
    const canvasNode = nodes.find((n) => n.role?.value === 'application');
    assert.equal(canvasNode?.name?.value, 'Board canvas');
    assert.equal(canvasNode?.description?.value, '7 shapes');
  });

  it('Enter, Tab and Shift+Tab move the selection in reading order, said and brought into view', async () => {
    // At 100%, centred on the middle of the board: the first row is off screen.
    await canvas(sam).focus();
    await sam.keyboard.press('Control+0');
    await until(async () => !(await inView(sam, 'Sticky note: Ship it')), 'the first note is out of view');

    // Nothing selected: Enter selects the first shape in reading order, and shows it.
    await sam.keyboard.press('Enter');
    // Said with its place in reading order, so a listener knows when Tab has gone round.
    await untilSaid(sam, 'Selected: Sticky note: Ship it, 1 of 7');
    await until(() => inView(sam, 'Sticky note: Ship it'), 'the note is brought into view');
    const polite = await politelySaid(sam);
    assert.ok(
      polite.includes('Selected: Sticky note: Ship it, 1 of 7'),
      `in a polite live region: ${polite.join(' | ')}`,
    );

    // Then left to right along the first row, then down the rows.
    for (const [i, name] of [
      'Rectangle: Start',
      'Arrow from Start to End',
      'Rectangle: End',
      'Drawing',
      'Frame: Sprint 3',
      'Sticky note: Far away',
    ].entries()) {
      await sam.keyboard.press('Tab');
      await untilSaid(sam, `Selected: ${name}, ${i + 2} of 7`);
      assert.equal(await focused(sam), 'application Board canvas', `focus stays on the canvas at ${name}`);
    }
    await until(() => inView(sam, 'Sticky note: Far away'), 'the far note is brought into view');
    // The selection's outline and handles are not read.
    assert.deepEqual(await loose(sam), [], 'nothing but shapes with a selection');
    assert.equal(await sam.locator('[data-selected-id]').count(), 1, 'one shape is outlined');
    await sam.screenshot({ path: `${artifacts}/screen-reader-tab.png` });

    // Shift+Tab goes back; Tab at the end wraps round to the first.
    await sam.keyboard.press('Shift+Tab');
    await untilSaid(sam, 'Selected: Frame: Sprint 3, 6 of 7');
    await sam.keyboard.press('Tab');
    await sam.keyboard.press('Tab');
    await untilSaid(sam, 'Selected: Sticky note: Ship it, 1 of 7');

    // Ctrl+A is counted; Escape clears, and then Tab leaves the canvas for the rest of the page.
    await sam.keyboard.press('Control+a');
    await untilSaid(sam, '7 shapes selected');
    await sam.keyboard.press('Escape');
    await untilSaid(sam, 'Selection cleared');
    await sam.keyboard.press('Tab');
    await until(async () => (await focused(sam)) !== 'application Board canvas', 'Tab leaves the canvas');
  });

  it('says nothing when someone else edits the selected shape', async () => {
    const link = await shareLink(sam, 'can edit');
    const bob = (await newUser(app, 'Bob')).page;
    await joinByLink(bob, link, boardId);
    await canvas(sam).focus();
    await sam.keyboard.press('Enter');
    await untilSaid(sam, 'Selected: Sticky note: Ship it, 1 of 7');

    // Bob takes the same way in (Enter selects the first shape), and writes in the note.
    await canvas(bob).focus();
    await bob.keyboard.press('Enter');
    await untilSaid(bob, 'Selected: Sticky note: Ship it, 1 of 7');
    await bob.keyboard.press('Enter');
    await bob.keyboard.press('End');
    await bob.keyboard.type(' today');
    await bob.keyboard.press('Escape');

    // Sam's canvas names the note anew, but the live region does not speak again.
    await canvas(sam).getByRole('img', { name: 'Sticky note: Ship it today', exact: true }).waitFor();
    assert.ok(await sam.locator('[data-remote-selection="Bob"]').count(), 'Bob’s selection is drawn');
    assert.deepEqual(await loose(sam), [], 'and not read');
    await sam.waitForTimeout(500);
    assert.equal(await said(sam), 'Selected: Sticky note: Ship it, 1 of 7');
    await bob.context().close();
  });
});
