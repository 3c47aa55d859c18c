// This user's presence: at most one send per 1/30 s however fast the pointer moves, the cursor
// only while someone else is on the board, idle after a minute without input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { limits, type PresenceState } from '@tandem/shared';
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { startLocalPresence } from '../src/board/presence/localPresence.ts';
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
});
