// Drawing styles on a shared board, in Chromium: Ana styles three shapes at once (fill, hatch,
// opacity, font, sloppiness) and Ben sees the very same strokes, pixel for pixel; an elbow
// connector between two notes re-routes on both screens when one note moves; the SVG and PNG
// exports show what the canvas shows.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { ShapeRecord } from '@tandem/shared';
import type { Page } from 'playwright-core';
import { artifacts, boardArea, canvas, exported, newUser, sharedBoard, until, withApp } from './helpers.ts';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The share of pixels that differ between two PNGs of one size (a channel off by more than
 * `threshold`), computed by Chromium's own decoder in `page`.
 */
async function pixelDifference(page: Page, a: Buffer, b: Buffer, threshold = 48): Promise<number> {
  return page.evaluate(
    async ({ a, b, threshold }) => {
      // Anonymous callbacks only: the test runner's transform names function constants with a
      // helper that does not exist inside the page.
      const [p, q] = await Promise.all(
        [a, b].map(async (b64) => {
          const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
          const c = new OffscreenCanvas(bitmap.width, bitmap.height);
          const ctx = c.getContext('2d')!;
          ctx.drawImage(bitmap, 0, 0);
          return {
            w: bitmap.width,
            h: bitmap.height,
            data: ctx.getImageData(0, 0, bitmap.width, bitmap.height).data,
          };
        }),
      );
      if (!p || !q) return 1;
      if (p.w !== q.w || p.h !== q.h) return 1;
      let differ = 0;
      for (let i = 0; i < p.data.length; i += 4) {
        const d = Math.max(
          Math.abs(p.data[i]! - q.data[i]!),
          Math.abs(p.data[i + 1]! - q.data[i + 1]!),
          Math.abs(p.data[i + 2]! - q.data[i + 2]!),
        );
        if (d > threshold) differ++;
      }
      return differ / (p.w * p.h);
    },
    { a: a.toString('base64'), b: b.toString('base64'), threshold },
  );
}

