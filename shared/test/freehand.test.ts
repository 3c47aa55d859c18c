// The freehand outline shared by the canvas and the server's exports: a finished stroke ends where
// the pointer was released (tldraw, Excalidraw), its corners kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { strokePath } from '../src/render/freehand.ts';

/** The outline's points, read back from the SVG path. */
const outlineOf = (d: string): [number, number][] =>
  [...d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);

/** x, y pairs every `step` units along straight lines through `corners`, as pointer moves come. */
function sampled(corners: [number, number][], step: number): number[] {
  const out = [...corners[0]!];
  for (let i = 1; i < corners.length; i++) {
    const [ax, ay] = corners[i - 1]!;
    const [bx, by] = corners[i]!;
    const n = Math.max(1, Math.round(Math.hypot(bx - ax, by - ay) / step));
    for (let k = 1; k <= n; k++) out.push(ax + ((bx - ax) * k) / n, ay + ((by - ay) * k) / n);
  }
  return out;
}

const size = 6;
const half = size / 2;

test('a finished L-shaped stroke reaches its last point and its corner', () => {
  const d = strokePath(
    sampled(
      [
        [300, 300],
        [500, 300],
        [500, 500],
      ],
      10,
    ),
    { size },
  );
  const pts = outlineOf(d);
  assert.ok(pts.length > 10, d);
  const maxY = Math.max(...pts.map((p) => p[1]));
  const maxX = Math.max(...pts.map((p) => p[0]));
  // The trial's stroke stopped near y = 472; the outline now reaches the release within its half-width.
  assert.ok(maxY >= 500 - half && maxY <= 500 + half, `bottom at ${maxY}`);
  // The end is where the pointer was let go: some outline point lies within the half-width of it.
  const nearEnd = Math.min(...pts.map(([x, y]) => Math.hypot(x - 500, y - 500)));
  assert.ok(nearEnd <= half, `${nearEnd} from the end`);
  assert.ok(maxX >= 500 - half, `the corner reaches x ${maxX}`);
});

test('a quick flick of few points draws its whole length', () => {
  // A 200-unit flick, sampled as a fast pointer gives it: a handful of moves.
  for (const step of [40, 70, 200]) {
    const pts = outlineOf(
      strokePath(
        sampled(
          [
            [0, 0],
            [200, 0],
          ],
          step,
        ),
        { size },
      ),
    );
    const minX = Math.min(...pts.map((p) => p[0]));
    const maxX = Math.max(...pts.map((p) => p[0]));
    assert.ok(minX <= half && maxX >= 200 - half, `step ${step}: ${minX} … ${maxX}`);
  }
});

test('a stroke still being drawn is streamlined behind its pointer; finished, it reaches the end', () => {
  const points = sampled(
    [
      [0, 0],
      [200, 0],
    ],
    40,
  );
  const drawing = outlineOf(strokePath(points, { size, complete: false }));
  const done = outlineOf(strokePath(points, { size }));
  const reach = (pts: [number, number][]) => Math.max(...pts.map((p) => p[0]));
  // Strictly: the option reaches perfect-freehand (the same outline both ways would mean it did not).
  assert.ok(reach(drawing) < reach(done) - half, `${reach(drawing)} while drawn, ${reach(done)} finished`);
});
