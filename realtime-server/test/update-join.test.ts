// joinUpdates (documents/updates.ts) turns the updates one client sent in a row into one update,
// which the room applies instead of applying them one by one. Applying the joined update must
// leave the doc exactly as applying them one by one does; what cannot be joined must say so.
// The room then sends on the update as it came when it simply continued the doc (continuesDoc,
// appliedWhole), and what was integrated otherwise (addedSince).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as Y from 'yjs';
import { deletionsBackInClockOrder, randomEdit } from '../../testing/edits.ts';
import { Random, testSeed } from '../../testing/random.ts';
import {
  addedSince,
  appliedStructs,
  appliedWhole,
  checkUpdate,
  continuesDoc,
  joinOrMerge,
  joinUpdates,
  mergeInBulk,
  withOrderedDeletes,
} from '../src/documents/updates.ts';

/** A client's edits, one update each: shapes made, moved, recoloured, deleted, typed into. */
function editsOf(random: Random, doc: Y.Doc, label: string, count: number): Uint8Array[] {
  const updates: Uint8Array[] = [];
  const take = (update: Uint8Array) => updates.push(update);
  doc.on('update', take);
  const notes = doc.getText('notes');
  for (let step = 0; step < count; step++) {
    if (random.chance(0.15))
      notes.insert(random.int(notes.length + 1), random.pick(['x', 'héllo', '👋🏽 ok', '\u{feff}', '日本']));
    else randomEdit(random, doc, label, step);
  }
  doc.off('update', take);
  return updates;
}

const join = (updates: Uint8Array[]) => joinUpdates(updates, updates.map(checkUpdate))?.update ?? null;

/** A doc's delete set as [client, [[clock, length], …]] pairs. */
const deletionsOf = (doc: Y.Doc) =>
  [...Y.decodeUpdate(Y.encodeStateAsUpdate(doc)).ds.clients].map(([client, ranges]) => [
    client,
    ranges.map((r) => [r.clock, r.len]),
  ]);

/**
 * The same board: state vector, content and delete set. Not the same bytes: a joined update's
 * deletions are applied in clock order (joinedDeletes), not in the order the updates made them,
 * and Yjs may then cut a deleted run of items at other places (seed 748032585), which encodes
 * differently and means the same.
 */
function assertSameDoc(a: Y.Doc, b: Y.Doc, message: string): void {
  assert.deepEqual(Y.encodeStateVector(a), Y.encodeStateVector(b), `${message}: state vectors`);
  assert.deepEqual(a.getMap('shapes').toJSON(), b.getMap('shapes').toJSON(), `${message}: shapes`);
  assert.equal(a.getText('notes').toString(), b.getText('notes').toString(), `${message}: text`);
  assert.deepEqual(deletionsOf(a), deletionsOf(b), `${message}: deletions`);
}

test('one client’s edits joined apply as they do one by one', () => {
  for (let round = 0; round < 5; round++) {
    const seed = testSeed();
    const random = new Random(seed);
    const updates = editsOf(random, new Y.Doc(), 'a', 400);
    const joinedDoc = new Y.Doc();
    const oneByOne = new Y.Doc();
    let joins = 0;
    for (let i = 0; i < updates.length; ) {
      const batch = updates.slice(i, i + 1 + random.int(60));
      i += batch.length;
      const joined = join(batch);
      assert.ok(joined, `seed ${seed}: a run of one client's updates joins`);
      joins += 1;
      Y.applyUpdate(joinedDoc, joined);
      oneByOne.transact(() => {
        for (const update of batch) Y.applyUpdate(oneByOne, update);
      });
      assertSameDoc(joinedDoc, oneByOne, `seed ${seed}, after ${i} updates`);
    }
    assert.ok(joins > 5);
    assert.ok(oneByOne.getText('notes').length > 0, 'the text was typed into');
  }
});

test('only deletions join too', () => {
  const doc = new Y.Doc();
  const shapes = doc.getMap('shapes');
  for (let i = 0; i < 5; i++) shapes.set(`s${i}`, i);
  const board = Y.encodeStateAsUpdate(doc);
  const deletions: Uint8Array[] = [];
  doc.on('update', (update: Uint8Array) => deletions.push(update));
  for (let i = 0; i < 5; i += 2) shapes.delete(`s${i}`);
  const joined = join(deletions);
  assert.ok(joined);
  const target = new Y.Doc();
  Y.applyUpdate(target, board);
  Y.applyUpdate(target, joined);
  assert.deepEqual(target.getMap('shapes').toJSON(), { s1: 1, s3: 3 });
});

