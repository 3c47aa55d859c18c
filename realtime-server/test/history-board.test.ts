// The pure history operations over Y.Doc (history/board.ts): the board at a point of the log,
// stats and authors, restore as one forward change, and reverting one user's edits since a time.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RESTORED_AT_KEY } from '@tandem/shared';
import * as Y from 'yjs';
import {
  authorsOf,
  docAt,
  type HistoryEntry,
  restoreChanges,
  revertChanges,
  shapeStats,
} from '../src/history/board.ts';

/** A board everyone edits through: the live doc, its attributed log, and a clock. */
class Board {
  readonly live = new Y.Doc();
  readonly log: HistoryEntry[] = [];
  private now = Date.parse('2026-01-01T10:00:00Z');
  private readonly clients: Y.Doc[] = [];

  client(userId: string): Client {
    const doc = new Y.Doc();
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(this.live));
    this.clients.push(doc);
    return new Client(this, doc, userId);
  }

  tick(minutes = 1): Date {
    this.now += minutes * 60_000;
    return new Date(this.now);
  }

  /** An edit reaches the server: logged with its user and time, then sent to everyone. */
  receive(from: Y.Doc, userId: string, update: Uint8Array): void {
    this.log.push({ update, userId, at: this.tick() });
    Y.applyUpdate(this.live, update);
    for (const c of this.clients) if (c !== from) Y.applyUpdate(c, update);
  }

  /** A change made on the server (restore, revert) reaches everyone. */
  broadcast(update: Uint8Array): void {
    for (const c of this.clients) Y.applyUpdate(c, update);
  }

  /** The board's content: shapes and meta, without the stamp a restore leaves (restoredAt). */
  json(doc: Y.Doc = this.live): unknown {
    const { [RESTORED_AT_KEY]: _stamp, ...meta } = doc.getMap('meta').toJSON();
    return { shapes: doc.getMap('shapes').toJSON(), meta };
  }
}

class Client {
  constructor(
    private readonly board: Board,
    readonly doc: Y.Doc,
    readonly userId: string,
  ) {}

  get shapes(): Y.Map<Y.Map<unknown>> {
    return this.doc.getMap('shapes');
  }

  edit(fn: (shapes: Y.Map<Y.Map<unknown>>, doc: Y.Doc) => void): void {
    const updates: Uint8Array[] = [];
    const on = (u: Uint8Array) => updates.push(u);
    this.doc.on('update', on);
    this.doc.transact(() => fn(this.shapes, this.doc));
    this.doc.off('update', on);
    for (const u of updates) this.board.receive(this.doc, this.userId, u);
  }

  add(id: string, x: number, text = ''): void {
    this.edit((shapes) => {
      const shape = new Y.Map<unknown>();
      shape.set('type', 'sticky');
      shape.set('x', x);
      shape.set('y', 0);
      shape.set('color', 'yellow');
      shape.set('text', new Y.Text(text));
      shape.set('createdBy', this.userId);
      shapes.set(id, shape);
    });
  }

  set(id: string, key: string, value: unknown): void {
    this.edit((shapes) => shapes.get(id)?.set(key, value));
  }

  type(id: string, index: number, text: string): void {
    this.edit((shapes) => (shapes.get(id)?.get('text') as Y.Text | undefined)?.insert(index, text));
  }

  remove(id: string): void {
    this.edit((shapes) => shapes.delete(id));
  }
}

/**
 * Restores `live` to `target` as the server does (restoreChanges' slices, computed on a copy), the
 * slices applied in one transaction with `origin` (the room applies them over a few turns); answers
 * the slices.
 */
function restoreTo(live: Y.Doc, target: Y.Doc, origin: unknown = null): Uint8Array[] {
  const slices = restoreChanges([Y.encodeStateAsUpdate(live)], Y.encodeStateAsUpdate(target));
  live.transact(() => {
    for (const slice of slices) Y.applyUpdate(live, slice);
  }, origin);
  return slices;
}
const restoredAt = (doc: Y.Doc): unknown => doc.getMap('meta').get(RESTORED_AT_KEY);

const xs = (doc: Y.Doc): Record<string, unknown> =>
  Object.fromEntries([...doc.getMap<Y.Map<unknown>>('shapes').entries()].map(([id, s]) => [id, s.get('x')]));
const text = (doc: Y.Doc, id: string): string =>
  (doc.getMap<Y.Map<unknown>>('shapes').get(id)?.get('text') as Y.Text | undefined)?.toString() ?? '';

