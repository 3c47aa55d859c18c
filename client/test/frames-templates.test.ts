// Frames that behave (docs/api.md §14) and templates on the board (§19), in Node over a real
// Y.Doc: the Frame tool draws by dragging, a drag inside a frame is a marquee that leaves the
// frame where it is, only the title or border moves it, frames clip what they hold, and a
// template is kept from a frame or a board and inserted centred as one Undo step.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtInTemplate, TemplateContent } from '@tandem/shared';
import * as Y from 'yjs';
import { clippingFrames, createFrame, onFrameGrip } from '../src/board/facilitation/frames.ts';
import { insertRecordsInPieces, parseShapes } from '../src/board/model/clipboard.ts';
import { boundsOf, intersects, type Rect, unionRect } from '../src/board/model/geometry.ts';
import { createShape, createUndoManager, readAll } from '../src/board/model/index.ts';
import {
  boardTemplate,
  frameTemplate,
  offsetToCentre,
  placeTemplate,
  TEMPLATE_GAP,
} from '../src/board/templates/templates.ts';
import { setup } from './gestureHarness.ts';

describe('frames that behave', () => {
  it('the Frame tool draws a frame the size of the drag, then hands back the Select tool', () => {
    const t = setup();
    t.store.getState().setTool('frame');
    t.drag(
      [100, 100],
      [
        [300, 200],
        [700, 450],
      ],
    );
    const frames = readAll(t.doc).filter((s) => s.type === 'frame');
    assert.equal(frames.length, 1);
    assert.deepEqual([frames[0]!.x, frames[0]!.y, frames[0]!.w, frames[0]!.h], [100, 100, 600, 350]);
    assert.equal(frames[0]!.name, 'Frame 1');
    assert.equal(t.store.getState().tool, 'select');
    assert.deepEqual(t.store.getState().selection, [frames[0]!.id]);
  });

  it('a drag on empty space inside a frame is a marquee: it selects the notes there and the frame stays', () => {
    const t = setup();
    const frame = createFrame(t.doc, { x: 0, y: 0, w: 1000, h: 600 }, 'u1', 'Mad');
    const a = createShape(t.doc, { type: 'sticky', x: 100, y: 100, w: 100, h: 100 }, 'u1');
    const b = createShape(t.doc, { type: 'sticky', x: 300, y: 100, w: 100, h: 100 }, 'u1');
    createShape(t.doc, { type: 'sticky', x: 700, y: 300, w: 100, h: 100 }, 'u1');
    t.drag(
      [50, 50],
      [
        [200, 150],
        [450, 250],
      ],
    );
    assert.deepEqual([...t.store.getState().selection].sort(), [a, b].sort());
    assert.deepEqual([t.rec(frame).x, t.rec(frame).y], [0, 0], 'the frame did not move');
    assert.deepEqual([t.rec(a).x, t.rec(a).y], [100, 100], 'nor did its notes');
  });

  it('only the title or the border moves a frame, with what it holds', () => {
    const t = setup();
    const frame = createFrame(t.doc, { x: 0, y: 0, w: 1000, h: 600 }, 'u1', 'Glad');
    const a = createShape(t.doc, { type: 'sticky', x: 100, y: 100, w: 100, h: 100 }, 'u1');
    // The title strip above the frame's top-left corner.
    t.drag(
      [20, -15],
      [
        [40, 0],
        [120, 35],
      ],
    );
    assert.deepEqual([t.rec(frame).x, t.rec(frame).y], [100, 50]);
    assert.deepEqual([t.rec(a).x, t.rec(a).y], [200, 150], 'its note came along');
    // Its right border.
    t.store.getState().select([]);
    t.drag([1100, 400], [[1150, 400]]);
    assert.equal(t.rec(frame).x, 150);
  });

  it('the grip is the title strip and the border, not the inside', () => {
    const f = {
      id: 'f',
      type: 'frame',
      x: 0,
      y: 0,
      w: 400,
      h: 300,
      rotation: 0,
      color: 'grey',
      z: 'a',
      createdBy: '',
      name: 'Sad',
    } as const;
    assert.ok(onFrameGrip(f, { x: 10, y: -12 }, 4), 'title');
    assert.ok(onFrameGrip(f, { x: 398, y: 150 }, 4), 'right border');
    assert.ok(!onFrameGrip(f, { x: 200, y: 150 }, 4), 'inside');
    assert.ok(!onFrameGrip(f, { x: 380, y: -12 }, 4), 'above the frame, past its short title');
  });

  it('each shape is clipped by the smallest frame holding its centre', () => {
    const doc = new Y.Doc();
    const outer = createFrame(doc, { x: 0, y: 0, w: 1000, h: 1000 }, 'u1', 'Outer');
    const inner = createFrame(doc, { x: 100, y: 100, w: 300, h: 300 }, 'u1', 'Inner');
    const inInner = createShape(doc, { type: 'sticky', x: 150, y: 150, w: 100, h: 100 }, 'u1');
    // Its centre is inside Outer, though it reaches past Outer's edge.
    const spilling = createShape(doc, { type: 'sticky', x: 900, y: 500, w: 200, h: 100 }, 'u1');
    const outside = createShape(doc, { type: 'sticky', x: 2000, y: 0, w: 100, h: 100 }, 'u1');
    const clips = clippingFrames(readAll(doc));
    assert.equal(clips.get(inInner)?.id, inner);
    assert.equal(clips.get(spilling)?.id, outer);
    assert.equal(clips.has(outside), false);
  });

  it('a connector is clipped only by a frame that holds both its ends', () => {
    const doc = new Y.Doc();
    // Two columns side by side, as in a retro; a frame moved over its neighbour's edge put the
    // middle of an arrow between them inside the neighbour, which cut the arrow off at its edge.
    const mad = createFrame(doc, { x: 0, y: 0, w: 500, h: 800 }, 'u1', 'Mad');
    createFrame(doc, { x: 400, y: 0, w: 500, h: 800 }, 'u1', 'Sad');
    const note = createShape(doc, { type: 'sticky', x: 100, y: 300, w: 100, h: 100 }, 'u1');
    const noteInMad = createShape(doc, { type: 'sticky', x: 100, y: 500, w: 100, h: 100 }, 'u1');
    const box = createShape(doc, { type: 'rect', x: 700, y: 300, w: 100, h: 100 }, 'u1');
    // An arrow from the first note's centre, its ends bound to the shapes.
    const arrowTo = (shapeId: string, x: number, y: number) =>
      createShape(
        doc,
        { type: 'arrow', x: 150, y: 350, from: { shapeId: note, x: 150, y: 350 }, to: { shapeId, x, y } },
        'u1',
      );
    const across = arrowTo(box, 750, 350);
    const within = arrowTo(noteInMad, 150, 550);
    const clips = clippingFrames(readAll(doc));
    assert.equal(clips.has(across), false, 'the arrow from Mad to Sad is drawn whole');
    assert.equal(clips.get(within)?.id, mad, 'an arrow between two notes of Mad is Mad’s');
  });
});

