// The bench's own arithmetic, and one tiny real run that must deliver every update. No timing assertions:
// figures are measured and written down by `npm run bench`, never asserted by tests.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as Y from 'yjs';
import { buildBoard, ingest, traffic } from '../src/scenarios.ts';
import { median, percentileSorted, Samples, summarize } from '../src/stats.ts';

test('percentileSorted uses the nearest rank', () => {
  const xs = Float64Array.from({ length: 100 }, (_, i) => i + 1); // 1..100
  assert.equal(percentileSorted(xs, 50), 50);
  assert.equal(percentileSorted(xs, 95), 95);
  assert.equal(percentileSorted(xs, 99), 99);
  assert.equal(percentileSorted(xs, 100), 100);
  assert.equal(percentileSorted(xs, 0), 1);
  assert.equal(percentileSorted([7], 99), 7);
  assert.equal(percentileSorted([1, 2, 3, 4], 50), 2);
  assert.equal(percentileSorted([1, 2, 3, 4], 51), 3);
  assert.ok(Number.isNaN(percentileSorted([], 50)));
});

test('summarize sorts its input and reports count, mean, percentiles and max', () => {
  const s = summarize([5, 1, 4, 2, 3]);
  assert.deepEqual(s, { count: 5, mean: 3, p50: 3, p95: 5, p99: 5, max: 5 });
  const empty = summarize([]);
  assert.equal(empty.count, 0);
  assert.ok(Number.isNaN(empty.p50));
});

test('median of repeats ignores non-finite values and averages the middle pair', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([Number.NaN, 1, 3]), 2);
  assert.ok(Number.isNaN(median([])));
});

test('Samples grows past its first buffer and keeps every value in order', () => {
  const s = new Samples();
  for (let i = 0; i < 5000; i++) s.push(i);
  const a = s.toArray();
  assert.equal(a.length, 5000);
  assert.equal(a[0], 0);
  assert.equal(a[4999], 4999);
});

test('buildBoard makes the same board from the same seed, a tenth of the edits being new shapes', () => {
  const a = buildBoard(2000, 7);
  const b = buildBoard(2000, 7);
  assert.equal(a.shapes, 200);
  assert.equal(a.doc.getMap('shapes').size, 200);
  assert.deepEqual(a.doc.getMap('shapes').toJSON(), b.doc.getMap('shapes').toJSON());
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(a.doc));
  assert.deepEqual(copy.getMap('shapes').toJSON(), a.doc.getMap('shapes').toJSON());
});

/** One board on y-websocket's server for a second, unpinned: what the tiny traffic runs share. */
const tiny = {
  server: 'ywebsocket',
  boards: 1,
  cursorRate: 10,
  duration: 1,
  instances: 1,
  workers: 1,
  serverCpu: '',
} as const;

test("a tiny fanout against y-websocket's server delivers every update and every cursor move", async () => {
  const res = await traffic('fanout', { ...tiny, clients: 2, writers: 1, rate: 10, movers: 1 });
  const m = res.metrics;
  assert.equal(m.synced, 2);
  assert.ok((m.docSent ?? 0) > 0, 'the writer sent updates');
  assert.equal(m.docExpected, m.docSent, 'one receiver per update');
  assert.equal(m.docDelivered, m.docExpected);
  assert.equal(m.docLost, 0);
  assert.ok((m.awSent ?? 0) > 0, 'the mover sent cursor moves');
  assert.equal(m.awDelivered, m.awExpected);
  assert.equal(m.unconverged, 0);
  assert.equal(m.disconnects, 0);
  assert.equal(m.docP50 !== undefined && m.docP50 >= 0, true);
});

test('light clients load the board like providers: every light mover reaches every timed client', async () => {
  // 4 people, 3 moving, 2 timed: clients 0 and 2 are providers (both moving); 1 (moving) and 3 are light.
  const res = await traffic('presence', { ...tiny, clients: 4, writers: 0, rate: 0, movers: 3, probes: 2 });
  const m = res.metrics;
  assert.equal(m.synced, 4, 'light clients finish the sync handshake too');
  const sent = m.awSent ?? 0;
  assert.ok(sent > 20, `three movers sent cursor moves (${sent})`);
  // Each timed mover's moves reach the other timed client; the light mover's reach both: 4 per
  // 3 moves in all: more than the moves sent, which the timed movers alone could not reach.
  assert.ok((m.awExpected ?? 0) > sent, 'the light mover counts towards two receivers');
  assert.equal(m.awDelivered, m.awExpected, 'every cursor move reached every timed client');
  assert.equal(m.disconnects, 0);
});

test('a tiny ingest loads the whole board, and says when its bytes arrived within each load', async () => {
  const res = await ingest({ ...tiny, edits: 400, loads: 3 });
  const m = res.metrics;
  assert.ok((m.loadP50 ?? 0) > 0, 'the fresh loads completed');
  const arrived = m.loadArrivedP50 ?? Number.NaN;
  assert.ok(arrived > 0 && arrived <= (m.loadP50 ?? 0), `the board arrived within the load (${arrived} ms)`);
  assert.ok((m.clientApplyP50 ?? 0) > 0, 'the client applied the board alone');
});

test('lean timed clients read every mark and cursor from the bytes, as providers would', async () => {
  // 3 people, 2 writing and moving: each writer's marks and cursors reach the other 2.
  const res = await traffic('fanout', { ...tiny, clients: 3, writers: 2, rate: 10, movers: 2, lean: true });
  const m = res.metrics;
  assert.equal(m.synced, 3);
  assert.ok((m.docSent ?? 0) > 10, `the writers sent updates (${m.docSent})`);
  assert.equal(m.docExpected, (m.docSent ?? 0) * 2, 'two receivers per update');
  assert.equal(m.docDelivered, m.docExpected, 'every mark was found in the bytes');
  assert.equal(m.docLost, 0);
  assert.equal(m.unconverged, 0, "every receiver ended on each writer's last mark");
  assert.ok((m.awSent ?? 0) > 0, 'the movers sent cursor moves');
  assert.equal(m.awDelivered, m.awExpected, 'every cursor move reached the other two');
  assert.equal(m.disconnects, 0);
});
