// LapseCatchUp: while another instance is lapsed, open rooms re-read the Store every
// LAPSE_CATCH_UP_INTERVAL_MS, and stop when it returns or LAPSE_CATCH_UP_MS after its lapse (the
// harness's scripted scenario in durability-fuzz shows what the reads bring).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  LAPSE_CATCH_UP_INTERVAL_MS,
  LAPSE_CATCH_UP_MS,
  LapseCatchUp,
} from '../src/documents/lapseCatchUp.ts';

test('nothing is read while no instance is lapsed', () => {
  const reads: number[] = [];
  let now = 0;
  const window = new LapseCatchUp(() => reads.push(now));
  for (now = 0; now < 120_000; now += 1000) window.tick(now);
  assert.deepEqual(reads, []);
  assert.equal(window.active, false);
});

test('after a lapse, rooms read every interval until the bound has passed, then stop', () => {
  const reads: number[] = [];
  let now = 0;
  const window = new LapseCatchUp(() => reads.push(now));
  window.lapsed('i1', 10_000);
  for (now = 10_000; now < 200_000; now += 1000) window.tick(now);
  const expected: number[] = [];
  for (let at = 10_000 + LAPSE_CATCH_UP_INTERVAL_MS; ; at += LAPSE_CATCH_UP_INTERVAL_MS) {
    expected.push(at);
    if (at >= 10_000 + LAPSE_CATCH_UP_MS) break;
  }
  assert.deepEqual(reads, expected);
  // The last read comes at or after the bound: a write landing just before it is seen.
  assert.ok(reads.at(-1)! >= 10_000 + LAPSE_CATCH_UP_MS);
  assert.equal(window.active, false);
});

test('a returned instance ends its window; another lapsed one keeps its own', () => {
  const reads: number[] = [];
  let now = 0;
  const window = new LapseCatchUp(() => reads.push(now));
  window.lapsed('i1', 0);
  window.lapsed('i2', 0);
  window.returned('i1');
  for (now = 0; now < 30_000; now += 1000) window.tick(now);
  assert.equal(reads.length, 30_000 / LAPSE_CATCH_UP_INTERVAL_MS - 1);
  window.returned('i2');
  const before = reads.length;
  for (now = 30_000; now < 120_000; now += 1000) window.tick(now);
  assert.equal(reads.length, before);
  assert.equal(window.active, false);
});