describe('templates on the board', () => {
  it('a frame is kept as a template with what it holds; images and outside shapes are left out', () => {
    const doc = new Y.Doc();
    const frame = createFrame(doc, { x: 0, y: 0, w: 800, h: 500 }, 'u1', 'Wins');
    createShape(doc, { type: 'sticky', x: 100, y: 100, w: 200, h: 200, text: 'Shipped' }, 'u1');
    createShape(doc, { type: 'image', x: 400, y: 100, w: 100, h: 100, assetId: 'a'.repeat(64) }, 'u1');
    createShape(doc, { type: 'sticky', x: 2000, y: 100, w: 200, h: 200 }, 'u1');
    const draft = frameTemplate(doc, frame);
    assert.equal(draft.problem, null);
    assert.equal(draft.imagesLeftOut, 1);
    assert.deepEqual(
      draft.content!.shapes.map((s) => [s.type, s.name ?? s.text]),
      [
        ['frame', 'Wins'],
        ['sticky', 'Shipped'],
      ],
    );
    // What the server will check (docs/api.md §19) accepts it.
    assert.ok(TemplateContent.safeParse(draft.content).success);
    assert.equal(boardTemplate(new Y.Doc()).problem, 'There is nothing to keep yet.');
  });

  it('Mad/Sad/Glad goes in centred on the view as one Undo step', async () => {
    const doc = new Y.Doc();
    const undo = createUndoManager(doc);
    createShape(doc, { type: 'rect', x: 0, y: 0, w: 10, h: 10 }, 'u1');
    undo.stopCapturing();
    const template = builtInTemplate('mad-sad-glad')!;
    const parsed = parseShapes(template.content)!;
    const at = { x: 5000, y: -3000 };
    undo.captureTimeout = Number.POSITIVE_INFINITY;
    const ids = await insertRecordsInPieces(doc, parsed.shapes, 'u1', {
      offset: offsetToCentre(parsed.shapes, at),
    });
    undo.stopCapturing();
    const inserted = readAll(doc).filter((s) => ids.includes(s.id));
    const frames = inserted.filter((s) => s.type === 'frame');
    assert.deepEqual(
      frames.map((f) => f.name),
      ['Mad', 'Sad', 'Glad'],
    );
    const minX = Math.min(...frames.map((f) => f.x));
    const maxX = Math.max(...frames.map((f) => f.x + f.w));
    assert.ok(Math.abs((minX + maxX) / 2 - at.x) <= 1, 'centred across');
    undo.undo();
    assert.equal(readAll(doc).length, 1, 'one Undo takes the whole template away');
  });

  it('a template inserted where a frame already is goes right or below it, to the nearest clear spot', () => {
    const template = builtInTemplate('mad-sad-glad')!;
    const records = parseShapes(template.content)!.shapes;
    const box = unionRect(records.map(boundsOf))!;
    const at = { x: 1000, y: 1000 };
    const placed = (occupied: Rect[]) => {
      const offset = placeTemplate(records, at, occupied);
      return { x: box.x + offset.x, y: box.y + offset.y, w: box.w, h: box.h };
    };
    const centred = placed([]);
    assert.deepEqual(placeTemplate(records, at, []), offsetToCentre(records, at), 'an empty board: centred');
    assert.deepEqual(placed([{ x: 0, y: 0, w: 10, h: 10 }]), centred, 'far from anything: centred');

    // The same template inserted a second time lands exactly over the first: no longer.
    const first = { ...centred };
    const second = placed([first]);
    assert.ok(!intersects(second, first), JSON.stringify({ first, second }));
    const shift = { x: second.x - first.x, y: second.y - first.y };
    assert.ok(shift.x >= 0 && shift.y >= 0, 'moved right or down');
    assert.ok(
      (shift.x === 0 && shift.y === first.h + TEMPLATE_GAP) ||
        (shift.y === 0 && shift.x === first.w + TEMPLATE_GAP),
      `the nearest side, one gap away: ${JSON.stringify(shift)}`,
    );
    // A third goes past both, still clear of each.
    const third = placed([first, second]);
    assert.ok(!intersects(third, first) && !intersects(third, second));

    // A tall frame on the right and a wide one below: the nearest clear spot is found among them.
    const wall = [
      { x: centred.x - 50, y: centred.y - 50, w: centred.w + 100, h: 30 },
      { x: centred.x + 100, y: centred.y, w: 40, h: 40 },
    ];
    const around = placed(wall);
    for (const r of wall) assert.ok(!intersects(around, r));
  });
});
