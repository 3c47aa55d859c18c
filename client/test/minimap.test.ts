// The minimap's mapping between board and minimap pixels, pure and in Node.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromMinimap, minimapFrame, toMinimap } from '../src/board/model/minimap.ts';

const size = { w: 200, h: 100 };

describe('minimap', () => {
  it('shows the whole board and the view inside its size, centred on the short axis', () => {
    const content = { x: 0, y: 0, w: 10_000, h: 2_000 };
    const view = { x: 4_000, y: 500, w: 1_000, h: 600 };
    const f = minimapFrame(content, view, size);
    const c = toMinimap(f, content);
    assert.ok(
      c.x >= 0 && c.y >= 0 && c.x + c.w <= size.w + 1e-9 && c.y + c.h <= size.h + 1e-9,
      'content fits',
    );
    assert.ok(Math.abs(c.x - (size.w - c.w) / 2) < 1e-9, 'centred across');
    assert.ok(Math.abs(c.y - (size.h - c.h) / 2) < 1e-9, 'centred down');
    assert.ok(c.w > 0.85 * size.w, 'the long side fills most of the minimap');
  });

  it('includes a view that lies outside the board', () => {
    const content = { x: 0, y: 0, w: 1_000, h: 1_000 };
    const view = { x: 5_000, y: 5_000, w: 800, h: 500 };
    const f = minimapFrame(content, view, size);
    for (const r of [content, view].map((r) => toMinimap(f, r))) {
      assert.ok(r.x >= 0 && r.y >= 0 && r.x + r.w <= size.w + 1e-9 && r.y + r.h <= size.h + 1e-9);
    }
  });

  it('maps a press back to the board point drawn under it', () => {
    const f = minimapFrame(
      { x: -3_000, y: 200, w: 26_000, h: 13_000 },
      { x: 0, y: 0, w: 1280, h: 800 },
      size,
    );
    const board = { x: 12_345, y: 6_789 };
    const m = toMinimap(f, { ...board, w: 0, h: 0 });
    const back = fromMinimap(f, m.x, m.y);
    assert.ok(Math.abs(back.x - board.x) < 1e-6 && Math.abs(back.y - board.y) < 1e-6);
  });

  it('an empty board shows the view alone', () => {
    const view = { x: -640, y: -400, w: 1280, h: 800 };
    const f = minimapFrame(null, view, size);
    const r = toMinimap(f, view);
    assert.ok(r.w > 0 && r.w <= size.w && r.h <= size.h);
    const centre = fromMinimap(f, size.w / 2, size.h / 2);
    assert.ok(Math.abs(centre.x) < 1e-6 && Math.abs(centre.y) < 1e-6, 'the view is centred');
  });
});