test('what is not one client’s unbroken run is not joined', () => {
  const random = new Random(testSeed());
  const a = editsOf(random, new Y.Doc(), 'a', 30);
  const b = editsOf(random, new Y.Doc(), 'b', 30);
  const withStructs = a.filter((update) => checkUpdate(update).structs > 0);
  assert.ok(join(a.slice(0, 10)), 'the run itself joins');
  assert.equal(join([a[0]!, b[0]!]), null, 'two clients');
  assert.equal(join([withStructs[0]!, withStructs[2]!]), null, 'a gap in the clocks');
  assert.equal(join([withStructs[0]!, withStructs[0]!]), null, 'the same update twice');
  assert.equal(join([Y.mergeUpdates([a[0]!, b[0]!]), a[1]!]), null, 'an update of several clients');
});

test('a joined update that Yjs refuses while reading leaves the doc untouched', () => {
  const doc = new Y.Doc();
  // A fixed client id: a random one could hold the byte the test looks for below.
  doc.clientID = 7;
  const updates: Uint8Array[] = [];
  doc.on('update', (update: Uint8Array) => updates.push(update));
  const text = doc.getText('notes');
  text.insert(0, 'ok ');
  text.insert(3, 'é');
  text.insert(4, ' more');
  // The second update's string is no longer UTF-8: the walk counts it, Yjs refuses it.
  const broken = updates[1]!.slice();
  const at = broken.indexOf(0xc3);
  assert.ok(at > 0, 'the encoded é');
  broken[at] = 0xc0; // an overlong form: counted as one character, not UTF-8
  const batch = [updates[0]!, broken, updates[2]!];
  const joined = join(batch);
  assert.ok(joined, 'it joins: the walk does not decode strings');
  const target = new Y.Doc();
  const before = Y.encodeStateAsUpdate(target);
  assert.throws(() => Y.applyUpdate(target, joined));
  assert.deepEqual(Y.encodeStateAsUpdate(target), before, 'nothing of it applied');
  // What the room does next: one by one, keeping the update before the refused one.
  assert.throws(() =>
    target.transact(() => {
      for (const update of batch) Y.applyUpdate(target, update);
    }),
  );
  assert.equal(target.getText('notes').toString(), 'ok ');
});

test('an update that continues the doc is what applying it adds; when part of it waits, addedSince is', () => {
  const x = new Y.Doc();
  x.getMap('m').set('a', 1);
  const fromX = Y.encodeStateAsUpdate(x);
  const y = new Y.Doc();
  Y.applyUpdate(y, fromX);
  let fromY: Uint8Array | null = null;
  y.on('update', (update: Uint8Array) => {
    fromY = update;
  });
  // One transaction: a key of its own, then an overwrite of x's key (its origin is x's item).
  y.transact(() => {
    y.getMap('n').set('own', 1);
    y.getMap('m').set('a', 2);
  });
  assert.ok(fromY);
  const layout = checkUpdate(fromY);

  // A doc that has x's edit: all of it is integrated, and the update is exactly what it added.
  const whole = new Y.Doc();
  Y.applyUpdate(whole, fromX);
  assert.ok(continuesDoc(whole, layout));
  Y.applyUpdate(whole, fromY);
  assert.ok(appliedWhole(whole, layout) && appliedStructs(whole, layout));

  // A doc without it: the key of its own is integrated, the overwrite waits for x's item.
  const partial = new Y.Doc();
  assert.ok(continuesDoc(partial, layout));
  Y.applyUpdate(partial, fromY);
  assert.ok(!appliedWhole(partial, layout), 'the overwrite waits');
  assert.ok(appliedStructs(partial, layout), 'the own key was integrated');
  assert.ok(!continuesDoc(partial, checkUpdate(fromX)), 'nothing continues a doc with something waiting');
  const added = new Y.Doc();
  Y.applyUpdate(added, addedSince(partial, layout));
  assert.deepEqual(added.getMap('n').toJSON(), { own: 1 });
  assert.deepEqual(added.getMap('m').toJSON(), {}, 'the overwrite still waits for x');
  // What waits goes along (as in any sync answer from that doc): x's edit completes it.
  Y.applyUpdate(added, fromX);
  assert.deepEqual(added.getMap('m').toJSON(), { a: 2 });

  // The same update again continues nothing (its clocks are known).
  assert.ok(!continuesDoc(whole, layout));
});

