// Find on the board (model/find.ts): which shapes a query finds, in what order Enter walks them,
// and what the bar says.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ShapeRecord } from '@tandem/shared';
import { findMatches, foldForFind, matchCountText, stepMatch } from '../src/board/model/find.ts';
import { READABLE_PX, showToRead, visibleRect } from '../src/board/store.ts';

const rec = (id: string, p: Partial<ShapeRecord> = {}): ShapeRecord => ({
  id,
  type: 'sticky',
  x: 0,
  y: 0,
  w: 100,
  h: 100,
  rotation: 0,
  color: 'yellow',
  z: `a${id}`,
  createdBy: 'u',
  ...p,
});

describe('find on the board', () => {
  it('ignores case, accents and how the text wrapped', () => {
    assert.equal(foldForFind('Résumé\n  DRAFT'), 'resume draft');
    const board = [
      rec('a', { text: 'Update the résumé' }),
      rec('b', { text: 'RESUME\nreview' }),
      rec('c', { text: 'Resumption' }),
      rec('d', { text: 'Something else' }),
    ];
    assert.deepEqual(findMatches(board, 'resume'), ['a', 'b']);
    assert.deepEqual(findMatches(board, 'resume review'), ['b'], 'a line break matches a space');
    assert.deepEqual(findMatches(board, '   '), [], 'a blank query finds nothing');
  });

  it('reads frame names, arrow labels and images’ alt text, and finds nothing in shapes without words', () => {
    const board = [
      rec('f', { type: 'frame', name: 'Sprint goals', x: 0, y: 0, w: 800, h: 600 }),
      rec('arrow', {
        type: 'arrow',
        x: 900,
        y: 0,
        from: { x: 900, y: 0 },
        to: { x: 1000, y: 0 },
        text: 'goals met',
      }),
      rec('img', { type: 'image', x: 0, y: 700 }),
      rec('photo', { type: 'image', x: 0, y: 900, alt: 'The goals wall, photographed' }),
      rec('pen', { type: 'freehand', x: 200, y: 700, points: [0, 0, 10, 10] }),
    ];
    assert.deepEqual(findMatches(board, 'goals'), ['f', 'arrow', 'photo']);
  });

  it('lists matches in reading order, rows top to bottom and left to right, not in z-order', () => {
    const board = [
      rec('bottom', { text: 'todo', x: 0, y: 400, z: 'a1' }),
      rec('right', { text: 'todo', x: 300, y: 10, z: 'a2' }),
      rec('left', { text: 'TODO', x: 0, y: 0, z: 'a3' }),
    ];
    assert.deepEqual(findMatches(board, 'todo'), ['left', 'right', 'bottom']);
  });

  it('steps through the matches with Enter and Shift+Enter, wrapping round at the ends', () => {
    const m = ['a', 'b', 'c'];
    assert.equal(stepMatch(m, null, 1), 'a');
    assert.equal(stepMatch(m, null, -1), 'c');
    assert.equal(stepMatch(m, 'a', 1), 'b');
    assert.equal(stepMatch(m, 'c', 1), 'a');
    assert.equal(stepMatch(m, 'a', -1), 'c');
    assert.equal(stepMatch(m, 'gone', 1), 'a', 'a match that no longer matches starts over');
    assert.equal(stepMatch([], null, 1), null);
  });

  it('says where the current match is among them', () => {
    assert.equal(matchCountText([], null, ''), '');
    assert.equal(matchCountText([], null, 'x'), 'No matches');
    assert.equal(matchCountText(['a', 'b', 'c'], 'b', 'x'), '2 of 3');
    assert.equal(matchCountText(['a', 'b', 'c'], null, 'x'), '3 matches');
    assert.equal(matchCountText(['a'], null, 'x'), '1 match');
  });

  it('brings a match into view where it can be read: panned when large enough, else zoomed in up to 100 %', () => {
    const screen = { w: 1200, h: 800 };
    const note = { x: 4000, y: 2000, w: 200, h: 200 };
    // At 60 % the note is 120 px: panned to, the zoom kept.
    const panned = showToRead({ x: 0, y: 0, zoom: 0.6 }, screen, note);
    assert.equal(panned.zoom, 0.6);
    const seen = visibleRect(panned, screen);
    assert.ok(
      seen.x <= note.x &&
        seen.x + seen.w >= note.x + note.w &&
        seen.y <= note.y &&
        seen.y + seen.h >= note.y + note.h,
    );
    // At 5 % it is 10 px: zoomed in to 100 % (not the 200 % that fitting it alone would give), centred.
    const zoomed = showToRead({ x: 0, y: 0, zoom: 0.05 }, screen, note);
    assert.deepEqual(zoomed, { x: 4100, y: 2100, zoom: 1 });
    assert.ok(Math.max(note.w, note.h) * zoomed.zoom >= READABLE_PX);
    // Already zoomed in further than that: the zoom is not taken back.
    const tiny = { x: 0, y: 0, w: 20, h: 20 };
    assert.equal(showToRead({ x: 0, y: 0, zoom: 3 }, screen, tiny).zoom, 3);
  });
});
