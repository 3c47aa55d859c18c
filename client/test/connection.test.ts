// The connection state machine of docs/api.md §4 and the close-code policy of §8.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CloseCode, type CloseName, closeReason, closeSentence } from '@tandem/shared';
import {
  type ConnectionEvent,
  initialConnection,
  reduceConnection,
  shouldReconnect,
} from '../src/board/sync/connection.ts';

const run = (...events: ConnectionEvent[]) => events.reduce(reduceConnection, initialConnection);

describe('connection state', () => {
  it('connecting → live ↔ offline → live', () => {
    assert.equal(run().status, 'connecting');
    assert.equal(run({ type: 'synced', readOnly: false }).status, 'live');
    const dropped = run({ type: 'synced', readOnly: false }, { type: 'closed', code: 1006 });
    assert.equal(dropped.status, 'offline');
    assert.equal(dropped.retrying, true);
    assert.equal(reduceConnection(dropped, { type: 'synced', readOnly: false }).status, 'live');
  });

  it('viewers are read-only once synced', () => {
    assert.equal(run({ type: 'synced', readOnly: true }).status, 'read-only');
  });

  it('the browser going offline and online', () => {
    const off = run({ type: 'synced', readOnly: false }, { type: 'browser-offline' });
    assert.equal(off.status, 'offline');
    assert.match(off.sentence, /kept on this device/);
    // The provider's own "connecting" while offline does not hide the offline state.
    assert.equal(reduceConnection(off, { type: 'connecting' }).status, 'offline');
    assert.equal(reduceConnection(off, { type: 'browser-online' }).status, 'connecting');
  });

  it('access lost on 4401, 4403 and 4404, with their sentences, and it is final', () => {
    for (const name of ['NOT_AUTHENTICATED', 'NO_ACCESS', 'NO_SUCH_BOARD'] as const) {
      const s = run({ type: 'synced', readOnly: false }, { type: 'closed', code: CloseCode[name] });
      assert.equal(s.status, 'access-lost');
      assert.equal(s.sentence, closeSentence[name]);
      assert.equal(s.retrying, false);
      assert.equal(reduceConnection(s, { type: 'synced', readOnly: false }), s);
    }
  });

  it('stops retrying where reconnecting cannot help, and says why', () => {
    for (const name of ['UNDECODABLE', 'TOO_BIG', 'BOARD_TOO_LARGE', 'TOO_MANY_MESSAGES'] as const) {
      const code = CloseCode[name];
      const s = run({ type: 'closed', code });
      assert.equal(s.retrying, false, name);
      assert.equal(s.sentence, closeSentence[name]);
      assert.equal(shouldReconnect(code), false);
    }
    for (const code of [1001, 1006, 1011, 1013]) {
      assert.equal(shouldReconnect(code), true, String(code));
      assert.equal(run({ type: 'closed', code }).retrying, true);
    }
  });

  it('a dropped connection (1006) and a code the server never sends read as offline, and retry', () => {
    for (const code of [CloseCode.ABNORMAL, 4999]) {
      const s = run({ type: 'synced', readOnly: false }, { type: 'closed', code });
      assert.equal(s.status, 'offline');
      assert.equal(s.sentence, closeSentence.ABNORMAL);
      assert.equal(s.retrying, true);
    }
  });

  it('a drop with the network up says the server cannot be reached, not that the person is offline', () => {
    const down = run({ type: 'synced', readOnly: false }, { type: 'closed', code: 1006, online: true });
    assert.match(down.sentence, /Cannot reach the server/);
    assert.doesNotMatch(down.sentence, /You are offline/);
    const off = run(
      { type: 'synced', readOnly: false },
      { type: 'browser-offline' },
      { type: 'closed', code: 1006, online: false },
    );
    assert.match(off.sentence, /You are offline/);
  });

  it('the meanings that share 4429 are told apart by the close reason, each with its own sentence', () => {
    const names: CloseName[] = ['TOO_MANY_MESSAGES', 'TOO_MANY_CONNECTIONS', 'TOO_MANY_BOARDS'];
    const sentences = names.map((name) => {
      const s = run({ type: 'closed', code: 4429, reason: closeReason[name as keyof typeof closeReason] });
      assert.equal(s.retrying, false, name);
      assert.equal(s.sentence, closeSentence[name], name);
      return s.sentence;
    });
    assert.equal(new Set(sentences).size, 3);
  });
});
