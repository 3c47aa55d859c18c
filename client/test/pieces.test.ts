// Large changes in pieces: a Yjs update split so every piece fits under the message limit, and
// the pieces, applied in order or not, give the same document; a large import goes in as many
// transactions (each its own network update) and one undo step.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ShapeRecord } from '@tandem/shared';
import * as Y from 'yjs';
import {
  createUndoManager,
  deleteShapes,
  exportBoard,
  IMPORT_PIECE,
  insertRecords,
  insertRecordsInPieces,
  readAll,
  replaceText,
  shapesOf,
} from '../src/board/model/index.ts';
import { splitUpdate } from '../src/board/sync/pieces.ts';

function grid(n: number): ShapeRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `s${i}`,
    type: 'sticky' as const,
    x: (i % 100) * 260,
    y: Math.floor(i / 100) * 260,
    w: 200,
    h: 200,
    rotation: 0,
    color: 'yellow' as const,
    z: `a${String(i).padStart(6, '0')}`,
    createdBy: 'x',
    text: `Note number ${i} with some words in it`,
  }));
}

const sameBoard = (a: Y.Doc, b: Y.Doc) =>
  assert.deepEqual(
    exportBoard(a).shapes.map((s) => ({ ...s })),
    exportBoard(b).shapes.map((s) => ({ ...s })),
  );

/** A board of `n` notes by one client, with a second client's deletes and a text change. */
function boardWithHistory(n: number): Y.Doc {
  const doc = new Y.Doc();
  insertRecords(doc, grid(n), 'u');
  // Some history from a second client, and deletes, so the delete set travels too.
  const other = new Y.Doc();
  Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
  const ids = [...shapesOf(other).keys()].slice(0, 50);
  deleteShapes(other, ids);
  replaceText(other, [...shapesOf(other).keys()][100]!, 'changed by the other');
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(other));
  return doc;
}

describe('updates in pieces', () => {
  it('a 20,000-shape update splits into pieces under the limit that rebuild the same board', () => {
    const doc = boardWithHistory(20_000);
    const whole = Y.encodeStateAsUpdate(doc);
    assert.ok(whole.length > 2 * 1024 * 1024, `whole update is ${whole.length} bytes`);
    const max = 256 * 1024;
    const pieces = splitUpdate(whole, max);
    assert.ok(pieces.length > 8);
    for (const p of pieces) assert.ok(p.length <= max, `piece of ${p.length}`);

    const inOrder = new Y.Doc();
    for (const p of pieces) Y.applyUpdate(inOrder, p);
    sameBoard(doc, inOrder);
    assert.equal(readAll(inOrder).length, 19_950);
  });

  // Out of order, Yjs holds each piece as pending until the ones before it come, and retries the
  // pending ones on every arrival: quadratic in the board, so this is tried on 2,000 shapes in 16
  // pieces (20,000 shapes reversed took 17 s of the suite for the same property).
  it('pieces applied in reverse order give the same board and state', () => {
    const doc = boardWithHistory(2_000);
    const whole = Y.encodeStateAsUpdate(doc);
    const max = 64 * 1024;
    const pieces = splitUpdate(whole, max);
    assert.ok(pieces.length > 8, `${pieces.length} pieces`);
    for (const p of pieces) assert.ok(p.length <= max, `piece of ${p.length}`);

    const reversed = new Y.Doc();
    for (const p of [...pieces].reverse()) Y.applyUpdate(reversed, p);
    sameBoard(doc, reversed);
    assert.equal(readAll(reversed).length, 1_950);
    assert.deepEqual(Y.encodeStateVector(reversed), Y.encodeStateVector(doc));
  });

  it('a small update is sent as it is', () => {
    const doc = new Y.Doc();
    insertRecords(doc, grid(3), 'u');
    const u = Y.encodeStateAsUpdate(doc);
    assert.deepEqual(splitUpdate(u), [u]);
  });

  it('a large import goes in as many updates, each small, and undoes in one step', async () => {
    const doc = new Y.Doc();
    const undo = createUndoManager(doc);
    const sizes: number[] = [];
    doc.on('update', (u: Uint8Array) => sizes.push(u.length));
    const progress: number[] = [];
    undo.captureTimeout = Number.POSITIVE_INFINITY;
    const ids = await insertRecordsInPieces(doc, grid(5_000), 'u', {
      onProgress: (done) => progress.push(done),
      pause: async () => {},
    });
    undo.captureTimeout = 400;
    undo.stopCapturing();
    assert.equal(ids.length, 5_000);
    assert.equal(sizes.length, Math.ceil(5_000 / IMPORT_PIECE));
    assert.ok(Math.max(...sizes) < 256 * 1024, `largest update ${Math.max(...sizes)}`);
    assert.deepEqual(progress.at(-1), 5_000);
    undo.undo();
    assert.equal(readAll(doc).length, 0, 'one undo step removes the whole import');
  });
});
