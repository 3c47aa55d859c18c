// Layout model in Node: snapping, align/distribute, groups, locks, multi-resize and multi-rotate,
// arrow ends on outlines, and style fields.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ShapeRecord } from '@tandem/shared';
import * as Y from 'yjs';
import {
  alignUnits,
  applyPatches,
  arrowEnds,
  attachPoint,
  createShape,
  deleteShapes,
  distributeUnits,
  dragCorner,
  expandToGroups,
  freeSpot,
  groupShapes,
  moveShapes,
  offsetPatches,
  PLACE_GAP,
  readAll,
  resizeShape,
  restyle,
  rotateRecords,
  scaleRecords,
  setLocked,
  setStyle,
  snapBox,
  snapPoint,
  ungroupShapes,
  unitsOf,
} from '../src/board/model/index.ts';
import { overlapArea, selectionOnScreen, stepAside } from '../src/board/ui/clearOfSelection.ts';

const rec = (
  id: string,
  x: number,
  y: number,
  w = 100,
  h = 100,
  extra: Partial<ShapeRecord> = {},
): ShapeRecord => ({
  id,
  type: 'rect',
  x,
  y,
  w,
  h,
  rotation: 0,
  color: 'blue',
  z: `a${id}`,
  createdBy: 'u',
  ...extra,
});
const close = (a: number, b: number, what = '') => assert.ok(Math.abs(a - b) < 1e-6, `${what} ${a} ≈ ${b}`);
const byId = (doc: Y.Doc) => new Map(readAll(doc).map((r) => [r.id, r]));

describe('snapping', () => {
  const others = [{ x: 0, y: 0, w: 100, h: 100 }];

  it('snaps a moving box to the nearest edge or centre within the threshold, with guides', () => {
    // Left edge 3 units right of the other's right edge: snaps left by 3.
    const s = snapBox({ x: 103, y: 300, w: 50, h: 50 }, others, 6);
    assert.equal(s.dx, -3);
    assert.equal(s.dy, 0);
    assert.deepEqual(
      s.guides.map((g) => [g.axis, g.at]),
      [['x', 100]],
    );
    // The guide spans both shapes.
    assert.deepEqual([s.guides[0]!.from, s.guides[0]!.to], [0, 350]);
  });

  it('snaps centres to centres on both axes', () => {
    const s = snapBox({ x: 27, y: 22, w: 50, h: 50 }, others, 6);
    // centre x 52 → 50, centre y 47 → 50
    assert.deepEqual([s.dx, s.dy], [-2, 3]);
    assert.ok(s.guides.some((g) => g.axis === 'x' && g.at === 50));
    assert.ok(s.guides.some((g) => g.axis === 'y' && g.at === 50));
  });

  it('does nothing beyond the threshold', () => {
    const s = snapBox({ x: 120, y: 300, w: 50, h: 50 }, others, 6);
    assert.deepEqual([s.dx, s.dy, s.guides.length], [0, 0, 0]);
  });

  it('snaps a dragged corner to edges', () => {
    const s = snapPoint({ x: 98, y: 204 }, others, 6);
    assert.deepEqual([s.dx, s.dy], [2, 0]);
    assert.deepEqual(s.guides[0], { axis: 'x', at: 100, from: 0, to: 204 });
  });
});

