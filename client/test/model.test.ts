// The board model in Node: shape operations, fractional z, arrows, clipboard, import/export,
// and concurrent edits from two replicas merging.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as Y from 'yjs';
import {
  arrowEnds,
  bringForward,
  bringToFront,
  createShape,
  createUndoManager,
  deleteShapes,
  duplicateShapes,
  ensureLabel,
  exportBoard,
  importBoard,
  moveShapes,
  pasteShapes,
  readAll,
  replaceText,
  resizeShape,
  restyle,
  rotateShapes,
  sendBackward,
  sendToBack,
  serializeShapes,
  setArrowEnds,
  shapesBroughtBack,
  shapesOf,
  textOf,
} from '../src/board/model/index.ts';

/** Two replicas wired together both ways, like two browsers through the server. */
function pair(): [Y.Doc, Y.Doc] {
  const a = new Y.Doc();
  const b = new Y.Doc();
  a.on('update', (u: Uint8Array, origin: unknown) => origin !== 'remote' && Y.applyUpdate(b, u, 'remote'));
  b.on('update', (u: Uint8Array, origin: unknown) => origin !== 'remote' && Y.applyUpdate(a, u, 'remote'));
  return [a, b];
}

/** Two replicas that edit apart and are merged later. */
function sync(a: Y.Doc, b: Y.Doc): void {
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
}

const ids = (doc: Y.Doc) => readAll(doc).map((s) => s.id);

describe('shapes', () => {
  it('creates shapes with defaults that pass the shared schema', () => {
    const doc = new Y.Doc();
    for (const type of ['sticky', 'rect', 'ellipse', 'diamond', 'text'] as const) {
      createShape(doc, { type, x: 1, y: 2, text: 'hi' }, 'u1');
    }
    createShape(doc, { type: 'freehand', x: 0, y: 0, w: 10, h: 10, points: [0, 0, 10, 10] }, 'u1');
    createShape(doc, { type: 'arrow', x: 0, y: 0, from: { x: 0, y: 0 }, to: { x: 50, y: 20 } }, 'u1');
    const all = readAll(doc);
    assert.equal(all.length, 7);
    assert.equal(all[0]!.text, 'hi');
    assert.equal(all[0]!.createdBy, 'u1');
    assert.deepEqual(
      all.map((s) => s.type),
      ['sticky', 'rect', 'ellipse', 'diamond', 'text', 'freehand', 'arrow'],
    );
  });

  it('moves, resizes, rotates, restyles and deletes', () => {
    const doc = new Y.Doc();
    const id = createShape(doc, { type: 'rect', x: 0, y: 0, w: 100, h: 50 }, 'u');
    moveShapes(doc, [id], 10, -5);
    resizeShape(doc, id, { x: 10, y: -5, w: 300, h: 60 });
    rotateShapes(doc, [id], Math.PI / 4);
    restyle(doc, [id], 'red');
    const [s] = readAll(doc);
    assert.deepEqual([s!.x, s!.y, s!.w, s!.h, s!.rotation, s!.color], [10, -5, 300, 60, Math.PI / 4, 'red']);
    deleteShapes(doc, [id]);
    assert.equal(readAll(doc).length, 0);
  });

  // A user trial: "Colour blue" on an arrow with a stroke colour of its own left it red, the swatch
  // marked as chosen.
  it('a colour picked is the stroke’s and fill’s too where they were set apart', () => {
    const doc = new Y.Doc();
    const arrow = createShape(doc, { type: 'arrow', x: 0, y: 0, w: 100, h: 0, stroke: 'red' }, 'u');
    const styled = createShape(
      doc,
      { type: 'rect', x: 0, y: 0, w: 100, h: 50, stroke: '#aa0000', fill: 'yellow', fillStyle: 'hatched' },
      'u',
    );
    const plain = createShape(doc, { type: 'ellipse', x: 0, y: 0, w: 100, h: 50 }, 'u');
    restyle(doc, [arrow, styled, plain], 'blue');
    const byId = new Map(readAll(doc).map((s) => [s.id, s]));
    assert.deepEqual(
      [byId.get(arrow)!.color, byId.get(arrow)!.stroke],
      ['blue', 'blue'],
      'the arrow is drawn blue',
    );
    const rect = byId.get(styled)!;
    assert.deepEqual(
      [rect.color, rect.stroke, rect.fill, rect.fillStyle],
      ['blue', 'blue', 'blue', 'hatched'],
    );
    const ellipse = byId.get(plain)!;
    assert.deepEqual(
      [ellipse.color, ellipse.stroke, ellipse.fill],
      ['blue', undefined, undefined],
      'a shape of one colour keeps its light tint: no fill is set on it',
    );
  });

  it('scales freehand points with a resize', () => {
    const doc = new Y.Doc();
    const id = createShape(doc, { type: 'freehand', x: 0, y: 0, w: 10, h: 10, points: [0, 0, 10, 10] }, 'u');
    resizeShape(doc, id, { x: 0, y: 0, w: 20, h: 5 });
    assert.deepEqual(readAll(doc)[0]!.points, [0, 0, 20, 5]);
  });

  it('ignores records that fail the schema instead of crashing', () => {
    const doc = new Y.Doc();
    createShape(doc, { type: 'rect', x: 0, y: 0 }, 'u');
    const bad = new Y.Map<unknown>();
    bad.set('type', 'spaceship');
    bad.set('x', 'left');
    shapesOf(doc).set('bad', bad);
    assert.equal(readAll(doc).length, 1);
  });

  it('edits text by the smallest change', () => {
    const doc = new Y.Doc();
    const id = createShape(doc, { type: 'sticky', x: 0, y: 0, text: 'hello world' }, 'u');
    const seen: unknown[] = [];
    textOf(doc, id)!.observe((e) => seen.push(e.delta));
    replaceText(doc, id, 'hello big world');
    assert.equal(textOf(doc, id)!.toString(), 'hello big world');
    assert.deepEqual(seen, [[{ retain: 6 }, { insert: 'big ' }]]);
  });
});

