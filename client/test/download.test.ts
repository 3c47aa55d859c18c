// Export file names: accented and non-Latin letters are kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { safeName } from '../src/board/ui/download.ts';

describe('export file names', () => {
  it('keeps accented letters and other scripts, drops what file systems dislike', () => {
    assert.equal(safeName('Café rétro: Über/Plan'), 'Café-rétro-ÜberPlan');
    assert.equal(safeName('Ζωή 計画 2026'), 'Ζωή-計画-2026');
    assert.equal(safeName('Cafe\u0301'), 'Café');
    assert.equal(safeName('***'), 'board');
  });
});