describe('align and distribute', () => {
  const units = [
    { ids: ['a'], box: { x: 0, y: 0, w: 100, h: 50 } },
    { ids: ['b'], box: { x: 200, y: 40, w: 50, h: 50 } },
    { ids: ['c'], box: { x: 500, y: 100, w: 100, h: 100 } },
  ];

  it('aligns edges and centres on the common bounds', () => {
    assert.deepEqual(
      alignUnits(units, 'left').map((o) => o.dx),
      [0, -200, -500],
    );
    assert.deepEqual(
      alignUnits(units, 'right').map((o) => o.dx),
      [500, 350, 0],
    );
    assert.deepEqual(
      alignUnits(units, 'middle').map((o) => o.dy),
      [75, 35, -50],
    );
    assert.deepEqual(
      alignUnits(units, 'center').map((o) => o.dx),
      [250, 75, -250],
    );
    assert.deepEqual(
      alignUnits(units, 'bottom').map((o) => o.dy),
      [150, 110, 0],
    );
  });

  it('distributes with equal gaps, keeping the outer two', () => {
    const out = distributeUnits(units, 'x');
    // span 0..600, sizes 250, gap (600-250)/2 = 175 → b at 275
    assert.deepEqual(
      out.map((o) => [o.ids[0], o.dx]),
      [
        ['a', 0],
        ['b', 75],
        ['c', 0],
      ],
    );
    assert.deepEqual(distributeUnits(units.slice(0, 2), 'x'), []);
  });

  it('treats a group as one unit and moves all of it', () => {
    const records = [
      rec('a', 0, 0),
      rec('b', 50, 200, 100, 100, { groupId: 'g' }),
      rec('c', 300, 200, 100, 100, { groupId: 'g' }),
    ];
    const units2 = unitsOf(records, ['a', 'b', 'c']);
    assert.equal(units2.length, 2);
    const offsets = alignUnits(units2, 'left');
    const patches = offsetPatches(new Map(records.map((r) => [r.id, r])), offsets);
    // The group moves left by 50 as a whole.
    assert.deepEqual(
      patches.map((p) => [p.id, p.x]),
      [
        ['b', 0],
        ['c', 250],
      ],
    );
  });
});

describe('a free spot for a shape placed from the keyboard', () => {
  const view = { x: -600, y: -300, w: 1200, h: 600 };
  const note = { x: -100, y: -100, w: 200, h: 200 };
  const step = 200 + PLACE_GAP;

  it('keeps the middle of the view when nothing is there', () => {
    assert.deepEqual(freeSpot(note, [{ x: 200, y: 200, w: 50, h: 50 }], view), { x: -100, y: -100 });
  });

  it('steps right of a shape in the way, then on along the row, never overlapping one', () => {
    const first = freeSpot(note, [note], view);
    assert.deepEqual(first, { x: -100 + step, y: -100 });
    const taken = [note, { ...note, ...first }];
    const second = freeSpot(note, taken, view);
    assert.deepEqual(second, { x: -100 + 2 * step, y: -100 });
    // A shape only partly in the way counts too.
    assert.deepEqual(freeSpot(note, [{ x: 50, y: 50, w: 10, h: 10 }], view), { x: -100 + step, y: -100 });
  });

  it('goes to the next row when the row is full to the view’s edge, then to the rest of the view', () => {
    const tall = { x: -600, y: -400, w: 1200, h: 800 };
    // The row from the middle holds three notes (a fourth would cross the right edge at 600).
    const row = [0, 1, 2].map((c) => ({ ...note, x: -100 + c * step }));
    assert.deepEqual(freeSpot(note, row, tall), { x: -100, y: -100 + step });
    // No room below or to the right: left of the middle, in reading order (the row above first).
    const ahead = [...row, ...row.map((r) => ({ ...r, y: -100 + step }))];
    const spot = freeSpot(note, ahead, tall);
    assert.ok(spot.x < -100 || spot.y < -100, `somewhere before the middle: ${JSON.stringify(spot)}`);
    for (const t of ahead)
      assert.ok(spot.x + 200 <= t.x || t.x + 200 <= spot.x || spot.y + 200 <= t.y || t.y + 200 <= spot.y);
    assert.ok(spot.x >= tall.x && spot.y >= tall.y && spot.x + 200 <= 600 && spot.y + 200 <= 400, 'in view');
  });

  it('goes on outward past the view when the view has no free spot, never onto a shape', () => {
    // The view of a laptop's e2e window holds one row of five notes; the sixth went mid-view again,
    // onto the first.
    const strip = { x: -560, y: -270, w: 1120, h: 540 };
    const taken: { x: number; y: number; w: number; h: number }[] = [];
    const clear = (spot: { x: number; y: number }) =>
      taken.every(
        (t) => spot.x + 200 <= t.x || t.x + t.w <= spot.x || spot.y + 200 <= t.y || t.y + t.h <= spot.y,
      );
    for (let i = 0; i < 30; i++) {
      const spot = freeSpot(note, taken, strip);
      assert.ok(clear(spot), `note ${i + 1} hides none of the ${i} before it: ${JSON.stringify(spot)}`);
      // On the grid of steps from the middle, so the notes line up.
      assert.ok((spot.x + 100) % step === 0, `note ${i + 1} in a column of the grid`);
      assert.ok((spot.y + 100) % step === 0, `note ${i + 1} in a row of the grid`);
      taken.push({ ...note, ...spot });
    }
    // The first five fill the view's row; the sixth is the nearest cell past it: under the middle.
    assert.deepEqual(taken[5], { ...note, y: -100 + step });
    // Then beside it, from the middle outwards, before the row above.
    assert.deepEqual(
      taken.slice(5, 11).map((t) => [(t.x + 100) / step, (t.y + 100) / step]),
      [
        [0, 1],
        [1, 1],
        [-1, 1],
        [2, 1],
        [-2, 1],
        [0, -1],
      ],
    );
    // Row by row: thirty notes stay within three steps of the middle.
    for (const t of taken) assert.ok(Math.abs(t.x + 100) <= 3 * step && Math.abs(t.y + 100) <= 3 * step);
  });

  it('with no room near the view either, right of everything', () => {
    const wall = { x: -50_000, y: -50_000, w: 100_000, h: 100_000 };
    assert.deepEqual(freeSpot(note, [wall], view), { x: 50_000 + PLACE_GAP, y: -100 });
  });
});

