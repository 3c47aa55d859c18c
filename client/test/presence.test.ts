// This user's presence: at most one send per 1/30 s however fast the pointer moves, the cursor
// only while someone else is on the board, idle after a minute without input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkPresenceInput, limits, MAX_LASER_POINTS, type PresenceState } from '@tandem/shared';
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { fittingIds, startLocalPresence } from '../src/board/presence/localPresence.ts';
import { useEditor } from '../src/board/store.ts';

const until = async (what: string, check: () => boolean) => {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};
const me = { id: 'user-me-0000000000', name: 'Me', color: '#4f46e5' };

function setup() {
  const awareness = new Awareness(new Y.Doc());
  let clock = 1_000_000;
  const sent: PresenceState[] = [];
  awareness.on('update', (_: unknown, origin: unknown) => {
    if (origin === 'local') sent.push(awareness.getLocalState() as PresenceState);
  });
  const presence = startLocalPresence(awareness, me, 'editor', { now: () => clock });
  const local = () => awareness.getLocalState() as PresenceState;
  const someoneArrives = () => {
    const other = new Awareness(new Y.Doc());
    other.setLocalState({ user: { id: 'other-user-000000', name: 'Other', color: '#000' } });
    applyAwarenessUpdate(awareness, encodeAwarenessUpdate(other, [other.clientID]), 'remote');
    other.destroy();
  };
  return {
    awareness,
    presence,
    sent,
    local,
    someoneArrives,
    advance: (ms: number) => {
      clock += ms;
    },
    done() {
      presence.stop();
      awareness.destroy();
    },
  };
}

describe('local presence', () => {
  it('starts with the whole state and no cursor', () => {
    const t = setup();
    assert.equal(t.local().user.name, 'Me');
    assert.equal(t.local().cursor, null);
    assert.equal(t.local().idle, false);
    assert.deepEqual(t.local().viewport, useEditor.getState().viewport);
    t.done();
  });

  it('keeps the cursor to itself while alone, and shares it once someone arrives', async () => {
    const t = setup();
    t.presence.pointer({ x: 5, y: 6 });
    t.presence.activity();
    assert.equal(t.local().cursor, null);
    t.someoneArrives();
    t.advance(1000);
    await until('the held-back cursor to be sent', () => t.local().cursor?.x === 5);
    t.done();
  });

  it('sends at most one state per tick however many moves there are', async () => {
    const t = setup();
    t.someoneArrives();
    t.advance(1000);
    const before = t.sent.length;
    for (let i = 1; i <= 200; i++) t.presence.pointer({ x: i, y: i });
    assert.equal(t.sent.length, before, 'nothing sent synchronously');
    await until('the last position to be sent', () => t.local().cursor?.x === 200);
    assert.ok(t.sent.length - before <= 2, `${t.sent.length - before} sends for 200 moves`);
    // Within one interval of the last send, the next move waits for the interval.
    t.presence.pointer({ x: 300, y: 300 });
    t.advance(1000 / limits.cursorPerSecond);
    await until('the next send', () => t.local().cursor?.x === 300);
    t.done();
  });

  it('turns idle after a minute without input and back on input', async () => {
    const t = setup();
    t.advance(limits.idleAfterMs - 1);
    t.presence.checkIdle();
    assert.equal(t.local().idle, false);
    t.advance(1);
    t.presence.checkIdle();
    await until('idle', () => t.local().idle);
    t.advance(1000);
    t.presence.activity();
    await until('active again', () => !t.local().idle);
    t.done();
  });

  it('follows the editor’s selection, viewport and tool', async () => {
    const t = setup();
    t.advance(1000);
    useEditor.getState().select(['a', 'b']);
    useEditor.getState().setTool('pen');
    useEditor.getState().setViewport({ x: 10, y: 20, zoom: 2 });
    await until('the new selection', () => t.local().selection.length === 2);
    await until('the rest', () => t.local().tool === 'pen' && t.local().viewport.zoom === 2);
    useEditor.getState().reset();
    t.done();
  });

  it('sends the first ids of a large selection only, so the server keeps taking its state', async () => {
    // A 2,000-id selection was sent whole (46 KB of JSON with nanoids) on every cursor flush, and
    // the server drops any state over limits.maxAwarenessStateBytes: the others lost the cursor
    // of whoever held a large selection. The worst case here: the longest ids the schema allows,
    // a full laser trail far from the origin, the longest chat and a reaction.
    const t = setup();
    try {
      t.someoneArrives();
      t.advance(1000);
      const ids = Array.from({ length: 2000 }, (_, i) => `${String(i).padStart(4, '0')}${'x'.repeat(60)}`);
      useEditor.getState().select(ids);
      const far = -123_456.7;
      t.presence.setEphemeral({
        laser: {
          points: Array.from({ length: MAX_LASER_POINTS }, (_, i) => [
            far - i,
            far - i,
            1_764_150_000_000 + i,
          ]),
        },
        chat: 'é'.repeat(100),
        reaction: { emoji: '👍', at: 1_764_150_000_000 },
      });
      t.presence.pointer({ x: far, y: far });
      useEditor.getState().setViewport({ x: far, y: far, zoom: 0.123456789 });
      await until('the large selection to be sent', () => t.local().selection.length > 0);
      const state = t.local();
      const json = JSON.stringify(state);
      assert.ok(json.length <= limits.maxAwarenessStateBytes, `${json.length} characters`);
      assert.ok(checkPresenceInput(JSON.parse(json)).ok, 'the server’s schema takes it');
      assert.ok(state.selection.length >= 50, `${state.selection.length} ids sent`);
      assert.deepEqual(state.selection, ids.slice(0, state.selection.length), 'the first ids, in order');
      // A selection that fits is sent whole.
      useEditor.getState().select(ids.slice(0, 10));
      t.advance(1000);
      await until('the small selection', () => t.local().selection.length === 10);
    } finally {
      useEditor.getState().reset();
      t.done();
    }
  });
});

describe('fittingIds', () => {
  it('takes ids while their JSON array fits, and all of them when it does', () => {
    assert.deepEqual(fittingIds(['ab', 'cd', 'ef'], 100), ['ab', 'cd', 'ef']);
    // ["ab","cd"] is 11 characters; a third id would make it 16.
    assert.deepEqual(fittingIds(['ab', 'cd', 'ef'], 15), ['ab', 'cd']);
    assert.equal(JSON.stringify(['ab', 'cd']).length, 11);
    assert.deepEqual(fittingIds(['ab'], 3), []);
  });
});
