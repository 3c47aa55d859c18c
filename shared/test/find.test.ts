// Find's matching (shared/src/find.ts), the one rule the client's Find bar and the server's search
// of every page both use: the words read in each kind of shape, folding, a blank query, and
// records as the server reads them from storage (one failing the schema has no words, not a crash).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FindQuery, foldForFind, MAX_FIND_QUERY, matchingShapes, type ShapeRecord } from '../src/index.ts';

const base = { x: 0, y: 0, w: 10, h: 10, rotation: 0, color: 'yellow', z: 'a0', createdBy: 'u' } as const;
const records = [
  { ...base, id: 'note', type: 'sticky', text: 'Plan the\n  Résumé' },
  { ...base, id: 'frame', type: 'frame', name: 'Résumés', text: 'ignored' },
  { ...base, id: 'image', type: 'image', alt: 'A résumé scan', text: 'ignored' },
  { ...base, id: 'arrow', type: 'arrow', text: 'resume here' },
  { ...base, id: 'frame-text', type: 'frame', text: 'resume' },
  { ...base, id: 'broken', type: 'sticky', text: 42 as unknown as string },
] satisfies ShapeRecord[];

test('a shape’s words: its text, a frame’s name, an image’s alt text; case, accents and spacing folded', () => {
  assert.equal(foldForFind('Plan the\n  RÉSUMÉ'), 'plan the resume');
  assert.deepEqual(
    matchingShapes(records, ' RESUME ').map((s) => s.id),
    ['note', 'frame', 'image', 'arrow'],
  );
  assert.deepEqual(
    matchingShapes(records, 'the résumé').map((s) => s.id),
    ['note'],
  );
});

test('a blank query and a record with no words match nothing', () => {
  assert.deepEqual(matchingShapes(records, '  \n '), []);
  assert.deepEqual(matchingShapes(records, '42'), []);
});

test('the search’s q is 1–200 characters', () => {
  assert.equal(FindQuery.safeParse({ q: '' }).success, false);
  assert.equal(FindQuery.safeParse({}).success, false);
  assert.equal(FindQuery.safeParse({ q: 'x'.repeat(MAX_FIND_QUERY + 1) }).success, false);
  assert.equal(FindQuery.safeParse({ q: 'x'.repeat(MAX_FIND_QUERY) }).success, true);
});
