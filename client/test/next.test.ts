// `?next=` accepts only same-site paths.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { safeNext } from '../src/nextPath.ts';

describe('next= after signing in', () => {
  it('keeps same-site paths with their query', () => {
    assert.equal(safeNext('/b/abc'), '/b/abc');
    assert.equal(safeNext('/join/tok?x=1#y'), '/join/tok?x=1#y');
  });
  it('refuses anything that leaves the site', () => {
    for (const bad of [
      '//evil.example/x',
      '///evil.example/x',
      '/\\evil.example/x',
      '\\\\evil.example',
      'https://evil.example/x',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/\n/evil.example',
      ' /boards',
      '',
      null,
      undefined,
    ])
      assert.equal(safeNext(bad), '/boards', String(bad));
  });
});
