// One renderer, two sides (docs/api.md §16): the client's export (client/src/board/canvas/svgExport.ts)
// and the server's board.svg (history worker → history/board.ts renderSvg) give the same SVG for the
// same board. Here both measure text by the shared estimate: Node has no canvas, so the client's
// measure falls back to it (canvas/measure.ts); in a browser the export measures with the canvas font.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exportBoard } from '@tandem/shared';
import * as Y from 'yjs';
import { WorkerCompute } from '../../realtime-server/src/history/compute.ts';
import { addShape } from '../../testing/clients.ts';
import { toSvg } from '../src/board/canvas/svgExport.ts';

const base = { rotation: 0, createdBy: 'u1' };

function board(): Y.Doc {
  const doc = new Y.Doc();
  addShape(doc, 'frame-1', {
    ...base,
    type: 'frame',
    x: -40,
    y: -60,
    w: 900,
    h: 500,
    color: 'grey',
    z: 'a0',
    name: 'Ideas',
  });
  addShape(
    doc,
    'note-1',
    { ...base, type: 'sticky', x: 0, y: 0, w: 200, h: 200, color: 'yellow', z: 'a1' },
    'Ship the <embed> & more',
  );
  addShape(
    doc,
    'rect-1',
    { ...base, type: 'rect', x: 300, y: 20, w: 160, h: 90, color: 'blue', z: 'a2', roundness: 'round' },
    'Hand-drawn',
  );
  addShape(doc, 'ellipse-1', {
    ...base,
    type: 'ellipse',
    x: 520,
    y: 40,
    w: 120,
    h: 80,
    color: 'green',
    z: 'a3',
    fillStyle: 'hatched',
  });
  addShape(
    doc,
    'arrow-1',
    {
      ...base,
      type: 'arrow',
      x: 0,
      y: 0,
      w: 0,
      h: 0,
      color: 'grey',
      z: 'a4',
      from: { shapeId: 'note-1', x: 100, y: 100 },
      to: { shapeId: 'rect-1', x: 380, y: 65 },
    },
    'next',
  );
  addShape(
    doc,
    'text-1',
    { ...base, type: 'text', x: 0, y: 700, w: 300, h: 40, color: 'red', z: 'a5', fontFamily: 'hand' },
    'Free text',
  );
  return doc;
}

test("the client's exported SVG and the server's board.svg are the same renderer's output", async () => {
  const doc = board();
  const { board: json, invalid } = exportBoard(doc);
  assert.deepEqual(invalid, []);
  const client = toSvg(json.shapes, new Map(json.shapes.map((s) => [s.id, s]))).svg;
  const compute = new WorkerCompute();
  try {
    const { svg: server } = await compute.renderSvg([Y.encodeStateAsUpdate(doc)], {});
    assert.equal(server, client);
    assert.match(server, /Ship the &lt;embed&gt; &amp; /);
    assert.match(server, /clip-path=/);
    // One frame only (?frame=): the frame and what lies inside it.
    const { svg: framed } = await compute.renderSvg([Y.encodeStateAsUpdate(doc)], { frame: 'frame-1' });
    assert.match(framed, /Ideas/);
    assert.doesNotMatch(framed, /Free text/);
  } finally {
    await compute.close();
  }
});