describe('groups and locks', () => {
  it('groups, expands a selection to its group, and ungroups', () => {
    const doc = new Y.Doc();
    const a = createShape(doc, { type: 'rect', x: 0, y: 0 }, 'u');
    const b = createShape(doc, { type: 'rect', x: 300, y: 0 }, 'u');
    const c = createShape(doc, { type: 'rect', x: 600, y: 0 }, 'u');
    const g = groupShapes(doc, [a, b]);
    assert.ok(g);
    assert.deepEqual(expandToGroups(readAll(doc), [a]).sort(), [a, b].sort());
    assert.deepEqual(expandToGroups(readAll(doc), [c]), [c]);
    assert.equal(groupShapes(doc, [c]), null, 'one shape is not a group');
    ungroupShapes(doc, [a, b]);
    assert.deepEqual(expandToGroups(readAll(doc), [a]), [a]);
    assert.equal(byId(doc).get(a)!.groupId, undefined);
  });

  it('a locked shape is not moved, resized, restyled or deleted until unlocked', () => {
    const doc = new Y.Doc();
    const a = createShape(doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u');
    setLocked(doc, [a], true);
    moveShapes(doc, [a], 50, 50);
    resizeShape(doc, a, { x: 0, y: 0, w: 10, h: 10 });
    restyle(doc, [a], 'red');
    setStyle(doc, [a], { dash: 'dotted' });
    applyPatches(doc, [{ id: a, x: 999 }]);
    deleteShapes(doc, [a]);
    const r = byId(doc).get(a)!;
    assert.deepEqual([r.x, r.y, r.w, r.color, r.dash, r.locked], [0, 0, 100, 'blue', undefined, true]);
    setLocked(doc, [a], false);
    moveShapes(doc, [a], 50, 50);
    assert.equal(byId(doc).get(a)!.x, 50);
    assert.equal(byId(doc).get(a)!.locked, undefined);
  });
});

describe('multi-resize and multi-rotate', () => {
  it('scales shapes as one picture, proportionally, from the originals', () => {
    const originals = [rec('a', 0, 0, 100, 100), rec('b', 200, 100, 100, 100)];
    const from = { x: 0, y: 0, w: 300, h: 200 };
    const to = dragCorner(from, 'se', { x: 600, y: 400 }, false);
    assert.deepEqual(to, { x: 0, y: 0, w: 600, h: 400 });
    const patches = scaleRecords(originals, from, to);
    assert.deepEqual(
      patches.map((p) => [p.id, p.x, p.y, p.w, p.h]),
      [
        ['a', 0, 0, 200, 200],
        ['b', 400, 200, 200, 200],
      ],
    );
    // Dragging the north-west corner keeps the south-east one fixed; keepAspect keeps proportions
    // and follows the axis moved further (here 190/200 of the height).
    const kept = dragCorner(from, 'nw', { x: 150, y: 10 }, true);
    assert.deepEqual(kept, { x: 15, y: 10, w: 285, h: 190 });
    // Past the fixed corner the box flips, as in most editors.
    assert.deepEqual(dragCorner(from, 'se', { x: -100, y: 300 }, false), { x: -100, y: 0, w: 100, h: 300 });
  });

  it('scales freehand points and free arrow ends too', () => {
    const pen = rec('p', 0, 0, 100, 100, { type: 'freehand', points: [0, 0, 100, 100] });
    const arrow = rec('r', 0, 0, 100, 0, { type: 'arrow', from: { x: 0, y: 0 }, to: { x: 100, y: 0 } });
    const [p, r] = scaleRecords([pen, arrow], { x: 0, y: 0, w: 100, h: 100 }, { x: 0, y: 0, w: 200, h: 50 });
    assert.deepEqual(p!.points, [0, 0, 200, 50]);
    assert.deepEqual(r!.to, { x: 200, y: 0 });
  });

  it('rotates shapes around the common centre, each turning by the angle', () => {
    const originals = [rec('a', 0, 0, 100, 100), rec('b', 200, 0, 100, 100)];
    const patches = rotateRecords(originals, { x: 150, y: 50 }, Math.PI / 2);
    // a's centre (50, 50) turns to (150, -50); b's (250, 50) to (150, 150).
    close(patches[0]!.x! + 50, 150, 'a cx');
    close(patches[0]!.y! + 50, -50, 'a cy');
    close(patches[1]!.x! + 50, 150, 'b cx');
    close(patches[1]!.y! + 50, 150, 'b cy');
    close(patches[0]!.rotation!, Math.PI / 2);
  });

  it('applies patches to the document in one step and bound arrows follow', () => {
    const doc = new Y.Doc();
    const a = createShape(doc, { type: 'rect', x: 0, y: 0, w: 100, h: 100 }, 'u');
    const b = createShape(doc, { type: 'rect', x: 300, y: 0, w: 100, h: 100 }, 'u');
    const arrow = createShape(
      doc,
      { type: 'arrow', x: 0, y: 0, from: { shapeId: a, x: 50, y: 50 }, to: { shapeId: b, x: 350, y: 50 } },
      'u',
    );
    const all = byId(doc);
    applyPatches(
      doc,
      scaleRecords(
        [all.get(a)!, all.get(b)!],
        { x: 0, y: 0, w: 400, h: 100 },
        { x: 0, y: 0, w: 800, h: 200 },
      ),
    );
    const after = byId(doc);
    assert.deepEqual([after.get(b)!.x, after.get(b)!.w], [600, 200]);
    // The arrow's stored end follows b's new left side (600 − gap).
    close(after.get(arrow)!.to!.x, 594, 'arrow end');
  });
});

describe('arrows end at the outline', () => {
  it('an ellipse end lies on the ellipse, not its box', () => {
    const e = rec('e', 0, 0, 200, 100, { type: 'ellipse' });
    // Aiming along the diagonal: the box corner would be at distance ~111 from the centre.
    const p = attachPoint(e, { x: 1100, y: 1050 });
    const cx = 100;
    const cy = 50;
    const dx = p.x - cx;
    const dy = p.y - cy;
    const len = Math.hypot(dx, dy);
    // Point on the ellipse along the same ray, plus the 6-unit gap.
    const ux = dx / len;
    const uy = dy / len;
    const r = 1 / Math.sqrt((ux * ux) / 100 ** 2 + (uy * uy) / 50 ** 2);
    close(len, r + 6, 'distance from centre');
    assert.ok(len < Math.hypot(100, 50), 'inside the box corner');
  });

  it('a diamond end lies on its edge', () => {
    const d = rec('d', 0, 0, 100, 100, { type: 'diamond' });
    const p = attachPoint(d, { x: 1050, y: 1050 });
    // Along the diagonal the diamond's edge is at (75, 75): distance √2·25 from the centre.
    close(Math.hypot(p.x - 50, p.y - 50), Math.SQRT2 * 25 + 6);
  });

  it('a rotated rectangle is met on its own outline', () => {
    const r = rec('r', 0, 0, 200, 20, { rotation: Math.PI / 2 });
    // Turned upright (20 wide, 200 tall), aimed from the right: meets x = 110 + gap.
    const p = attachPoint(r, { x: 1000, y: 10 });
    close(p.x, 100 + 10 + 6);
    close(p.y, 10);
  });

  it('arrowEnds resolves both bound ends on outlines', () => {
    const a = rec('a', 0, 0, 100, 100, { type: 'ellipse' });
    const b = rec('b', 300, 0, 100, 100, { type: 'diamond' });
    const arrow = rec('x', 0, 0, 0, 0, {
      type: 'arrow',
      from: { shapeId: 'a', x: 0, y: 0 },
      to: { shapeId: 'b', x: 0, y: 0 },
    });
    const [p, q] = arrowEnds(
      arrow,
      new Map([
        ['a', a],
        ['b', b],
      ]),
    );
    close(p.x, 106);
    close(q.x, 294);
  });
});

describe('style fields', () => {
  it('sets only the fields a shape carries; old records without them still load', () => {
    const doc = new Y.Doc();
    const s = createShape(doc, { type: 'sticky', x: 0, y: 0 }, 'u');
    const arrow = createShape(
      doc,
      { type: 'arrow', x: 0, y: 0, from: { x: 0, y: 0 }, to: { x: 10, y: 0 } },
      'u',
    );
    setStyle(doc, [s, arrow], {
      fontSize: 'xl',
      align: 'middle',
      dash: 'dashed',
      strokeWidth: 4,
      startHead: 'dot',
    });
    const all = byId(doc);
    assert.deepEqual(
      [all.get(s)!.fontSize, all.get(s)!.align, all.get(s)!.dash],
      ['xl', 'middle', undefined],
    );
    const a = all.get(arrow)!;
    assert.deepEqual([a.fontSize, a.dash, a.strokeWidth, a.startHead], [undefined, 'dashed', 4, 'dot']);
    // A record from before the style fields (none of them set) is valid and reads with no style.
    assert.equal(byId(doc).size, 2);
  });
});

describe('exports draw the styles', () => {
  it('an SVG export carries stroke width, dashes, arrowheads, text size and alignment', async () => {
    const { toSvg } = await import('../src/board/canvas/svgExport.ts');
    const { arrowGeometry } = await import('../src/board/canvas/strokes.ts');
    const box = rec('b', 0, 0, 200, 100, {
      strokeWidth: 4,
      dash: 'dashed',
      text: 'Hello',
      fontSize: 'xl',
      align: 'end',
    });
    const arrow = rec('a', 0, 0, 0, 0, {
      type: 'arrow',
      from: { x: 0, y: 200 },
      to: { x: 300, y: 200 },
      startHead: 'triangle',
      endHead: 'dot',
      dash: 'dotted',
    });
    const all = new Map([
      ['b', box],
      ['a', arrow],
    ]);
    const { svg } = toSvg([box, arrow], all);
    assert.match(svg, /<rect [^>]*stroke-width="4" stroke-dasharray="16 12"/);
    assert.match(svg, /font-size="36"/);
    assert.match(svg, /text-anchor="end"/);
    assert.match(svg, /<polygon points="[^"]+" fill="#1e6fd9"/, 'a filled triangle at the start');
    assert.match(svg, /<circle [^>]*fill="#1e6fd9"/, 'a dot at the end');
    assert.match(svg, /stroke-dasharray="0 5"/, 'dotted arrow line');
    // The line stops short of a filled head, so its round cap does not poke through the tip.
    const g = arrowGeometry(arrow, [
      { x: 0, y: 200 },
      { x: 300, y: 200 },
    ]);
    assert.ok(g.line[0]!.x > 0 && g.line[1]!.x < 300);
    // Defaults: an old record without style fields gets one open head at its end.
    const plain = arrowGeometry({ type: 'arrow' }, [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
    ]);
    assert.deepEqual(
      plain.heads.map((h) => h.kind),
      ['open'],
    );
  });
});

describe('hit tests follow the outline', () => {
  it('an ellipse or a diamond is not hit in its box’s empty corner', async () => {
    const { hitShape } = await import('../src/board/model/hit.ts');
    for (const type of ['ellipse', 'diamond'] as const) {
      const s = rec('s', 0, 0, 200, 100, { type });
      assert.equal(hitShape(s, { x: 100, y: 50 }, 4), true, `${type} centre`);
      assert.equal(hitShape(s, { x: 5, y: 5 }, 4), false, `${type} corner`);
      assert.equal(hitShape(s, { x: 198, y: 50 }, 4), true, `${type} right tip`);
    }
    assert.equal(
      hitShape(rec('r', 0, 0, 200, 100), { x: 5, y: 5 }, 4),
      true,
      'a rectangle’s corner is in it',
    );
  });
});

describe('resizing a rotated shape', () => {
  it('keeps the opposite corner where it is on the board', async () => {
    const { dragRotatedCorner } = await import('../src/board/model/layout.ts');
    const box = { x: 0, y: 0, w: 200, h: 100 };
    const rot = Math.PI / 2;
    const turn = (p: { x: number; y: number }, c: { x: number; y: number }, a: number) => ({
      x: c.x + (p.x - c.x) * Math.cos(a) - (p.y - c.y) * Math.sin(a),
      y: c.y + (p.x - c.x) * Math.sin(a) + (p.y - c.y) * Math.cos(a),
    });
    // Where the north-west corner is on the board, turned a quarter about the centre (100, 50).
    const nw = turn({ x: 0, y: 0 }, { x: 100, y: 50 }, rot);
    // Drag the south-east corner 100 further along the shape's own x axis (board +y after the turn).
    const se = turn({ x: 300, y: 100 }, { x: 100, y: 50 }, rot);
    const r = dragRotatedCorner(box, rot, 'se', se, false);
    close(r.w, 300, 'w');
    close(r.h, 100, 'h');
    const nw2 = turn({ x: r.x, y: r.y }, { x: r.x + r.w / 2, y: r.y + r.h / 2 }, rot);
    close(nw2.x, nw.x, 'fixed corner x');
    close(nw2.y, nw.y, 'fixed corner y');
  });
});

describe('panels clear of the selection', () => {
  const home = { x: 12, y: 200, w: 176, h: 340 };
  const away = { x: 1092, y: 200, w: 176, h: 340 };
  it('a panel steps aside only when the selection is under it at home and less so aside', () => {
    assert.equal(stepAside(home, away, null), false);
    assert.equal(stepAside(home, away, { x: 400, y: 300, w: 200, h: 200 }), false, 'clear at home');
    assert.equal(stepAside(home, away, { x: 10, y: 300, w: 200, h: 200 }), true, 'under it at home');
    // A selection across the whole screen: no place is better, so it stays.
    assert.equal(stepAside(home, away, { x: 0, y: 0, w: 1280, h: 800 }), false);
    assert.equal(overlapArea(home, { x: 100, y: 500, w: 100, h: 100 }), 88 * 40);
  });

  it('the selection’s box on screen follows the viewport', () => {
    const recs = [
      { x: 0, y: 0, w: 100, h: 50 },
      { x: 200, y: 100, w: 100, h: 100 },
    ] as ShapeRecord[];
    assert.deepEqual(selectionOnScreen(recs, { x: 150, y: 100, zoom: 2 }, { w: 1000, h: 800 }), {
      x: 200,
      y: 200,
      w: 600,
      h: 400,
    });
    assert.equal(selectionOnScreen([], { x: 0, y: 0, zoom: 1 }, { w: 1000, h: 800 }), null);
  });
});
