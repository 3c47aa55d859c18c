// The facilitation model in Node: frame membership and moving with contents, the timer's
// remaining time across clocks that disagree, the clock-offset estimate, presenting.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAIN_PAGE_ID, type ShapeRecord } from '@tandem/shared';
import * as Y from 'yjs';
import { measureOffset, offsetFromSamples } from '../src/board/facilitation/clock.ts';
import {
  createFrame,
  deletedWithFramesNotice,
  deletion,
  fitTitle,
  frameLabel,
  frameMembers,
  framesInOrder,
  movedWith,
  moveFrame,
  onFrameGrip,
  reachedThroughFrames,
  renameFrame,
  withFrameMembers,
} from '../src/board/facilitation/frames.ts';
import {
  readPresentation,
  shouldFollow,
  showFrame,
  startPresenting,
  stepAcrossPages,
  summonEveryone,
  writePresentation,
} from '../src/board/facilitation/presentation.ts';
import {
  addMinute,
  formatRemaining,
  pauseTimer,
  readTimer,
  remainingMs,
  resumeTimer,
  startTimer,
  writeTimer,
} from '../src/board/facilitation/timer.ts';
import { votableStickies } from '../src/board/facilitation/votable.ts';
import {
  createShape,
  createUndoManager,
  LOCKED_SENTENCE,
  readAll,
  readShape,
  resizeShape,
  setLocked,
  shapesOf,
} from '../src/board/model/index.ts';

const shape = (doc: Y.Doc, id: string) => readShape(id, shapesOf(doc).get(id)) as ShapeRecord;

function boardWithFrame() {
  const doc = new Y.Doc();
  const frame = createFrame(doc, { x: 0, y: 0, w: 400, h: 300 }, 'u1');
  // Centre (100, 100): inside. Centre (390, 150) of a sticky sticking out: inside. Centre (500, 100): outside.
  const inside = createShape(doc, { type: 'sticky', x: 0, y: 0, w: 200, h: 200 }, 'u1');
  const overlapping = createShape(doc, { type: 'sticky', x: 290, y: 50, w: 200, h: 200 }, 'u1');
  const outside = createShape(doc, { type: 'sticky', x: 400, y: 0, w: 200, h: 200 }, 'u1');
  return { doc, frame, inside, overlapping, outside };
}

