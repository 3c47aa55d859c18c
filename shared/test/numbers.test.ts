import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withThousands } from '../src/numbers.ts';

test('withThousands groups a number as toLocaleString("en") does, without Intl', () => {
  for (const n of [0, 7, 999, 1000, 10_000, 123_456, 1_000_000, 9_876_543_210, -1234, 1234.5, 0.25]) {
    assert.equal(withThousands(n), n.toLocaleString('en', { maximumFractionDigits: 20 }), String(n));
  }
});