describe('concurrent edits', () => {
  it('two users typing in one sticky merge by character', () => {
    const [a, b] = pair();
    const id = createShape(a, { type: 'sticky', x: 0, y: 0, text: 'plan' }, 'ua');
    // Disconnect, type apart, then merge.
    const a2 = new Y.Doc();
    const b2 = new Y.Doc();
    Y.applyUpdate(a2, Y.encodeStateAsUpdate(a));
    Y.applyUpdate(b2, Y.encodeStateAsUpdate(b));
    replaceText(a2, id, 'our plan');
    replaceText(b2, id, 'plan today');
    sync(a2, b2);
    assert.equal(textOf(a2, id)!.toString(), 'our plan today');
    assert.equal(textOf(b2, id)!.toString(), 'our plan today');
  });

  it('concurrent moves and recolours of different fields both survive', () => {
    const a = new Y.Doc();
    const id = createShape(a, { type: 'rect', x: 0, y: 0 }, 'ua');
    const b = new Y.Doc();
    sync(a, b);
    moveShapes(a, [id], 100, 0);
    restyle(b, [id], 'pink');
    createShape(b, { type: 'ellipse', x: 5, y: 5 }, 'ub');
    sync(a, b);
    assert.deepEqual(readAll(a), readAll(b));
    assert.equal(readAll(a).find((s) => s.id === id)!.x, 100);
    assert.equal(readAll(a).find((s) => s.id === id)!.color, 'pink');
    assert.equal(readAll(a).length, 2);
  });

  it('concurrent reorders converge to one order', () => {
    const a = new Y.Doc();
    const s1 = createShape(a, { type: 'rect', x: 0, y: 0 }, 'u');
    const s2 = createShape(a, { type: 'rect', x: 0, y: 0 }, 'u');
    const s3 = createShape(a, { type: 'rect', x: 0, y: 0 }, 'u');
    const b = new Y.Doc();
    sync(a, b);
    bringToFront(a, [s1]);
    sendToBack(b, [s3]);
    sync(a, b);
    assert.deepEqual(ids(a), ids(b));
    assert.deepEqual(ids(a), [s3, s2, s1]);
  });
});

