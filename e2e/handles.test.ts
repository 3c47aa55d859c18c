// A user trial found a rotation handle on frames (Miro's and Excalidraw's frames do not turn), and a
// selected shape's rotation handle under the tool bar when the shape stood near the top of the
// screen, where it could not be grabbed. Checked in Chromium at 1280×800: a frame, alone or with a
// sticky, has no rotation handle; a sticky high on the screen has its handle below it, on top of
// whatever else is there, and turns by it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  boardArea,
  canvas,
  createBoard,
  dragOnBoard,
  newUser,
  place,
  shapes,
  until,
  withApp,
} from './helpers.ts';

const rotateHandle = (page: Page) => page.locator('[data-handle="rotate"]');

describe('rotation handles', () => {
  const app = withApp();

  it('a frame has none, alone or in a selection; a sticky has one', async () => {
    const { page } = await newUser(app, 'Rho');
    await createBoard(page, 'Frames do not turn');
    await page.keyboard.press('f');
    await dragOnBoard(page, { x: 300, y: 250 }, { x: 700, y: 550 });
    await until(async () => (await shapes(page, 'frame').count()) === 1, 'a frame');
    // The new frame is selected: corner handles to resize it, no handle to turn it.
    await page.locator('[data-handle="se"]').waitFor();
    assert.equal(await rotateHandle(page).count(), 0, 'no rotation handle on a frame');

    await place(page, 'Sticky note', 950, 400);
    await page.keyboard.press('Escape');
    await shapes(page, 'sticky').first().click();
    await rotateHandle(page).waitFor();

    // The frame and the sticky together: handles on their common bounds, still none to turn.
    await canvas(page).focus();
    await page.keyboard.press('Control+a');
    await page.locator('[data-selection-box="true"] [data-handle="se"]').waitFor();
    await page.screenshot({ path: `${artifacts}/handles-frame-and-sticky.png` });
    assert.equal(await rotateHandle(page).count(), 0, 'no rotation handle on a selection holding a frame');
  });

  it('a shape near the top has its rotation handle below it, where it can be grabbed and turns it', async () => {
    const { page } = await newUser(app, 'Tau');
    await createBoard(page, 'High sticky');
    await place(page, 'Sticky note', 640, 400);
    await page.keyboard.type('High');
    await page.keyboard.press('Escape');
    const sticky = shapes(page, 'sticky').first();
    // Pan with the Hand tool until the sticky's top is just under the tool bar.
    const before = (await sticky.boundingBox())!;
    const tools = (await page.getByRole('toolbar', { name: 'Tools' }).boundingBox())!;
    const lift = before.y - (tools.y + tools.height + 6);
    await page.getByRole('button', { name: 'Hand', exact: true }).click();
    const area = (await boardArea(page).boundingBox())!;
    const grab = { x: area.x + 200, y: area.y + 600 };
    await page.mouse.move(grab.x, grab.y);
    await page.mouse.down();
    await page.mouse.move(grab.x, grab.y - lift / 2, { steps: 4 });
    await page.mouse.move(grab.x, grab.y - lift, { steps: 4 });
    await page.mouse.up();
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    await sticky.click();
    const box = (await sticky.boundingBox())!;
    assert.ok(
      Math.abs(box.y - (tools.y + tools.height + 6)) < 4,
      `the sticky's top is under the tools: ${box.y}`,
    );
    const knob = (await rotateHandle(page).boundingBox())!;
    await page.screenshot({ path: `${artifacts}/handles-high-sticky.png` });
    const at = { x: knob.x + knob.width / 2, y: knob.y + knob.height / 2 };
    assert.ok(at.y > box.y + box.height, `the handle is below the sticky: ${at.y} vs ${box.y + box.height}`);
    assert.equal(
      await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.getAttribute('data-handle') ?? null,
        at,
      ),
      'rotate',
      'a press there reaches the rotation handle',
    );
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.move(at.x + 80, at.y - 20, { steps: 3 });
    await page.mouse.move(at.x + 160, at.y - 60, { steps: 3 });
    await page.mouse.up();
    await until(async () => /rotate\(/.test((await sticky.getAttribute('transform')) ?? ''), 'turned');
    // Turned as far as the pointer went round (about 67° back), with no half turn as it was grabbed.
    const degrees = Number(/rotate\((-?[\d.]+)/.exec((await sticky.getAttribute('transform'))!)![1]);
    assert.ok(degrees < -40 && degrees > -90, `turned by the drag: ${degrees}°`);

    // Lower on the screen it stands above the shape again.
    await page.getByRole('button', { name: 'Hand', exact: true }).click();
    await page.mouse.move(grab.x, grab.y - lift);
    await page.mouse.down();
    await page.mouse.move(grab.x, grab.y, { steps: 4 });
    await page.mouse.up();
    await page.screenshot({ path: `${artifacts}/handles-lower-sticky.png` });
    const down = (await rotateHandle(page).boundingBox())!;
    const middle = (await sticky.boundingBox())!;
    assert.ok(down.y + down.height < middle.y + middle.height / 2, 'the handle is above the sticky again');
  });
});
