// The content API's board operations as pure functions over a Y.Doc (integrations/content.ts):
// new shapes go on top of everything, whoever changed the paint order meanwhile (the top key is
// kept by an observer rather than scanned per write, so each way it can change is checked), and a
// frame moved by a change carries what it holds, within a scoped key's frame.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SHAPES_KEY } from '@tandem/shared';
import { generateKeyBetween } from 'fractional-indexing';
import * as Y from 'yjs';
import { applyAdd, applyPatch, ContentError, planPatch } from '../src/integrations/content.ts';

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

test('moving a frame carries what it holds, as the editor does; resizing it, or placing a shape, does not', () => {
  const doc = new Y.Doc();
  applyAdd(
    doc,
    [
      { id: 'frame', type: 'frame', x: 0, y: 0, w: 400, h: 300, name: 'Ideas' },
      { id: 'in', type: 'sticky', x: 20, y: 20 },
      { id: 'in2', type: 'sticky', x: 200, y: 100 },
      { id: 'placed', type: 'sticky', x: 40, y: 150 },
      { id: 'locked', type: 'rect', x: 300, y: 200, w: 40, h: 40 },
      { id: 'out', type: 'sticky', x: 600, y: 20 },
      { id: 'inner', type: 'frame', x: 250, y: 20, w: 100, h: 100, name: 'Inner' },
      // Both ends inside: a member. One end outside: no frame's, left where it is.
      {
        id: 'link',
        type: 'arrow',
        x: 0,
        y: 0,
        from: { shapeId: 'in', x: 60, y: 60 },
        to: { x: 240, y: 140 },
      },
      {
        id: 'across',
        type: 'arrow',
        x: 0,
        y: 0,
        from: { shapeId: 'in', x: 60, y: 60 },
        to: { shapeId: 'out', x: 640, y: 60 },
      },
    ],
    'bot',
  );
  const shapes = doc.getMap<Y.Map<unknown>>(SHAPES_KEY);
  shapes.get('locked')?.set('locked', true);
  const at = (id: string) => {
    const m = shapes.get(id)!;
    return { x: m.get('x'), y: m.get('y') };
  };
  const before = Object.fromEntries(
    ['in', 'in2', 'locked', 'out', 'inner', 'across'].map((id) => [id, at(id)]),
  );
  const acrossEnds = JSON.stringify([shapes.get('across')?.get('from'), shapes.get('across')?.get('to')]);

  // Resizing only: nothing else moves.
  assert.deepEqual(planPatch(doc, [{ id: 'frame', w: 500, h: 320 }], null), []);

  const change = [
    { id: 'frame', x: 100, y: 50 },
    { id: 'placed', x: 1000, y: 1000 },
  ];
  const carried = planPatch(doc, change, null);
  assert.deepEqual(carried.map((c) => c.id).sort(), ['in', 'in2', 'link']);
  const records = applyPatch(doc, change, carried);
  assert.deepEqual(records.map((r) => r.id).sort(), ['frame', 'in', 'in2', 'link', 'placed']);
  assert.deepEqual(at('in'), { x: 120, y: 70 });
  assert.deepEqual(at('in2'), { x: 300, y: 150 });
  assert.deepEqual(at('placed'), { x: 1000, y: 1000 }, 'a shape the change places stays where it puts it');
  assert.deepEqual(shapes.get('link')?.get('from'), { shapeId: 'in', x: 160, y: 110 });
  assert.deepEqual(shapes.get('link')?.get('to'), { x: 340, y: 190 });
  for (const id of ['locked', 'out', 'inner', 'across'])
    assert.deepEqual(
      at(id),
      before[id],
      `${id} stays: locked, outside, a frame, or a connector leaving the frame`,
    );
  assert.equal(
    JSON.stringify([shapes.get('across')?.get('from'), shapes.get('across')?.get('to')]),
    acrossEnds,
  );
});

test('a key limited to a frame cannot carry shapes out of it by moving a frame inside it', () => {
  const doc = new Y.Doc();
  applyAdd(
    doc,
    [
      { id: 'scope', type: 'frame', x: 0, y: 0, w: 400, h: 400, name: 'Scope' },
      { id: 'column', type: 'frame', x: 20, y: 20, w: 100, h: 300, name: 'Column' },
      { id: 'note', type: 'sticky', x: 30, y: 200, w: 80, h: 80 },
    ],
    'bot',
  );
  // The column's centre stays inside the scope; the note it carries would not.
  const change = [{ id: 'column', x: 20, y: 200 }];
  assert.throws(
    () => planPatch(doc, change, 'scope'),
    (error: unknown) =>
      error instanceof ContentError &&
      error.code === 'OUT_OF_SCOPE' &&
      error.fields['shapes[0]'] === 'Outside the frame this key is limited to.',
  );
  assert.equal(
    planPatch(doc, [{ id: 'column', x: 40, y: 40 }], 'scope').length,
    1,
    'a move within it is fine',
  );
});