describe('frames', () => {
  it('a title too wide for its frame on screen is cut with an ellipsis', () => {
    const tenEach = (t: string) => [...t].length * 10;
    assert.equal(fitTitle('Sprint 3', 80, tenEach), 'Sprint 3');
    assert.equal(fitTitle('Sprint 3', 60, tenEach), 'Sprin…');
    // A space before the cut is not kept: "Sprint…", not "Sprint …".
    assert.equal(fitTitle('Sprint 3 retro', 80, tenEach), 'Sprint…');
    assert.equal(fitTitle('Sprint 3', 10, tenEach), '…');
    assert.equal(fitTitle('Sprint 3', 5, tenEach), '');
  });

  it('the title strip is measured on screen: it holds the title at every zoom', () => {
    const { doc, frame } = boardWithFrame();
    const f = shape(doc, frame);
    // The title is drawn 16 px tall, 10 px above the frame on screen: 20 px above it is on the
    // title at 100 % (20 units), at 25 % (80 units) and at 200 % (10 units).
    for (const zoom of [1, 0.25, 2]) {
      assert.ok(onFrameGrip(f, { x: 20 / zoom, y: -20 / zoom }, 4 / zoom, zoom), `on the title at ${zoom}`);
      assert.ok(!onFrameGrip(f, { x: 20 / zoom, y: -40 / zoom }, 4 / zoom, zoom), `above it at ${zoom}`);
    }
  });

  it('a new frame has a Y.Text name, numbered after the frames already there', () => {
    const { doc, frame } = boardWithFrame();
    assert.ok(shapesOf(doc).get(frame)?.get('name') instanceof Y.Text);
    assert.equal(shape(doc, frame).name, 'Frame 1');
    const second = createFrame(doc, { x: 600, y: 0, w: 100, h: 100 }, 'u1');
    assert.equal(shape(doc, second).name, 'Frame 2');
    renameFrame(doc, second, 'Ideas');
    assert.equal(shape(doc, second).name, 'Ideas');
  });

  it('members are the shapes whose centre lies inside; frames are never members', () => {
    const { doc, frame, inside, overlapping, outside } = boardWithFrame();
    const inner = createFrame(doc, { x: 10, y: 10, w: 50, h: 50 }, 'u1');
    const members = frameMembers(shape(doc, frame), readAll(doc));
    assert.deepEqual(members.sort(), [inside, overlapping].sort());
    assert.ok(!members.includes(outside));
    assert.ok(!members.includes(inner));
  });

  it('moving a frame moves its members and nothing else, as one undo step', () => {
    const { doc, frame, inside, overlapping, outside } = boardWithFrame();
    const undo = createUndoManager(doc);
    moveFrame(doc, frame, 1000, -50);
    assert.deepEqual([shape(doc, frame).x, shape(doc, frame).y], [1000, -50]);
    assert.deepEqual([shape(doc, inside).x, shape(doc, inside).y], [1000, -50]);
    assert.deepEqual([shape(doc, overlapping).x, shape(doc, overlapping).y], [1290, 0]);
    assert.deepEqual([shape(doc, outside).x, shape(doc, outside).y], [400, 0]);
    undo.undo();
    assert.deepEqual([shape(doc, frame).x, shape(doc, inside).x, shape(doc, overlapping).x], [0, 0, 290]);
  });

  it('a selection holding a frame carries its members along', () => {
    const { doc, frame, inside, overlapping, outside } = boardWithFrame();
    assert.deepEqual(withFrameMembers(doc, [frame]).sort(), [frame, inside, overlapping].sort());
    assert.deepEqual(withFrameMembers(doc, [outside]), [outside]);
  });

  it('withFrameMembers reads the whole board only when a frame is among the ids, with the same answer', () => {
    const { doc, frame, inside, overlapping, outside } = boardWithFrame();
    // Counts the reads of every shape (readAll's): each one walks the board's map.
    const map = shapesOf(doc);
    const entries = map.entries.bind(map);
    let wholeReads = 0;
    map.entries = () => {
      wholeReads += 1;
      return entries();
    };
    const expected = (ids: string[]) => {
      const before = wholeReads;
      const answer = reachedThroughFrames(readAll(doc), ids);
      wholeReads = before;
      return answer;
    };
    // No frame: the ids, once each, in order (and one not on the board), the board unread.
    for (const ids of [[outside], [inside, outside, inside], [outside, 'gone'], []]) {
      assert.deepEqual(withFrameMembers(doc, ids), expected(ids), ids.join(', '));
    }
    assert.equal(wholeReads, 0, 'no frame selected: the board was not read');
    // A frame anywhere among them, not only first, still brings its members.
    for (const ids of [[frame], [outside, frame], [inside, outside, frame]]) {
      const got = withFrameMembers(doc, ids);
      assert.deepEqual(got, expected(ids), ids.join(', '));
      assert.ok(got.includes(overlapping), `${ids.join(', ')}: the frame's members come along`);
    }
    assert.equal(wholeReads, 3, 'read once for each selection holding a frame');
  });

  it('reachedThroughFrames: the ids, then each frame’s members; nested frames; the locked-frame rule', () => {
    // Plain records, no document: the outer frame holds an inner frame and a note beside it; the
    // inner frame holds a note (inside the outer one too); a note lies outside both.
    const rec = (
      id: string,
      type: ShapeRecord['type'],
      x: number,
      y: number,
      w: number,
      h: number,
      locked = false,
    ) => ({ id, type, x, y, w, h, z: id, locked }) as ShapeRecord;
    const outer = rec('outer', 'frame', 0, 0, 400, 300);
    const inner = rec('inner', 'frame', 200, 50, 150, 150);
    const inInner = rec('inInner', 'sticky', 250, 100, 50, 50);
    const inOuter = rec('inOuter', 'sticky', 20, 20, 100, 100);
    const away = rec('away', 'sticky', 600, 0, 100, 100);
    const all = [outer, inner, inInner, inOuter, away];
    const sorted = (ids: string[]) => [...ids].sort();
    // The outer frame brings every shape whose centre lies in it, the inner frame's note too, but
    // not the inner frame: frames are never members.
    assert.deepEqual(sorted(reachedThroughFrames(all, ['outer'])), ['inInner', 'inOuter', 'outer']);
    assert.deepEqual(reachedThroughFrames(all, ['inner']), ['inner', 'inInner']);
    // Both frames: each member once; the ids come first, in their order.
    assert.deepEqual(reachedThroughFrames(all, ['inner', 'outer']), ['inner', 'outer', 'inInner', 'inOuter']);
    // Not a frame, or not on the board: the id alone.
    assert.deepEqual(reachedThroughFrames(all, ['away', 'gone']), ['away', 'gone']);
    // A locked frame: its contents come along unless it keeps them; locked members are still reached.
    const locked = [{ ...outer, locked: true }, inner, { ...inInner, locked: true }, inOuter, away];
    assert.deepEqual(sorted(reachedThroughFrames(locked, ['outer'])), ['inInner', 'inOuter', 'outer']);
    assert.deepEqual(reachedThroughFrames(locked, ['outer'], { lockedKeepsContents: true }), ['outer']);
    // An unlocked frame inside the locked one still brings its own (locked) note.
    assert.deepEqual(reachedThroughFrames(locked, ['outer', 'inner'], { lockedKeepsContents: true }), [
      'outer',
      'inner',
      'inInner',
    ]);
  });

  it('a move takes an unlocked frame’s members; a locked frame stays with them, and locked members stay', () => {
    const { doc, frame, inside, overlapping, outside } = boardWithFrame();
    setLocked(doc, [inside], true);
    assert.deepEqual(movedWith(doc, [frame, outside]).sort(), [frame, overlapping, outside].sort());
    setLocked(doc, [inside], false);
    setLocked(doc, [frame], true);
    // Selected with a shape elsewhere, the locked frame kept still while its contents moved out of it.
    assert.deepEqual(movedWith(doc, [frame, outside]), [outside]);
    assert.deepEqual(movedWith(doc, [frame, inside]), [inside]);
  });

  it('Delete says when it takes a frame’s contents along: the frame’s name, how many, Ctrl+Z', () => {
    const { doc, frame, inside, overlapping, outside } = boardWithFrame();
    renameFrame(doc, frame, 'Ideas');
    const rec = (id: string) => shape(doc, id);
    assert.equal(
      deletedWithFramesNotice([frame], [rec(frame), rec(inside), rec(overlapping)]),
      'Deleted the frame “Ideas” and the 2 shapes in it. Undo (Ctrl+Z) brings them back.',
    );
    assert.equal(
      deletedWithFramesNotice([frame], [rec(frame), rec(inside)]),
      'Deleted the frame “Ideas” and the shape in it. Undo (Ctrl+Z) brings them back.',
    );
    // Nothing beyond the selection (an empty frame, its shapes selected too, no frame): no word.
    assert.equal(deletedWithFramesNotice([frame], [rec(frame)]), null);
    assert.equal(deletedWithFramesNotice([frame, inside], [rec(frame), rec(inside)]), null);
    assert.equal(deletedWithFramesNotice([outside], [rec(outside)]), null);
    const other = createFrame(doc, { x: 1000, y: 0, w: 100, h: 100 }, 'u1', '');
    assert.equal(
      deletedWithFramesNotice([frame, other], [rec(frame), rec(other), rec(inside)]),
      'Deleted 2 frames and the shape in one of them. Undo (Ctrl+Z) brings them back.',
    );
    assert.equal(
      deletedWithFramesNotice([other], [rec(other), rec(inside), rec(overlapping)]),
      'Deleted the frame “Untitled frame” and the 2 shapes in it. Undo (Ctrl+Z) brings them back.',
    );
  });

  it('Delete: a locked frame keeps its contents; only shapes selected themselves go', () => {
    const { doc, frame, inside, overlapping } = boardWithFrame();
    setLocked(doc, [frame], true);
    const ids = (d: { deleted: ShapeRecord[] }) => d.deleted.map((r) => r.id).sort();
    // Reached only through the locked frame: nothing goes (it went, and the frame stayed).
    const alone = deletion(doc, [frame]);
    assert.deepEqual(ids(alone), []);
    assert.equal(alone.notice, LOCKED_SENTENCE);
    // Selected themselves (a marquee round the frame): they go; the locked frame stays.
    const picked = deletion(doc, [frame, inside]);
    assert.deepEqual(ids(picked), [inside]);
    assert.equal(picked.notice, LOCKED_SENTENCE);
    // Unlocked again, the frame takes its contents.
    setLocked(doc, [frame], false);
    assert.deepEqual(ids(deletion(doc, [frame])), [frame, inside, overlapping].sort());
  });

  it('Delete that takes a frame’s contents and leaves locked shapes says both in one notice', () => {
    const { doc, frame, inside, overlapping, outside } = boardWithFrame();
    renameFrame(doc, frame, 'Ideas');
    setLocked(doc, [outside], true);
    const both = deletion(doc, [frame, outside]);
    assert.deepEqual(both.deleted.map((r) => r.id).sort(), [frame, inside, overlapping].sort());
    const said =
      'Deleted the frame “Ideas” and the 2 shapes in it; locked shapes stay (Shift+L unlocks them). ' +
      'Undo (Ctrl+Z) brings back what was deleted.';
    assert.equal(both.notice, said);
    // A locked shape inside the frame stays too, and is said the same way.
    setLocked(doc, [outside], false);
    setLocked(doc, [overlapping], true);
    const member = deletion(doc, [frame]);
    assert.deepEqual(member.deleted.map((r) => r.id).sort(), [frame, inside].sort());
    assert.equal(member.notice, said.replace('the 2 shapes', 'the shape'));
    // Nothing locked, nothing beyond the selection: no notice.
    assert.equal(deletion(doc, [outside]).notice, null);
  });

  it('a frame with a blank name is labelled "Untitled frame"', () => {
    assert.equal(frameLabel({ name: 'Ideas' }), 'Ideas');
    for (const name of ['', '   ', undefined]) assert.equal(frameLabel({ name }), 'Untitled frame');
  });

  it('resizing a frame does not scale or move its shapes; membership follows the new area', () => {
    const { doc, frame, inside, overlapping } = boardWithFrame();
    const before = shape(doc, overlapping);
    resizeShape(doc, frame, { x: 0, y: 0, w: 250, h: 300 });
    assert.deepEqual(shape(doc, overlapping), before);
    assert.deepEqual({ w: shape(doc, inside).w, h: shape(doc, inside).h }, { w: 200, h: 200 });
    // The overlapping sticky's centre (390, 150) is now outside.
    assert.deepEqual(frameMembers(shape(doc, frame), readAll(doc)), [inside]);
  });

  it('frames are presented top to bottom, then left to right; stepping stops at the ends', () => {
    const doc = new Y.Doc();
    const c = createFrame(doc, { x: 0, y: 600, w: 100, h: 100 }, 'u');
    const b = createFrame(doc, { x: 500, y: 10, w: 100, h: 100 }, 'u');
    const a = createFrame(doc, { x: 0, y: 0, w: 100, h: 100 }, 'u');
    const order = framesInOrder(readAll(doc));
    assert.deepEqual(
      order.map((f) => f.id),
      [a, b, c],
    );
    const only = [MAIN_PAGE_ID];
    const on = (frameId: string | null) => ({ pageId: MAIN_PAGE_ID, frameId });
    assert.deepEqual(stepAcrossPages(only, MAIN_PAGE_ID, order, null, 1), on(a));
    assert.deepEqual(stepAcrossPages(only, MAIN_PAGE_ID, order, a, 1), on(b));
    assert.equal(stepAcrossPages(only, MAIN_PAGE_ID, order, c, 1), null, 'the end of the board');
    assert.equal(stepAcrossPages(only, MAIN_PAGE_ID, order, a, -1), null, 'the start of the board');
    assert.equal(stepAcrossPages(only, MAIN_PAGE_ID, [], null, 1), null);
  });

  it('frames keep one order whatever their order in the document, and through small nudges', () => {
    // A row of three, drawn a little unevenly: B is near A's top, C near B's but not near A's.
    // Compared in pairs with a tolerance (C before B before A by x, A before C by y), the answer
    // depended on the order the frames came in.
    const boxes = {
      a: { x: 600, y: 0, w: 200, h: 150 },
      b: { x: 300, y: 35, w: 200, h: 150 },
      c: { x: 0, y: 60, w: 200, h: 150 },
      d: { x: 0, y: 400, w: 200, h: 150 },
    };
    const names = Object.keys(boxes) as (keyof typeof boxes)[];
    const orderOf = (list: (keyof typeof boxes)[], shift: Partial<Record<string, number>> = {}) => {
      const doc = new Y.Doc();
      for (const n of list) {
        const box = boxes[n];
        createFrame(doc, { ...box, y: box.y + (shift[n] ?? 0) }, 'u', n);
      }
      return framesInOrder(readAll(doc)).map((f) => f.name);
    };
    const permutations = (xs: string[]): string[][] =>
      xs.length <= 1
        ? [xs]
        : xs.flatMap((x, i) => permutations(xs.filter((_, j) => j !== i)).map((p) => [x, ...p]));
    for (const list of permutations(names))
      assert.deepEqual(orderOf(list as (keyof typeof boxes)[]), ['c', 'b', 'a', 'd'], list.join());
    // Nudged a few units each way (arrow keys move 1 or 10), the list stays as it was.
    for (const n of names)
      for (const by of [-10, -1, 1, 10])
        assert.deepEqual(orderOf(names, { [n]: by }), ['c', 'b', 'a', 'd'], `${n} nudged ${by}`);
  });

  it('presenting steps across pages: past the last frame the next page’s first, back to the previous page’s last; a page without frames is one step', () => {
    const doc = new Y.Doc();
    const a = createFrame(doc, { x: 0, y: 0, w: 100, h: 100 }, 'u');
    const b = createFrame(doc, { x: 500, y: 0, w: 100, h: 100 }, 'u');
    const frames = framesInOrder(readAll(doc));
    const pages = [MAIN_PAGE_ID, 'p2', 'p3'];
    assert.deepEqual(stepAcrossPages(pages, MAIN_PAGE_ID, frames, b, 1), {
      pageId: 'p2',
      frameId: null,
      enter: 'first',
    });
    assert.deepEqual(stepAcrossPages(pages, 'p2', frames, a, 1), { pageId: 'p2', frameId: b });
    assert.deepEqual(stepAcrossPages(pages, 'p2', frames, b, -1), { pageId: 'p2', frameId: a });
    assert.deepEqual(stepAcrossPages(pages, 'p2', frames, a, -1), {
      pageId: MAIN_PAGE_ID,
      frameId: null,
      enter: 'last',
    });
    // Arrived from elsewhere (a frame of another page): this page's first, or its last going back.
    assert.deepEqual(stepAcrossPages(pages, 'p2', frames, 'elsewhere', 1), { pageId: 'p2', frameId: a });
    assert.deepEqual(stepAcrossPages(pages, 'p2', frames, 'elsewhere', -1), { pageId: 'p2', frameId: b });
    // A page without frames: the step leaves it, either way.
    assert.deepEqual(stepAcrossPages(pages, 'p2', [], null, 1), {
      pageId: 'p3',
      frameId: null,
      enter: 'first',
    });
    assert.deepEqual(stepAcrossPages(pages, 'p2', [], null, -1), {
      pageId: MAIN_PAGE_ID,
      frameId: null,
      enter: 'last',
    });
    assert.equal(stepAcrossPages(pages, 'p3', [], null, 1), null, 'the last page ends the board');
    assert.equal(stepAcrossPages(pages, 'gone', [], null, 1), null, 'a page no longer listed');
  });
});

