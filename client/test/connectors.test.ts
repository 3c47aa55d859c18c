// Connector routes in Node: an elbow never runs through either of its own end shapes, leaves each
// shape from the side facing the other, and turns only at right angles; a bound end follows its shape.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ShapeRecord } from '@tandem/shared';
import {
  type ConnectorEnd,
  connectorPath,
  curvedRoute,
  elbowRoute,
  facingSide,
  type Point,
  type Rect,
  segmentCrossesRect,
} from '../src/board/model/index.ts';

const box = (x: number, y: number, w = 100, h = 80): ConnectorEnd => ({
  point: { x: x + w / 2, y: y + h / 2 },
  box: { x, y, w, h },
});

/** The listed cases: pairs of end shapes in every relative position, near and far. */
const cases: [string, ConnectorEnd, ConnectorEnd][] = [
  ['side by side', box(0, 0), box(300, 0)],
  ['side by side, reversed', box(300, 0), box(0, 0)],
  ['stacked', box(0, 0), box(0, 300)],
  ['stacked, reversed', box(0, 300), box(0, 0)],
  ['diagonal down-right', box(0, 0), box(300, 250)],
  ['diagonal up-left', box(300, 250), box(0, 0)],
  ['diagonal up-right', box(0, 300), box(250, 0)],
  ['offset, overlapping in x', box(0, 0), box(60, 200)],
  ['offset, overlapping in y', box(0, 0), box(200, 50)],
  ['close together', box(0, 0), box(130, 10)],
  ['very different sizes', box(0, 0, 400, 40), box(150, 120, 60, 60)],
  ['wide and tall', box(0, 0, 40, 300), box(120, 280, 300, 40)],
];

function assertOrthogonal(route: Point[]) {
  for (let i = 1; i < route.length; i++) {
    const a = route[i - 1]!;
    const b = route[i]!;
    assert.ok(a.x === b.x || a.y === b.y, `segment ${i} is slanted: ${JSON.stringify([a, b])}`);
  }
}

describe('elbow routing', () => {
  for (const [name, a, b] of cases) {
    it(`${name}: no segment crosses either end shape`, () => {
      const route = elbowRoute(a, b);
      assert.ok(route.length >= 2);
      assertOrthogonal(route);
      for (let i = 1; i < route.length; i++)
        for (const r of [a.box, b.box] as Rect[])
          assert.equal(
            segmentCrossesRect(route[i - 1]!, route[i]!, r),
            false,
            `segment ${i} ${JSON.stringify([route[i - 1], route[i]])} crosses ${JSON.stringify(r)}`,
          );
    });
  }

  it('leaves each shape from the middle of the side facing the other', () => {
    const route = elbowRoute(box(0, 0), box(300, 200));
    const first = route[0]!;
    const last = route[route.length - 1]!;
    // Right side of the first box (x 100), left side of the second (x 300), 6 units out.
    assert.deepEqual(first, { x: 106, y: 40 });
    assert.deepEqual(last, { x: 294, y: 240 });
    // Horizontal out, a vertical jog, horizontal in: three segments.
    assert.equal(route.length, 4);
  });

  it('shapes nearly in line (13 px apart): one straight segment through the middle of their overlap', () => {
    // Side by side: the overlap in height is 13..80, so the line runs at 46.5.
    assert.deepEqual(elbowRoute(box(0, 0), box(300, 13)), [
      { x: 106, y: 46.5 },
      { x: 294, y: 46.5 },
    ]);
    // Stacked, the other way round: the overlap in width is 13..100, the line at x 56.5.
    assert.deepEqual(elbowRoute(box(13, 300), box(0, 0)), [
      { x: 56.5, y: 294 },
      { x: 56.5, y: 86 },
    ]);
    // Exactly in line: the middle of both sides, as before.
    assert.deepEqual(elbowRoute(box(0, 0), box(300, 0)), [
      { x: 106, y: 40 },
      { x: 294, y: 40 },
    ]);
    // Overlapping by less than half the smaller side: a jog, leaving from the middles.
    const offset = elbowRoute(box(0, 0), box(300, 50));
    assert.deepEqual(offset[0], { x: 106, y: 40 });
    assert.ok(offset.length > 2);
  });

  it('stacked shapes of different widths: out of the bottom, into the top', () => {
    const a = box(0, 0, 100, 80);
    const b = box(20, 200, 60, 60);
    const route = elbowRoute(a, b);
    assert.equal(route[0]!.y, 86, 'leaves from the bottom');
    assert.equal(route[route.length - 1]!.y, 194, 'enters at the top');
    assertOrthogonal(route);
  });

  it('free ends route too', () => {
    const route = elbowRoute({ point: { x: 0, y: 0 }, box: null }, { point: { x: 200, y: 100 }, box: null });
    assertOrthogonal(route);
    assert.deepEqual(route[0], { x: 0, y: 0 });
    assert.deepEqual(route[route.length - 1], { x: 200, y: 100 });
  });

  it('picks the side facing a point', () => {
    const r = { x: 0, y: 0, w: 100, h: 100 };
    assert.equal(facingSide(r, { x: 300, y: 60 }), 'right');
    assert.equal(facingSide(r, { x: -300, y: 60 }), 'left');
    assert.equal(facingSide(r, { x: 50, y: 400 }), 'bottom');
    assert.equal(facingSide(r, { x: 50, y: -400 }), 'top');
  });
});

