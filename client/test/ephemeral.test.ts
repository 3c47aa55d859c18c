// The laser pointer, cursor chat and reactions in Node (docs/api.md §14): the trail model, ages that do
// not depend on the sender's clock, and the sender wired to the real presence flush and a real
// Awareness. Timers are Node's mock timers, so the 5-second chat keep is checked without waiting.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { CHAT_KEEP_MS, limits, MAX_LASER_POINTS, PresenceInput, type PresenceState } from '@tandem/shared';
import { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import {
  addLaserPoint,
  LASER_FADE_MS,
  LASER_SAMPLE_MS,
  type LaserPoint,
  newReactions,
  nextReaction,
  REACTION_FLOAT_MS,
  REACTION_GAP_MS,
  trailSegments,
  trailTip,
} from '../src/board/facilitation/ephemeral.ts';
import { EphemeralSender } from '../src/board/facilitation/ephemeralSender.ts';
import { startLocalPresence } from '../src/board/presence/localPresence.ts';
import { useEditor } from '../src/board/store.ts';

describe('laser trail', () => {
  it('adds samples, moves the tip for samples that come too fast, and drops faded points', () => {
    let trail: LaserPoint[] = [];
    trail = addLaserPoint(trail, 0.04, 0, 1000);
    trail = addLaserPoint(trail, 10, 0, 1004);
    assert.deepEqual(trail, [
      [0, 0, 1000],
      [10, 0, 1004],
    ]);
    trail = addLaserPoint(trail, 12, 0, 1008);
    assert.deepEqual(
      trail,
      [
        [0, 0, 1000],
        [12, 0, 1008],
      ],
      'a sample too soon after the point before the tip moves the tip',
    );
    trail = addLaserPoint(trail, 14, 0, 1000 + LASER_SAMPLE_MS);
    assert.equal(trail.length, 2, 'the tip moves up to a sample’s time');
    trail = addLaserPoint(trail, 15, 0, 1001 + LASER_SAMPLE_MS);
    assert.equal(trail.length, 3, 'then it stays, and a new tip follows the pointer');
    trail = addLaserPoint(trail, 50, 50, 1000 + LASER_FADE_MS + 5);
    assert.deepEqual(
      trail.map((p) => p[0]),
      [14, 50],
      'the first point has faded; the young tip moved',
    );
  });

  it('keeps a point about every LASER_SAMPLE_MS however fast the pointer moves', () => {
    let trail: LaserPoint[] = [];
    for (let t = 0; t <= 500; t += 2) trail = addLaserPoint(trail, t, 0, 10_000 + t);
    assert.ok(Math.abs(trail.length - 500 / LASER_SAMPLE_MS) <= 2, `${trail.length} points`);
    assert.equal(trail[trail.length - 1]![0], 500, 'the tip is where the pointer is');
  });

  it('never holds more points than the presence schema allows', () => {
    let trail: LaserPoint[] = [];
    for (let i = 0; i < 500; i++) trail = addLaserPoint(trail, i, i, 10_000 + i * LASER_SAMPLE_MS);
    assert.ok(trail.length <= MAX_LASER_POINTS);
    assert.equal(trail[trail.length - 1]![0], 499, 'the newest are kept');
    // Even from a longer trail (a sender with other settings), the newest MAX_LASER_POINTS remain.
    const long = Array.from({ length: 100 }, (_, i): LaserPoint => [i, i, 20_000 + i]);
    trail = addLaserPoint(long, 1000, 1000, 20_000 + 100 + LASER_SAMPLE_MS);
    assert.equal(trail.length, MAX_LASER_POINTS);
    assert.equal(trail[trail.length - 1]![0], 1000);
    assert.ok(PresenceInput.safeParse({ laser: { points: trail } }).success);
    assert.ok(JSON.stringify({ laser: { points: trail } }).length < limits.maxAwarenessStateBytes / 2);
  });

  it('ages from when the state arrived, whatever the sender’s clock says', () => {
    const trail: LaserPoint[] = [
      [0, 0, 5000],
      [10, 0, 5100],
      [20, 0, 5200],
    ];
    // The same trail from a sender whose clock is five minutes fast looks the same.
    const fast = trail.map(([x, y, t]): LaserPoint => [x, y, t + 300_000]);
    for (const pts of [trail, fast]) {
      const fresh = trailSegments(pts, 700, 700);
      assert.equal(fresh.length, 2);
      assert.equal(fresh[1]!.strength, 1, 'the newest segment is at full strength on arrival');
      assert.equal(fresh[0]!.strength, 1 - 100 / LASER_FADE_MS);
      assert.deepEqual(trailTip(pts, 700, 700), { x: 20, y: 0, strength: 1 });
      const later = trailSegments(pts, 700, 700 + LASER_FADE_MS - 50);
      assert.equal(later.length, 1, 'the older segment has faded');
      assert.equal(trailSegments(pts, 700, 700 + LASER_FADE_MS).length, 0);
      assert.equal(trailTip(pts, 700, 700 + LASER_FADE_MS), null, 'gone once the newest point faded');
    }
  });
});

describe('reactions', () => {
  it('allow a few a second from one person, far under the presence rate', () => {
    assert.ok(1000 / REACTION_GAP_MS <= limits.cursorPerSecond / 4);
    assert.deepEqual(nextReaction('🎉', 1000, null), { emoji: '🎉', at: 1000 });
    assert.equal(nextReaction('🎉', 1000 + REACTION_GAP_MS - 1, 1000), null);
    assert.deepEqual(nextReaction('👍', 1000 + REACTION_GAP_MS, 1000), {
      emoji: '👍',
      at: 1000 + REACTION_GAP_MS,
    });
  });

  it('float once each: a reaction is new when its `at` changes; a cleared one is forgotten', () => {
    const seen = new Map<number, number>();
    assert.deepEqual(newReactions(seen, [{ key: 1, reaction: { emoji: '🎉', at: 5 } }]), [
      { key: 1, emoji: '🎉' },
    ]);
    assert.deepEqual(newReactions(seen, [{ key: 1, reaction: { emoji: '🎉', at: 5 } }]), [], 'not twice');
    assert.deepEqual(
      newReactions(seen, [
        { key: 1, reaction: { emoji: '👍', at: 9 } },
        { key: 2, reaction: null },
      ]),
      [{ key: 1, emoji: '👍' }],
    );
    newReactions(seen, [{ key: 1, reaction: null }]);
    assert.equal(seen.size, 0);
  });
});

describe('the sender over the real presence flush', () => {
  const me = { id: 'user-me-0000000000', name: 'Me', color: '#4f46e5' };
  let awareness: Awareness;
  let sent: PresenceState[];
  let presence: ReturnType<typeof startLocalPresence>;
  let sender: EphemeralSender;
  let clock: number;
  const local = () => awareness.getLocalState() as PresenceState;

  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    useEditor.getState().reset();
    clock = 1_000_000;
    awareness = new Awareness(new Y.Doc());
    sent = [];
    awareness.on('update', (_: unknown, origin: unknown) => {
      if (origin === 'local') sent.push(structuredClone(awareness.getLocalState()) as PresenceState);
    });
    presence = startLocalPresence(awareness, me, 'viewer', { now: () => clock });
    sender = new EphemeralSender(presence, () => clock);
  });
  afterEach(() => {
    sender.stop();
    presence.stop();
    awareness.destroy();
    useEditor.getState().reset();
    mock.timers.reset();
  });
  const tick = (ms: number) => {
    clock += ms;
    mock.timers.tick(ms);
  };

  it('sends the laser trail only with the laser tool, within the presence rate, and clears it', () => {
    presence.pointer({ x: 1, y: 1 });
    tick(100);
    assert.equal(local().laser, undefined, 'no trail with another tool');
    useEditor.getState().setTool('laser');
    const before = sent.length;
    // A second of fast moves (one every 4 ms): at most 30 sends, each state valid.
    for (let i = 0; i < 250; i++) {
      presence.pointer({ x: i, y: i / 2 });
      tick(4);
    }
    tick(50);
    const sends = sent.slice(before);
    assert.ok(sends.length <= limits.cursorPerSecond + 2, `${sends.length} sends in a second`);
    assert.ok(sends.length >= 10, `${sends.length} sends in a second`);
    for (const s of sends) assert.ok(PresenceInput.safeParse(s).success);
    const points = local().laser?.points ?? [];
    assert.ok(points.length > 30 && points.length <= MAX_LASER_POINTS, `${points.length} points`);
    assert.equal(points[points.length - 1]![0], 249);
    // Once the pointer rests, the trail is cleared after it has faded.
    tick(LASER_FADE_MS + 50);
    assert.equal(local().laser, null);
    // Leaving the tool clears a trail at once.
    presence.pointer({ x: 5, y: 5 });
    tick(50);
    assert.ok(local().laser?.points.length);
    useEditor.getState().setTool('select');
    tick(50);
    assert.equal(local().laser, null);
  });

  it('cursor chat: typing shows live, Enter keeps it 5 s, Escape closes it, idle closes it', () => {
    sender.openChat();
    tick(50);
    assert.equal(local().chat, '');
    sender.typeChat('Hel');
    tick(50);
    assert.equal(local().chat, 'Hel');
    sender.typeChat(`Hello ${'x'.repeat(200)}`);
    tick(50);
    assert.equal(local().chat?.length, 100, 'clipped to the schema’s limit');
    sender.typeChat('Hello team');
    sender.sendChat();
    assert.equal(sender.getSnapshot().chat?.open, false);
    tick(CHAT_KEEP_MS - 100);
    assert.equal(local().chat, 'Hello team', 'still up just before 5 s');
    tick(150);
    assert.equal(local().chat, null, 'gone after 5 s');
    assert.equal(sender.getSnapshot().chat, null);

    sender.openChat();
    sender.typeChat('never mind');
    tick(50);
    sender.closeChat();
    tick(50);
    assert.equal(local().chat, null, 'Escape closes at once');

    sender.openChat();
    sender.typeChat('hmm');
    tick(CHAT_KEEP_MS + 50);
    tick(50);
    assert.equal(local().chat, null, 'gone after 5 s without a keystroke');
  });

  it('reactions go out one by one and are cleared once they have floated away', () => {
    assert.equal(sender.react('🎉'), true);
    tick(50);
    assert.equal(local().reaction?.emoji, '🎉');
    assert.equal(sender.react('👍'), false, 'too soon after the last one');
    tick(REACTION_GAP_MS);
    assert.equal(sender.react('👍'), true);
    tick(50);
    assert.equal(local().reaction?.emoji, '👍');
    tick(REACTION_FLOAT_MS);
    assert.equal(local().reaction, null);
  });
});
