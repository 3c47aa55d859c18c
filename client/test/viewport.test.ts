// Viewport arithmetic and the SVG exporter, pure and in Node.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as Y from 'yjs';
import { toSvg } from '../src/board/canvas/svgExport.ts';
import { createShape, readAll } from '../src/board/model/index.ts';
import {
  clampZoom,
  createEditorStore,
  fitRect,
  fitToRead,
  TEMPLATE_MIN_ZOOM,
  toBoard,
  toScreen,
  visibleRect,
  zoomAt,
} from '../src/board/store.ts';

const screen = { w: 1000, h: 800 };

describe('viewport', () => {
  it('setting the same view again changes nothing, so a follower is not re-rendered on every presence change', () => {
    const store = createEditorStore();
    store.getState().setViewport({ x: 10, y: 20, zoom: 2 });
    store.getState().follow(7);
    let changes = 0;
    store.subscribe(() => changes++);
    const before = store.getState();
    store.getState().setViewport({ x: 10, y: 20, zoom: 2 }, { keepFollow: true });
    assert.equal(changes, 0, 'no state change');
    assert.equal(store.getState(), before);
    store.getState().setViewport({ x: 11, y: 20, zoom: 2 }, { keepFollow: true });
    assert.equal(changes, 1);
    assert.equal(store.getState().followClientId, 7, 'still following');
    // The same view set by the person themselves still stops following (docs/api.md §11).
    const view = store.getState().viewport;
    store.getState().setViewport({ ...view });
    assert.equal(store.getState().followClientId, null);
    assert.equal(store.getState().viewport, view, 'the view object is kept');
  });

  it('converts between screen and board both ways', () => {
    const v = { x: 100, y: -50, zoom: 2 };
    const b = toBoard(v, screen, 700, 100);
    assert.deepEqual(toScreen(v, screen, b.x, b.y), { x: 700, y: 100 });
    assert.deepEqual(toBoard(v, screen, 500, 400), { x: 100, y: -50 }, 'the centre is (x, y)');
  });

  it('zooms about the pointer and clamps to the zoom limits (0.02–8, lower than the 0.1 of docs/api.md §10: see limits.ts)', () => {
    const v = { x: 0, y: 0, zoom: 1 };
    const z = zoomAt(v, screen, 2, 800, 600);
    assert.equal(z.zoom, 2);
    const before = toBoard(v, screen, 800, 600);
    const after = toBoard(z, screen, 800, 600);
    assert.ok(
      Math.abs(before.x - after.x) < 1e-9 && Math.abs(before.y - after.y) < 1e-9,
      'the point under the pointer stays',
    );
    assert.equal(clampZoom(100), 8);
    assert.equal(clampZoom(0.001), 0.02);
    assert.equal(zoomAt(v, screen, 1000, 0, 0).zoom, 8);
  });

  it('fits a rectangle and reports what is visible', () => {
    const v = fitRect({ x: 0, y: 0, w: 4000, h: 1000 }, screen);
    const seen = visibleRect(v, screen);
    assert.ok(seen.x <= 0 && seen.x + seen.w >= 4000 && seen.y <= 0 && seen.y + seen.h >= 1000);
    assert.deepEqual(fitRect(null, screen), { x: 0, y: 0, zoom: 1 });
  });

  it('fits a rectangle into the part of the screen an open panel leaves, centred there', () => {
    const desk = { w: 1280, h: 800 };
    // A Pages panel 300 px wide down the left: what is fitted lies right of it, whole.
    const clear = { x: 320, y: 130, w: 880, h: 540 };
    const box = { x: -500, y: 200, w: 2000, h: 600 };
    const v = fitRect(box, desk, clear);
    const topLeft = onScreenOf(v, desk, box.x, box.y);
    const bottomRight = onScreenOf(v, desk, box.x + box.w, box.y + box.h);
    assert.ok(Math.abs(topLeft.x - clear.x) < 1e-6, "its left edge at the clear part's left");
    assert.ok(
      Math.abs(bottomRight.x - (clear.x + clear.w)) < 1e-6,
      "its right edge at the clear part's right",
    );
    assert.ok(Math.abs((topLeft.y + bottomRight.y) / 2 - (clear.y + clear.h / 2)) < 1e-6, 'centred down');
    // Never past `most`: a small note is shown at 100 % when the board opens.
    assert.equal(fitRect({ x: 0, y: 0, w: 50, h: 50 }, desk, clear, 1).zoom, 1);
    const note = fitRect({ x: 0, y: 0, w: 50, h: 50 }, desk, clear, 1);
    assert.deepEqual(onScreenOf(note, desk, 25, 25), { x: clear.x + clear.w / 2, y: clear.y + clear.h / 2 });
  });

  it('shows a template to be read: whole when it fits readably, else at the least zoom from its top left', () => {
    const kanban = { x: 0, y: 0, w: 1640, h: 850 };
    // A desktop screen fits it whole, as before.
    const desk = { w: 1280, h: 800 };
    assert.deepEqual(fitToRead(kanban, desk, TEMPLATE_MIN_ZOOM), fitRect(kanban, desk));
    // A phone's fit was 14 %; it comes at 50 %, its left edge 24 px in, centred down (it fits).
    const phone = { w: 390, h: 844 };
    assert.ok(fitRect(kanban, phone).zoom < 0.15);
    const v = fitToRead(kanban, phone, TEMPLATE_MIN_ZOOM);
    assert.equal(v.zoom, 0.5);
    assert.ok(Math.abs(toScreen(v, phone, 0, 0).x - 390 / 16) < 1e-9, 'the left edge at the margin');
    assert.equal(v.y, 425, 'centred down');
    // Too tall as well (a 2×2 grid of 640-unit cells on a desktop: fitted at 41 %): centred across,
    // its top 130 px down, clear of the top bars.
    const grid = { x: 0, y: 0, w: 1320, h: 1320 };
    const g = fitToRead(grid, desk, TEMPLATE_MIN_ZOOM);
    assert.equal(g.zoom, 0.5);
    assert.equal(g.x, 660);
    assert.ok(Math.abs(toScreen(g, desk, 0, 0).y - 130) < 1e-9);
  });
});

describe('svg export', () => {
  it('draws every shape, escapes text and crops to the content', () => {
    const doc = new Y.Doc();
    createShape(doc, { type: 'sticky', x: 100, y: 100, text: 'a < b & "c"' }, 'u');
    createShape(doc, { type: 'ellipse', x: 400, y: 100 }, 'u');
    createShape(doc, { type: 'arrow', x: 0, y: 0, from: { x: 300, y: 200 }, to: { x: 400, y: 160 } }, 'u');
    createShape(doc, { type: 'freehand', x: 0, y: 0, w: 10, h: 10, points: [0, 0, 5, 5, 10, 10] }, 'u');
    const all = readAll(doc);
    const { svg, width, height } = toSvg(all, new Map(all.map((s) => [s.id, s])));
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(svg, /a &lt; b &amp; &quot;c&quot;/);
    assert.match(svg, /<ellipse /);
    assert.match(svg, /<polyline /);
    assert.match(svg, /<path d="M/);
    assert.equal(width, 600 + 64);
    assert.equal(height, 300 + 64);
  });
});

function onScreenOf(
  v: { x: number; y: number; zoom: number },
  screen: { w: number; h: number },
  bx: number,
  by: number,
) {
  return { x: (bx - v.x) * v.zoom + screen.w / 2, y: (by - v.y) * v.zoom + screen.h / 2 };
}