describe('drawing styles, shared', () => {
  let ana: Page;
  let ben: Page;
  let boardId: string;

  const app = withApp();
  before(async () => {
    ana = (await newUser(app, 'Ana')).page;
    ben = (await newUser(app, 'Ben', { guest: true })).page;
    boardId = await sharedBoard(ana, 'Drawing', { editors: [ben] });
  });

  const serverShapes = async (): Promise<ShapeRecord[]> => {
    const res = await ben.request.get(`/api/boards/${boardId}/export.json`);
    assert.equal(res.status(), 200);
    return ((await res.json()) as { shapes: ShapeRecord[] }).shapes;
  };
  const serverShape = async (id: string) => (await serverShapes()).find((s) => s.id === id);

  /** Page coordinates of a board point (both views stay at zoom 1, centred on 0,0). */
  const at = async (page: Page, bx: number, by: number) => {
    const box = (await boardArea(page).boundingBox())!;
    return { x: box.x + box.width / 2 + bx, y: box.y + box.height / 2 + by };
  };

  /** Ana places a shape with `tool` centred at board point (bx, by); answers its id once Ben has it. */
  const placeAt = async (tool: string, bx: number, by: number): Promise<string> => {
    const before = new Set((await serverShapes()).map((s) => s.id));
    await ana.getByRole('button', { name: tool, exact: true }).click();
    const p = await at(ana, bx, by);
    await ana.mouse.click(p.x, p.y);
    await ana.keyboard.press('Escape');
    let id = '';
    await until(async () => {
      id = (await serverShapes()).find((s) => !before.has(s.id))?.id ?? '';
      return id !== '';
    }, `the new ${tool} on the server`);
    await ben.locator(`[data-shape-id="${id}"]`).waitFor();
    return id;
  };

  const drag = async (page: Page, from: { x: number; y: number }, to: { x: number; y: number }) => {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
    await page.mouse.move(to.x, to.y, { steps: 5 });
    await page.mouse.up();
  };

  /** What a shape draws on a screen: the markup of its group (paths, their d, colours). */
  const drawnBy = (page: Page, id: string) => page.locator(`[data-shape-id="${id}"]`).innerHTML();

  /** Nothing selected, and both pointers parked in a corner, so neither screen shows the other's marks. */
  const quiet = async () => {
    await canvas(ana).focus();
    await ana.keyboard.press('Escape');
    await ana.mouse.move(1270, 790);
    await ben.mouse.move(1270, 790);
    await until(
      async () => (await ben.locator('[data-remote-selection]').count()) === 0,
      'no remote selection',
    );
  };

  let styled: string[] = [];

  it('Ana styles three shapes at once and Ben sees exactly the same strokes', async (t) => {
    const rect = await placeAt('Rectangle', -220, -40);
    const ellipse = await placeAt('Ellipse', 0, -40);
    const diamond = await placeAt('Diamond', 220, -40);
    styled = [rect, ellipse, diamond];
    // Words on the rectangle, to show the font.
    await ana.locator(`[data-shape-id="${rect}"]`).dblclick();
    await ana.getByLabel('Shape text').pressSequentially('Hand drawn');
    await ana.keyboard.press('Escape');
    await until(async () => (await serverShape(rect))?.text === 'Hand drawn', 'the text on the server');

    await canvas(ana).focus();
    await ana.keyboard.press('Control+a');
    await ana.getByRole('button', { name: 'Fill green' }).click();
    await ana.getByLabel('Fill style').selectOption('hatched');
    await ana.getByLabel('Opacity').fill('60');
    await ana.getByLabel('Font').selectOption('hand');
    await ana.getByLabel('Sloppiness').selectOption('cartoonist');
    // The panel shows what the selection has.
    assert.equal(await ana.getByLabel('Sloppiness').inputValue(), 'cartoonist');
    assert.equal(await ana.getByLabel('Fill style').inputValue(), 'hatched');
    await until(
      async () => (await ana.getByRole('button', { name: 'Fill green', pressed: true }).count()) === 1,
      'green shown as chosen',
    );
    await ana.screenshot({ path: `${artifacts}/drawing-style-panel.png` });

    await until(async () => {
      const all = await serverShapes();
      return styled.every((id) => {
        const s = all.find((r) => r.id === id);
        return (
          s?.fill === 'green' &&
          s.fillStyle === 'hatched' &&
          s.opacity === 0.6 &&
          s.sloppiness === 'cartoonist'
        );
      });
    }, 'all three styled on the server');
    assert.equal((await serverShape(rect))?.fontFamily, 'hand');
    // One undoable change per pick: undo takes back the sloppiness of all three at once, and only
    // it, though the font was picked a moment before (within Yjs's 400 ms capture window, which
    // merged the two into one step).
    await canvas(ana).focus();
    await ana.keyboard.press('Control+z');
    await until(
      async () =>
        (await serverShapes()).filter((s) => styled.includes(s.id) && s.sloppiness === undefined).length ===
        3,
      'sloppiness undone for all three',
    );
    assert.equal((await serverShape(rect))?.fontFamily, 'hand', 'the font picked before stays');
    assert.equal(await ana.getByLabel('Font').inputValue(), 'hand');
    await ana.keyboard.press('Control+Shift+z');
    await until(
      async () =>
        (await serverShapes()).filter((s) => styled.includes(s.id) && s.sloppiness === 'cartoonist')
          .length === 3,
      'and redone',
    );

    // The same strokes, element for element: the hand-drawn paths are seeded by each shape's id.
    for (const id of styled)
      await until(
        async () => (await drawnBy(ben, id)) === (await drawnBy(ana, id)),
        `shape ${id} drawn alike`,
      );
    assert.ok(
      (await ana.locator(`[data-shape-id="${rect}"] path`).count()) >= 2,
      'a hatch and a sketched outline',
    );
    assert.equal(await ana.locator(`[data-shape-id="${rect}"]`).getAttribute('opacity'), '0.6');

    // And the same pixels.
    await quiet();
    const boxes = await Promise.all(styled.map((id) => ana.locator(`[data-shape-id="${id}"]`).boundingBox()));
    const left = Math.min(...boxes.map((b) => b!.x)) - 20;
    const top = Math.min(...boxes.map((b) => b!.y)) - 20;
    const clip: Box = {
      x: Math.floor(left),
      y: Math.floor(top),
      width: Math.ceil(Math.max(...boxes.map((b) => b!.x + b!.width)) + 20 - left),
      height: Math.ceil(Math.max(...boxes.map((b) => b!.y + b!.height)) + 20 - top),
    };
    const anaShot = await ana.screenshot({ clip, path: `${artifacts}/drawing-ana.png` });
    const benShot = await ben.screenshot({ clip, path: `${artifacts}/drawing-ben.png` });
    const diff = await pixelDifference(ana, anaShot, benShot);
    t.diagnostic(
      `Ana's and Ben's screens differ in ${(diff * 100).toFixed(3)} % of ${clip.width}×${clip.height} pixels`,
    );
    assert.ok(diff < 0.002, `Ana's and Ben's screens differ in ${(diff * 100).toFixed(3)} % of pixels`);
  });

  it('the SVG and PNG exports show what the canvas shows', async (t) => {
    await quiet();
    // The canvas region the export covers: the shapes' bounds with its 32-unit margin, at zoom 1.
    const all = await serverShapes();
    const recs = styled.map((id) => all.find((s) => s.id === id)!);
    const bx = Math.min(...recs.map((s) => s.x)) - 32;
    const by = Math.min(...recs.map((s) => s.y)) - 32;
    const width = Math.ceil(Math.max(...recs.map((s) => s.x + s.w)) - Math.min(...recs.map((s) => s.x)) + 64);
    const height = Math.ceil(
      Math.max(...recs.map((s) => s.y + s.h)) - Math.min(...recs.map((s) => s.y)) + 64,
    );
    const origin = await at(ana, bx, by);
    const screen = await ana.screenshot({
      clip: { x: origin.x, y: origin.y, width, height },
      path: `${artifacts}/drawing-canvas-region.png`,
    });

    await canvas(ana).focus();
    await ana.keyboard.press('Control+a');
    const svg = (await exported(ana, 'Selection as SVG')).toString('utf8');
    // Every path the canvas draws for these shapes is in the file, unchanged.
    for (const id of styled) {
      const ds = await ana
        .locator(`[data-shape-id="${id}"] path`)
        .evaluateAll((ps) => ps.map((p) => p.getAttribute('d')));
      assert.ok(ds.length > 0);
      for (const d of ds) assert.ok(svg.includes(`d="${d}"`), `shape ${id}'s path is in the SVG`);
    }
    assert.match(
      svg,
      /@font-face\{font-family:"Caveat Variable"/,
      'the hand-drawn font travels inside the file',
    );
    const png = await exported(ana, 'Selection as PNG');
    await quiet();

    // The PNG (twice the size) brought to screen scale by Chromium, then compared with the canvas.
    const shrunk = await ana.evaluate(
      async ({ b64, width, height }) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
        const c = new OffscreenCanvas(width, height);
        const ctx = c.getContext('2d')!;
        ctx.imageSmoothingQuality = 'high';
        ctx.drawImage(bitmap, 0, 0, width, height);
        const blob = await c.convertToBlob({ type: 'image/png' });
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let s = '';
        for (const b of bytes) s += String.fromCharCode(b);
        return btoa(s);
      },
      { b64: png.toString('base64'), width, height },
    );
    const pngAtScreenScale = Buffer.from(shrunk, 'base64');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${artifacts}/drawing-export-png-at-1x.png`, pngAtScreenScale);
    const diff = await pixelDifference(ana, screen, pngAtScreenScale, 96);
    t.diagnostic(
      `the PNG export differs from the canvas in ${(diff * 100).toFixed(2)} % of ${width}×${height} pixels`,
    );
    assert.ok(diff < 0.03, `the PNG differs from the canvas in ${(diff * 100).toFixed(2)} % of pixels`);

    // Shift+Alt+C puts the same picture on the clipboard, for pasting into a chat or a document.
    await canvas(ana).focus();
    await ana.keyboard.press('Control+a');
    await ana.keyboard.press('Shift+Alt+C');
    await ana.getByText('Copied the selection as a picture.').waitFor();
    const copied = await ana.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      const bytes = new Uint8Array(await (await item!.getType('image/png')).arrayBuffer());
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s);
    });
    const sizeOf = (b: Buffer) => [b.readUInt32BE(16), b.readUInt32BE(20)];
    const clipboardPng = Buffer.from(copied, 'base64');
    assert.equal(clipboardPng.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual(sizeOf(clipboardPng), sizeOf(png), 'the picture the PNG export makes');
  });

  it('an elbow connector between two notes re-routes on both screens when one moves', async () => {
    // Side by side, then the second moves down and nearer, overlapping the first's height.
    const one = await placeAt('Sticky note', -350, 150);
    const two = await placeAt('Sticky note', 250, 150);
    const p1 = await at(ana, -350, 150);
    const p2 = await at(ana, 250, 150);
    const before = new Set((await serverShapes()).map((s) => s.id));
    await ana.getByRole('button', { name: 'Arrow', exact: true }).click();
    await drag(ana, p1, p2);
    let arrow = '';
    await until(async () => {
      const a = (await serverShapes()).find((s) => !before.has(s.id) && s.type === 'arrow');
      arrow = a?.from?.shapeId === one && a.to?.shapeId === two ? a.id : '';
      return arrow !== '';
    }, 'an arrow bound to both notes');
    const elbow = ana.getByRole('button', { name: 'Elbow', exact: true });
    if (!(await elbow.isVisible())) {
      await ana.getByRole('button', { name: 'Select', exact: true }).click();
      const line = (await ana.locator(`[data-shape-id="${arrow}"]`).boundingBox())!;
      await ana.mouse.click(line.x + line.width / 2, line.y + line.height / 2);
    }
    await elbow.click();
    // New shapes start with the styles last picked: the cartoonist look of the first test came with
    // the arrow. Exact lines, so the route is read from its polyline.
    await ana.getByLabel('Sloppiness').selectOption('architect');
    await until(async () => {
      const a = await serverShape(arrow);
      return a?.route === 'elbow' && a.sloppiness === 'architect';
    }, 'the elbow route on the server');

    const pointsOn = (page: Page) =>
      page.locator(`[data-shape-id="${arrow}"] polyline`).first().getAttribute('points');
    await until(
      async () => (await pointsOn(ben)) !== null && (await pointsOn(ben)) === (await pointsOn(ana)),
      'the same elbow on both screens',
    );
    const first = (await pointsOn(ana))!;

    // Ana moves the second note below the first: the route changes, alike on both screens.
    await quiet();
    await ana.getByRole('button', { name: 'Select', exact: true }).click();
    const s2 = (await serverShape(two))!;
    const grab = await at(ana, s2.x + s2.w / 2, s2.y + 20);
    await drag(ana, grab, { x: grab.x - 250, y: grab.y + 150 });
    await until(async () => (await serverShape(two))!.x !== s2.x, 'the note moved on the server');
    await until(async () => {
      const a = await pointsOn(ana);
      return a !== first && a === (await pointsOn(ben));
    }, 'the re-routed elbow on both screens');
    await ben.screenshot({ path: `${artifacts}/drawing-elbow-ben.png` });

    // A label on the connector, typed by Ana (a double-click on the middle of the path), is on Ben's
    // screen.
    const route = (await pointsOn(ana))!.split(' ').map((p) => p.split(',').map(Number) as [number, number]);
    const lengths = route
      .slice(1)
      .map(([x, y], i) => Math.abs(x - route[i]![0]) + Math.abs(y - route[i]![1]));
    let half = lengths.reduce((a, b) => a + b, 0) / 2;
    let mid = route[0]!;
    for (let i = 0; i < lengths.length; i++) {
      const [ax, ay] = route[i]!;
      const [bx, by] = route[i + 1]!;
      if (half <= lengths[i]!) {
        const t = half / lengths[i]!;
        mid = [ax + (bx - ax) * t, ay + (by - ay) * t];
        break;
      }
      half -= lengths[i]!;
    }
    await ana.getByRole('button', { name: 'Select', exact: true }).click();
    const onMid = await at(ana, mid[0], mid[1]);
    await ana.mouse.dblclick(onMid.x, onMid.y);
    await ana.getByLabel('Shape text').pressSequentially('depends on');
    await ana.keyboard.press('Escape');
    const label = ben.locator(`[data-shape-id="${arrow}"] .arrow-label`);
    await until(
      async () => (await label.count()) === 1 && (await label.textContent()) === 'depends on',
      'the label on Ben’s screen',
    );
    // It sits mid-way along the elbow's longest straight run (never on a bend), the one nearest
    // the path's middle on a tie (shared labelPoint).
    const offMid = (i: number) =>
      Math.hypot(
        (route[i]![0] + route[i + 1]![0]) / 2 - mid[0],
        (route[i]![1] + route[i + 1]![1]) / 2 - mid[1],
      );
    let run = 0;
    for (let i = 1; i < lengths.length; i++)
      if (
        lengths[i]! > lengths[run]! + 1e-6 ||
        (Math.abs(lengths[i]! - lengths[run]!) <= 1e-6 && offMid(i) < offMid(run))
      )
        run = i;
    const want = [(route[run]![0] + route[run + 1]![0]) / 2, (route[run]![1] + route[run + 1]![1]) / 2];
    const tspan = label.locator('tspan');
    assert.ok(Math.abs(Number(await tspan.getAttribute('x')) - want[0]!) < 0.5, 'label centred on its run');
    assert.ok(Math.abs(Number(await tspan.getAttribute('y')) - want[1]!) < 0.5, 'label on its run');
    await quiet();
    await ben.screenshot({ path: `${artifacts}/drawing-elbow-label-ben.png` });

    // Right angles only, and no segment through either note.
    const pts = (await pointsOn(ben))!.split(' ').map((p) => p.split(',').map(Number) as [number, number]);
    const notes = [await serverShape(one), await serverShape(two)] as ShapeRecord[];
    for (let i = 1; i < pts.length; i++) {
      const [ax, ay] = pts[i - 1]!;
      const [bx, by] = pts[i]!;
      assert.ok(
        Math.abs(ax - bx) < 0.01 || Math.abs(ay - by) < 0.01,
        `segment ${i} is horizontal or vertical`,
      );
      for (const n of notes) {
        const inside =
          Math.max(ax, bx) > n.x + 0.5 &&
          Math.min(ax, bx) < n.x + n.w - 0.5 &&
          Math.max(ay, by) > n.y + 0.5 &&
          Math.min(ay, by) < n.y + n.h - 0.5;
        assert.equal(inside, false, `segment ${i} stays out of note ${n.id}`);
      }
    }
  });

  it('a pen stroke ends where the pointer is released, on both screens', async () => {
    await quiet();
    await ana.getByRole('button', { name: 'Pen', exact: true }).click();
    /** Ana draws through `corners` (board points), `steps` moves a leg; answers the stroke's id. */
    const pen = async (corners: [number, number][], steps: number) => {
      const before = new Set((await serverShapes()).map((s) => s.id));
      const first = await at(ana, ...corners[0]!);
      await ana.mouse.move(first.x, first.y);
      await ana.mouse.down();
      for (const c of corners.slice(1)) {
        const p = await at(ana, ...c);
        await ana.mouse.move(p.x, p.y, { steps });
      }
      await ana.mouse.up();
      let id = '';
      await until(async () => {
        id = (await serverShapes()).find((s) => !before.has(s.id) && s.type === 'freehand')?.id ?? '';
        return id !== '';
      }, 'the stroke on the server');
      return id;
    };
    /** The drawn outline's extent in board units (views at zoom 1, centred on 0,0). */
    const extent = async (page: Page, id: string) => {
      const path = page.locator(`[data-shape-id="${id}"] path`).first();
      await path.waitFor();
      const b = (await path.boundingBox())!;
      const o = await at(page, 0, 0);
      return { x1: b.x - o.x, y1: b.y - o.y, x2: b.x + b.width - o.x, y2: b.y + b.height - o.y };
    };
    // The half-width of the default pen (size 6).
    const half = 3;
    // An L: right 200, then down 200, clear of the shapes above. The trial's stopped some 28 short, its corner cut.
    const l = await pen(
      [
        [-250, -310],
        [-50, -310],
        [-50, -110],
      ],
      10,
    );
    for (const page of [ana, ben]) {
      const e = await extent(page, l);
      assert.ok(e.y2 >= -110 - half && e.y2 <= -110 + half, `the L ends at y ${e.y2}`);
      assert.ok(e.x2 >= -50 - half, `its corner reaches x ${e.x2}`);
    }
    // A quick 200-unit flick: three moves. The trial's drew 143.
    const flick = await pen(
      [
        [50, -200],
        [250, -200],
      ],
      3,
    );
    for (const page of [ana, ben]) {
      const e = await extent(page, flick);
      assert.ok(e.x1 <= 50 + half && e.x2 >= 250 - half, `the flick spans ${e.x1} … ${e.x2}`);
    }
    await ana.getByRole('button', { name: 'Select', exact: true }).click();
    await quiet();
    await ben.screenshot({ path: `${artifacts}/drawing-pen-ends-ben.png` });
  });
});
