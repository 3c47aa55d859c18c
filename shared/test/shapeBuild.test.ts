// The one builder of a new shape's map (client create/paste/import, server content-API writes):
// defaults per type, an arrow's box from its ends, the style fields kept, nothing else added.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as Y from 'yjs';
import { newShapeId } from '../src/ids.ts';
import {
  buildShapeMap,
  defaultShapeColor,
  defaultShapeSize,
  exportBoard,
  newShapeBox,
  SHAPES_KEY,
  ShapeRecord,
  shapeTypes,
} from '../src/index.ts';

/** The shape as stored (§10 JSON), after inserting the built map into a doc. */
function stored(shape: Parameters<typeof buildShapeMap>[0]): Record<string, unknown> {
  const doc = new Y.Doc();
  doc.getMap(SHAPES_KEY).set('s', buildShapeMap(shape, 'u1', 'a0'));
  return (doc.getMap(SHAPES_KEY).get('s') as Y.Map<unknown>).toJSON();
}

test('every type gets its default size and colour, rotation 0, its creator and paint order, and a valid record', () => {
  for (const type of shapeTypes) {
    const record = stored({ type, x: 10, y: 20 });
    const box = newShapeBox({ type, x: 10, y: 20 });
    assert.equal(record.type, type);
    assert.equal(record.color, defaultShapeColor[type]);
    assert.equal(record.rotation, 0);
    assert.equal(record.createdBy, 'u1');
    assert.equal(record.z, 'a0');
    assert.deepEqual([record.x, record.y, record.w, record.h], [box.x, box.y, box.w, box.h]);
    if (type !== 'arrow')
      assert.deepEqual([record.w, record.h], [defaultShapeSize[type].w, defaultShapeSize[type].h]);
    assert.ok(ShapeRecord.safeParse({ id: 's', ...record }).success, `${type}: ${JSON.stringify(record)}`);
  }
});

test('text, name, points and assetId per type; given fields and style fields kept; unknown ones not', () => {
  assert.equal(stored({ type: 'sticky', x: 0, y: 0, text: 'Hi' }).text, 'Hi');
  assert.equal(stored({ type: 'rect', x: 0, y: 0 }).text, '');
  assert.equal(stored({ type: 'frame', x: 0, y: 0 }).name, 'Frame');
  assert.equal(stored({ type: 'frame', x: 0, y: 0, name: 'Ideas' }).name, 'Ideas');
  assert.deepEqual(stored({ type: 'freehand', x: 0, y: 0 }).points, []);
  assert.equal(stored({ type: 'image', x: 0, y: 0 }).assetId, '');
  assert.equal(stored({ type: 'freehand', x: 0, y: 0 }).text, undefined, 'no text on a freehand line');
  // A connector's label is made when first typed; one that comes with the shape is kept.
  assert.equal(stored({ type: 'arrow', x: 0, y: 0, text: 'depends on' }).text, 'depends on');
  assert.equal(stored({ type: 'arrow', x: 0, y: 0 }).text, undefined, 'no empty label');
  const styled = stored({
    type: 'rect',
    x: 1,
    y: 2,
    w: 30,
    h: -5,
    rotation: 0.5,
    color: 'green',
    fill: '#ff0000',
    fillStyle: 'hatched',
    opacity: 0.5,
    locked: true,
    groupId: 'g',
  });
  assert.deepEqual(
    { w: styled.w, h: styled.h, rotation: styled.rotation, color: styled.color },
    { w: 30, h: 0, rotation: 0.5, color: 'green' },
  );
  assert.deepEqual(
    [styled.fill, styled.fillStyle, styled.opacity, styled.locked, styled.groupId],
    ['#ff0000', 'hatched', 0.5, true, 'g'],
  );
  assert.ok(!('stroke' in styled), 'a style field not given is not written');
});

test('an arrow: ends given or taken from its box, and its box always that of its ends', () => {
  const bound = stored({
    type: 'arrow',
    x: 0,
    y: 0,
    from: { shapeId: 'a', x: 300, y: 200 },
    to: { x: 100, y: 250 },
  });
  assert.deepEqual(bound.from, { shapeId: 'a', x: 300, y: 200 });
  assert.deepEqual([bound.x, bound.y, bound.w, bound.h], [100, 200, 200, 50]);
  const free = stored({ type: 'arrow', x: 10, y: 20, w: 50, h: 40 });
  assert.deepEqual(
    [free.from, free.to],
    [
      { x: 10, y: 20 },
      { x: 60, y: 60 },
    ],
  );
  assert.deepEqual([free.x, free.y, free.w, free.h], [10, 20, 50, 40]);
  const doc = new Y.Doc();
  doc.getMap(SHAPES_KEY).set('s', buildShapeMap({ type: 'arrow', x: 10, y: 20, w: 50, h: 40 }, 'u1', 'a0'));
  assert.equal(exportBoard(doc).board.shapes.length, 1, 'it exports as a valid shape');
});

test('newShapeId: 16 URL-safe characters, unique across many pool refills', () => {
  const ids = new Set<string>();
  for (let i = 0; i < 10_000; i++) {
    const id = newShapeId();
    assert.match(id, /^[A-Za-z0-9_-]{16}$/);
    ids.add(id);
  }
  assert.equal(ids.size, 10_000, 'no id twice, also after the pool of random bytes is drawn again');
});
