// Pointer gestures in Node: the real ToolController over a real Y.Doc and a vanilla zustand
// store, fed the same events the canvas forwards (screen coordinates), no browser.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createShape, groupShapes, moveShapes, readAll, setLocked } from '../src/board/model/index.ts';
import { toScreen } from '../src/board/store.ts';
import { setup } from './gestureHarness.ts';

describe('tool controller gestures', () => {
  it('marquee selects the shapes it touches and clears itself on release', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    const b = createShape(t.doc, { type: 'rect', x: 200, y: 0, w: 100, h: 100 }, 'u1');
    createShape(t.doc, { type: 'rect', x: 600, y: 0, w: 100, h: 100 }, 'u1');
    t.drag(
      [-50, -50],
      [
        [100, 100],
        [250, 150],
      ],
    );
    assert.deepEqual([...t.store.getState().selection].sort(), [a, b].sort());
    assert.equal(t.store.getState().marquee, null);
  });

  it('marquee takes an arrow or a drawing where its line passes, not where its box is', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 300, w: 100, h: 100 }, 'u1');
    // A long diagonal from the top left to the bottom right: its box covers the note at 0,300,
    // its line passes 200 units away from it.
    const diagonal = createShape(
      t.doc,
      { type: 'arrow', x: 0, y: 0, from: { x: 0, y: 0 }, to: { x: 600, y: 600 } },
      'u1',
    );
    const drawing = createShape(
      t.doc,
      { type: 'freehand', x: 0, y: 0, w: 600, h: 600, points: [0, 0, 300, 300, 600, 600] },
      'u1',
    );
    t.drag(
      [-20, 280],
      [
        [50, 350],
        [120, 420],
      ],
    );
    assert.deepEqual(t.store.getState().selection, [a], 'only the note: the lines pass elsewhere');
    t.store.getState().select([]);
    // Across the lines themselves (from a point off them, or the press would grab one), both are taken.
    t.drag(
      [400, 250],
      [
        [300, 350],
        [250, 400],
      ],
    );
    assert.deepEqual([...t.store.getState().selection].sort(), [diagonal, drawing].sort());
  });

  it('a marquee judges a connector by where it runs now, when a shape it is bound to moves mid-marquee', () => {
    const t = setup();
    const from = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    const to = createShape(t.doc, { type: 'rect', x: 600, y: 0, w: 100, h: 100 }, 'u1');
    const arrow = createShape(
      t.doc,
      {
        type: 'arrow',
        x: 0,
        y: 0,
        from: { shapeId: from, x: 50, y: 50 },
        to: { shapeId: to, x: 650, y: 50 },
      },
      'u1',
    );
    const at = (x: number, y: number) => {
      const s = t.store.getState();
      return toScreen(s.viewport, s.screen, x, y);
    };
    t.controller.down({ ...at(300, 250), button: 0, shift: false, pointerId: 1, handle: null });
    t.controller.move({ ...at(400, 400), pointerId: 1, shift: false });
    assert.deepEqual(t.store.getState().selection, [], 'the arrow runs along y = 50, above the marquee');
    // Someone else moves the second note down: the arrow now runs diagonally through the marquee.
    moveShapes(t.doc, [to], 0, 600);
    t.controller.move({ ...at(401, 401), pointerId: 1, shift: false });
    assert.deepEqual(t.store.getState().selection, [arrow]);
    t.controller.up({ ...at(401, 401), pointerId: 1 });
  });

  it('drags the selection as one undo step', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'sticky', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    t.undo.clear();
    t.drag(
      [50, 50],
      [
        [60, 55],
        [80, 70],
        [150, 90],
      ],
    );
    assert.deepEqual([t.rec(a).x, t.rec(a).y], [100, 40]);
    assert.deepEqual(t.store.getState().selection, [a]);
    t.undo.undo();
    assert.deepEqual([t.rec(a).x, t.rec(a).y], [0, 0]);
  });

  it('resizes one shape from a corner handle', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    t.store.getState().select([a]);
    t.drag([100, 100], [[150, 130]], { handle: 'se' });
    const r = t.rec(a);
    assert.deepEqual([r.x, r.y, r.w, r.h], [0, 0, 150, 130]);
    t.drag([0, 0], [[-20, 10]], { handle: 'nw' });
    const r2 = t.rec(a);
    assert.deepEqual([r2.x, r2.y, r2.w, r2.h], [-20, 10, 170, 120]);
  });

  it('resizes one shape by the pointer’s travel when its handle is pressed off the corner, with no jump', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    t.store.getState().select([a]);
    // The handle stands a few units outside the corner: pressed 7 out, moved 2 right and 1 up.
    t.drag([107, 107], [[109, 106]], { handle: 'se' });
    assert.deepEqual([t.rec(a).x, t.rec(a).y, t.rec(a).w, t.rec(a).h], [0, 0, 102, 99]);
    t.drag([-6, -5], [[-7, -5]], { handle: 'nw' });
    assert.deepEqual([t.rec(a).x, t.rec(a).y, t.rec(a).w, t.rec(a).h], [-1, 0, 103, 99]);
    // Turned a quarter about its centre, its south-east corner is on the board at (50, 150); a
    // press 5 below it and a move 10 down make it 10 longer along its own x.
    const b = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 200, h: 100, rotation: Math.PI / 2 }, 'u1');
    t.store.getState().select([b]);
    t.drag([50, 155], [[50, 165]], { handle: 'se' });
    assert.ok(Math.abs(t.rec(b).w - 210) < 1e-9 && Math.abs(t.rec(b).h - 100) < 1e-9, `${t.rec(b).w}`);
  });

  it('Shift keeps a shape’s proportions from a corner handle; an image’s are kept unless Shift is held', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 200, h: 100 }, 'u1');
    t.store.getState().select([a]);
    // The trial's drag: +200, +20 from the south-east corner gave 400 × 120 (now twice as wide as high).
    t.drag([200, 100], [[400, 120]], { handle: 'se', shift: true });
    assert.deepEqual([t.rec(a).x, t.rec(a).y, t.rec(a).w, t.rec(a).h], [0, 0, 400, 200]);
    // From the north-west the south-east corner stays.
    t.drag([0, 0], [[-100, 150]], { handle: 'nw', shift: true });
    assert.deepEqual([t.rec(a).x, t.rec(a).y, t.rec(a).w, t.rec(a).h], [-100, -50, 500, 250]);
    const note = createShape(t.doc, { type: 'sticky', x: 1000, y: 0, w: 200, h: 200 }, 'u1');
    t.store.getState().select([note]);
    t.drag([1200, 200], [[1355, 217]], { handle: 'se', shift: true });
    assert.deepEqual([t.rec(note).w, t.rec(note).h], [355, 355]);
    // Without Shift a shape still stretches freely.
    t.drag([1355, 355], [[1400, 300]], { handle: 'se' });
    assert.deepEqual([t.rec(note).w, t.rec(note).h], [400, 300]);
    const img = createShape(t.doc, { type: 'image', x: 0, y: 1000, w: 200, h: 100 }, 'u1');
    t.store.getState().select([img]);
    t.drag([200, 1100], [[400, 1120]], { handle: 'se' });
    assert.deepEqual([t.rec(img).w, t.rec(img).h], [400, 200]);
    t.drag([400, 1200], [[500, 1210]], { handle: 'se', shift: true });
    assert.deepEqual([t.rec(img).w, t.rec(img).h], [500, 210]);
  });

  it('a pen stroke ends where the pointer is released, even with no move there', () => {
    const t = setup();
    t.store.getState().setTool('pen');
    const screen = (x: number, y: number) => {
      const s = t.store.getState();
      return toScreen(s.viewport, s.screen, x, y);
    };
    t.controller.down({ ...screen(0, 0), button: 0, shift: false, pointerId: 1, handle: null });
    t.controller.move({ ...screen(100, 0), pointerId: 1, shift: false });
    t.controller.up({ ...screen(200, 0), pointerId: 1 });
    const stroke = readAll(t.doc).find((r) => r.type === 'freehand')!;
    assert.deepEqual([stroke.x, stroke.w, stroke.points?.slice(-2)], [0, 200, [200, 0]]);
  });

  it('rotates by the handle, snapping to 15° with Shift', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    t.store.getState().select([a]);
    // Pointer straight to the right of the centre: a quarter turn clockwise.
    t.drag([50, -30], [[200, 50]], { handle: 'rotate' });
    assert.ok(Math.abs(t.rec(a).rotation - Math.PI / 2) < 1e-9);
    t.drag([200, 50], [[200, 62]], { handle: 'rotate', shift: true });
    const deg = (t.rec(a).rotation * 180) / Math.PI;
    assert.ok(Math.abs(deg - Math.round(deg / 15) * 15) < 1e-9, `${deg}° is a multiple of 15°`);
  });

  it('rotates by a handle below the shape as far as the pointer turns, with no jump', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    t.store.getState().select([a]);
    // The handle drawn below the shape (near the top of the screen): pressed and not moved, no turn.
    t.drag([50, 130], [[50, 130]], { handle: 'rotate' });
    assert.ok(Math.abs(t.rec(a).rotation) < 1e-9, 'no half turn on the press');
    // From straight below the centre to straight left of it: a quarter turn clockwise.
    t.drag([50, 130], [[-100, 50]], { handle: 'rotate' });
    assert.ok(Math.abs(t.rec(a).rotation - Math.PI / 2) < 1e-9);
  });

  it('a frame does not rotate, alone or with other shapes', () => {
    const t = setup();
    const frame = createShape(t.doc, { type: 'frame', x: 0, y: 0, w: 300, h: 200 }, 'u1');
    const note = createShape(t.doc, { type: 'sticky', x: 400, y: 0, w: 100, h: 100 }, 'u1');
    t.store.getState().select([frame]);
    t.drag([150, -30], [[400, 100]], { handle: 'rotate' });
    assert.equal(t.rec(frame).rotation, 0);
    t.store.getState().select([frame, note]);
    t.drag([250, -30], [[600, 100]], { handle: 'rotate' });
    assert.deepEqual([t.rec(frame).rotation, t.rec(note).rotation], [0, 0]);
    assert.deepEqual([t.rec(note).x, t.rec(note).y], [400, 0], 'nothing turned about the pair’s centre');
  });

  it('binds an arrow drawn from one shape to another, and the arrow follows a moved shape', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    const b = createShape(t.doc, { type: 'rect', x: 300, y: 0, w: 100, h: 100 }, 'u1');
    t.store.getState().setTool('arrow');
    t.drag(
      [50, 50],
      [
        [200, 50],
        [350, 50],
      ],
    );
    const arrow = readAll(t.doc).find((s) => s.type === 'arrow')!;
    assert.equal(arrow.from?.shapeId, a);
    assert.equal(arrow.to?.shapeId, b);
    assert.deepEqual(t.store.getState().selection, [arrow.id]);
    assert.equal(t.store.getState().tool, 'select');
    // Drag B down by 200: the stored end moves with it.
    t.drag([350, 50], [[350, 250]]);
    const moved = t.rec(arrow.id);
    assert.equal(moved.to?.shapeId, b);
    assert.ok(moved.to!.y > 200, `arrow end followed the shape (y=${moved.to!.y})`);
  });

  it('re-binds an arrow end dragged by its handle', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    const c = createShape(t.doc, { type: 'ellipse', x: 0, y: 300, w: 100, h: 100 }, 'u1');
    const arrow = createShape(
      t.doc,
      { type: 'arrow', x: 0, y: 0, from: { shapeId: a, x: 100, y: 50 }, to: { x: 300, y: 50 } },
      'u1',
    );
    t.store.getState().select([arrow]);
    t.drag([300, 50], [[50, 350]], { handle: 'to' });
    assert.equal(t.rec(arrow).to?.shapeId, c);
    assert.equal(t.rec(arrow).from?.shapeId, a);
  });

  it('snaps a dragged shape to another’s edge, shows guides while dragging and clears them after', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    const b = createShape(t.doc, { type: 'rect', x: 300, y: 300, w: 100, h: 100 }, 'u1');
    const screen = (x: number, y: number) => {
      const s = t.store.getState();
      return toScreen(s.viewport, s.screen, x, y);
    };
    t.controller.down({ ...screen(350, 350), button: 0, shift: false, pointerId: 1, handle: null });
    // 197 units left: B's left edge at 103, 3 from A's right edge (100), within 6 screen px.
    t.controller.move({ ...screen(153, 350), pointerId: 1, shift: false });
    assert.ok(t.store.getState().guides.some((g) => g.axis === 'x' && g.at === 100));
    assert.equal(t.rec(b).x, 100);
    // Ctrl/Cmd turns snapping off.
    t.controller.move({ ...screen(153, 350), pointerId: 1, shift: false, noSnap: true });
    assert.equal(t.rec(b).x, 103);
    assert.deepEqual(t.store.getState().guides, []);
    t.controller.move({ ...screen(153, 350), pointerId: 1, shift: false });
    t.controller.up({ ...screen(153, 350), pointerId: 1 });
    assert.deepEqual(t.store.getState().guides, []);
    assert.equal(t.rec(a).x, 0);
  });

  it('a click on a grouped shape selects its group, and a drag moves all of it', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    const b = createShape(t.doc, { type: 'rect', x: 500, y: 0, w: 100, h: 100 }, 'u1');
    groupShapes(t.doc, [a, b]);
    t.drag([50, 50], [[50, 250]], {});
    assert.deepEqual([...t.store.getState().selection].sort(), [a, b].sort());
    assert.deepEqual([t.rec(a).y, t.rec(b).y], [200, 200]);
  });

  it('a locked shape is selected by a click but not dragged, and a marquee passes over it', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    setLocked(t.doc, [a], true);
    t.drag([50, 50], [[150, 150]]);
    assert.deepEqual(t.store.getState().selection, [a]);
    assert.deepEqual([t.rec(a).x, t.rec(a).y], [0, 0]);
    assert.match(t.store.getState().notice ?? '', /Locked shapes cannot be moved/, 'the drag says why');
    t.drag([-50, -50], [[200, 200]]);
    assert.deepEqual(t.store.getState().selection, []);
    t.store.getState().setTool('eraser');
    t.drag([50, 50], [[60, 60]]);
    assert.ok(t.rec(a), 'the eraser leaves a locked shape');
  });

  it('resizes and rotates several shapes at once by the selection’s handles', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    const b = createShape(t.doc, { type: 'rect', x: 200, y: 0, w: 100, h: 100 }, 'u1');
    t.store.getState().select([a, b]);
    // The corner handle sits a few units outside the box; the grab offset keeps the corner under the pointer.
    t.drag([304, 104], [[454, 154]], { handle: 'se', shift: true });
    // Shift keeps proportions: the box (300 × 100) grows by 1.5 → 450 × 150.
    assert.deepEqual([t.rec(a).x, t.rec(a).w, t.rec(a).h], [0, 150, 150]);
    assert.deepEqual([t.rec(b).x, t.rec(b).w], [300, 150]);
    t.undo.undo();
    assert.deepEqual([t.rec(b).x, t.rec(b).w], [200, 100], 'one undo step');
    // Rotate the pair a quarter turn around their common centre (150, 50).
    t.drag([150, -100], [[300, 50]], { handle: 'rotate' });
    assert.ok(Math.abs(t.rec(a).rotation - Math.PI / 2) < 1e-9);
    assert.ok(Math.abs(t.rec(a).x + 50 - 150) < 1e-9 && Math.abs(t.rec(a).y + 50 - -50) < 1e-9);
  });

  it('the Comment tool places a draft on the shape under the pointer, else at the point, even read-only', () => {
    const t = setup();
    const note = createShape(t.doc, { type: 'sticky', x: 0, y: 0, w: 200, h: 200 }, 'u1');
    t.store.getState().setTool('comment');
    t.drag([50, 60], []);
    assert.deepEqual(t.store.getState().commentDraft, { shapeId: note, x: 50, y: 60 });
    t.drag([500, 500], []);
    assert.deepEqual(t.store.getState().commentDraft, { shapeId: null, x: 500, y: 500 });
    // Nothing was drawn or moved: a comment is not board content.
    assert.equal(readAll(t.doc).length, 1);
    assert.deepEqual([t.rec(note).x, t.rec(note).y], [0, 0]);
    t.store.getState().setTool('select');
    assert.equal(t.store.getState().commentDraft, null);
  });

  it('with the tool locked, each click makes another shape and the tool stays', () => {
    const t = setup();
    t.store.getState().setTool('sticky');
    t.store.getState().setToolLocked(true);
    for (let i = 0; i < 3; i++) t.drag([i * 250, 0], []);
    assert.equal(readAll(t.doc).filter((s) => s.type === 'sticky').length, 3);
    assert.equal(t.store.getState().tool, 'sticky');
    assert.equal(t.store.getState().editingId, null);
    t.store.getState().setToolLocked(false);
    t.drag([0, 400], []);
    assert.equal(t.store.getState().tool, 'select');
  });

  it('resizes a rotated shape in its own frame, the opposite corner staying put', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 200, h: 100, rotation: Math.PI / 2 }, 'u1');
    t.store.getState().select([a]);
    // Turned a quarter about (100, 50): its south-east corner is on the board at (50, 150).
    t.drag([50, 150], [[50, 250]], { handle: 'se' });
    const r = t.rec(a);
    assert.ok(Math.abs(r.w - 300) < 1e-9 && Math.abs(r.h - 100) < 1e-9, `${r.w} × ${r.h}`);
    assert.equal(r.rotation, Math.PI / 2);
  });

  it('a shape drawn by dragging snaps its corner to the others', () => {
    const t = setup();
    createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    t.store.getState().setTool('rect');
    const screen = (x: number, y: number) => {
      const s = t.store.getState();
      return toScreen(s.viewport, s.screen, x, y);
    };
    t.controller.down({ ...screen(200, 0), button: 0, shift: false, pointerId: 1, handle: null });
    t.controller.move({ ...screen(300, 97), pointerId: 1, shift: false });
    assert.ok(
      t.store.getState().guides.some((g) => g.axis === 'y' && g.at === 100),
      'a guide at y = 100',
    );
    t.controller.up({ ...screen(300, 97), pointerId: 1 });
    assert.deepEqual(t.store.getState().guides, []);
    const drawn = readAll(t.doc).at(-1)!;
    assert.deepEqual([drawn.x, drawn.y, drawn.w, drawn.h], [200, 0, 100, 100]);
  });

  it('Alt-drag drags a copy of the selection and leaves the originals, as one undo step', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    const frame = createShape(t.doc, { type: 'frame', x: 400, y: 0, w: 300, h: 300 }, 'u1');
    const inside = createShape(t.doc, { type: 'sticky', x: 450, y: 50, w: 100, h: 100 }, 'u1');
    t.undo.clear();
    const screen = (x: number, y: number) => {
      const s = t.store.getState();
      return toScreen(s.viewport, s.screen, x, y);
    };
    const altDrag = (from: [number, number], to: [number, number]) => {
      t.controller.down({
        ...screen(...from),
        button: 0,
        shift: false,
        alt: true,
        pointerId: 1,
        handle: null,
      });
      t.controller.move({ ...screen(...to), pointerId: 1, shift: false, noSnap: true });
      t.controller.up({ ...screen(...to), pointerId: 1 });
    };
    altDrag([50, 50], [50, 250]);
    assert.deepEqual([t.rec(a).x, t.rec(a).y], [0, 0], 'the original stays');
    const [copy] = t.store.getState().selection;
    assert.ok(copy && copy !== a, 'the copy is selected');
    assert.deepEqual([t.rec(copy).type, t.rec(copy).x, t.rec(copy).y], ['rect', 0, 200]);
    t.undo.undo();
    assert.equal(readAll(t.doc).length, 3, 'one undo takes the copy away');
    assert.deepEqual([t.rec(a).x, t.rec(a).y], [0, 0]);

    // A frame's copy takes copies of what is inside it; the originals stay in the original frame.
    altDrag([405, 5], [405, 405]);
    assert.deepEqual([t.rec(frame).y, t.rec(inside).y], [0, 50]);
    const copies = readAll(t.doc).filter((r) => r.id !== a && r.id !== frame && r.id !== inside);
    assert.deepEqual(copies.map((r) => [r.type, r.y]).sort(), [
      ['frame', 400],
      ['sticky', 450],
    ]);

    // An Alt-click (pressed and released without a move) leaves no copy on top of the original.
    const before = readAll(t.doc).length;
    t.controller.down({ ...screen(50, 50), button: 0, shift: false, alt: true, pointerId: 1, handle: null });
    t.controller.up({ ...screen(50, 50), pointerId: 1 });
    assert.equal(readAll(t.doc).length, before, 'no copy left behind');
    assert.deepEqual(t.store.getState().selection, [a], 'the original stays selected');
  });

  it('new shapes start with the styles last picked, each with those it carries', () => {
    const t = setup();
    t.store
      .getState()
      .rememberStyle({ route: 'elbow', sloppiness: 'artist', fill: 'red', fillStyle: 'hatched' });
    t.store.getState().rememberStyle({ fontFamily: 'hand' });
    const made = (
      tool: 'rect' | 'arrow' | 'sticky' | 'pen',
      from: [number, number],
      to: [number, number],
    ) => {
      const before = new Set(t.index.getSnapshot().byId.keys());
      t.store.getState().setTool(tool);
      t.drag(from, [to]);
      return [...t.index.getSnapshot().byId.values()].find((r) => !before.has(r.id))!;
    };
    const rect = made('rect', [0, 0], [120, 80]);
    assert.deepEqual(
      [rect.sloppiness, rect.fill, rect.fillStyle, rect.fontFamily, rect.route],
      ['artist', 'red', 'hatched', 'hand', undefined],
      'a rectangle takes the look and fill, not the connector route',
    );
    const arrow = made('arrow', [400, 0], [600, 200]);
    assert.deepEqual([arrow.route, arrow.sloppiness, arrow.fill], ['elbow', 'artist', undefined]);
    const note = made('sticky', [0, 400], [200, 600]);
    assert.equal(note.fill, undefined, 'a sticky keeps its note colour');
    assert.equal(note.fontFamily, 'hand');
    const stroke = made('pen', [800, 0], [900, 50]);
    assert.equal(stroke.type, 'freehand');
  });
});