describe('fractional z', () => {
  it('forward and backward move one step and keep the others', () => {
    const doc = new Y.Doc();
    const [s1, s2, s3, s4] = [0, 1, 2, 3].map(() => createShape(doc, { type: 'rect', x: 0, y: 0 }, 'u'));
    const zBefore = new Map(readAll(doc).map((s) => [s.id, s.z]));
    bringForward(doc, [s1!]);
    assert.deepEqual(ids(doc), [s2, s1, s3, s4]);
    // Only the moved shape's z changed.
    for (const s of readAll(doc)) if (s.id !== s1) assert.equal(s.z, zBefore.get(s.id));
    bringForward(doc, [s1!, s2!]);
    assert.deepEqual(ids(doc), [s3, s2, s1, s4]);
    sendBackward(doc, [s4!]);
    assert.deepEqual(ids(doc), [s3, s2, s4, s1]);
    sendBackward(doc, [s3!]);
    assert.deepEqual(ids(doc), [s3, s2, s4, s1]);
    sendToBack(doc, [s1!]);
    bringToFront(doc, [s3!]);
    assert.deepEqual(ids(doc), [s1, s2, s4, s3]);
  });

  it('new shapes go on top', () => {
    const doc = new Y.Doc();
    const a = createShape(doc, { type: 'rect', x: 0, y: 0 }, 'u');
    sendToBack(doc, [a]);
    const b = createShape(doc, { type: 'rect', x: 0, y: 0 }, 'u');
    assert.deepEqual(ids(doc), [a, b]);
  });
});

