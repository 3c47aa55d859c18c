// What a user trial found hard to read, in Chromium, on the canvas and in the SVG export alike (the
// shared renderer): an elbow arrow's label sat on its bend (now mid-way along its longest straight
// run, `labelPoint`); a label on a hatched fill had the hatch lines running through its letters
// (now a halo in the background colour under the glyphs, `textHalo`, on hatched fills only).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { ShapeRecord } from '@tandem/shared';
import { connectorPath, labelPoint } from '@tandem/shared/render/connectors.ts';
import type { Page } from 'playwright-core';
import { artifacts, canvas, createBoard, exported, newUser, until, withApp } from './helpers.ts';

const base = { rotation: 0, color: 'blue', createdBy: 'x' } as const;
const SAMPLE = 'The quick brown fox jumps';
const board: Record<string, unknown>[] = [
  // An L: a free elbow 300 across and 300 down; its middle is its bend.
  {
    ...base,
    id: 'l',
    type: 'arrow',
    route: 'elbow',
    x: 0,
    y: 0,
    w: 300,
    h: 300,
    z: 'a1',
    text: 'L label',
    from: { x: 0, y: 0 },
    to: { x: 300, y: 300 },
  },
  // A Z between two boxes.
  { ...base, id: 'za', type: 'rect', x: 400, y: 0, w: 120, h: 80, z: 'a2' },
  { ...base, id: 'zb', type: 'rect', x: 800, y: 260, w: 120, h: 80, z: 'a3' },
  {
    ...base,
    id: 'z',
    type: 'arrow',
    route: 'elbow',
    x: 460,
    y: 40,
    w: 400,
    h: 260,
    z: 'a4',
    text: 'Z label',
    from: { x: 460, y: 40, shapeId: 'za' },
    to: { x: 860, y: 300, shapeId: 'zb' },
  },
  // Text on a hatched, a cross-hatched and a solid fill.
  {
    ...base,
    id: 'h',
    type: 'rect',
    x: 0,
    y: 420,
    w: 220,
    h: 120,
    z: 'a5',
    text: 'Hatch',
    fill: 'blue',
    fillStyle: 'hatched',
    sloppiness: 'artist',
  },
  {
    ...base,
    id: 'c',
    type: 'ellipse',
    x: 260,
    y: 420,
    w: 220,
    h: 120,
    z: 'a6',
    text: 'Cross',
    fill: 'red',
    fillStyle: 'cross-hatched',
    sloppiness: 'artist',
  },
  {
    ...base,
    id: 's',
    type: 'rect',
    x: 520,
    y: 420,
    w: 220,
    h: 120,
    z: 'a7',
    text: 'Solid',
    fill: 'green',
    fillStyle: 'solid',
  },
  // The same words at the same size in both fonts, as free text and inside a shape.
  {
    ...base,
    id: 'ts',
    type: 'text',
    x: 0,
    y: 600,
    w: 400,
    h: 40,
    z: 'a8',
    text: SAMPLE,
    fontFamily: 'sans',
    color: 'grey',
  },
  {
    ...base,
    id: 'th',
    type: 'text',
    x: 0,
    y: 660,
    w: 400,
    h: 40,
    z: 'a9',
    text: SAMPLE,
    fontFamily: 'hand',
    color: 'grey',
  },
  {
    ...base,
    id: 'rh',
    type: 'rect',
    x: 520,
    y: 600,
    w: 160,
    h: 120,
    z: 'b1',
    text: 'Hand text wraps inside its box',
    fontFamily: 'hand',
    fillStyle: 'none',
  },
];