describe('connector paths', () => {
  const base = { rotation: 0, color: 'grey', createdBy: 'u', z: 'a0' } as const;
  const a: ShapeRecord = { ...base, id: 'a', type: 'sticky', x: 0, y: 0, w: 100, h: 100 };
  const b: ShapeRecord = { ...base, id: 'b', type: 'sticky', x: 400, y: 300, w: 100, h: 100 };
  const arrow: ShapeRecord = {
    ...base,
    id: 'c',
    type: 'arrow',
    x: 0,
    y: 0,
    w: 0,
    h: 0,
    route: 'elbow',
    from: { shapeId: 'a', x: 50, y: 50 },
    to: { shapeId: 'b', x: 450, y: 350 },
  };

  it('an elbow re-routes when an end shape moves', () => {
    const before = connectorPath(arrow, new Map([a, b, arrow].map((s) => [s.id, s]))).points;
    const moved = { ...b, x: 0, y: 400 };
    const after = connectorPath(arrow, new Map([a, moved, arrow].map((s) => [s.id, s]))).points;
    assert.notDeepEqual(after, before);
    // Now below: out of the bottom of a, into the top of b.
    assert.deepEqual(after[0], { x: 50, y: 106 });
    assert.deepEqual(after[after.length - 1], { x: 50, y: 394 });
  });

  it('a record without a route is straight, as before', () => {
    const { route, points } = connectorPath(
      { ...arrow, route: undefined },
      new Map([a, b].map((s) => [s.id, s])),
    );
    assert.equal(route, 'straight');
    assert.equal(points.length, 2);
  });

  it('a curve leaves along the facing side', () => {
    const [p0, c1, c2, p3] = curvedRoute(box(0, 0), box(300, 0));
    assert.deepEqual(p0, { x: 106, y: 40 });
    assert.equal(c1!.y, 40);
    assert.ok(c1!.x > p0!.x);
    assert.ok(c2!.x < p3!.x);
  });
});

describe('connector labels', () => {
  it('sit on the middle of the path, line by line', async () => {
    const { connectorLabel } = await import('../src/board/drawing/label.ts');
    const base = { rotation: 0, color: 'grey', createdBy: 'u', z: 'a0' } as const;
    const arrow: ShapeRecord = {
      ...base,
      id: 'l',
      type: 'arrow',
      x: 0,
      y: 0,
      w: 0,
      h: 0,
      text: 'one\ntwo',
      from: { x: 0, y: 0 },
      to: { x: 200, y: 0 },
    };
    const l = connectorLabel(arrow, connectorPath(arrow))!;
    assert.equal(l.x, 100);
    assert.deepEqual(l.lines, ['one', 'two']);
    // Two lines centred on y 0.
    assert.ok(Math.abs(l.ys[0]! + l.ys[1]!) < 1e-9);
    assert.equal(connectorLabel({ ...arrow, text: '' }, connectorPath(arrow)), null);
  });
});

