// A turned shape that grows as it is typed into keeps its drawn top-left corner, where its first
// letter is; its editor is put on that same corner.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drawnTopLeft, resizedInPlace } from '../src/render/geometry.ts';

const near = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  assert.ok(Math.hypot(a.x - b.x, a.y - b.y) < 1e-9, `${JSON.stringify(a)} ≈ ${JSON.stringify(b)}`);

test('an unturned shape keeps x and y as it grows', () => {
  assert.deepEqual(resizedInPlace({ x: 10, y: 20, w: 60, h: 40, rotation: 0 }, 200, 80), {
    x: 10,
    y: 20,
    w: 200,
    h: 80,
  });
  assert.deepEqual(drawnTopLeft({ x: 10, y: 20, w: 60, h: 40, rotation: 0 }), { x: 10, y: 20 });
});

test('a turned shape grows right and down in its own frame: its drawn top-left corner stays', () => {
  for (const rotation of [0.6, -1.2, Math.PI / 2, Math.PI]) {
    const s = { x: 100, y: 0, w: 60, h: 40, rotation };
    const grown = resizedInPlace(s, 300, 120);
    assert.equal(grown.w, 300);
    assert.equal(grown.h, 120);
    near(drawnTopLeft({ ...grown, rotation }), drawnTopLeft(s));
    // Keeping x and y would have moved it (the check can fail).
    assert.ok(
      Math.hypot(
        drawnTopLeft({ ...s, w: 300, h: 120 }).x - drawnTopLeft(s).x,
        drawnTopLeft({ ...s, w: 300, h: 120 }).y - drawnTopLeft(s).y,
      ) > 1,
    );
  }
});

test('the drawn top-left corner of a turned shape is its corner turned about the centre', () => {
  // A 200 × 100 box turned a quarter: its top-left corner lands at the top right of its bounds.
  near(drawnTopLeft({ x: 0, y: 0, w: 200, h: 100, rotation: Math.PI / 2 }), { x: 150, y: -50 });
});
