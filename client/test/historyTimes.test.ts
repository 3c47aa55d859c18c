// The History panel's times (issue 29): the server's "HH:MM UTC" labels shown in the person's
// own format and zone like every other time there, and "Undo … since" starting when the board
// was opened, not an hour ago.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clockTime, defaultSince, localTimesIn, markOpened } from '../src/board/history/times.ts';

describe('history times', () => {
  it('shows the server’s UTC times in the local format, on the right day', () => {
    const made = '2026-11-26T17:20:00.000Z';
    assert.equal(
      localTimesIn("Undid Ben's changes since 17:17 UTC", made),
      `Undid Ben's changes since ${clockTime('2026-11-26T17:17:00.000Z')}`,
    );
    assert.doesNotMatch(localTimesIn('Restored the version of 23:50 UTC', '2026-11-27T00:10:00.000Z'), /UTC/);
    assert.equal(
      localTimesIn('Restored the version of 23:50 UTC', '2026-11-27T00:10:00.000Z'),
      `Restored the version of ${clockTime('2026-11-26T23:50:00.000Z')}`,
      'a time after the version was made is the day before',
    );
    assert.equal(localTimesIn('Plan A', made), 'Plan A');
  });

  it('“since” starts when the board was opened here, to the minute', () => {
    const before = new Date();
    markOpened('board-1');
    const later = new Date(before.getTime() + 3 * 3_600_000);
    const since = defaultSince('board-1', later);
    assert.ok(since.getTime() <= before.getTime() + 60_000 && since.getTime() > before.getTime() - 60_000);
    assert.equal(since.getSeconds(), 0);
    assert.ok(later.getTime() - since.getTime() > 3_600_000, 'not an hour before now');
  });
});
