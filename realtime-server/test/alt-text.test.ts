// An image's alt text (docs/api.md §10) as the integrations read it: the content REST API answers
// full §10 records, MCP's read_board its compact shapes; both carry `alt`, and a patch sets it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SHAPES_KEY } from '@tandem/shared';
import * as Y from 'yjs';
import { compactBoard } from '../src/http/mcp.ts';
import {
  applyAdd,
  applyPatch,
  ContentError,
  planAdd,
  planPatch,
  readContent,
} from '../src/integrations/content.ts';

function boardWithImage(alt?: string): Y.Doc {
  const doc = new Y.Doc();
  const image = new Y.Map<unknown>();
  const fields = {
    type: 'image',
    x: 0,
    y: 0,
    w: 320,
    h: 240,
    rotation: 0,
    color: 'grey',
    z: 'a0',
    createdBy: 'u1',
  };
  for (const [k, v] of Object.entries(fields)) image.set(k, v);
  image.set('assetId', 'asset-1');
  if (alt !== undefined) image.set('alt', alt);
  doc.getMap(SHAPES_KEY).set('img', image);
  return doc;
}

test('the content API and read_board answer an image with its alt text', () => {
  const doc = boardWithImage('A whiteboard photo');
  assert.equal(readContent(doc).shapes[0]?.alt, 'A whiteboard photo');
  assert.equal(compactBoard(doc, 'Board', []).shapes[0]?.alt, 'A whiteboard photo');
});

test('an image without alt text has no alt field, and a patch sets one', () => {
  const doc = boardWithImage();
  assert.equal('alt' in (compactBoard(doc, 'Board', []).shapes[0] ?? {}), false);
  const [patched] = applyPatch(doc, [{ id: 'img', alt: 'Sketch of the login flow' }]);
  assert.equal(patched?.alt, 'Sketch of the login flow');
  assert.equal(compactBoard(doc, 'Board', []).shapes[0]?.alt, 'Sketch of the login flow');
});

test('an image added through the content API keeps the alt text it is given', () => {
  const doc = new Y.Doc();
  const [added] = applyAdd(
    doc,
    [{ type: 'image', x: 0, y: 0, assetId: 'asset-1', alt: 'A whiteboard photo' }],
    'u1',
  );
  assert.equal(added?.alt, 'A whiteboard photo');
});

test('a patch giving alt text to a shape that is not an image is refused, naming the field', () => {
  const doc = boardWithImage();
  const note = new Y.Map<unknown>();
  note.set('type', 'sticky');
  for (const [k, v] of Object.entries({ x: 0, y: 0, w: 200, h: 200, rotation: 0, color: 'yellow', z: 'a1' }))
    note.set(k, v);
  doc.getMap(SHAPES_KEY).set('note', note);
  planPatch(doc, [{ id: 'img', alt: 'fine' }], null);
  assert.throws(
    () => planPatch(doc, [{ id: 'note', alt: 'A note is not an image' }], null),
    (e: unknown) => e instanceof ContentError && e.fields['shapes[0].alt'] === 'Only an image has alt text.',
  );
});

test('an add giving alt text to a shape that is not an image is refused whole, naming the field', () => {
  const doc = new Y.Doc();
  const shapes = [
    { type: 'image' as const, x: 0, y: 0, assetId: 'asset-1', alt: 'fine' },
    { type: 'sticky' as const, x: 0, y: 0, alt: 'A note is not an image' },
  ];
  assert.throws(
    () => planAdd(doc, shapes, null),
    (e: unknown) => e instanceof ContentError && e.fields['shapes[1].alt'] === 'Only an image has alt text.',
  );
  planAdd(doc, shapes.slice(0, 1), null);
});