test('a persister batch joined stores what merging it stores, one person or several', () => {
  for (let round = 0; round < 5; round++) {
    const seed = testSeed();
    const random = new Random(seed);
    const a = new Y.Doc();
    const updates = editsOf(random, a, 'a', 200);
    for (let i = 0; i < updates.length; ) {
      const batch = updates.slice(i, i + 1 + random.int(80));
      i += batch.length;
      const stored = joinOrMerge(batch);
      const merged = Y.mergeUpdates(batch);
      const fromStored = new Y.Doc();
      const fromMerged = new Y.Doc();
      Y.applyUpdate(fromStored, Y.mergeUpdates(updates.slice(0, i - batch.length).concat(stored)));
      Y.applyUpdate(fromMerged, Y.mergeUpdates(updates.slice(0, i - batch.length).concat(merged)));
      assertSameDoc(fromStored, fromMerged, `seed ${seed}, batch ending at ${i}`);
    }
    // Two people (two docs, as two tabs or two users) in one batch: each one's run joins.
    const b = new Y.Doc();
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    const base = Y.encodeStateAsUpdate(a);
    // An edit may make no update (typing into a shape without text), so each person's are kept apart.
    const ofPersonB = editsOf(random, b, 'b', 8);
    const ofPersonA = editsOf(random, a, 'a2', 8);
    const mixed = [...ofPersonB, ...ofPersonA, ...editsOf(random, b, 'b2', 4)];
    const fromJoined = new Y.Doc();
    const fromMerged = new Y.Doc();
    Y.applyUpdate(fromJoined, Y.mergeUpdates([base, joinOrMerge(mixed)]));
    Y.applyUpdate(fromMerged, Y.mergeUpdates([base, mergeInBulk(mixed)]));
    assertSameDoc(fromJoined, fromMerged, `seed ${seed}: two clients`);
    // An update that already holds two clients is not one run: merged exactly as before. It is made
    // from one update with structs of each person: a slice of `mixed` could hold only deletions of one.
    const withStructs = (from: Uint8Array[]) => from.find((u) => checkUpdate(u).structs > 0);
    const [fromB, fromA] = [withStructs(ofPersonB), withStructs(ofPersonA)];
    assert.ok(fromB && fromA, `seed ${seed}: each person made a shape, moved one or typed`);
    const several = [Y.mergeUpdates([fromB, fromA]), ...mixed.filter((u) => u !== fromB && u !== fromA)];
    assert.deepEqual(joinOrMerge(several), mergeInBulk(several), `seed ${seed}: merged`);
    // Typing only (no deletions): byte for byte what merging writes, only the delete set is written apart.
    const typed: Uint8Array[] = [];
    const take = (update: Uint8Array) => typed.push(update);
    a.on('update', take);
    b.on('update', take);
    for (let k = 0; k < 30; k++) {
      const text = random.pick([a, b]).getText('notes');
      text.insert(random.int(text.length + 1), random.pick(['x', 'é', '👋🏽']));
    }
    assert.deepEqual(
      joinOrMerge(typed),
      Y.mergeUpdates(typed),
      `seed ${seed}: typing joins to the merged bytes`,
    );
  }
});

test('a joined update whose deletions go back in clock order reaches a receiver behind as it does one by one', () => {
  // The convergence fuzz test's seed 1553958763: one client's updates delete an older item after a
  // newer one (s3's value, then s1's). A receiver that lacks those items keeps the deletions for
  // later; out of order, Yjs stored them garbled and later deleted an item nobody had deleted.
  const { author, created, deletions: updates } = deletionsBackInClockOrder();
  const joined = join(updates);
  assert.ok(joined, 'deletions only: they join');
  const { ds } = Y.decodeUpdate(joined);
  assert.deepEqual(
    [...ds.clients].map(([client, ranges]) => [client, ranges.map((r) => [r.clock, r.len])]),
    [
      [
        11,
        [
          [1, 1],
          [3, 2],
        ],
      ],
    ],
    'one entry per client, its ranges in clock order and merged, as Yjs writes a delete set',
  );

  for (const update of [...updates, created, joined])
    assert.equal(withOrderedDeletes(update), update, "an update in Yjs's form is passed on as it is");

  const behind = new Y.Doc();
  Y.applyUpdate(behind, joined); // before the shapes it deletes: kept for later
  // The author goes on: a new shape, whose clock follows the deleted ones.
  author.getMap('shapes').set('s6', 6);
  Y.applyUpdate(behind, created);
  Y.applyUpdate(behind, Y.encodeStateAsUpdate(author, Y.encodeStateVector(behind)));
  assert.deepEqual(behind.getMap('shapes').toJSON(), { s0: 0, s2: 2, s5: 5, s6: 6 });
  assert.equal(behind.store.pendingDs, null, 'nothing left waiting');
  assertSameDoc(behind, author, 'the receiver behind');
});

test('random joins reach a receiver that lacks what they delete as applying them one by one does', () => {
  for (let round = 0; round < 5; round++) {
    const seed = testSeed();
    const random = new Random(seed);
    const author = new Y.Doc();
    const updates = editsOf(random, author, 'a', 300);
    // The receiver gets each batch joined, but the board it builds on only at the end.
    const cut = 100 + random.int(100);
    const behind = new Y.Doc();
    for (let i = cut; i < updates.length; ) {
      const batch = updates.slice(i, i + 1 + random.int(40));
      i += batch.length;
      const joined = join(batch);
      assert.ok(joined, `seed ${seed}: a run of one client's updates joins`);
      Y.applyUpdate(behind, joined);
    }
    for (const update of updates.slice(0, cut)) Y.applyUpdate(behind, update);
    assert.equal(behind.store.pendingDs, null, `seed ${seed}: nothing left waiting`);
    assertSameDoc(behind, author, `seed ${seed}`);
  }
});
