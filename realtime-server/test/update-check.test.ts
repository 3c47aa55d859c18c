// checkUpdate (documents/updates.ts) stands in for a full Y.decodeUpdate before an update is
// applied. It must accept every update Yjs accepts (or a client's edits would be refused), and
// whatever it accepts must apply all or nothing: Y.applyUpdate either takes it whole or throws
// with the doc as it was.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as Y from 'yjs';
import { randomEdit } from '../../testing/edits.ts';
import { Random, testSeed } from '../../testing/random.ts';
import { checkUpdate } from '../src/documents/updates.ts';

/** Updates of every kind of content Yjs writes: maps, text with formats and embeds, arrays of any, XML, binary, subdocuments, deletions. */
function corpus(random: Random): Uint8Array[] {
  const updates: Uint8Array[] = [];
  const doc = new Y.Doc();
  doc.on('update', (update: Uint8Array) => updates.push(update));
  for (let step = 0; step < 300; step++) randomEdit(random, doc, 'a', step);
  const text = doc.getText('notes');
  text.insert(0, 'héllo wörld 👋 ', { bold: true });
  text.format(2, 5, { italic: true, color: '#ff0000' });
  text.insertEmbed(3, { image: 'x.png', size: [1, 2] });
  text.delete(1, 4);
  const list = doc.getArray('list');
  list.push([1, -2.5, 2 ** 40, 'text', null, true, false, { nested: [1, { deep: 'x' }] }]);
  list.push([new Uint8Array([1, 2, 3, 255])]);
  list.insert(1, [new Y.Map(), new Y.Array(), new Y.Text('t')]);
  list.delete(0, 2);
  const fragment = doc.getXmlFragment('xml');
  const element = new Y.XmlElement('p');
  element.setAttribute('class', 'x');
  element.insert(0, [new Y.XmlText('inner')]);
  // Y.XmlHook is an XML node Yjs writes with a name, though the typings leave it out here.
  fragment.insert(0, [element, new Y.XmlHook('hook') as unknown as Y.XmlElement]);
  doc.getMap('docs').set('sub', new Y.Doc({ guid: 'sub-guid', meta: { a: 1 } }));
  doc.getMap('shapes').clear();
  updates.push(Y.encodeStateAsUpdate(doc), Y.encodeStateAsUpdate(new Y.Doc()));
  updates.push(Y.mergeUpdates(updates.slice(0, 50)));
  doc.destroy();
  return updates;
}

/** The update changed one byte, cut short, or with bytes added. */
function mangle(random: Random, update: Uint8Array): Uint8Array {
  const roll = random.next();
  if (roll < 0.4 && update.length > 0) {
    const copy = update.slice();
    copy[random.int(copy.length)] = random.int(256);
    return copy;
  }
  if (roll < 0.8) return update.slice(0, random.int(update.length));
  const extra = Uint8Array.from({ length: 1 + random.int(4) }, () => random.int(256));
  const at = random.int(update.length + 1);
  return Uint8Array.from([...update.slice(0, at), ...extra, ...update.slice(at)]);
}

const accepts = (fn: () => unknown) => {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
};

test('accepts every update Yjs writes', () => {
  const updates = corpus(new Random(testSeed()));
  for (const [i, update] of updates.entries()) {
    assert.doesNotThrow(() => Y.decodeUpdate(update), `Yjs reads update ${i}`);
    assert.doesNotThrow(() => checkUpdate(update), `update ${i} (${update.length} bytes) accepted`);
  }
});

test('accepts whatever Y.decodeUpdate accepts, and what only it accepts applies whole or not at all', () => {
  const seed = testSeed();
  const random = new Random(seed);
  const updates = corpus(random);
  const base = new Y.Doc();
  // A board with content to delete from, so a mangled delete set has something to half-delete.
  for (const update of updates.slice(0, 200)) Y.applyUpdate(base, update);
  const before = Y.encodeStateAsUpdate(base);
  // Updates Yjs's full decode refuses but this check lets through: they are what the check must
  // still keep from being half applied. (An update both accept can still fail part way through
  // for reasons of content, such as a reference to a struct that is not there: the full decode
  // never caught those either, and what was integrated is relayed to everyone like any edit.)
  let onlyOurs = 0;
  let threw = 0;
  for (let i = 0; i < 3000; i++) {
    const mangled = mangle(random, random.pick(updates));
    const yjs = accepts(() => Y.decodeUpdate(mangled));
    const ours = accepts(() => checkUpdate(mangled));
    if (yjs) assert.ok(ours, `seed ${seed}, case ${i}: Yjs reads it, so must checkUpdate`);
    if (!ours || yjs) continue;
    onlyOurs += 1;
    const doc = new Y.Doc();
    Y.applyUpdate(doc, before);
    const vector = Y.encodeStateVector(doc);
    const snapshot = Y.encodeStateAsUpdate(doc);
    try {
      Y.applyUpdate(doc, mangled);
    } catch {
      threw += 1;
      // Thrown: nothing of it may be in the doc (no struct integrated, no deletion made).
      assert.deepEqual(Y.encodeStateVector(doc), vector, `seed ${seed}, case ${i}: structs left behind`);
      assert.deepEqual(Y.encodeStateAsUpdate(doc), snapshot, `seed ${seed}, case ${i}: half applied`);
    }
    doc.destroy();
  }
  assert.ok(onlyOurs > 20, `enough updates only the check lets through (${onlyOurs}) to test applying them`);
  assert.ok(threw > 0, `some of them throw while applying (${threw}), so the all-or-nothing check ran`);
  base.destroy();
});