describe('dragging a large selection (docs/client.md: moved on screen, written on release)', () => {
  it('writes nothing to the document while the pointer moves, then one transaction and one undo step', () => {
    const t = setup();
    const ids: string[] = [];
    for (let i = 0; i < 300; i++)
      ids.push(
        createShape(
          t.doc,
          { type: 'rect', x: (i % 20) * 120, y: Math.floor(i / 20) * 120, w: 100, h: 100 },
          'u1',
        ),
      );
    t.undo.clear();
    t.store.getState().select(ids);
    let transactions = 0;
    t.doc.on('afterTransaction', () => transactions++);
    const screen = (x: number, y: number) => {
      const s = t.store.getState();
      return toScreen(s.viewport, s.screen, x, y);
    };
    t.controller.down({ ...screen(50, 50), button: 0, shift: false, pointerId: 1, handle: null });
    for (let k = 1; k <= 10; k++)
      t.controller.move({ ...screen(50 + 13 * k, 50 + 7 * k), pointerId: 1, shift: false, noSnap: true });
    assert.equal(transactions, 0, 'no document write per pointer move');
    assert.deepEqual([t.rec(ids[0]!).x, t.rec(ids[0]!).y], [0, 0]);
    const lift = t.store.getState().lift;
    assert.ok(lift, 'the selection is lifted on screen');
    assert.equal(lift.ids.size, 300);
    assert.deepEqual(t.store.getState().liftOffset, { x: 130, y: 70 });
    t.controller.up({ ...screen(180, 120), pointerId: 1 });
    assert.equal(transactions, 1, 'one transaction on release');
    assert.equal(t.store.getState().lift, null);
    assert.deepEqual([t.rec(ids[0]!).x, t.rec(ids[0]!).y], [130, 70]);
    assert.deepEqual([t.rec(ids[299]!).x, t.rec(ids[299]!).y], [19 * 120 + 130, 14 * 120 + 70]);
    t.undo.undo();
    assert.deepEqual([t.rec(ids[0]!).x, t.rec(ids[299]!).x], [0, 19 * 120], 'one undo step');
  });

  it('keeps a small selection live, and a cancelled large drag leaves the document as it was', () => {
    const t = setup();
    const a = createShape(t.doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u1');
    const screen = (x: number, y: number) => {
      const s = t.store.getState();
      return toScreen(s.viewport, s.screen, x, y);
    };
    t.controller.down({ ...screen(50, 50), button: 0, shift: false, pointerId: 1, handle: null });
    t.controller.move({ ...screen(90, 80), pointerId: 1, shift: false, noSnap: true });
    assert.deepEqual([t.rec(a).x, t.rec(a).y], [40, 30], 'a small selection moves live');
    assert.equal(t.store.getState().lift, null);
    t.controller.up({ ...screen(90, 80), pointerId: 1 });

    const many: string[] = [];
    for (let i = 0; i < 300; i++)
      many.push(createShape(t.doc, { type: 'rect', x: 1000 + i * 120, y: 0, w: 100, h: 100 }, 'u1'));
    t.store.getState().select(many);
    t.controller.down({ ...screen(1050, 50), button: 0, shift: false, pointerId: 1, handle: null });
    t.controller.move({ ...screen(1200, 90), pointerId: 1, shift: false, noSnap: true });
    t.controller.cancel(1);
    assert.equal(t.store.getState().lift, null);
    assert.equal(t.rec(many[0]!).x, 1000);
  });
});
