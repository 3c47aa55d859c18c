// Deleted pages' notes (shared/src/pages.ts, docs/api.md §17): a deletion writes who deleted the
// page and its name and place, in the same update as the deletion, so another document that
// receives it learns both; restorePageEntry puts the page back where it was; only the newest
// MAX_DELETED_PAGES notes are kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as Y from 'yjs';
import {
  addPageEntry,
  deletedPageNote,
  deletePageEntry,
  MAX_DELETED_PAGES,
  readDeletedPages,
  readPages,
  restorePageEntry,
} from '../src/index.ts';

const ana = { id: 'u-ana', name: 'Ana' };

test('the deletion and its note travel in one update; a restore puts the page back in its place', () => {
  const doc = new Y.Doc();
  addPageEntry(doc, 'ideas', 'Ideas');
  addPageEntry(doc, 'plan', 'Plan');
  const other = new Y.Doc();
  Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
  const before = Y.encodeStateVector(doc);
  assert.ok(deletePageEntry(doc, 'ideas', undefined, ana, 1000));
  // One update, as the deleter's transaction sends it: the other side has the note with the deletion.
  Y.applyUpdate(other, Y.encodeStateAsUpdate(doc, before));
  assert.deepEqual(
    readPages(other).map((p) => p.id),
    ['main', 'plan'],
  );
  assert.deepEqual(deletedPageNote(other, 'ideas'), {
    id: 'ideas',
    name: 'Ideas',
    order: 1,
    by: ana,
    at: 1000,
  });
  assert.deepEqual(
    readDeletedPages(other).map((p) => p.id),
    ['ideas'],
  );

  assert.ok(restorePageEntry(other, 'ideas'));
  assert.deepEqual(
    readPages(other).map((p) => `${p.id}:${p.name}`),
    ['main:', 'ideas:Ideas', 'plan:Plan'],
    'back with its name, in its place',
  );
  assert.deepEqual(readDeletedPages(other), [], 'no longer listed as deleted');
  assert.equal(restorePageEntry(other, 'ideas'), false, 'a listed page is not restored twice');
  assert.equal(deletePageEntry(other, 'main', undefined, ana), false, 'the first page is never deleted');
});

test(`only the newest ${MAX_DELETED_PAGES} deletions are remembered`, () => {
  const doc = new Y.Doc();
  for (let i = 0; i < MAX_DELETED_PAGES + 3; i++) {
    addPageEntry(doc, `p${i}`, `Page ${i}`);
    assert.ok(deletePageEntry(doc, `p${i}`, undefined, ana, 1000 + i));
  }
  const kept = readDeletedPages(doc).map((p) => p.id);
  assert.equal(kept.length, MAX_DELETED_PAGES);
  assert.equal(kept[0], `p${MAX_DELETED_PAGES + 2}`, 'newest first');
  assert.ok(!kept.includes('p0') && !kept.includes('p2'), 'the oldest forgotten');
});
