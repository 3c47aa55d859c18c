// The read-only preview of a version (History panel): built from the version's export JSON a
// slice at a time, so a big board never blocks the tab for one long task; the canvas's shape
// index sees every shape once it is done.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BoardExport, ShapeRecord } from '@tandem/shared';
import { ShapeIndex } from '../src/board/canvas/shapeIndex.ts';
import { buildPreview } from '../src/board/history/preview.ts';

const record = (i: number): ShapeRecord => ({
  id: `s${i}`,
  type: 'sticky',
  x: i * 10,
  y: 0,
  w: 100,
  h: 100,
  rotation: 0,
  color: 'yellow',
  z: `a${String(i).padStart(5, '0')}`,
  createdBy: 'u1',
  text: `note ${i}`,
});

describe('history preview', () => {
  it('builds every shape, text included, in slices that yield in between', async () => {
    const board: BoardExport = {
      version: 1,
      shapes: Array.from({ length: 1000 }, (_, i) => record(i)),
      meta: { background: 'dots' },
    };
    const preview = buildPreview(board);
    const index = new ShapeIndex(preview.doc);
    let notified = 0;
    index.subscribe(() => {
      notified += 1;
    });
    // The first slice lands at once; the rest only after yielding.
    assert.ok(index.getSnapshot().list.length > 0);
    assert.ok(index.getSnapshot().list.length < 1000, 'not all in one synchronous task');
    await preview.done;
    assert.equal(index.getSnapshot().list.length, 1000);
    assert.ok(notified >= 2, 'the index was told slice by slice');
    assert.equal(index.getSnapshot().byId.get('s7')?.text, 'note 7');
    assert.equal(preview.doc.getMap('meta').get('background'), 'dots');
    index.destroy();
    preview.close();
  });

  it('closing stops the build', async () => {
    const board: BoardExport = { version: 1, shapes: Array.from({ length: 2000 }, (_, i) => record(i)) };
    const preview = buildPreview(board);
    const shapes = preview.doc.getMap('shapes');
    const atClose = shapes.size;
    assert.ok(atClose > 0 && atClose < 2000, `the first slice only (${atClose} shapes)`);
    preview.close();
    await preview.done;
    assert.equal(shapes.size, atClose, 'no slice after closing');
  });
});