describe('timer', () => {
  it('every client sees the same remaining time whatever its own clock says', () => {
    const serverStart = 1_000_000;
    const timer = startTimer(120_000, serverStart, 'u1');
    // Client A's clock is 3 minutes slow, client B's 90 s fast; both measured their offset.
    const trueNow = serverStart + 30_000;
    const clientA = { local: trueNow - 180_000, offset: 180_000 };
    const clientB = { local: trueNow + 90_000, offset: -90_000 };
    assert.equal(remainingMs(timer, clientA.local + clientA.offset), 90_000);
    assert.equal(remainingMs(timer, clientB.local + clientB.offset), 90_000);
    // Without the correction they would disagree by minutes.
    assert.notEqual(remainingMs(timer, clientA.local), remainingMs(timer, clientB.local));
  });

  it('pause holds the remaining time; resume continues from it; +1 min; never below zero', () => {
    const t0 = startTimer(60_000, 0, 'u1');
    const paused = pauseTimer(t0, 20_000);
    assert.equal(remainingMs(paused, 50_000), 40_000);
    const resumed = resumeTimer(paused, 100_000);
    assert.equal(remainingMs(resumed, 110_000), 30_000);
    assert.equal(remainingMs(addMinute(resumed, 110_000), 110_000), 90_000);
    assert.equal(remainingMs(addMinute(paused, 0), 999_999), 100_000);
    assert.equal(remainingMs(t0, 1e9), 0);
    // A timer that ran out gets a fresh minute from now.
    assert.equal(remainingMs(addMinute(t0, 500_000), 500_000), 60_000);
  });

  it('lives in meta.timer; a malformed value reads as no timer', () => {
    const doc = new Y.Doc();
    assert.equal(readTimer(doc), null);
    const timer = startTimer(120_000, 5, 'u1');
    writeTimer(doc, timer);
    assert.deepEqual(readTimer(doc), timer);
    doc.getMap('meta').set('timer', { endsAt: 'soon' });
    assert.equal(readTimer(doc), null);
    writeTimer(doc, null);
    assert.equal(doc.getMap('meta').has('timer'), false);
  });

  it('formats as m:ss, reaching 0:00 only at zero', () => {
    assert.equal(formatRemaining(120_000), '2:00');
    assert.equal(formatRemaining(119_001), '2:00');
    assert.equal(formatRemaining(9_000), '0:09');
    assert.equal(formatRemaining(1), '0:01');
    assert.equal(formatRemaining(0), '0:00');
  });
});