describe('arrows', () => {
  it('bound ends follow their shapes when moved or resized', () => {
    const doc = new Y.Doc();
    const left = createShape(doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u');
    const right = createShape(doc, { type: 'rect', x: 300, y: 0, w: 100, h: 100 }, 'u');
    const arrow = createShape(doc, { type: 'arrow', x: 0, y: 0 }, 'u');
    setArrowEnds(doc, arrow, { shapeId: left, x: 50, y: 50 }, { shapeId: right, x: 350, y: 50 });
    const a0 = readAll(doc).find((s) => s.id === arrow)!;
    assert.ok(a0.from!.x > 100 && a0.from!.x < 110, 'starts at the left shape edge');
    assert.ok(a0.to!.x < 300 && a0.to!.x > 290, 'ends at the right shape edge');
    moveShapes(doc, [right], 0, 400);
    const a1 = readAll(doc).find((s) => s.id === arrow)!;
    assert.ok(a1.to!.y > 390, 'the end followed the moved shape down');
    assert.equal(a1.to!.shapeId, right);
    assert.ok(a1.h > 250, 'the arrow box grew with it');
  });

  it('renderers resolve bound ends live, even with stale stored ends', () => {
    const a = new Y.Doc();
    const box = createShape(a, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u');
    const arrow = createShape(
      a,
      { type: 'arrow', x: 0, y: 0, from: { x: 500, y: 50 }, to: { shapeId: box, x: 50, y: 50 } },
      'u',
    );
    // Another replica moves the box with a raw write (as a client without our model would).
    shapesOf(a).get(box)!.set('y', 1000);
    const all = new Map(readAll(a).map((s) => [s.id, s]));
    const [, end] = arrowEnds(all.get(arrow)!, all);
    assert.ok(end.y > 990 && end.y < 1100, 'end drawn at the shape where it is now');
  });

  it('deleting a bound shape frees the arrow end', () => {
    const doc = new Y.Doc();
    const box = createShape(doc, { type: 'rect', x: 0, y: 0 }, 'u');
    const arrow = createShape(
      doc,
      { type: 'arrow', x: 0, y: 0, from: { shapeId: box, x: 1, y: 1 }, to: { x: 400, y: 0 } },
      'u',
    );
    deleteShapes(doc, [box]);
    const a = readAll(doc).find((s) => s.id === arrow)!;
    assert.deepEqual(a.from, { x: 1, y: 1 });
  });

  it('moving an arrow with its bound shapes keeps the binding', () => {
    const doc = new Y.Doc();
    const box = createShape(doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u');
    const arrow = createShape(
      doc,
      { type: 'arrow', x: 0, y: 0, from: { shapeId: box, x: 50, y: 50 }, to: { x: 400, y: 50 } },
      'u',
    );
    moveShapes(doc, [box, arrow], 10, 10);
    const a = readAll(doc).find((s) => s.id === arrow)!;
    assert.equal(a.from!.shapeId, box);
    assert.equal(a.to!.x, 410);
  });
});

describe('clipboard, duplicate, import, export', () => {
  it('copies between boards with fresh ids, text and re-bound arrows', () => {
    const one = new Y.Doc();
    const box = createShape(one, { type: 'sticky', x: 0, y: 0, text: 'copied' }, 'u1');
    const other = createShape(one, { type: 'rect', x: 300, y: 0 }, 'u1');
    const arrow = createShape(
      one,
      { type: 'arrow', x: 0, y: 0, from: { shapeId: box, x: 0, y: 0 }, to: { shapeId: other, x: 300, y: 0 } },
      'u1',
    );
    const text = serializeShapes(one, [box, arrow]);
    const two = new Y.Doc();
    createShape(two, { type: 'rect', x: 0, y: 0 }, 'u2');
    const pasted = pasteShapes(two, text, 'u2');
    assert.equal(pasted.length, 2);
    const all = readAll(two);
    const sticky = all.find((s) => s.type === 'sticky')!;
    const a = all.find((s) => s.type === 'arrow')!;
    assert.equal(sticky.text, 'copied');
    assert.equal(sticky.createdBy, 'u2');
    assert.notEqual(sticky.id, box);
    assert.equal(sticky.x, 24);
    assert.equal(a.from!.shapeId, sticky.id, 'bound to the copy');
    assert.equal(a.to!.shapeId, undefined, 'the end whose shape was not copied is free');
    assert.equal(all.at(-1)!.type, 'arrow', 'pasted on top, in their order');
    // The copy's text is its own Y.Text.
    replaceText(two, sticky.id, 'changed');
    assert.equal(textOf(one, box)!.toString(), 'copied');
  });

  it('a connector keeps its label when duplicated, pasted or imported', () => {
    const doc = new Y.Doc();
    const a = createShape(doc, { type: 'rect', x: 0, y: 0 }, 'u');
    const b = createShape(doc, { type: 'rect', x: 400, y: 0 }, 'u');
    const arrow = createShape(
      doc,
      { type: 'arrow', x: 0, y: 0, from: { shapeId: a, x: 0, y: 0 }, to: { shapeId: b, x: 400, y: 0 } },
      'u',
    );
    ensureLabel(doc, arrow);
    replaceText(doc, arrow, 'depends on');
    const labelOf = (d: Y.Doc, id: string) => readAll(d).find((s) => s.id === id)?.text;
    const [dup] = duplicateShapes(doc, [arrow], 'u');
    assert.equal(labelOf(doc, dup!), 'depends on', 'Ctrl+D');
    const other = new Y.Doc();
    const [pasted] = pasteShapes(other, serializeShapes(doc, [a, b, arrow]), 'u').filter(
      (id) => readAll(other).find((s) => s.id === id)?.type === 'arrow',
    );
    assert.equal(labelOf(other, pasted!), 'depends on', 'pasted on another board');
    const third = new Y.Doc();
    importBoard(third, JSON.parse(JSON.stringify(exportBoard(doc))), 'u');
    assert.deepEqual(
      readAll(third)
        .filter((s) => s.type === 'arrow')
        .map((s) => s.text),
      ['depends on', 'depends on'],
      'imported from an export',
    );
  });

  it('pastes centred at a point and ignores text that is not ours', () => {
    const doc = new Y.Doc();
    const id = createShape(doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u');
    const [copy] = pasteShapes(doc, serializeShapes(doc, [id]), 'u', { x: 1000, y: 1000 });
    const s = readAll(doc).find((r) => r.id === copy)!;
    assert.deepEqual([s.x, s.y], [950, 950]);
    assert.deepEqual(pasteShapes(doc, 'just some words', 'u'), []);
    assert.deepEqual(pasteShapes(doc, '{"version":2}', 'u'), []);
  });

  it('duplicates with an offset', () => {
    const doc = new Y.Doc();
    const id = createShape(doc, { type: 'ellipse', x: 10, y: 10, text: 'x' }, 'u');
    const [dup] = duplicateShapes(doc, [id], 'u');
    const s = readAll(doc).find((r) => r.id === dup)!;
    assert.deepEqual([s.x, s.y, s.text], [34, 34, 'x']);
  });

  it('exports with the shared schema and imports, skipping bad records', () => {
    const doc = new Y.Doc();
    createShape(doc, { type: 'sticky', x: 1, y: 2, text: 'a' }, 'u');
    createShape(doc, { type: 'freehand', x: 0, y: 0, w: 3, h: 3, points: [0, 0, 3, 3] }, 'u');
    const data = exportBoard(doc);
    assert.equal(data.version, 1);
    assert.equal(data.shapes.length, 2);
    const json = JSON.parse(JSON.stringify(data));
    json.shapes.push({ id: 'x', type: 'rocket' }, { nonsense: true });
    const target = new Y.Doc();
    assert.deepEqual(importBoard(target, json, 'me'), { imported: 2, skipped: 2 });
    const got = readAll(target);
    assert.deepEqual(
      got.map((s) => [s.type, s.x, s.y, s.text, s.points]),
      data.shapes.map((s) => [s.type, s.x, s.y, s.text, s.points]),
    );
    assert.equal(importBoard(target, 'not json', 'me'), null);
  });
});

describe('undo', () => {
  it('undoes only this user’s own edits', () => {
    const [a, b] = pair();
    const undoA = createUndoManager(a);
    const mine = createShape(a, { type: 'sticky', x: 0, y: 0 }, 'ua');
    undoA.stopCapturing();
    const theirs = createShape(b, { type: 'rect', x: 0, y: 0 }, 'ub');
    undoA.undo();
    assert.deepEqual(ids(a), [theirs]);
    assert.deepEqual(ids(b), [theirs]);
    undoA.redo();
    assert.deepEqual(new Set(ids(b)), new Set([mine, theirs]));
  });

  it('a step that brings shapes back names them (the editor selects them): a delete undone, a creation redone', () => {
    const doc = new Y.Doc();
    const undo = createUndoManager(doc);
    const one = createShape(doc, { type: 'sticky', x: 0, y: 0 }, 'u');
    const two = createShape(doc, { type: 'sticky', x: 300, y: 0 }, 'u');
    const other = createShape(doc, { type: 'rect', x: 600, y: 0 }, 'u');
    undo.stopCapturing();
    deleteShapes(doc, [one, two]);
    undo.stopCapturing();
    assert.deepEqual(shapesBroughtBack(doc, () => undo.undo()).sort(), [one, two].sort());
    // A move taken back brings nothing back; nor does a creation taken back.
    moveShapes(doc, [other], 50, 0);
    undo.stopCapturing();
    assert.deepEqual(
      shapesBroughtBack(doc, () => undo.undo()),
      [],
    );
    undo.clear();
    const third = createShape(doc, { type: 'ellipse', x: 0, y: 300 }, 'u');
    assert.deepEqual(
      shapesBroughtBack(doc, () => undo.undo()),
      [],
    );
    assert.deepEqual(
      shapesBroughtBack(doc, () => undo.redo()),
      [third],
    );
    assert.deepEqual(ids(doc).sort(), [one, two, other, third].sort());
  });
});
