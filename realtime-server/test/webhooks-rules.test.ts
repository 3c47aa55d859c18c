// The pure rules of webhooks (docs/api.md §15): which addresses are private, when a failed delivery
// is tried again, and which shapes a transaction changed (for board.updated).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { webhookLimits } from '@tandem/shared';
import * as Y from 'yjs';
import { addShape } from '../../testing/clients.ts';
import { isPrivateAddress } from '../src/webhooks/addresses.ts';
import { boardUpdatedData, ChangeNotes, changedShapeIds, windowDueAt } from '../src/webhooks/boardChanges.ts';
import { nextAttemptAt } from '../src/webhooks/retry.ts';

describe('webhook rules', () => {
  test('private, loopback and other non-public addresses are refused; public ones are not', () => {
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      'not an address',
    ]) {
      assert.equal(isPrivateAddress(address), true, address);
    }
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '93.184.216.34',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ]) {
      assert.equal(isPrivateAddress(address), false, address);
    }
  });

  test('retries wait the base, then twice as long each time, at most an hour, and stop 24 h after the event', () => {
    const created = new Date('2026-01-01T00:00:00Z');
    const at = (attempts: number, now = created) => nextAttemptAt(created, attempts, now, 10_000)?.getTime();
    assert.equal(at(1), created.getTime() + 10_000);
    assert.equal(at(2), created.getTime() + 20_000);
    assert.equal(at(3), created.getTime() + 40_000);
    assert.equal(at(20), created.getTime() + 3_600_000);
    const late = new Date(created.getTime() + 23.5 * 3_600_000);
    assert.equal(nextAttemptAt(created, 20, late, 10_000), null, 'past 24 h: given up');
  });

  test('a window is due a window after its first change and a window after the last event', () => {
    const first = new Date(10_000);
    assert.equal(windowDueAt(first, null, 1000), 11_000);
    assert.equal(windowDueAt(first, new Date(10_500), 1000), 11_500);
  });

  test('changedShapeIds names added, changed (fields and text) and deleted shapes, and nothing else', () => {
    const doc = new Y.Doc();
    addShape(doc, 'a', { type: 'sticky', x: 0 }, 'hi');
    addShape(doc, 'b', { type: 'rect', x: 0 });
    const seen: string[][] = [];
    doc.on('afterTransaction', (t: Y.Transaction) =>
      seen.push(changedShapeIds(t, doc.getMap('shapes')).sort()),
    );
    const shape = (id: string) => doc.getMap('shapes').get(id) as Y.Map<unknown>;
    doc.transact(() => shape('a').set('x', 5));
    doc.transact(() => (shape('a').get('text') as Y.Text).insert(0, 'oh '));
    doc.transact(() => {
      doc.getMap('shapes').delete('b');
      doc.getMap('meta').set('title', 'x');
    });
    addShape(doc, 'c', { type: 'rect', x: 1 });
    doc.transact(() => doc.getMap('meta').set('title', 'y'));
    assert.deepEqual(seen, [['a'], ['a'], ['b'], ['c'], []]);
  });

  test('board.updated data: each person with their shapes and name, and the page of each shape', () => {
    const data = boardUpdatedData(
      [
        { userId: 'u1', pageId: 'main', shapeId: 's1' },
        { userId: 'u2', pageId: 'main', shapeId: 's1' },
        { userId: 'u1', pageId: 'budget', shapeId: 's2' },
        { userId: 'u1', pageId: 'main', shapeId: 's1' },
      ],
      new Map([['u1', 'Olive']]),
    );
    assert.deepEqual(data, {
      pages: [
        { pageId: 'main', shapeIds: ['s1'] },
        { pageId: 'budget', shapeIds: ['s2'] },
      ],
      changes: [
        { userId: 'u1', name: 'Olive', shapeIds: ['s1', 's2'] },
        { userId: 'u2', name: 'Someone', shapeIds: ['s1'] },
      ],
      shapeIds: ['s1', 's2'],
    });
  });

  test("the notes keep each change's page, and a person past the cap is noted once more, not forever", () => {
    const notes = new ChangeNotes();
    notes.note('b1', 'main', 'u1', ['s1', 's2']);
    notes.note('b1', 'budget', 'u1', ['s3', 's1']);
    notes.note('b1', 'main', 'u1', ['s1']);
    assert.deepEqual(notes.take().get('b1'), [
      { userId: 'u1', pageId: 'main', shapeId: 's1' },
      { userId: 'u1', pageId: 'main', shapeId: 's2' },
      { userId: 'u1', pageId: 'budget', shapeId: 's3' },
      { userId: 'u1', pageId: 'budget', shapeId: 's1' },
    ]);
    const many = Array.from({ length: webhookLimits.shapeIdsPerEvent + 50 }, (_, i) => `x${i}`);
    notes.note('b2', 'main', 'u1', many);
    notes.note('b2', 'other', 'u1', ['y']);
    assert.equal(notes.take().get('b2')?.length, webhookLimits.shapeIdsPerEvent + 1);
  });
});
