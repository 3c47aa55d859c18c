// Style fields in Node (docs/api.md §10): a board saved before they existed draws exactly as it did,
// the new fields draw what they say, and the hand-drawn look is the same strokes on every run.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ShapeRecord, styleDefaults } from '@tandem/shared';
import { toSvg } from '../src/board/canvas/svgExport.ts';
import { arrowDrawing, bodyOf } from '../src/board/drawing/body.ts';
import { markup } from '../src/board/drawing/primitives.ts';
import { resolveStyle, seedOf } from '../src/board/drawing/style.ts';
import { connectorPath } from '../src/board/model/connectors.ts';
import type { Point } from '../src/board/model/geometry.ts';

const base = { rotation: 0, createdBy: 'u1' };
/** A board as saved before the style fields: its export was captured then (fixtures/old-board.svg.txt). */
const oldBoard: ShapeRecord[] = [
  {
    ...base,
    id: 'n1',
    type: 'sticky',
    x: 0,
    y: 0,
    w: 200,
    h: 200,
    color: 'yellow',
    z: 'a0',
    text: 'An old note',
  },
  {
    ...base,
    id: 'r1',
    type: 'rect',
    x: 260,
    y: 0,
    w: 160,
    h: 100,
    color: 'blue',
    z: 'a1',
    text: 'Box',
    dash: 'dashed',
    strokeWidth: 4,
  },
  {
    ...base,
    id: 'e1',
    type: 'ellipse',
    x: 0,
    y: 260,
    w: 160,
    h: 100,
    color: 'green',
    z: 'a2',
    rotation: 0.3,
  },
  {
    ...base,
    id: 'd1',
    type: 'diamond',
    x: 260,
    y: 260,
    w: 160,
    h: 120,
    color: 'red',
    z: 'a3',
    dash: 'dotted',
  },
  {
    ...base,
    id: 't1',
    type: 'text',
    x: 500,
    y: 0,
    w: 200,
    h: 40,
    color: 'violet',
    z: 'a4',
    text: 'Heading',
    fontSize: 'l',
  },
  {
    ...base,
    id: 'a1',
    type: 'arrow',
    x: 0,
    y: 0,
    w: 0,
    h: 0,
    color: 'grey',
    z: 'a5',
    from: { shapeId: 'n1', x: 100, y: 100 },
    to: { shapeId: 'r1', x: 340, y: 50 },
    startHead: 'dot',
    endHead: 'triangle',
  },
  {
    ...base,
    id: 'a2',
    type: 'arrow',
    x: 0,
    y: 0,
    w: 0,
    h: 0,
    color: 'orange',
    z: 'a6',
    from: { x: 500, y: 300 },
    to: { x: 700, y: 420 },
  },
  {
    ...base,
    id: 'f1',
    type: 'freehand',
    x: 600,
    y: 100,
    w: 60,
    h: 40,
    color: 'pink',
    z: 'a7',
    points: [0, 0, 10, 5, 30, 20, 60, 40],
  },
];
const byId = (list: ShapeRecord[]) => new Map(list.map((s) => [s.id, s]));
/** The sans stack now names the bundled face first; everything else must be byte for byte the same. */
const withoutFontStacks = (svg: string) => svg.replace(/font-family="[^"]*"/g, 'font-family="…"');

