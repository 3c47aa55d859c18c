// The hand-written presence check must give the zod schema's verdict, and the same data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPresenceState, PresenceState } from '../src/index.ts';

const valid = {
  user: { id: 'u1', name: 'Ada', color: '#ff0000' },
  cursor: { x: 1.5, y: -2 },
  selection: ['a', 'b'],
  viewport: { x: 0, y: 0, zoom: 1 },
  tool: 'select',
  idle: false,
};

/** Variants of a valid state, each changing one thing, valid or not. */
function corpus(): unknown[] {
  const out: unknown[] = [
    valid,
    { ...valid, cursor: null },
    { ...valid, role: 'viewer' },
    { ...valid, extra: 'x' },
  ];
  const bad: [string, unknown][] = [
    ['user', null],
    ['user', { id: '', name: 'A', color: '' }],
    ['user', { id: 'x', name: 'A'.repeat(41), color: '' }],
    ['user', { id: 'x', name: 'A', color: 'c'.repeat(33) }],
    ['cursor', { x: Number.NaN, y: 0 }],
    ['cursor', { x: 1 }],
    ['cursor', 'here'],
    ['selection', 'a'],
    ['selection', [1]],
    ['selection', ['x'.repeat(65)]],
    ['selection', Array.from({ length: 5001 }, () => 'a')],
    ['viewport', { x: 0, y: 0, zoom: 0.01 }],
    ['viewport', { x: 0, y: 0, zoom: 9 }],
    ['viewport', { x: 0, y: Number.POSITIVE_INFINITY, zoom: 1 }],
    ['tool', 7],
    ['tool', 't'.repeat(33)],
    ['idle', 'no'],
    ['role', 'admin'],
  ];
  for (const [key, value] of bad) out.push({ ...valid, [key]: value });
  out.push(null, [], 'state', 42, {});
  for (const key of Object.keys(valid)) {
    const { [key]: _dropped, ...rest } = valid as Record<string, unknown>;
    out.push(rest);
  }
  return out;
}

test('checkPresenceState agrees with the PresenceState schema on every case', () => {
  for (const input of corpus()) {
    const reference = PresenceState.safeParse(input);
    const fast = checkPresenceState(input);
    assert.equal(fast !== null, reference.success, JSON.stringify(input)?.slice(0, 200));
    if (reference.success) assert.deepEqual(fast, reference.data);
  }
});