describe('history: the board at a point, stats and authors', () => {
  test('docAt rebuilds the board from a snapshot and the entries after it', () => {
    const board = new Board();
    const ada = board.client('ada');
    ada.add('a1', 1, 'one');
    const snapshot = Y.encodeStateAsUpdate(board.live);
    const mark = board.log.length;
    ada.add('a2', 2);
    ada.set('a1', 'x', 10);
    assert.deepEqual(xs(docAt(snapshot)), { a1: 1 });
    assert.deepEqual(xs(docAt(snapshot, board.log.slice(mark))), { a1: 10, a2: 2 });
    assert.deepEqual(board.json(docAt(null, board.log)), board.json());
  });

  test('stats count shapes added, changed and removed; authors in order of first edit', () => {
    const board = new Board();
    const ada = board.client('ada');
    const ben = board.client('ben');
    ada.add('a1', 1);
    ada.add('a2', 2);
    ada.add('a3', 3);
    const before = docAt(null, board.log);
    const mark = board.log.length;
    ben.add('b1', 1);
    ben.type('a1', 0, 'hi');
    ada.set('a2', 'x', 20);
    ben.remove('a3');
    const after = docAt(null, board.log);
    assert.deepEqual(shapeStats(before, after), { added: 1, changed: 2, removed: 1 });
    assert.deepEqual(shapeStats(null, before), { added: 3, changed: 0, removed: 0 });
    assert.deepEqual(authorsOf(board.log.slice(mark)), ['ben', 'ada']);
    assert.deepEqual(authorsOf([{ update: new Uint8Array(), userId: null, at: new Date() }]), []);
  });
});

describe('history: restore as one forward change', () => {
  test('the live board becomes equal to the version in one undoable transaction', () => {
    const board = new Board();
    const ada = board.client('ada');
    const ben = board.client('ben');
    ada.add('a1', 1, 'hello world');
    ada.add('a2', 2);
    ada.edit((_, doc) => doc.getMap('meta').set('background', 'dots'));
    const version = docAt(null, board.log);
    const versionJson = board.json(version);

    ben.add('b1', 5);
    ben.remove('a2');
    ada.set('a1', 'x', 100);
    ada.type('a1', 5, ',');
    ben.edit((_, doc) => doc.getMap('meta').set('background', 'grid'));
    ben.edit((_, doc) => doc.getMap('meta').set('grid', true));
    const liveJson = board.json();
    assert.notDeepEqual(liveJson, versionJson);

    const origin = { restore: 'v1' };
    const undo = new Y.UndoManager(board.live, { trackedOrigins: new Set([origin]) });
    const updates: Uint8Array[] = [];
    board.live.on('update', (u: Uint8Array) => updates.push(u));
    const before = Date.now();
    restoreTo(board.live, version, origin);
    assert.equal(updates.length, 1, 'one change');
    assert.deepEqual(board.json(), versionJson);
    // Stamped last, so that every client empties its undo history (docs/api.md §12).
    assert.ok(Number(restoredAt(board.live)) >= before, 'restoredAt is set to the time of the restore');

    // Everyone connected gets the one change and sees the version.
    board.broadcast(updates[0]!);
    assert.deepEqual(board.json(ben.doc), versionJson);
    assert.deepEqual(board.json(ada.doc), versionJson);

    // Nothing was rewritten: the restore can be undone like any edit.
    undo.undo();
    assert.deepEqual(board.json(), liveJson);
  });

  test('unchanged shapes are not touched, and an offline edit made before the restore still merges', () => {
    const board = new Board();
    const ada = board.client('ada');
    ada.add('a1', 1, 'keep');
    ada.add('a2', 2, 'text');
    const version = docAt(null, board.log);
    ada.set('a2', 'x', 50);

    // Ben goes offline with the board as it is, and edits a1's text.
    const offline = new Y.Doc();
    Y.applyUpdate(offline, Y.encodeStateAsUpdate(board.live));
    offline.getMap<Y.Map<unknown>>('shapes').get('a1')?.set('color', 'blue');

    const slices = restoreTo(board.live, version);
    assert.equal(slices.length, 2, "a2's x, then the stamp");
    const touched = Y.decodeUpdate(slices[0]!).structs.length;
    assert.ok(touched <= 2, `only a2's x is rewritten (${touched} structs)`);
    assert.equal(xs(board.live).a2, 2);

    // Ben comes back: his edit merges on top of the restored board.
    Y.applyUpdate(board.live, Y.encodeStateAsUpdate(offline));
    assert.equal(board.live.getMap<Y.Map<unknown>>('shapes').get('a1')?.get('color'), 'blue');
    assert.equal(xs(board.live).a2, 2);
  });

  test('text is edited in place: only the differing middle changes', () => {
    const board = new Board();
    const ada = board.client('ada');
    ada.add('a1', 1, 'the quick fox');
    const version = docAt(null, board.log);
    ada.edit((shapes) => {
      const t = shapes.get('a1')?.get('text') as Y.Text;
      t.delete(4, 5);
      t.insert(4, 'slow');
    });
    assert.equal(text(board.live, 'a1'), 'the slow fox');
    restoreTo(board.live, version);
    assert.equal(text(board.live, 'a1'), 'the quick fox');
  });

  test('a board equal to the version gets no change, not even the stamp', () => {
    const board = new Board();
    board.client('ada').add('a1', 1, 'same');
    const version = docAt(null, board.log);
    assert.deepEqual(restoreTo(board.live, version), []);
    assert.equal(restoredAt(board.live), undefined);
  });

  test('a board of many shapes comes in slices of 25, each following the one before', () => {
    const board = new Board();
    const ada = board.client('ada');
    const version = docAt(null, board.log);
    for (let i = 0; i < 60; i++) ada.add(`s${i}`, i);
    const slices = restoreTo(board.live, version);
    assert.equal(slices.length, 4, 'three slices of shapes (25, 25, 10), then the stamp');
    assert.deepEqual(board.json(), board.json(version));
    // Applied one by one, in order, to a copy of the board before: the same board.
    const copy = new Y.Doc();
    for (const entry of board.log) Y.applyUpdate(copy, entry.update);
    for (const slice of slices) {
      Y.applyUpdate(copy, slice);
      assert.equal(copy.store.pendingStructs, null, 'each slice follows from the ones before it');
    }
    assert.deepEqual(board.json(copy), board.json(version));
    assert.equal(restoredAt(copy), restoredAt(board.live));
  });
});