describe('style defaults', () => {
  it('an old board renders exactly as before the style fields existed', () => {
    for (const r of oldBoard) assert.ok(ShapeRecord.safeParse(r).success, `${r.id} still valid`);
    const before = readFileSync(new URL('./fixtures/old-board.svg.txt', import.meta.url), 'utf8');
    assert.equal(withoutFontStacks(toSvg(oldBoard, byId(oldBoard)).svg), withoutFontStacks(before));
  });

  it('a record without style fields resolves to the defaults', () => {
    const st = resolveStyle(oldBoard[1]!);
    assert.equal(st.opacity, styleDefaults.opacity);
    assert.equal(st.sloppiness, 'architect');
    assert.equal(st.fontFamily, 'sans');
    assert.equal(st.roundness, 'round');
    assert.equal(st.fillStyle, 'tint', 'the light tint of its colour');
    assert.equal(st.fill, '#54a0ff40');
    assert.equal(st.stroke, '#1e6fd9', 'the ink of its colour');
  });

  it('the new fields validate, and bad values are refused', () => {
    const r = oldBoard[1]!;
    const ok = {
      ...r,
      stroke: '#123abc',
      fill: 'green',
      fillStyle: 'hatched',
      opacity: 0.5,
      roundness: 'sharp',
      fontFamily: 'hand',
      sloppiness: 'cartoonist',
    };
    assert.ok(ShapeRecord.safeParse(ok).success);
    for (const bad of [
      { stroke: 'teal' },
      { fill: '#12345' },
      { fillStyle: 'dots' },
      { opacity: 2 },
      { fontFamily: 'serif' },
      { sloppiness: 'wild' },
      { route: 'zigzag' },
    ])
      assert.equal(ShapeRecord.safeParse({ ...r, ...bad }).success, false, JSON.stringify(bad));
  });
});