describe('clock offset', () => {
  it('keeps the sample with the shortest round trip; its error bound is half that trip', () => {
    const offset = offsetFromSamples([
      { sent: 0, server: 5_000, received: 400 }, // slow: estimate 4800
      { sent: 1000, server: 6_010, received: 1020 }, // fast: estimate 5000
      { sent: 2000, server: 7_100, received: 2300 },
    ]);
    assert.deepEqual(offset, { offsetMs: 5000, errorMs: 10 });
    assert.equal(offsetFromSamples([]), null);
  });

  it('measures a clock minutes off to within the round trip', async () => {
    let local = 0;
    const skew = -4 * 60_000; // this computer is 4 minutes behind
    const now = () => local;
    const ask = async () => {
      local += 7; // request travels
      const server = local - skew;
      local += 13; // answer travels
      return server;
    };
    const offset = await measureOffset(ask, now, 5);
    assert.ok(offset);
    assert.ok(Math.abs(offset.offsetMs - -skew) <= offset.errorMs, JSON.stringify(offset));
    assert.equal(offset.errorMs, 10);
  });
});

describe('presentation', () => {
  it('lives in meta.presentation; followers follow a new presenter and every summons, the presenter never', () => {
    const doc = new Y.Doc();
    const p = startPresenting('pres', 'f1');
    writePresentation(doc, p);
    assert.deepEqual(readPresentation(doc), p);
    assert.equal(shouldFollow(null, p, 'me'), true);
    assert.equal(shouldFollow(null, p, 'pres'), false);
    const next = showFrame(p, 'f2');
    assert.equal(
      shouldFollow(p, next, 'me'),
      false,
      'a frame change does not pull back someone who moved away',
    );
    const summoned = summonEveryone(next);
    assert.equal(shouldFollow(next, summoned, 'me'), true);
    assert.equal(shouldFollow(summoned, null, 'me'), false);
    writePresentation(doc, null);
    assert.equal(readPresentation(doc), null);
  });
});

describe('vote', () => {
  it('offers the stickies in view with something written on them, not empty ones or other shapes', () => {
    const doc = new Y.Doc();
    const idea = createShape(doc, { type: 'sticky', x: 0, y: 0, w: 200, h: 200, text: 'Pair more' }, 'u1');
    createShape(doc, { type: 'sticky', x: 220, y: 0, w: 200, h: 200, text: '' }, 'u1');
    createShape(doc, { type: 'sticky', x: 440, y: 0, w: 200, h: 200, text: '  \n ' }, 'u1');
    createShape(doc, { type: 'rect', x: 0, y: 220, w: 200, h: 200, text: 'A box' }, 'u1');
    createShape(doc, { type: 'sticky', x: 5000, y: 0, w: 200, h: 200, text: 'Far away' }, 'u1');
    const offered = votableStickies(readAll(doc), { x: -100, y: -100, w: 1000, h: 800 });
    assert.deepEqual(
      offered.map((s) => s.id),
      [idea],
    );
  });
});
