// Pure parts of images in the editor (docs/api.md §13): where a new image lands and how big, resizing
// that keeps the aspect ratio, the rendition asked for at a zoom, and that copies keep assetId.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renditionFor } from '@tandem/shared';
import * as Y from 'yjs';
import { centredAt, placedSize, resizeKeepingAspect } from '../src/board/images/placement.ts';
import { duplicateShapes, recordsOf } from '../src/board/model/clipboard.ts';
import { createShape } from '../src/board/model/shapes.ts';

describe('images: placement and resizing', () => {
  it('an image lands at its own size, shrunk to 60 % of the view when larger', () => {
    assert.deepEqual(placedSize({ width: 400, height: 300 }, { w: 1200, h: 800 }), { w: 400, h: 300 });
    const big = placedSize({ width: 4000, height: 2000 }, { w: 1000, h: 800 });
    assert.equal(big.w, 600);
    assert.equal(big.h, 300);
    assert.deepEqual(centredAt({ x: 100, y: 100 }, { w: 40, h: 20 }), { x: 80, y: 90, w: 40, h: 20 });
  });

  it('a corner drag keeps the aspect ratio and the opposite corner', () => {
    const box = { x: 0, y: 0, w: 200, h: 100 };
    const se = resizeKeepingAspect(box, 'se', { x: 400, y: 120 });
    assert.deepEqual(se, { x: 0, y: 0, w: 400, h: 200 });
    const nw = resizeKeepingAspect(box, 'nw', { x: 100, y: 90 });
    assert.equal(nw.w / nw.h, 2);
    assert.equal(nw.x + nw.w, 200, 'the se corner stays');
    assert.equal(nw.y + nw.h, 100);
    // Dragged past the fixed corner: the box flips, still 2:1.
    const flipped = resizeKeepingAspect(box, 'se', { x: -100, y: -10 });
    assert.deepEqual(flipped, { x: -100, y: -50, w: 100, h: 50 });
  });

  it('the rendition asked for follows the drawn width; past the largest, the original', () => {
    assert.equal(renditionFor(40), 128);
    assert.equal(renditionFor(200), 256);
    assert.equal(renditionFor(1024), 1024);
    assert.equal(renditionFor(1500), null);
  });

  it('a duplicated image keeps its assetId and its alt text', () => {
    const doc = new Y.Doc();
    const id = createShape(
      doc,
      { type: 'image', x: 0, y: 0, w: 10, h: 10, assetId: 'a'.repeat(64), alt: 'A whiteboard photo' },
      'u',
    );
    const [copy] = duplicateShapes(doc, [id], 'u');
    assert.equal(recordsOf(doc, [copy!])[0]?.assetId, 'a'.repeat(64));
    assert.equal(recordsOf(doc, [copy!])[0]?.alt, 'A whiteboard photo');
  });
});
