import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldMessages, isBoardId, roleAtLeast, SignupBody } from '../src/index.ts';

test('signup body trims, lower-cases and names each bad field', () => {
  const ok = SignupBody.parse({ email: ' Ada@Example.COM ', name: ' Ada ', password: 'correct horse' });
  assert.equal(ok.email, 'ada@example.com');
  assert.equal(ok.name, 'Ada');
  const bad = SignupBody.safeParse({ email: 'nope', name: '   ', password: 'short' });
  assert.equal(bad.success, false);
  if (!bad.success) {
    const fields = fieldMessages(bad.error);
    assert.deepEqual(Object.keys(fields).sort(), ['email', 'name', 'password']);
    assert.equal(fields.password, 'A password has at least 8 characters.');
  }
});

test('roles rank owner > editor > viewer, ids have their own alphabet', () => {
  assert.ok(roleAtLeast('owner', 'editor'));
  assert.ok(!roleAtLeast('viewer', 'editor'));
  assert.ok(isBoardId('abcdefghijABCDEFGHIJ_'));
  assert.ok(!isBoardId('abcdefghijABCDEFGHIJ/'));
  assert.ok(!isBoardId('short'));
});
