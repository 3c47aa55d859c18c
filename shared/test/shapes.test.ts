// The shape schema's optional image alt text (docs/api.md §10): valid when short, refused past its
// limit with a message in the API's words, and a board saved before it existed stays valid.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldMessages, MAX_ALT_TEXT, ShapeInput, ShapePatch, ShapeRecord } from '../src/index.ts';

const image = {
  id: 'i1',
  type: 'image',
  x: 0,
  y: 0,
  w: 320,
  h: 240,
  rotation: 0,
  color: 'grey',
  z: 'a0',
  createdBy: 'u1',
  assetId: 'asset-1',
} as const;

test('an image without alt text (an old board) is valid, and one with it keeps it', () => {
  assert.ok(ShapeRecord.safeParse(image).success);
  const withAlt = ShapeRecord.parse({ ...image, alt: 'A whiteboard photo' });
  assert.equal(withAlt.alt, 'A whiteboard photo');
  assert.equal(ShapeRecord.parse({ ...image, alt: 'x'.repeat(MAX_ALT_TEXT) }).alt?.length, MAX_ALT_TEXT);
});

test('alt text past its limit is refused, in the words of the API field messages', () => {
  const long = ShapeRecord.safeParse({ ...image, alt: 'x'.repeat(MAX_ALT_TEXT + 1) });
  assert.equal(long.success, false);
  if (!long.success)
    assert.deepEqual(fieldMessages(long.error), { alt: `Alt text has at most ${MAX_ALT_TEXT} characters.` });
  // The content API's writes take it too, and refuse it the same way.
  assert.ok(ShapePatch.safeParse({ id: 'i1', alt: 'Sketch of the login flow' }).success);
  assert.equal(
    ShapeInput.safeParse({ type: 'image', x: 0, y: 0, alt: 'x'.repeat(MAX_ALT_TEXT + 1) }).success,
    false,
  );
  assert.equal(ShapeRecord.safeParse({ ...image, alt: 42 }).success, false);
});
