// Layout on a shared board: snapping with guides, align, group, lock and resizing several shapes at
// once. Ada acts; each result is checked in the server's document and on Bo's screen.
import assert from 'node:assert/strict';
import { before, beforeEach, describe, it } from 'node:test';
import type { ShapeRecord } from '@tandem/shared';
import type { Page } from 'playwright-core';
import {
  artifacts,
  boardArea,
  canvas,
  gridBoardFile,
  newUser,
  place,
  sharedBoard,
  until,
  withApp,
} from './helpers.ts';

describe('layout, shared', () => {
  let ada: Page;
  let bo: Page;
  let boardId: string;

  const app = withApp();
  before(async () => {
    ada = (await newUser(app, 'Ada')).page;
    bo = (await newUser(app, 'Bo', { guest: true })).page;
    boardId = await sharedBoard(ada, 'Layout', { editors: [bo] });
  });

  /** The board's shapes as the server has them (read through Bo's session). */
  const serverShapes = async (): Promise<ShapeRecord[]> => {
    const res = await bo.request.get(`/api/boards/${boardId}/export.json`);
    assert.equal(res.status(), 200);
    return ((await res.json()) as { shapes: ShapeRecord[] }).shapes;
  };
  const serverShape = async (id: string) => (await serverShapes()).find((s) => s.id === id);

  /** Where a shape is on Bo's screen: the translate of its group, and its drawn width. */
  const seenByBo = async (id: string) => {
    const g = bo.locator(`[data-shape-id="${id}"]`);
    if ((await g.count()) === 0) return null;
    const t = (await g.getAttribute('transform')) ?? '';
    const m = /translate\(([-\d.e]+) ([-\d.e]+)\)/.exec(t);
    const width = Number(await g.locator('rect, ellipse, polygon').first().getAttribute('width'));
    return {
      x: Number(m?.[1]),
      y: Number(m?.[2]),
      width,
      locked: (await g.getAttribute('data-locked')) === 'true',
      group: await g.getAttribute('data-group-id'),
    };
  };

  /** Page coordinates of a board point on Ada's screen (her view stays at zoom 1, centred on 0,0). */
  const onAda = async (bx: number, by: number) => {
    const box = (await boardArea(ada).boundingBox())!;
    return { x: box.x + box.width / 2 + bx, y: box.y + box.height / 2 + by };
  };

  /** Ada places a rectangle centred at board point (bx, by); answers its id once the server has it. */
  const rectAt = async (bx: number, by: number): Promise<string> => {
    const before = new Set((await serverShapes()).map((s) => s.id));
    await ada.getByRole('button', { name: 'Rectangle', exact: true }).click();
    const p = await onAda(bx, by);
    await ada.mouse.click(p.x, p.y);
    let id = '';
    await until(async () => {
      const fresh = (await serverShapes()).filter((s) => !before.has(s.id));
      id = fresh[0]?.id ?? '';
      return id !== '';
    }, 'the rectangle on the server');
    await until(async () => (await seenByBo(id)) !== null, 'the rectangle on Bo’s screen');
    return id;
  };

  const dragOnAda = async (from: { x: number; y: number }, to: { x: number; y: number }) => {
    await ada.mouse.move(from.x, from.y);
    await ada.mouse.down();
    await ada.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
    await ada.mouse.move(to.x, to.y, { steps: 4 });
    await ada.mouse.up();
  };

  const clearBoard = async () => {
    await canvas(ada).focus();
    await ada.keyboard.press('Escape');
    // Lock everything and unlock it again (a test may leave some shapes locked), then delete it all.
    await ada.keyboard.press('Control+a');
    const lock = ada.getByRole('button', { name: 'Lock', exact: true });
    const unlock = ada.getByRole('button', { name: 'Unlock', exact: true });
    if (await lock.isVisible()) {
      await lock.click();
      await unlock.waitFor();
    }
    if (await unlock.isVisible()) {
      await unlock.click();
      await lock.waitFor();
    }
    await ada.keyboard.press('Control+a');
    await ada.keyboard.press('Delete');
    await until(async () => (await serverShapes()).length === 0, 'an empty board');
    await until(async () => (await bo.locator('[data-shape-id]').count()) === 0, 'an empty board for Bo');
  };
  beforeEach(clearBoard);

  it('snaps a dragged shape to another’s edges and centre, with guides, for both', async () => {
    const a = await rectAt(-200, -100);
    const b = await rectAt(150, 100);
    const ra = (await serverShape(a))!;
    const rb = (await serverShape(b))!;
    // Drag B so that its centre lands 4 units right of A's centre line: it snaps onto it.
    const from = await onAda(rb.x + rb.w / 2, rb.y + rb.h / 2);
    const to = await onAda(ra.x + ra.w / 2 + 4, rb.y + rb.h / 2 + 60);
    await ada.mouse.move(from.x, from.y);
    await ada.mouse.down();
    await ada.mouse.move(to.x - 40, to.y, { steps: 4 });
    await ada.mouse.move(to.x, to.y, { steps: 4 });
    await until(async () => (await ada.locator('[data-guide="x"]').count()) > 0, 'a vertical guide');
    await ada.screenshot({ path: `${artifacts}/layout-snap-guides.png` });
    await ada.mouse.up();
    await until(async () => (await ada.locator('[data-guide]').count()) === 0, 'guides gone after the drag');
    await until(async () => (await serverShape(b))?.x === ra.x, 'B lined up with A on the server');
    await until(async () => (await seenByBo(b))?.x === ra.x, 'B lined up with A on Bo’s screen');
    assert.equal((await serverShape(b))!.y, rb.y + 60);
  });

  it('aligns the selection, and the other person sees it', async () => {
    const a = await rectAt(-250, -120);
    const b = await rectAt(0, 40);
    const c = await rectAt(250, 160);
    await canvas(ada).focus();
    await ada.keyboard.press('Control+a');
    await ada.getByRole('button', { name: 'Align top' }).waitFor();
    await ada.screenshot({ path: `${artifacts}/layout-align-bar.png` });
    await ada.getByRole('button', { name: 'Align top' }).click();
    const top = (await serverShape(a))!.y;
    await until(async () => {
      const all = await serverShapes();
      return all.every((s) => s.y === top);
    }, 'all three tops at A’s on the server');
    for (const id of [a, b, c]) await until(async () => (await seenByBo(id))?.y === top, 'aligned for Bo');
    // Distribute is offered from three shapes: Alt+Shift+H spaces them evenly (already even here).
    await ada.getByRole('button', { name: 'Distribute horizontally' }).click();
    const xs = (await serverShapes()).map((s) => s.x).sort((p, q) => p - q);
    assert.equal(xs[1]! - xs[0]!, xs[2]! - xs[1]!);
  });

  it('groups shapes so they select and move together, and ungroups them', async () => {
    const a = await rectAt(-200, 0);
    const b = await rectAt(150, 0);
    const ra = (await serverShape(a))!;
    const rb = (await serverShape(b))!;
    const pa = await onAda(ra.x + 20, ra.y + 20);
    const pb = await onAda(rb.x + 20, rb.y + 20);
    await ada.mouse.click(pa.x, pa.y);
    await ada.keyboard.down('Shift');
    await ada.mouse.click(pb.x, pb.y);
    await ada.keyboard.up('Shift');
    await ada.keyboard.press('Control+g');
    await until(async () => {
      const [sa, sb] = [await serverShape(a), await serverShape(b)];
      return !!sa?.groupId && sa.groupId === sb?.groupId;
    }, 'one group on the server');
    const group = (await serverShape(a))!.groupId!;
    await until(async () => (await seenByBo(b))?.group === group, 'the group on Bo’s screen');

    // A click on one member selects the group; dragging it moves both.
    await canvas(ada).focus();
    await ada.keyboard.press('Escape');
    await dragOnAda(pa, { x: pa.x, y: pa.y + 150 });
    await until(async () => (await serverShape(b))?.y === rb.y + 150, 'B moved with A on the server');
    await until(async () => (await seenByBo(b))?.y === rb.y + 150, 'B moved with A on Bo’s screen');
    assert.equal((await serverShape(a))!.y, ra.y + 150);

    await ada.keyboard.press('Control+Shift+g');
    await until(async () => (await serverShapes()).every((s) => !s.groupId), 'ungrouped on the server');
    await until(async () => (await seenByBo(a))?.group === null, 'ungrouped on Bo’s screen');
  });

  it('a locked shape cannot be moved or deleted by anyone until it is unlocked', async () => {
    const a = await rectAt(0, 0);
    const ra = (await serverShape(a))!;
    const pa = await onAda(ra.x + 30, ra.y + 30);
    await ada.mouse.click(pa.x, pa.y);
    await ada.getByRole('button', { name: 'Lock', exact: true }).click();
    await until(async () => (await serverShape(a))?.locked === true, 'locked on the server');
    await until(async () => (await seenByBo(a))?.locked === true, 'locked on Bo’s screen');

    // Bo tries to drag it and to delete it: nothing changes, for him or on the server.
    const g = bo.locator(`[data-shape-id="${a}"]`);
    const gb = (await g.boundingBox())!;
    const start = { x: gb.x + 30, y: gb.y + 30 };
    await bo.mouse.move(start.x, start.y);
    await bo.mouse.down();
    await bo.mouse.move(start.x + 200, start.y + 100, { steps: 6 });
    await bo.mouse.up();
    await bo.getByRole('button', { name: 'Unlock', exact: true }).waitFor();
    // He is told why, and the shape shows a padlock instead of handles.
    await bo.getByRole('status').filter({ hasText: 'Locked shapes cannot be moved' }).waitFor();
    assert.equal(await bo.locator('.lock-badge').count(), 1);
    await bo.screenshot({ path: `${artifacts}/layout-locked.png` });
    await bo.keyboard.press('Delete');
    await bo.getByRole('button', { name: 'Dismiss notice' }).click();
    // Bo then adds a shape: once the server has it, his earlier attempts (sent before it on the
    // same connection) have arrived too.
    await place(bo, 'Rectangle', 100, 700);
    await until(async () => (await serverShapes()).length === 2, 'Bo’s later shape on the server');
    const still = (await serverShape(a))!;
    assert.deepEqual([still.x, still.y, still.locked], [ra.x, ra.y, true]);
    assert.deepEqual([(await seenByBo(a))!.x, (await seenByBo(a))!.y], [ra.x, ra.y]);

    // Bo unlocks it; then Ada can move it.
    await bo.mouse.click(start.x, start.y);
    await bo.getByRole('button', { name: 'Unlock', exact: true }).click();
    await until(async () => (await serverShape(a))?.locked === undefined, 'unlocked on the server');
    await canvas(ada).focus();
    await ada.keyboard.press('Escape');
    await dragOnAda(pa, { x: pa.x + 100, y: pa.y });
    await until(async () => (await serverShape(a))?.x === ra.x + 100, 'moved after unlocking');
    await until(async () => (await seenByBo(a))?.x === ra.x + 100, 'Bo sees it moved');
  });

  it('resizes several shapes at once from the selection’s corner', async () => {
    const a = await rectAt(-150, 0);
    const b = await rectAt(150, 0);
    const ra = (await serverShape(a))!;
    const rb = (await serverShape(b))!;
    await canvas(ada).focus();
    await ada.keyboard.press('Control+a');
    const handle = ada.locator('[data-selection-box] [data-handle="se"]');
    await handle.waitFor();
    const hb = (await handle.boundingBox())!;
    const from = { x: hb.x + hb.width / 2, y: hb.y + hb.height / 2 };
    // The pair spans rb.x + rb.w − ra.x across; drag the corner right by half that (×1.5 wide).
    const span = rb.x + rb.w - ra.x;
    // Ctrl: no snapping, so the factor is exact.
    await ada.keyboard.down('Control');
    await dragOnAda(from, { x: from.x + span / 2, y: from.y + ra.h / 2 });
    await ada.keyboard.up('Control');
    await until(async () => Math.abs(((await serverShape(b))?.w ?? 0) - rb.w * 1.5) < 0.01, 'B 1.5× wider');
    const [na, nb] = [(await serverShape(a))!, (await serverShape(b))!];
    assert.ok(Math.abs(na.w - ra.w * 1.5) < 0.01, `A ${na.w}`);
    assert.ok(Math.abs(na.h - ra.h * 1.5) < 0.01, `A ${na.h}`);
    assert.ok(Math.abs(na.x - ra.x) < 0.01, 'the far corner stays');
    assert.ok(Math.abs(nb.x - (ra.x + (rb.x - ra.x) * 1.5)) < 0.01, 'B’s place scales too');
    await until(async () => Math.abs(((await seenByBo(b))?.width ?? 0) - nb.w) < 0.01, 'Bo sees B resized');
    await ada.screenshot({ path: `${artifacts}/layout-multi-resize.png` });
  });

  it('Shift+drag of a shape’s corner keeps its proportions', async () => {
    // A 200 × 100 rectangle, drawn by dragging (Ctrl: no snapping).
    await ada.getByRole('button', { name: 'Rectangle', exact: true }).click();
    await ada.keyboard.down('Control');
    await dragOnAda(await onAda(-100, -50), await onAda(100, 50));
    await ada.keyboard.up('Control');
    let id = '';
    await until(async () => {
      id = (await serverShapes()).find((s) => s.type === 'rect')?.id ?? '';
      return id !== '';
    }, 'the rectangle on the server');
    const r0 = (await serverShape(id))!;
    assert.deepEqual([r0.w, r0.h], [200, 100]);
    await canvas(ada).focus();
    await ada.keyboard.press('Control+a');
    const handle = ada.locator('.selection [data-handle="se"]');
    await handle.waitFor();
    const hb = (await handle.boundingBox())!;
    const from = { x: hb.x + hb.width / 2, y: hb.y + hb.height / 2 };
    // The trial's drag: +200 right, +20 down, Shift held. It used to give about 404 × 124.
    await ada.keyboard.down('Shift');
    await dragOnAda(from, { x: from.x + 200, y: from.y + 20 });
    await ada.keyboard.up('Shift');
    await until(async () => ((await serverShape(id))?.w ?? 0) > 350, 'the rectangle resized');
    const r = (await serverShape(id))!;
    assert.ok(Math.abs(r.w / r.h - 2) < 0.01, `2:1 kept: ${r.w} × ${r.h}`);
    assert.ok(Math.abs(r.x - r0.x) < 0.01 && Math.abs(r.y - r0.y) < 0.01, 'the north-west corner stays');
    await until(async () => Math.abs(((await seenByBo(id))?.width ?? 0) - r.w) < 0.01, 'Bo sees it resized');
  });

  it('styles lines and text for both people, and the panels fit a phone', async () => {
    const a = await rectAt(-250, 0);
    await ada.getByRole('button', { name: 'Ellipse', exact: true }).click();
    const pe = await onAda(250, 0);
    await ada.mouse.click(pe.x, pe.y);
    // An arrow from the rectangle to the ellipse.
    await ada.getByRole('button', { name: 'Arrow', exact: true }).click();
    await dragOnAda(await onAda(-250, 0), await onAda(250, 10));
    let arrowId = '';
    await until(async () => {
      arrowId = (await serverShapes()).find((s) => s.type === 'arrow' && s.to?.shapeId)?.id ?? '';
      return arrowId !== '';
    }, 'a bound arrow on the server');
    await ada.getByRole('button', { name: 'Dotted line' }).click();
    await ada.getByRole('button', { name: 'Stroke width 4' }).click();
    await ada.getByLabel('Start arrowhead').selectOption('triangle');
    await ada.getByLabel('End arrowhead').selectOption('dot');
    await until(async () => {
      const r = await serverShape(arrowId);
      return r?.dash === 'dotted' && r.strokeWidth === 4 && r.startHead === 'triangle' && r.endHead === 'dot';
    }, 'the arrow’s style on the server');
    const boArrow = bo.locator(`[data-shape-id="${arrowId}"]`);
    await until(
      async () =>
        (await boArrow.locator('line').getAttribute('stroke-dasharray')) === '0 10' &&
        (await boArrow.locator('polygon').count()) === 1 &&
        (await boArrow.locator('circle').count()) === 1,
      'Bo sees a dotted arrow with a triangle and a dot',
    );
    // The arrow ends on the ellipse's outline: left of its box's left edge only by the gap.
    const ellipse = (await serverShapes()).find((s) => s.type === 'ellipse')!;
    const end = (await serverShape(arrowId))!.to!;
    assert.ok(Math.abs(end.x - (ellipse.x - 6)) < 1.5, `end ${end.x} at the ellipse's side ${ellipse.x}`);
    await ada.screenshot({ path: `${artifacts}/layout-style-panel-arrow.png` });

    // Text size and alignment on the rectangle.
    const ra = (await serverShape(a))!;
    const pa = await onAda(ra.x + 30, ra.y + 30);
    await ada.mouse.click(pa.x, pa.y);
    await ada.keyboard.press('Enter');
    await ada.getByLabel('Shape text').pressSequentially('Hello');
    await ada.keyboard.press('Escape');
    await ada.mouse.click(pa.x, pa.y);
    await ada.getByRole('button', { name: 'Text size XL' }).click();
    await ada.getByRole('button', { name: 'Align text right' }).click();
    await until(async () => {
      const r = await serverShape(a);
      return r?.fontSize === 'xl' && r.align === 'end';
    }, 'the text style on the server');
    const boText = bo.locator(`[data-shape-id="${a}"] .shape-text`);
    await until(
      async () =>
        (await boText.getAttribute('data-font-size')) === '36' &&
        (await boText.getAttribute('text-anchor')) === 'end',
      'Bo sees large right-aligned text',
    );
    await ada.screenshot({ path: `${artifacts}/layout-style-panel-text.png` });

    // On a phone, with everything selected: the style panel and the align bar stay on screen and
    // clear of the tools.
    await bo.setViewportSize({ width: 390, height: 844 });
    try {
      await canvas(bo).focus();
      await bo.keyboard.press('Control+a');
      const panel = bo.getByRole('toolbar', { name: 'Selection' });
      const bar = bo.getByRole('toolbar', { name: 'Align and group' });
      const tools = bo.getByRole('toolbar', { name: 'Tools' });
      await bar.waitFor();
      await bo.screenshot({ path: `${artifacts}/layout-phone.png` });
      const [pb, bb, tb] = [
        (await panel.boundingBox())!,
        (await bar.boundingBox())!,
        (await tools.boundingBox())!,
      ];
      for (const b of [pb, bb]) {
        assert.ok(b.x >= 0 && b.y >= 0 && b.x + b.width <= 390 && b.y + b.height <= 844, 'on screen');
        assert.ok(b.y + b.height <= tb.y || b.y >= tb.y + tb.height, 'clear of the tools');
      }
      const apart = pb.y + pb.height <= bb.y || bb.y + bb.height <= pb.y || pb.x + pb.width <= bb.x;
      assert.ok(apart, 'the panel and the bar do not overlap');
    } finally {
      await bo.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('with the tool locked (Q, or a double-click on a tool) each click adds another shape', async () => {
    await canvas(ada).focus();
    await ada.keyboard.press('q');
    await ada.getByRole('button', { name: 'Tool lock', pressed: true }).waitFor();
    await ada.keyboard.press('n');
    for (let i = 0; i < 3; i++) {
      const p = await onAda(-300 + i * 220, -150);
      await ada.mouse.click(p.x, p.y);
    }
    await until(
      async () => (await serverShapes()).filter((s) => s.type === 'sticky').length === 3,
      'three stickies on the server',
    );
    await until(async () => (await bo.locator('[data-shape-type="sticky"]').count()) === 3, 'three for Bo');
    await ada.getByRole('button', { name: 'Sticky note', pressed: true }).waitFor();
    // Q again unlocks: the next shape hands back to Select.
    await ada.keyboard.press('q');
    await ada.getByRole('button', { name: 'Tool lock', pressed: false }).waitFor();
    const p = await onAda(-300, 150);
    await ada.mouse.click(p.x, p.y);
    await ada.keyboard.press('Escape');
    await ada.getByRole('button', { name: 'Select', pressed: true }).waitFor();

    // A double-click on a tool locks it too.
    await ada.getByRole('button', { name: 'Rectangle', exact: true }).dblclick();
    await ada.getByRole('button', { name: 'Tool lock', pressed: true }).waitFor();
    for (let i = 0; i < 2; i++) {
      const q = await onAda(-100 + i * 250, 200);
      await ada.mouse.click(q.x, q.y);
    }
    await until(
      async () => (await serverShapes()).filter((s) => s.type === 'rect').length === 2,
      'two rectangles',
    );
    await ada.getByRole('button', { name: 'Rectangle', pressed: true }).waitFor();
    await ada.keyboard.press('q');
    await ada.keyboard.press('Escape');
  });

  it('a large selection moves as one lifted layer, snaps with guides over it, lands for Bo and undoes in one step', async () => {
    // 251 notes in a grid: all but the first selected (over LIVE_DRAG_LIMIT, so the drag lifts them
    // into a layer of their own), the first left out for the selection's left and top edges to snap to.
    await ada
      .getByLabel('Import JSON file')
      .setInputFiles(gridBoardFile(251, { perRow: 25, types: ['sticky'] }));
    await ada.getByText('Imported 251 shapes.').waitFor();
    // The import gives the notes ids of its own: name them by their place in the grid.
    const placed = await serverShapes();
    const x0 = Math.min(...placed.map((r) => r.x));
    const y0 = Math.min(...placed.map((r) => r.y));
    const at = (col: number, row: number) =>
      placed.find((r) => r.x === x0 + col * 260 && r.y === y0 + row * 260)!.id;
    const [s0, s1, s24, s250] = [at(0, 0), at(1, 0), at(24, 0), at(0, 10)];
    await canvas(ada).focus();
    await ada.keyboard.press('Control+a');
    await ada.keyboard.down('Shift');
    await ada.locator(`[data-shape-id="${s0}"]`).click();
    await ada.keyboard.up('Shift');
    await until(async () => (await ada.locator('[data-selected-id]').count()) === 250, '250 selected');
    const before = new Map((await serverShapes()).map((r) => [r.id, r]));
    const zoom = Number(/scale\(([\d.e-]+)\)/.exec((await canvas(ada).getAttribute('data-viewport'))!)![1]);
    const box = (await ada.locator(`[data-shape-id="${s1}"]`).boundingBox())!;
    const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await ada.mouse.move(from.x, from.y);
    await ada.mouse.down();
    // 2 px to the right (within snapping distance of s0's left edge, so it snaps back) and 60 down.
    await ada.mouse.move(from.x + 1, from.y + 30, { steps: 3 });
    await ada.mouse.move(from.x + 2, from.y + 60, { steps: 3 });
    await until(
      async () => (await ada.locator(`[data-lifted] [data-shape-id="${s1}"]`).count()) === 1,
      'lifted',
    );
    await until(
      async () => (await ada.locator('.guide-layer [data-guide="x"]').count()) > 0,
      'a vertical guide',
    );
    await ada.screenshot({ path: `${artifacts}/layout-lifted-drag-guides.png` });
    // While lifted nothing is written: Bo still sees the notes where they were.
    assert.equal((await serverShape(s1))!.y, before.get(s1)!.y);
    await ada.mouse.up();
    await until(async () => (await ada.locator('[data-lifted]').count()) === 0, 'dropped');
    await until(async () => (await ada.locator('[data-guide]').count()) === 0, 'guides gone');
    const dy = 60 / zoom;
    const moved = (r: ShapeRecord | undefined, id: string) =>
      r !== undefined && r.x === before.get(id)!.x && Math.abs(r.y - (before.get(id)!.y + dy)) < 1 / zoom;
    await until(async () => {
      const now = new Map((await serverShapes()).map((r) => [r.id, r]));
      return [s1, s24, s250].every((id) => moved(now.get(id), id));
    }, 'the selection moved straight down on the server, snapped back in x');
    assert.deepEqual((await serverShape(s0))!.y, before.get(s0)!.y, 'the first note stays');
    // A note Bo has in view (the canvas draws what is near his view only): the nearest to its centre.
    const [, bx, by] = /translate\(([-\d.e]+) ([-\d.e]+)\)$/.exec(
      (await canvas(bo).getAttribute('data-viewport'))!,
    )!;
    const near = placed
      .filter((r) => r.id !== s0)
      .sort(
        (a, b) =>
          Math.hypot(a.x + Number(bx), a.y + Number(by)) - Math.hypot(b.x + Number(bx), b.y + Number(by)),
      )[0]!;
    const landed = (await serverShape(near.id))!.y;
    assert.notEqual(landed, near.y);
    await until(async () => (await seenByBo(near.id))?.y === landed, 'Bo sees the move land');
    // One undo step brings every note back.
    await ada.keyboard.press('Control+z');
    await until(async () => {
      const now = await serverShapes();
      return (
        now.length === 251 && now.every((r) => r.y === before.get(r.id)!.y && r.x === before.get(r.id)!.x)
      );
    }, 'one undo puts all 250 back');
  });
});
