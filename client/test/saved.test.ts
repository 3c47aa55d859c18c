// The "All changes saved" tracker: saving from the first unconfirmed edit until an answer covers
// every edit; answers cover what was counted when their request went out, never later edits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeSavedMessage } from '@tandem/shared';
import { SaveTracker } from '../src/board/sync/saved.ts';

function tracker(connected = true) {
  const sent: number[] = [];
  const link = { connected };
  const t = new SaveTracker((message) => {
    if (!link.connected) return false;
    sent.push(decodeSavedMessage(message)!);
    return true;
  });
  const seen: string[] = [];
  t.subscribe((s) => seen.push(s));
  return { t, sent, seen, link };
}

test('saving until the answer covers every edit', () => {
  const { t, sent, seen } = tracker();
  assert.equal(t.status, 'saved');
  t.ask();
  assert.deepEqual(sent, [], 'nothing to confirm, nothing asked');
  t.edit();
  t.edit();
  assert.equal(t.status, 'saving');
  t.ask();
  t.edit();
  t.answered(sent[0]!);
  assert.equal(t.status, 'saving', 'the edit after the request is not covered');
  t.ask();
  t.answered(sent[1]!);
  assert.equal(t.status, 'saved');
  assert.deepEqual(seen, ['saving', 'saved']);
});

test('answers lost with a socket: nothing is confirmed until asked again after the reconnect', () => {
  const { t, sent, link } = tracker();
  t.edit();
  t.ask();
  t.disconnected();
  t.answered(sent[0]!);
  assert.equal(t.status, 'saving', 'an answer to a forgotten request confirms nothing');
  link.connected = false;
  t.ask();
  assert.equal(sent.length, 1, 'no request without a socket');
  link.connected = true;
  t.ask();
  t.answered(sent[1]!);
  assert.equal(t.status, 'saved');
});

test('an older answer arriving after a newer one changes nothing; unknown ids are ignored', () => {
  const { t, sent } = tracker();
  t.edit();
  t.ask();
  t.edit();
  t.ask();
  t.answered(sent[1]!);
  assert.equal(t.status, 'saved');
  t.answered(sent[0]!);
  t.answered(999);
  assert.equal(t.status, 'saved');
});
