// The board in words and in reading order (model/describe.ts), and the pan that brings a shape
// into view (store.ts panToShow): what a screen-reader user hears and where Tab takes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ShapeRecord } from '@tandem/shared';
import {
  nextInReadingOrder,
  readingOrder,
  selectionAnnouncement,
  shapeCountText,
  shapeLabel,
} from '../src/board/model/describe.ts';
import { panToShow, visibleRect } from '../src/board/store.ts';

const rec = (id: string, p: Partial<ShapeRecord> = {}): ShapeRecord => ({
  id,
  type: 'rect',
  x: 0,
  y: 0,
  w: 100,
  h: 100,
  rotation: 0,
  color: 'blue',
  z: `a${id}`,
  createdBy: 'u',
  ...p,
});
const byIdOf = (list: ShapeRecord[]) => new Map(list.map((r) => [r.id, r]));

describe('shape labels', () => {
  it('name the kind of every shape and what it says', () => {
    const start = rec('s', { text: 'Start' });
    const end = rec('e', { type: 'sticky', text: 'Ship\n  it ' });
    const blank = rec('b', { type: 'ellipse', text: '' });
    const all = [
      start,
      end,
      blank,
      rec('a1', { type: 'arrow', from: { shapeId: 's', x: 0, y: 0 }, to: { shapeId: 'e', x: 1, y: 1 } }),
      rec('a2', { type: 'arrow', from: { x: 0, y: 0 }, to: { shapeId: 'b', x: 1, y: 1 }, text: 'then' }),
      rec('a3', { type: 'arrow', from: { x: 0, y: 0 }, to: { x: 1, y: 1 } }),
      rec('a4', { type: 'arrow', from: { shapeId: 'gone', x: 0, y: 0 }, to: { x: 1, y: 1 } }),
      rec('i', { type: 'image', assetId: 'x' }),
      rec('f', { type: 'frame', name: 'Sprint 3' }),
      rec('f0', { type: 'frame', name: '' }),
      rec('d', { type: 'freehand', points: [0, 0, 5, 5] }),
      rec('t', { type: 'text', text: 'Hello' }),
      rec('dm', { type: 'diamond', text: 'Go?', locked: true }),
    ];
    const byId = byIdOf(all);
    assert.deepEqual(
      all.map((r) => shapeLabel(r, byId)),
      [
        'Rectangle: Start',
        'Sticky note: Ship it',
        'Ellipse',
        'Arrow from Start to Ship it',
        'Arrow to Ellipse: then',
        'Arrow',
        'Arrow',
        'Image',
        'Frame: Sprint 3',
        'Frame: Untitled frame',
        'Drawing',
        'Text: Hello',
        'Diamond: Go? (locked)',
      ],
    );
  });

  it('say an image by its alt text, on one line, and a locked one as locked', () => {
    const photo = rec('p', { type: 'image', assetId: 'x', alt: '  a whiteboard\n photo ' });
    const arrow = rec('ar', { type: 'arrow', from: { shapeId: 'p', x: 0, y: 0 }, to: { x: 1, y: 1 } });
    const byId = byIdOf([photo, arrow]);
    assert.equal(shapeLabel(photo, byId), 'Image: a whiteboard photo');
    assert.equal(shapeLabel({ ...photo, locked: true }, byId), 'Image: a whiteboard photo (locked)');
    assert.equal(shapeLabel({ ...photo, alt: '  ' }, byId), 'Image', 'blank alt text says nothing more');
    // An arrow bound to the image names it by its alt text, as it names a note by its words.
    assert.equal(shapeLabel(arrow, byId), 'Arrow from a whiteboard photo');
    assert.equal(selectionAnnouncement(['p'], byId), 'Selected: Image: a whiteboard photo');
  });

  it('cut a long text short', () => {
    const label = shapeLabel(rec('l', { type: 'sticky', text: 'word '.repeat(100) }), new Map());
    assert.ok(label.length < 230, label);
    assert.ok(label.endsWith('…'));
  });
});