describe('elbow labels', () => {
  const base = { rotation: 0, color: 'grey', createdBy: 'u', z: 'a0', route: 'elbow' } as const;
  const free = (id: string, from: Point, to: Point, text = 'label'): ShapeRecord => ({
    ...base,
    id,
    type: 'arrow',
    x: 0,
    y: 0,
    w: 0,
    h: 0,
    text,
    from,
    to,
  });
  /** The segment of `points` that `p` lies on, strictly inside it (not on a bend). */
  const segmentOf = (points: Point[], p: Point) => {
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1]!;
      const b = points[i]!;
      const onV = a.x === b.x && p.x === a.x && p.y > Math.min(a.y, b.y) && p.y < Math.max(a.y, b.y);
      const onH = a.y === b.y && p.y === a.y && p.x > Math.min(a.x, b.x) && p.x < Math.max(a.x, b.x);
      if (onV || onH) return i;
    }
    return -1;
  };

  it('an L-shaped elbow: the label sits mid-way along its longer run, not on the bend', async () => {
    const { connectorLabel } = await import('../src/board/drawing/label.ts');
    // Free ends: 300 across then 100 down. Half the length (200) is on the long run, but an L whose
    // runs are equal would put the middle on the bend: the label must not follow the bend.
    const arrow = free('L', { x: 0, y: 0 }, { x: 300, y: 100 });
    const path = connectorPath(arrow);
    assert.equal(path.points.length, 3, JSON.stringify(path.points));
    const l = connectorLabel(arrow, path)!;
    const [a, bend, c] = path.points as [Point, Point, Point];
    const longest =
      Math.hypot(bend.x - a.x, bend.y - a.y) >= Math.hypot(c.x - bend.x, c.y - bend.y)
        ? [a, bend]
        : [bend, c];
    assert.deepEqual(
      { x: l.x, y: l.ys[0] },
      {
        x: (longest[0]!.x + longest[1]!.x) / 2,
        y: (longest[0]!.y + longest[1]!.y) / 2,
      },
    );
    // An L with equal runs: the path's middle is its bend; the label is on a run instead.
    const even = free('E', { x: 0, y: 0 }, { x: 200, y: 200 });
    const evenPath = connectorPath(even);
    assert.equal(evenPath.points.length, 3, JSON.stringify(evenPath.points));
    const e = connectorLabel(even, evenPath)!;
    assert.notEqual(segmentOf(evenPath.points, { x: e.x, y: e.ys[0]! }), -1, JSON.stringify(e));
  });

  it('a Z-shaped elbow between two shapes: the label sits mid-way along its longest straight run', async () => {
    const { connectorLabel } = await import('../src/board/drawing/label.ts');
    const shape = (id: string, x: number, y: number): ShapeRecord => ({
      ...base,
      route: undefined,
      id,
      type: 'rect',
      x,
      y,
      w: 100,
      h: 80,
    });
    const a = shape('a', 0, 0);
    const b = shape('b', 400, 300);
    const all = new Map([a, b].map((s) => [s.id, s]));
    // Leaves a's right side, runs right, turns down, runs down, turns right into b's left side.
    const arrow: ShapeRecord = {
      ...free('Z', { x: 50, y: 40 }, { x: 450, y: 340 }),
      from: { x: 50, y: 40, shapeId: 'a' },
      to: { x: 450, y: 340, shapeId: 'b' },
    };
    const path = connectorPath(arrow, all);
    assert.equal(path.points.length, 4, JSON.stringify(path.points));
    const l = connectorLabel(arrow, path)!;
    const at = { x: l.x, y: l.ys[0]! };
    const i = segmentOf(path.points, at);
    assert.notEqual(
      i,
      -1,
      `label ${JSON.stringify(at)} is not inside a segment of ${JSON.stringify(path.points)}`,
    );
    const lens = path.points
      .slice(1)
      .map((p, k) => Math.hypot(p.x - path.points[k]!.x, p.y - path.points[k]!.y));
    assert.equal(lens[i - 1], Math.max(...lens));
    const s = path.points[i - 1]!;
    const t = path.points[i]!;
    assert.deepEqual(at, { x: (s.x + t.x) / 2, y: (s.y + t.y) / 2 });
    // The editor's box is centred on the same point.
    const { labelBox } = await import('../src/board/model/connectors.ts');
    const box = labelBox(path);
    assert.deepEqual({ x: box.x + box.w / 2, y: box.y + box.h / 2 }, at);
  });
});