describe('drawing with the style fields', () => {
  const rect: ShapeRecord = {
    ...base,
    id: 'r9',
    type: 'rect',
    x: 0,
    y: 0,
    w: 160,
    h: 100,
    color: 'blue',
    z: 'a0',
  };

  it('stroke and fill colours apart, a custom colour, sharp corners', () => {
    const svg = markup(
      bodyOf({ ...rect, stroke: '#112233', fill: 'yellow', fillStyle: 'solid', roundness: 'sharp' }),
    );
    assert.equal(
      svg,
      '<rect width="160" height="100" rx="0" fill="#ffd84d" stroke="#112233" stroke-width="2"/>',
    );
    assert.match(markup(bodyOf({ ...rect, fillStyle: 'none' })), /fill="none"/);
  });

  it('opacity applies to the whole shape in the export', () => {
    const svg = toSvg([{ ...rect, opacity: 0.4 }], byId([rect])).svg;
    assert.match(svg, /<g transform="translate\(0 0\)" opacity="0.4">/);
  });

  it('a hatched fill and the hand-drawn looks are roughjs strokes, the same every time', () => {
    const hatched = { ...rect, fill: 'green', fillStyle: 'hatched' } as const;
    const parts = bodyOf(hatched);
    assert.ok(parts.length >= 2, 'a hatch and an outline');
    assert.ok(parts.every((p) => p.tag === 'path'));
    assert.equal(parts[0]!.attrs.stroke, '#4cd137', 'the hatch is drawn in the fill colour');
    // A new record object (as another screen, or an export, would have) draws the same strokes.
    assert.equal(markup(bodyOf({ ...hatched })), markup(parts));
    const artist = markup(bodyOf({ ...rect, sloppiness: 'artist' }));
    const cartoonist = markup(bodyOf({ ...rect, sloppiness: 'cartoonist' }));
    assert.notEqual(artist, cartoonist);
    assert.equal(markup(bodyOf({ ...rect, sloppiness: 'artist' })), artist);
    // Another shape (another id, so another seed) is drawn with other strokes.
    assert.notEqual(markup(bodyOf({ ...rect, id: 'other', sloppiness: 'artist' })), artist);
    assert.notEqual(seedOf('a'), seedOf('b'));
  });

  it('a hatch stays inside the outline: rectangles, rounded ones, ellipses, diamonds, every look', () => {
    // The exact outline as a fine polygon; a point's distance past it (0 inside). All are convex.
    const outline = (s: ShapeRecord): Point[] => {
      const { w, h } = s;
      if (s.type === 'ellipse')
        return Array.from({ length: 720 }, (_, i) => {
          const a = (i / 720) * 2 * Math.PI;
          return { x: w / 2 + (w / 2) * Math.cos(a), y: h / 2 + (h / 2) * Math.sin(a) };
        });
      if (s.type === 'diamond')
        return [
          { x: w / 2, y: 0 },
          { x: w, y: h / 2 },
          { x: w / 2, y: h },
          { x: 0, y: h / 2 },
        ];
      const r = s.roundness === 'sharp' ? 0 : Math.min(8, w / 2, h / 2);
      // The quadratic corners body.ts draws, sampled finely.
      const corner = (p0: number[], c: number[], p2: number[]) =>
        Array.from({ length: 33 }, (_, i) => {
          const t = i / 32;
          const u = 1 - t;
          return {
            x: u * u * p0[0]! + 2 * u * t * c[0]! + t * t * p2[0]!,
            y: u * u * p0[1]! + 2 * u * t * c[1]! + t * t * p2[1]!,
          };
        });
      return [
        ...corner([w - r, 0], [w, 0], [w, r]),
        ...corner([w, h - r], [w, h], [w - r, h]),
        ...corner([r, h], [0, h], [0, h - r]),
        ...corner([0, r], [0, 0], [r, 0]),
      ];
    };
    // Each edge as its start and unit outward normal, worked out once per outline: a point is
    // measured against every edge of a 720-gon tens of thousands of times.
    type Edges = { ax: Float64Array; ay: Float64Array; nx: Float64Array; ny: Float64Array };
    const edgesOf = (poly: Point[]): Edges => {
      const kept = poly.flatMap((a, i) => {
        const b = poly[(i + 1) % poly.length]!;
        const len = Math.hypot(b.x - a.x, b.y - a.y);
        // Clockwise on screen: the outward normal is to the left of a → b (y down).
        return len === 0 ? [] : [{ a, nx: (b.y - a.y) / len, ny: -(b.x - a.x) / len }];
      });
      return {
        ax: Float64Array.from(kept, (e) => e.a.x),
        ay: Float64Array.from(kept, (e) => e.a.y),
        nx: Float64Array.from(kept, (e) => e.nx),
        ny: Float64Array.from(kept, (e) => e.ny),
      };
    };
    const past = ({ ax, ay, nx, ny }: Edges, x: number, y: number) => {
      let worst = 0;
      for (let i = 0; i < ax.length; i++) {
        const d = (x - ax[i]!) * nx[i]! + (y - ay[i]!) * ny[i]!;
        if (d > worst) worst = d;
      }
      return worst;
    };
    // Convex hull (Andrew's monotone chain), in the outlines' turning order.
    const hull = (pts: Point[]): Point[] => {
      const p = [...pts].sort((a, b) => a.x - b.x || a.y - b.y);
      const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
      const half = (list: Point[]) => {
        const out: Point[] = [];
        for (const q of list) {
          while (out.length >= 2 && cross(out[out.length - 2]!, out[out.length - 1]!, q) <= 0) out.pop();
          out.push(q);
        }
        out.pop();
        return out;
      };
      return [...half(p), ...half([...p].reverse())];
    };
    // The drawn ellipse wobbles about its curve by roughjs's offset (2 px a unit of roughness), and
    // the hull is taken through its sparse points: without the stretch taken into account, ends
    // poke 3 px and more past it.
    const DRAWN_TOLERANCE = 2;
    const parseD = (d: string) =>
      d
        .split('M')
        .filter((part) => part.trim())
        .map((part) => {
          const n = (part.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);
          return Array.from({ length: n.length / 2 }, (_, i) => ({ x: n[2 * i]!, y: n[2 * i + 1]! }));
        });
    let hatches = 0;
    for (const type of ['rect', 'ellipse', 'diamond'] as const)
      for (const sloppiness of ['architect', 'artist', 'cartoonist'] as const)
        for (const roundness of ['sharp', 'round'] as const)
          for (const fillStyle of ['hatched', 'cross-hatched'] as const)
            for (let i = 0; i < 12; i++) {
              const s: ShapeRecord = {
                ...rect,
                id: `h${i}`,
                type,
                w: 60 + i * 37,
                h: 40 + i * 19,
                fill: 'green',
                fillStyle,
                sloppiness,
                roundness,
                strokeWidth: i % 3 === 0 ? 4 : 2,
              };
              const poly = edgesOf(outline(s));
              const parts = bodyOf(s);
              // A hand-drawn ellipse is drawn up to 10 % narrower or flatter than its box: the hatch
              // keeps inside what is drawn too (the hull of its outline's points, give or take its wobble).
              const drawn = edgesOf(
                hull(
                  parseD(
                    parts
                      .filter((p) => p.attrs.stroke === '#1e6fd9')
                      .map((p) => p.attrs.d)
                      .join(' '),
                  ).flatMap((seg) => seg.filter((_, k) => k % 3 === 0)),
                ),
              );
              for (const part of parts) {
                if (part.attrs.stroke !== '#4cd137') continue;
                for (const seg of parseD(String(part.attrs.d))) {
                  hatches++;
                  const what = `${type} ${sloppiness} ${roundness} ${fillStyle} ${s.w}×${s.h}`;
                  // Each segment's ends, as drawn (one decimal), lie inside the outline.
                  for (const end of [seg[0]!, seg[seg.length - 1]!]) {
                    assert.ok(
                      past(poly, end.x, end.y) <= 0.1,
                      `${what}: hatch end ${end.x},${end.y} past the outline`,
                    );
                    assert.ok(
                      type !== 'ellipse' || past(drawn, end.x, end.y) <= DRAWN_TOLERANCE,
                      `${what}: hatch end ${end.x},${end.y} past the drawn outline`,
                    );
                  }
                  // Its wobble (one cubic curve) stays under the outline's stroke, not past its outer edge.
                  const [p0, c1, c2, p3] = seg as [Point, Point, Point, Point];
                  for (let t = 0; t <= 1; t += 1 / 16) {
                    const u = 1 - t;
                    const x =
                      u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p3.x;
                    const y =
                      u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p3.y;
                    assert.ok(past(poly, x, y) <= s.strokeWidth! / 2, `${what}: hatch curve at ${x},${y}`);
                  }
                }
              }
            }
    assert.ok(hatches > 1000, `hatches were drawn (${hatches})`);
  });

  it('zoomed far out, a sketched shape is its exact outline with its hatch as a tone', () => {
    const far = bodyOf({ ...rect, fill: 'green', fillStyle: 'hatched', sloppiness: 'cartoonist' }, false);
    assert.equal(
      markup(far),
      '<rect width="160" height="100" rx="8" fill="#4cd13759" stroke="#1e6fd9" stroke-width="2"/>',
    );
    // The export always draws the full detail.
    const full = bodyOf({ ...rect, fill: 'green', fillStyle: 'hatched', sloppiness: 'cartoonist' });
    assert.ok(full.every((p) => p.tag === 'path'));
  });

  it('the export carries the canvas primitives of a sketched shape and arrow', () => {
    const a: ShapeRecord = { ...rect, sloppiness: 'cartoonist', fillStyle: 'cross-hatched' };
    const arrow: ShapeRecord = {
      ...base,
      id: 'c',
      type: 'arrow',
      x: 0,
      y: 0,
      w: 0,
      h: 0,
      color: 'grey',
      z: 'a1',
      route: 'elbow',
      sloppiness: 'artist',
      from: { shapeId: 'r9', x: 0, y: 0 },
      to: { x: 400, y: 300 },
    };
    const all = byId([a, arrow]);
    const svg = toSvg([a, arrow], all).svg;
    assert.ok(svg.includes(markup(bodyOf(a))));
    assert.ok(svg.includes(markup(arrowDrawing(arrow, connectorPath(arrow, all)).parts)));
  });
});
