// LapseCatchUp: while another instance is lapsed, rounds ask the Store which open boards' logs
// moved and only those rooms read the board; every LAPSE_CATCH_UP_INTERVAL_MS for LAPSE_CATCH_UP_MS,
// then backing off to LAPSE_CATCH_UP_MAX_INTERVAL_MS, until the instance returns or its bound
// passes (the harness's scripted scenarios in durability-fuzz show what the reads bring).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  LAPSE_CATCH_UP_INTERVAL_MS,
  LAPSE_CATCH_UP_MAX_INTERVAL_MS,
  LAPSE_CATCH_UP_MS,
  LAPSE_READS_PER_TICK,
  LapseCatchUp,
} from '../src/documents/lapseCatchUp.ts';

/** A window over `rooms` open rooms whose log heads the test moves; records rounds and reads. */
function fixture(rooms = 1, boundMs?: number) {
  const heads = new Map(Array.from({ length: rooms }, (_, i) => [`b${i}`, 0]));
  const rounds: number[] = [];
  const reads: { at: number; key: string; since: number | null }[] = [];
  let now = 0;
  const window = new LapseCatchUp({
    keys: () => [...heads.keys()],
    heads: async (keys) => {
      rounds.push(now);
      return new Map(keys.map((key) => [key, heads.get(key) ?? 0]));
    },
    read: (key, since) => reads.push({ at: now, key, since }),
    boundMs,
  });
  const run = async (from: number, to: number, at?: (t: number) => void) => {
    for (now = from; now < to; now += 1000) {
      at?.(now);
      window.tick(now);
      for (let i = 0; i < 3; i++) await Promise.resolve();
    }
  };
  return { window, heads, rounds, reads, run };
}

test('nothing is asked or read while no instance is lapsed', async () => {
  const { window, rounds, reads, run } = fixture();
  await run(0, 120_000);
  assert.deepEqual(rounds, []);
  assert.deepEqual(reads, []);
  assert.equal(window.active, false);
});

test('after a lapse, rounds come every interval for a minute, then back off to the cap, until the bound', async () => {
  const bound = 600_000;
  const { window, rounds, run } = fixture(1, bound);
  window.lapsed('i1', 10_000);
  await run(10_000, 10_000 + bound + 120_000);
  const expected: number[] = [];
  let interval = LAPSE_CATCH_UP_INTERVAL_MS;
  for (let at = 10_000 + LAPSE_CATCH_UP_INTERVAL_MS; ; at += interval) {
    expected.push(at);
    if (at >= 10_000 + bound) break;
    if (at >= 10_000 + LAPSE_CATCH_UP_MS) interval = Math.min(interval * 2, LAPSE_CATCH_UP_MAX_INTERVAL_MS);
  }
  assert.deepEqual(rounds, expected);
  assert.equal(rounds.filter((at) => at <= 10_000 + LAPSE_CATCH_UP_MS).length, LAPSE_CATCH_UP_MS / 5000);
  // The last round comes at or after the bound: a write landing just before it is seen.
  assert.ok(rounds.at(-1)! >= 10_000 + bound);
  assert.equal(window.active, false);
});

test('only a room whose log moved reads, and only what came after the head it saw, however long after the lapse', async () => {
  const { window, heads, reads, run } = fixture(3);
  window.lapsed('i1', 0);
  // The first round reads every room whole (nothing seen yet), then none while nothing moves.
  await run(0, 40_000);
  assert.deepEqual(reads.map((r) => r.key).sort(), ['b0', 'b1', 'b2']);
  assert.ok(reads.every((r) => r.since === null));
  reads.length = 0;
  // Ten minutes later someone stores an edit on b1: it is read within the capped interval.
  await run(40_000, 700_000, (t) => {
    if (t === 600_000) heads.set('b1', 7);
  });
  assert.equal(reads.length, 1);
  assert.equal(reads[0]!.key, 'b1');
  assert.ok(reads[0]!.at >= 600_000 && reads[0]!.at <= 600_000 + LAPSE_CATCH_UP_MAX_INTERVAL_MS + 1000);
  assert.equal(reads[0]!.since, 0, 'from the head the last round saw');
  reads.length = 0;
  await run(700_000, 800_000, (t) => {
    if (t === 720_000) heads.set('b1', 9);
  });
  assert.deepEqual(
    reads.map((r) => [r.key, r.since]),
    [['b1', 7]],
  );
  assert.equal(window.active, true);
});

test('a room opened during the rounds with the head it loaded at reads only what came after; one opened without, the whole board', async () => {
  const { window, heads, reads, run } = fixture(1);
  window.lapsed('i1', 0);
  await run(0, 10_000);
  reads.length = 0;
  heads.set('b1', 4);
  window.opened('b1', 4);
  heads.set('b2', 4);
  await run(10_000, 20_000);
  assert.deepEqual(
    reads.map((r) => [r.key, r.since]),
    [['b2', null]],
    'b1 was read up to its head by its load; b2 is read whole',
  );
  reads.length = 0;
  await run(20_000, 40_000, (t) => {
    if (t === 25_000) heads.set('b1', 6);
  });
  assert.deepEqual(
    reads.map((r) => [r.key, r.since]),
    [['b1', 4]],
  );
});

test('a round that finds many rooms spreads their reads over the ticks', async () => {
  const rooms = LAPSE_READS_PER_TICK * 2 + 5;
  const { window, reads, run } = fixture(rooms);
  window.lapsed('i1', 0);
  await run(0, 20_000);
  assert.equal(reads.length, rooms);
  const perTick = new Map<number, number>();
  for (const { at } of reads) perTick.set(at, (perTick.get(at) ?? 0) + 1);
  assert.deepEqual([...perTick.values()], [LAPSE_READS_PER_TICK, LAPSE_READS_PER_TICK, 5]);
});

test('a returned instance ends its rounds; another lapsed one keeps its own', async () => {
  const { window, rounds, run } = fixture();
  window.lapsed('i1', 0);
  window.lapsed('i2', 0);
  window.returned('i1');
  await run(0, 30_000);
  assert.equal(rounds.length, 30_000 / LAPSE_CATCH_UP_INTERVAL_MS - 1);
  window.returned('i2');
  const before = rounds.length;
  await run(30_000, 120_000);
  assert.equal(rounds.length, before);
  assert.equal(window.active, false);
});
