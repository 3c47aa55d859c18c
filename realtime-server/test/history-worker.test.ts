// The history worker thread (history/compute.ts): it computes what the main thread asks, stops
// once it has had nothing to do for a while (a thread holds tens of MB), and starts again on the
// next call; closing it rejects what is still pending.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as Y from 'yjs';
import { waitUntil } from '../../testing/services.ts';
import { WorkerCompute } from '../src/history/compute.ts';

function boardWith(shapes: number): Uint8Array {
  const doc = new Y.Doc();
  for (let i = 0; i < shapes; i++) {
    const shape = new Y.Map<unknown>();
    doc.getMap('shapes').set(`s${i}`, shape);
    shape.set('type', 'sticky');
  }
  return Y.encodeStateAsUpdate(doc);
}

test('an idle history worker stops, and the next call starts another', { timeout: 30_000 }, async () => {
  const compute = new WorkerCompute(100);
  try {
    assert.equal(compute.running, false, 'no thread before the first call');
    const first = await compute.nextVersion(null, null, [boardWith(3)]);
    assert.equal(first.shapes, 3);
    assert.equal(compute.running, true);
    await waitUntil('the idle worker stopped', () => !compute.running);
    // Calls made back to back keep one worker; each gets its own answer.
    const [second, third] = await Promise.all([
      compute.nextVersion(first.data, null, [boardWith(5)]),
      compute.nextVersion(null, null, [boardWith(2)]),
    ]);
    assert.equal(second.shapes, 5);
    assert.equal(third.shapes, 2);
    assert.equal(compute.running, true, 'a new worker answered');
    await waitUntil('the second worker stopped', () => !compute.running);
  } finally {
    await compute.close();
  }
});

test('closing the history worker rejects the calls still pending', { timeout: 30_000 }, async () => {
  const compute = new WorkerCompute();
  const pending = compute.nextVersion(null, null, [boardWith(2_000)]);
  const rejected = assert.rejects(pending, /history worker closed/);
  await compute.close();
  await rejected;
  assert.equal(compute.running, false);
});
