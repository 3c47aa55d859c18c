// The content API's board operations as pure functions over a Y.Doc (integrations/content.ts):
// new shapes go on top of everything, whoever changed the paint order meanwhile (the top key is
// kept by an observer rather than scanned per write, so each way it can change is checked).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SHAPES_KEY } from '@tandem/shared';
import { generateKeyBetween } from 'fractional-indexing';
import * as Y from 'yjs';
import { applyAdd } from '../src/integrations/content.ts';

const zOf = (doc: Y.Doc, id: string) =>
  (doc.getMap<Y.Map<unknown>>(SHAPES_KEY).get(id)?.get('z') as string) ?? '';
const topOthers = (doc: Y.Doc, id: string) =>
  [...doc.getMap<Y.Map<unknown>>(SHAPES_KEY).entries()].every(
    ([other, m]) => other === id || (m.get('z') as string) < zOf(doc, id),
  );
const add = (doc: Y.Doc, id: string) =>
  applyAdd(doc, [{ id, type: 'sticky', x: 0, y: 0 }], 'bot')[0]?.id as string;

test('each added shape lands above every other, after others raise, add, delete or lower shapes', () => {
  const doc = new Y.Doc();
  const shapes = doc.getMap<Y.Map<unknown>>(SHAPES_KEY);
  assert.ok(topOthers(doc, add(doc, 'a')));
  assert.ok(topOthers(doc, add(doc, 'b')));
  // A person raises a to the top.
  shapes.get('a')?.set('z', generateKeyBetween(zOf(doc, 'b'), null));
  assert.ok(topOthers(doc, add(doc, 'c')), 'above the raised shape');
  // A person adds a shape far above (a paste from another board's order).
  const far = new Y.Map<unknown>();
  const farZ = generateKeyBetween(generateKeyBetween(zOf(doc, 'c'), null), null);
  far.set('z', farZ);
  far.set('type', 'rect');
  shapes.set('far', far);
  assert.ok(topOthers(doc, add(doc, 'd')), 'above a shape another client added');
  // The top shape is lowered, then deleted: the next goes above what is left, not above a ghost.
  shapes.get('d')?.set('z', generateKeyBetween(null, zOf(doc, 'a')));
  const e = add(doc, 'e');
  assert.ok(topOthers(doc, e));
  shapes.delete(e);
  shapes.delete('far');
  const f = add(doc, 'f');
  assert.ok(topOthers(doc, f));
  assert.ok(zOf(doc, f) < farZ, 'the deleted top no longer counts');
  // Several in one call stack in order.
  const [g, h] = applyAdd(
    doc,
    [
      { type: 'sticky', x: 0, y: 0 },
      { type: 'sticky', x: 0, y: 0 },
    ],
    'bot',
  );
  assert.ok(topOthers(doc, h?.id as string) && zOf(doc, g?.id as string) < zOf(doc, h?.id as string));
});