describe('text legibility', () => {
  const app = withApp();
  let page: Page;
  let svg: string;
  /** The shapes as the server stores them after the import (new ids and places). */
  let stored: ShapeRecord[];
  const byText = (t: string) => stored.find((s) => s.text === t)!;

  before(async () => {
    page = (await newUser(app, 'Ida')).page;
    await page.setViewportSize({ width: 1400, height: 1000 });
    const boardId = await createBoard(page, 'Legibility');
    const file = join(tmpdir(), `tandem-legibility-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ version: 1, shapes: board }));
    await page.getByLabel('Import JSON file').setInputFiles(file);
    await until(
      async () => (await page.locator('[data-shape-id]').count()) === board.length,
      'the import drawn',
    );
    await until(async () => {
      const res = await page.request.get(`/api/boards/${boardId}/export.json`);
      stored = ((await res.json()) as { shapes: ShapeRecord[] }).shapes;
      return stored.length === board.length;
    }, 'the import stored');
    await page.waitForTimeout(300);
    await canvas(page).screenshot({ path: join(artifacts, 'text-legibility-canvas.png') });
    svg = (await exported(page, 'Board as SVG')).toString('utf8');
    writeFileSync(join(artifacts, 'text-legibility-export.svg'), svg);
    // The export as a picture, to look at.
    const shot = await page.context().newPage();
    await shot.setContent(`<body style="margin:0">${svg}</body>`);
    await shot.screenshot({ path: join(artifacts, 'text-legibility-export.png'), fullPage: true });
    await shot.close();
  });

  /** The first line's x and y of the label <text> inside `container` markup or DOM. */
  const exportLabel = (text: string) => {
    const m = new RegExp(`<tspan x="([-\\d.]+)" y="([-\\d.]+)">${text}</tspan>`).exec(svg);
    assert.ok(m, `${text} in the export`);
    return { x: Number(m[1]), y: Number(m[2]) };
  };

  it('an elbow arrow’s label sits mid-way along its longest straight run, on the canvas and in the export', async () => {
    const all = new Map(stored.map((s) => [s.id, s]));
    for (const text of ['L label', 'Z label']) {
      const arrow = byText(text);
      const path = connectorPath(arrow, all);
      assert.equal(path.route, 'elbow');
      const want = labelPoint(path);
      // Not on a bend.
      assert.ok(
        !path.points.some((p) => Math.abs(p.x - want.x) < 1 && Math.abs(p.y - want.y) < 1),
        `${text} at ${JSON.stringify(want)} is on a corner of ${JSON.stringify(path.points)}`,
      );
      const tspan = page.locator(`[data-shape-id="${arrow.id}"] .arrow-label tspan`).first();
      const onCanvas = { x: Number(await tspan.getAttribute('x')), y: Number(await tspan.getAttribute('y')) };
      assert.deepEqual(onCanvas, want, `${text} on the canvas`);
      assert.deepEqual(exportLabel(text), want, `${text} in the export`);
    }
  });

  it('text on a hatched or cross-hatched fill has a halo in the background colour; on a solid fill none', async () => {
    for (const [text, halo] of [
      ['Hatch', true],
      ['Cross', true],
      ['Solid', false],
    ] as const) {
      const id = byText(text).id;
      const el = page.locator(`[data-shape-id="${id}"] .shape-text`);
      const style = await el.evaluate((t) => {
        const cs = getComputedStyle(t);
        return { paintOrder: cs.paintOrder, stroke: cs.stroke, width: cs.strokeWidth };
      });
      if (halo) {
        assert.match(style.paintOrder, /^stroke/, `${text}: ${JSON.stringify(style)}`);
        assert.equal(style.stroke, 'rgb(251, 251, 252)', `${text}: the canvas colour`);
        assert.ok(Number.parseFloat(style.width) >= 3, `${text}: ${JSON.stringify(style)}`);
      } else assert.equal(style.stroke, 'none', `${text}: ${JSON.stringify(style)}`);
      const m = new RegExp(`<text[^>]*>(<tspan[^>]*>[^<]*</tspan>)*?<tspan[^>]*>${text}`).exec(svg);
      assert.ok(m, `${text} in the export`);
      const open = m[0].slice(0, m[0].indexOf('>') + 1);
      if (halo) {
        assert.match(open, /stroke="#ffffff"/, open);
        assert.match(open, /paint-order="stroke"/, open);
      } else assert.doesNotMatch(open, /stroke=/, open);
    }
  });
});