describe('history: revert one user since a time', async () => {
  test("undoes exactly that user's edits since the time and keeps everyone else's", async () => {
    const board = new Board();
    const ada = board.client('ada');
    const ben = board.client('ben');
    // Before `since`: both work normally; none of this is reverted.
    ada.add('a1', 1, 'ada one');
    ben.add('b1', 10, 'ben one');
    ben.add('b2', 20);
    ben.add('b3', 30);
    ben.set('b2', 'color', 'green');
    const since = board.tick(5);

    // After `since`: Ben's edits, all to be undone.
    ben.add('b4', 40); // his new shape: removed
    ben.remove('a1'); // Ada's shape he deleted: back
    ben.set('b1', 'x', 11); // his own earlier shape moved: moved back
    ben.set('b2', 'color', 'red'); // a value he set: back to green
    ben.type('b3', 0, 'spam'); // text he typed: gone
    ben.add('b5', 50); // his new shape that Ada then edits: kept (she adopted it)
    // Ada's edits after `since`: all kept, including on top of Ben's.
    ada.add('a2', 2, 'ada two');
    ada.set('b5', 'color', 'pink');
    ada.type('b3', 4, '!');
    ada.set('b1', 'y', 7);
    const base = null;
    const result = await revertChanges(base, board.log, 'ben', since);
    assert.equal(result.entries, 6);
    assert.ok(result.update);
    Y.applyUpdate(board.live, result.update);
    board.broadcast(result.update);

    const shapes = board.live.getMap<Y.Map<unknown>>('shapes');
    assert.deepEqual(Object.keys(xs(board.live)).sort(), ['a1', 'a2', 'b1', 'b2', 'b3', 'b5']);
    assert.equal(text(board.live, 'a1'), 'ada one');
    assert.equal(shapes.get('b1')?.get('x'), 10);
    assert.equal(shapes.get('b1')?.get('y'), 7, "Ada's later move stays");
    assert.equal(shapes.get('b2')?.get('color'), 'green');
    assert.equal(text(board.live, 'b3'), '!', "Ben's text gone, Ada's kept");
    assert.equal(shapes.get('b5')?.get('color'), 'pink');
    assert.equal(shapes.get('b5')?.get('x'), 50, 'an adopted shape stays whole');
    // Both live clients converge on the same board.
    assert.deepEqual(board.json(ada.doc), board.json());
    assert.deepEqual(board.json(ben.doc), board.json());
  });

  test('a value someone else set again after the reverted user keeps the later value', async () => {
    const board = new Board();
    const ada = board.client('ada');
    const ben = board.client('ben');
    ada.add('a1', 1);
    const since = board.tick();
    ben.set('a1', 'x', 2);
    ada.set('a1', 'x', 3);
    const { update } = await revertChanges(null, board.log, 'ben', since);
    if (update) Y.applyUpdate(board.live, update);
    assert.equal(xs(board.live).a1, 3);
  });

  test('replays from a version snapshot; edits not yet stored survive the revert', async () => {
    const board = new Board();
    const ada = board.client('ada');
    const ben = board.client('ben');
    ada.add('a1', 1);
    ben.add('b0', 0);
    const snapshot = Y.encodeStateAsUpdate(board.live);
    const mark = board.log.length;
    const since = board.tick();
    ben.add('b1', 1);
    ben.set('a1', 'x', 9);
    // An edit the live doc has but the log does not (still waiting to be stored).
    board.live.getMap<Y.Map<unknown>>('shapes').get('a1')?.set('y', 42);
    const { update, entries } = await revertChanges(snapshot, board.log.slice(mark), 'ben', since);
    assert.equal(entries, 2);
    assert.ok(update);
    Y.applyUpdate(board.live, update);
    assert.deepEqual(xs(board.live), { a1: 1, b0: 0 });
    assert.equal(board.live.getMap<Y.Map<unknown>>('shapes').get('a1')?.get('y'), 42);
  });

  test('nothing to revert gives no change', async () => {
    const board = new Board();
    const ada = board.client('ada');
    ada.add('a1', 1);
    const since = board.tick();
    ada.add('a2', 2);
    assert.deepEqual(await revertChanges(null, board.log, 'ben', since), { update: null, entries: 0 });
    const late = board.tick();
    assert.equal((await revertChanges(null, board.log, 'ada', late)).update, null);
  });
});
