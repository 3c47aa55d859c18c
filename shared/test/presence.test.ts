// The hand-written presence check must give the zod schema's verdict, and the same data: partial
// states completed with the defaults, malformed ones refused with the field that is wrong.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPresenceInput, PresenceInput, PresenceState, presenceDefaults } from '../src/index.ts';

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
    { ...valid, role: 'admin' },
    { ...valid, user: 7 },
    { ...valid, extra: 'x' },
    { cursor: { x: 3, y: 4 } },
    { cursor: null },
    { tool: 'pen', idle: true },
    { ...valid, laser: { points: [[1, 2, 3]] } },
    { ...valid, laser: null, chat: null, reaction: null },
    { ...valid, chat: 'hello', reaction: { emoji: '🎉', at: 1_700_000_000_000 } },
    { cursor: { x: 0, y: 0 }, laser: { points: Array.from({ length: 64 }, (_, i) => [i, i, i]) } },
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
    ['laser', { points: Array.from({ length: 65 }, (_, i) => [i, i, i]) }],
    ['laser', { points: [[1, 2]] }],
    ['laser', { points: [[1, 2, Number.NaN]] }],
    ['laser', []],
    ['chat', 'c'.repeat(101)],
    ['chat', 5],
    ['reaction', { emoji: '', at: 1 }],
    ['reaction', { emoji: 'e'.repeat(17), at: 1 }],
    ['reaction', { emoji: '👍' }],
  ];
  for (const [key, value] of bad) out.push({ ...valid, [key]: value });
  out.push(null, [], 'state', 42, {}, { cursor: undefined });
  for (const key of Object.keys(valid)) {
    const { [key]: _dropped, ...rest } = valid as Record<string, unknown>;
    out.push(rest);
  }
  return out;
}

test('checkPresenceInput agrees with the PresenceInput schema on every case', () => {
  for (const input of corpus()) {
    const reference = PresenceInput.safeParse(input);
    const fast = checkPresenceInput(input);
    assert.equal(fast.ok, reference.success, JSON.stringify(input)?.slice(0, 200));
    if (reference.success && fast.ok) {
      const { user: _user, role: _role, ...fields } = reference.data;
      assert.deepEqual(fast.state, fields);
    }
  }
});

test('a partial state is completed with the defaults, and the result is a valid complete state', () => {
  const checked = checkPresenceInput({ cursor: { x: 3, y: 4 } });
  assert.ok(checked.ok);
  assert.deepEqual(checked.state, { ...presenceDefaults, cursor: { x: 3, y: 4 } });
  const stamped = { user: { id: 'u', name: 'Bot', color: '#000' }, ...checked.state, role: 'editor' };
  assert.ok(PresenceState.safeParse(stamped).success);
});

test('a malformed state says which field is wrong', () => {
  assert.deepEqual(checkPresenceInput({ cursor: { x: 'a', y: 0 } }), { ok: false, reason: 'cursor' });
  assert.deepEqual(checkPresenceInput('x'), { ok: false, reason: 'not an object' });
});
