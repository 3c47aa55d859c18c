// The connection state machine of SPEC §4 and the close-code policy of §8.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closeSentence } from '@tandem/shared';
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
    for (const code of [4401, 4403, 4404] as const) {
      const s = run({ type: 'synced', readOnly: false }, { type: 'closed', code });
      assert.equal(s.status, 'access-lost');
      assert.equal(s.sentence, closeSentence[code]);
      assert.equal(s.retrying, false);
      assert.equal(reduceConnection(s, { type: 'synced', readOnly: false }), s);
    }
  });

  it('stops retrying where reconnecting cannot help, and says why', () => {
    for (const code of [1007, 1009, 4413, 4429] as const) {
      const s = run({ type: 'closed', code });
      assert.equal(s.retrying, false, String(code));
      assert.equal(s.sentence, closeSentence[code]);
      assert.equal(shouldReconnect(code), false);
    }
    for (const code of [1001, 1006, 1011, 1013]) {
      assert.equal(shouldReconnect(code), true, String(code));
      assert.equal(run({ type: 'closed', code }).retrying, true);
    }
  });
});