describe('selection announcements', () => {
  const list = [
    rec('a', { type: 'sticky', text: 'Ship it' }),
    rec('b', { groupId: 'g' }),
    rec('c', { groupId: 'g' }),
  ];
  const byId = byIdOf(list);
  it('say what is selected, how many, or that nothing is', () => {
    assert.equal(selectionAnnouncement(['a'], byId), 'Selected: Sticky note: Ship it');
    // A frame stored with a blank name is said as the board shows it.
    const blank = rec('f', { type: 'frame', name: ' ' });
    assert.equal(selectionAnnouncement(['f'], byIdOf([blank])), 'Selected: Frame: Untitled frame');
    assert.equal(selectionAnnouncement(['a', 'b', 'c'], byId), '3 shapes selected');
    assert.equal(selectionAnnouncement(['b', 'c'], byId), 'Selected: a group of 2 shapes');
    assert.equal(selectionAnnouncement([], byId), 'Selection cleared');
    assert.equal(
      selectionAnnouncement(['gone'], byId),
      'Selection cleared',
      'a deleted shape is not counted',
    );
  });
  it('say where one shape or one group comes in reading order, and not for several', () => {
    const row = [
      rec('n1', { type: 'sticky', text: 'First', x: 0, y: 0 }),
      rec('n2', { type: 'sticky', text: 'Ship it', x: 300, y: 0 }),
      rec('g1', { groupId: 'g', x: 600, y: 0 }),
      rec('g2', { groupId: 'g', x: 700, y: 0 }),
      rec('n3', { type: 'sticky', text: 'Last', x: 0, y: 500 }),
    ];
    const all = byIdOf(row);
    assert.equal(selectionAnnouncement(['n2'], all, row), 'Selected: Sticky note: Ship it, 2 of 4');
    assert.equal(selectionAnnouncement(['g1', 'g2'], all, row), 'Selected: a group of 2 shapes, 3 of 4');
    assert.equal(selectionAnnouncement(['n3'], all, row), 'Selected: Sticky note: Last, 4 of 4');
    assert.equal(selectionAnnouncement(['n1', 'n3'], all, row), '2 shapes selected');
    assert.equal(selectionAnnouncement([], all, row), 'Selection cleared');
  });
  it('count the shapes on the canvas', () => {
    assert.deepEqual([0, 1, 7].map(shapeCountText), ['Empty', '1 shape', '7 shapes']);
  });
});

describe('reading order', () => {
  // Two rows, not exactly level, written in the document out of order; and a group in the second.
  const list = [
    rec('row2-right', { x: 400, y: 300 }),
    rec('row1-right', { x: 400, y: 20 }),
    rec('row1-left', { x: 0, y: 0 }),
    rec('row2-left', { x: 0, y: 330 }),
    rec('g1', { x: 200, y: 310, groupId: 'g' }),
    rec('g2', { x: 220, y: 420, groupId: 'g' }),
  ];
  const ids = (units: { ids: string[] }[]) => units.map((u) => u.ids.join('+'));

  it('reads rows top to bottom, left to right within a row, a group as one', () => {
    assert.deepEqual(ids(readingOrder(list)), [
      'row1-left',
      'row1-right',
      'row2-left',
      'g1+g2',
      'row2-right',
    ]);
  });

  it('Tab moves to the next unit and wraps; Shift+Tab goes back', () => {
    const next = (sel: string[], step: 1 | -1 = 1) => nextInReadingOrder(list, sel, step)?.ids.join('+');
    assert.equal(next([]), 'row1-left', 'nothing selected: the first');
    assert.equal(next([], -1), 'row2-right', 'nothing selected, backwards: the last');
    assert.equal(next(['row1-left']), 'row1-right');
    assert.equal(next(['row1-right']), 'row2-left');
    assert.equal(next(['row2-left']), 'g1+g2');
    assert.equal(next(['g1', 'g2']), 'row2-right', 'a group is left as one');
    assert.equal(next(['row2-right']), 'row1-left', 'wraps at the end');
    assert.equal(next(['row1-left'], -1), 'row2-right', 'wraps at the start');
    assert.equal(next(['g2'], -1), 'row2-left');
    assert.equal(next(['row1-left', 'row2-left']), 'g1+g2', 'several: after the last of them');
    assert.equal(next(['row1-right', 'row2-right'], -1), 'row1-left', 'several, backwards: before the first');
    assert.deepEqual(nextInReadingOrder(list, ['row1-left'], 1)?.box, { x: 400, y: 20, w: 100, h: 100 });
    assert.equal(nextInReadingOrder([], [], 1), null, 'an empty board');
  });
});

describe('panToShow', () => {
  const screen = { w: 1000, h: 800 };
  const v = { x: 0, y: 0, zoom: 1 };
  const inside = (view: typeof v, r: { x: number; y: number; w: number; h: number }) => {
    const vr = visibleRect(view, screen);
    return r.x >= vr.x && r.y >= vr.y && r.x + r.w <= vr.x + vr.w && r.y + r.h <= vr.y + vr.h;
  };
  it('leaves the view alone for a shape in view', () => {
    assert.equal(panToShow(v, screen, { x: -50, y: -50, w: 100, h: 100 }), v);
  });
  it('pans just far enough, at the same zoom, for a shape out of view', () => {
    for (const r of [
      { x: 2000, y: 0, w: 100, h: 100 },
      { x: -3000, y: -2000, w: 200, h: 100 },
      { x: 0, y: 900, w: 100, h: 100 },
    ]) {
      const to = panToShow(v, screen, r);
      assert.equal(to.zoom, 1);
      assert.ok(inside(to, r), JSON.stringify({ r, to }));
    }
    assert.deepEqual(panToShow(v, screen, { x: 2000, y: 0, w: 100, h: 100 }), { x: 1680, y: 0, zoom: 1 });
  });
  it('centres a shape larger than the view', () => {
    assert.deepEqual(panToShow(v, screen, { x: 5000, y: 0, w: 3000, h: 100 }), { x: 6500, y: 0, zoom: 1 });
  });
});
