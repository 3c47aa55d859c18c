import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeHeapSnapshot } from 'node:v8';
import { formatHeapDiff, heapDiff } from '../src/heapdiff.ts';

class HeldPerConnection {
  constructor(readonly id: number) {}
}

test('heapdiff counts, per connection, the objects that appeared between two snapshots of one process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'heapdiff-'));
  try {
    const before = writeHeapSnapshot(join(dir, 'before.heapsnapshot'));
    const held = Array.from({ length: 300 }, (_, i) => ({
      probe: new HeldPerConnection(i),
      onClose: () => i,
    }));
    const after = writeHeapSnapshot(join(dir, 'after.heapsnapshot'));
    const rows = heapDiff(JSON.parse(readText(before)), JSON.parse(readText(after)), held.length);
    // About one each: the test runner may make an object or two of the same shape meanwhile.
    const aboutOne = (count: number | undefined) => count !== undefined && count >= 1 && count < 1.05;
    const probe = rows.find((r) => r.key === 'object: HeldPerConnection');
    assert.ok(aboutOne(probe?.countPerConnection), `HeldPerConnection: ${probe?.countPerConnection}`);
    const holder = rows.find((r) => r.key === 'Object {probe,onClose,__proto__}');
    assert.ok(aboutOne(holder?.countPerConnection), `holder: ${holder?.countPerConnection}`);
    // Closures are grouped by where they are written: one group, one closure per connection.
    const closures = rows.filter((r) => r.key.startsWith('closure ') && r.countPerConnection >= 1);
    assert.equal(closures.length, 1, closures.map((r) => r.key).join('; '));
    assert.ok(aboutOne(closures[0]?.countPerConnection), `closures: ${closures[0]?.countPerConnection}`);
    assert.match(
      formatHeapDiff(before, after, held.length, 5),
      /^new objects: \d+ B per connection \(300 connections\)/,
    );
    assert.equal(held.length, 300); // keeps them alive until after the second snapshot
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

function readText(path: string): string {
  return readFileSync(path, 'utf8');
}
