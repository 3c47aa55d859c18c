// What a new user tripped over in a trial retro and design review, each checked in Chromium at
// 1280×800: the tab's title, the Group button reachable beside the facilitation bar, vote totals
// only on voted stickies and a way to clear them, notices that leave by themselves, a viewer's
// selection not shown to editors, an offline status that says the edits are kept, a pasted image
// landing at the pointer, and XL text on a full note saying why it does not grow.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ShapeRecord } from '@tandem/shared';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import {
  artifacts,
  boardArea,
  canvas,
  createBoard,
  newUser,
  place,
  shapes,
  sharedBoard,
  shareLink,
  signedOutVisitor,
  until,
  waitStatus,
  withApp,
} from './helpers.ts';

async function sticky(page: Page, x: number, y: number, text: string): Promise<string> {
  const before = new Set(
    await shapes(page, 'sticky').evaluateAll((els) => els.map((e) => e.getAttribute('data-shape-id'))),
  );
  await place(page, 'Sticky note', x, y);
  await page.keyboard.type(text);
  await page.keyboard.press('Escape');
  let id = '';
  await until(async () => {
    const now = await shapes(page, 'sticky').evaluateAll((els) =>
      els.map((e) => e.getAttribute('data-shape-id')),
    );
    id = now.find((i) => i && !before.has(i)) ?? '';
    return id !== '';
  }, `the sticky “${text}”`);
  return id;
}

/** Locks the shape `id`, tries to drag it, and answers the notice that says why it did not move. */
async function lockedDragNotice(page: Page, id: string) {
  await page.locator(`[data-shape-id="${id}"]`).click();
  await page.getByRole('button', { name: 'Lock', exact: true }).click();
  const box = (await page.locator(`[data-shape-id="${id}"]`).boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + 30);
  await page.mouse.down();
  await page.mouse.move(box.x + 200, box.y + 100, { steps: 6 });
  await page.mouse.up();
  const locked = page.getByRole('status').filter({ hasText: 'Locked shapes cannot be moved' });
  await locked.waitFor();
  return locked;
}

/** The accessible name of the button actually under the centre of `name`'s button. */
async function buttonUnder(page: Page, name: string): Promise<string | null> {
  const box = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
  return page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.getAttribute('aria-label') ?? null,
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
}

describe('the trial’s bugs', () => {
  const app = withApp();

  it('the tab shows the board’s title', async () => {
    const { page } = await newUser(app, 'Tia');
    await createBoard(page, 'Design review');
    await until(async () => (await page.title()) === 'Design review · Tandem', 'the title in the tab');
    await page.getByRole('link', { name: 'All boards' }).click();
    await until(async () => (await page.title()) === 'Tandem', 'back to Tandem on the dashboard');
  });

  it('an invite link names its board on the sign-in page, and the tab shows the board once in', async () => {
    const { page: owner } = await newUser(app, 'Ines');
    await createBoard(owner, 'Retro night');
    const link = await shareLink(owner, 'can edit');
    const { context, page } = await signedOutVisitor(app, 'invitee');
    await page.goto(link);
    await page.waitForURL('**/signin?next=*');
    await page.getByRole('note').filter({ hasText: 'Ines invited you to edit “Retro night”' }).waitFor();
    await page.getByLabel('Your name').fill('Guest Gil');
    await page.getByRole('button', { name: 'Continue as guest' }).click();
    await waitStatus(page, 'live');
    await until(async () => (await page.title()) === 'Retro night · Tandem', 'the board’s title in the tab');
    await context.close();
  });

  it('at 1280×800 the Group button is not under the facilitation bar', async () => {
    const { page } = await newUser(app, 'Gus');
    await createBoard(page, 'Grouping');
    await sticky(page, 300, 400, 'One');
    await sticky(page, 600, 400, 'Two');
    await canvas(page).focus();
    await page.keyboard.press('Control+a');
    await page.getByRole('button', { name: 'Group', exact: true }).waitFor();
    assert.equal(await buttonUnder(page, 'Group'), 'Group', 'a click on Group presses Group');
    assert.equal(await buttonUnder(page, 'Frame'), 'Frame');
  });

  it('at 1024 and 820 px wide Share, Export and the title are on screen, and no panel covers the tools', async () => {
    const { page } = await newUser(app, 'Nia');
    await createBoard(page, 'Checkout flow, second pass');
    await sticky(page, 500, 300, 'One');
    await sticky(page, 700, 300, 'Two');
    const box = async (name: string, role: 'button' | 'toolbar' = 'button') =>
      (await page.getByRole(role, { name, exact: true }).boundingBox())!;
    const apart = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
      a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
    for (const width of [1024, 820]) {
      await page.setViewportSize({ width, height: 720 });
      await canvas(page).focus();
      await page.keyboard.press('Escape');
      // Each control of the top bar and the tools is on screen and is what a click there presses
      // (at 1024 px Share was off the screen, at 820 px Export and Templates too).
      for (const name of ['Share', 'Export', 'Templates', 'History', 'Comments', 'Pages', 'Select', 'Redo']) {
        const b = await box(name);
        assert.ok(
          b.x >= 0 && b.x + b.width <= width,
          `${name} on screen at ${width} px: ${JSON.stringify(b)}`,
        );
        assert.equal(await buttonUnder(page, name), name, `a click on ${name} presses it at ${width} px`);
      }
      // The title shows more than its first letter (it was 8 px wide at 820 px).
      const title = (await page.getByRole('button', { name: /^Rename board/ }).boundingBox())!;
      assert.ok(title.width > 100, `the title is ${title.width} px wide at ${width} px`);
      // With two notes selected, the style panel and the align bar leave the tools uncovered, and
      // the align bar's first button is not under the style panel.
      await page.keyboard.press('Control+a');
      await page.getByRole('button', { name: 'Group', exact: true }).waitFor();
      const tools = await box('Tools', 'toolbar');
      const style = await box('Selection', 'toolbar');
      assert.ok(apart(tools, style), `the style panel covers the tools at ${width} px`);
      assert.ok(apart(tools, await box('Align and group', 'toolbar')), `the align bar covers the tools`);
      assert.equal(
        await buttonUnder(page, 'Align left'),
        'Align left',
        `Align left pressable at ${width} px`,
      );
      assert.equal(await buttonUnder(page, 'Group'), 'Group');
      await page.screenshot({ path: `${artifacts}/trial-narrow-${width}.png` });
    }
  });

  it('at 1024×600 the tool column that scrolls shows that more tools are below, and they are reached by scrolling', async () => {
    const { page } = await newUser(app, 'Tom');
    await createBoard(page, 'Short window');
    await page.setViewportSize({ width: 1024, height: 600 });
    const tools = page.getByRole('toolbar', { name: 'Tools' });
    assert.ok(
      await tools.evaluate((el) => el.scrollHeight > el.clientHeight),
      'the column scrolls at 1024×600 (the case this guards)',
    );
    /** The fade over the last tools in sight, above Undo and Redo: its height, 0 when not drawn. */
    const fade = () =>
      tools.locator('.history-tools').evaluate((el) => {
        const after = getComputedStyle(el, '::before');
        return after.content === 'none' || !after.backgroundImage.includes('gradient')
          ? 0
          : Number.parseFloat(after.height);
      });
    /** The fade at the top of the column, shown once it is scrolled down. */
    const topFade = () => tools.evaluate((el) => getComputedStyle(el, '::before').content !== 'none');
    await until(async () => (await fade()) > 0, 'the fade above Undo while more tools are below');
    assert.equal(await topFade(), false, 'no fade at the top before scrolling');
    await page.screenshot({ path: `${artifacts}/tools-column-1024x600.png` });
    // The lowest tool before Undo is out of sight until the column is scrolled (by the wheel).
    assert.notEqual(await buttonUnder(page, 'Image'), 'Image', 'Image is below the fold at first');
    const box = (await tools.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 600);
    await until(async () => (await fade()) === 0, 'no fade once the column is at its end');
    assert.equal(await topFade(), true, 'the first tools, scrolled past, fade at the top');
    await page.screenshot({ path: `${artifacts}/tools-column-1024x600-end.png` });
    assert.equal(await buttonUnder(page, 'Image'), 'Image', 'Image in sight at the end');
    await page.getByRole('button', { name: 'Tool lock', exact: true }).click();
    await page.getByRole('button', { name: 'Tool lock', exact: true, pressed: true }).waitFor();
    await page.close();
  });

  it('the next connector is elbow once Elbow was picked, and the next rectangle hatched', async () => {
    const { page } = await newUser(app, 'Eli');
    const boardId = await createBoard(page, 'Signup flow');
    const stored = async () =>
      (
        (await (await page.request.get(`/api/boards/${boardId}/export.json`)).json()) as {
          shapes: ShapeRecord[];
        }
      ).shapes;
    const area = (await boardArea(page).boundingBox())!;
    /** Draws with `tool` by a drag between canvas points; answers the new shape once stored. */
    const draw = async (tool: string, from: [number, number], to: [number, number]) => {
      const before = new Set((await stored()).map((s) => s.id));
      await page.getByRole('button', { name: tool, exact: true }).click();
      await page.mouse.move(area.x + from[0], area.y + from[1]);
      await page.mouse.down();
      await page.mouse.move(area.x + to[0], area.y + to[1], { steps: 6 });
      await page.mouse.up();
      let made: ShapeRecord | undefined;
      await until(async () => {
        made = (await stored()).find((s) => !before.has(s.id));
        return made !== undefined;
      }, `the new ${tool} on the server`);
      return made!;
    };
    await draw('Arrow', [300, 200], [500, 320]);
    await page.getByRole('button', { name: 'Elbow', exact: true }).click();
    await page.getByRole('button', { name: 'Elbow', exact: true, pressed: true }).waitFor();
    await page.keyboard.press('Escape');
    const second = await draw('Arrow', [300, 400], [500, 520]);
    assert.equal(second.route, 'elbow', 'the second connector is elbow like the first');
    await page.getByRole('button', { name: 'Elbow', exact: true, pressed: true }).waitFor();

    await draw('Rectangle', [700, 200], [860, 280]);
    await page.getByLabel('Fill style').selectOption('hatched');
    await page.getByLabel('Sloppiness').selectOption('artist');
    await page.keyboard.press('Escape');
    const rect = await draw('Rectangle', [700, 400], [860, 480]);
    assert.deepEqual([rect.fillStyle, rect.sloppiness], ['hatched', 'artist']);
    assert.equal(await page.getByLabel('Fill style').inputValue(), 'hatched', 'the panel shows it');
  });

  it('Enter on a connector just drawn types its label', async () => {
    const { page } = await newUser(app, 'Lou');
    const boardId = await createBoard(page, 'Labels');
    await place(page, 'Rectangle', 300, 300);
    await page.keyboard.press('Escape');
    await place(page, 'Ellipse', 700, 300);
    await page.keyboard.press('Escape');
    const area = (await boardArea(page).boundingBox())!;
    await page.getByRole('button', { name: 'Arrow', exact: true }).click();
    await page.mouse.move(area.x + 300, area.y + 300);
    await page.mouse.down();
    await page.mouse.move(area.x + 700, area.y + 300, { steps: 8 });
    await page.mouse.up();
    await page.getByRole('button', { name: 'Elbow', exact: true }).waitFor();
    // As on a rectangle: Enter, then the letters go into the label (they picked tools: E, the eraser).
    await page.keyboard.press('Enter');
    await until(
      async () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') === 'Shape text'),
      'the label field has the focus',
    );
    await page.keyboard.type('yes');
    await page.keyboard.press('Escape');
    await until(async () => {
      const res = await page.request.get(`/api/boards/${boardId}/export.json`);
      const { shapes } = (await res.json()) as { shapes: ShapeRecord[] };
      return shapes.find((s) => s.type === 'arrow')?.text === 'yes';
    }, 'the label “yes” on the server');
    assert.equal(
      await page.getByRole('button', { name: 'Select', exact: true, pressed: true }).count(),
      1,
      'the Select tool is still on',
    );
  });

  it('Alt-drag drags a copy of a shape, the original stays', async () => {
    const { page } = await newUser(app, 'Abe');
    const boardId = await createBoard(page, 'Wireframe');
    const stored = async () =>
      (
        (await (await page.request.get(`/api/boards/${boardId}/export.json`)).json()) as {
          shapes: ShapeRecord[];
        }
      ).shapes;
    await place(page, 'Rectangle', 400, 300);
    await page.keyboard.press('Escape');
    await until(async () => (await stored()).length === 1, 'the rectangle on the server');
    const [original] = await stored();
    const area = (await boardArea(page).boundingBox())!;
    await page.keyboard.down('Alt');
    await page.mouse.move(area.x + 400, area.y + 300);
    await page.mouse.down();
    await page.mouse.move(area.x + 400, area.y + 450, { steps: 8 });
    await page.mouse.up();
    await page.keyboard.up('Alt');
    await until(async () => (await stored()).length === 2, 'a copy on the server');
    const after = await stored();
    const kept = after.find((s) => s.id === original!.id)!;
    assert.deepEqual([kept.x, kept.y], [original!.x, original!.y], 'the original stays');
    const copy = after.find((s) => s.id !== original!.id)!;
    assert.ok(Math.abs(copy.y - original!.y - 150) < 8, `the copy moved down 150 (${copy.y - original!.y})`);
  });

  it('a pasted shape lands at the pointer, as a pasted image does', async () => {
    const { page } = await newUser(app, 'Pia');
    const boardId = await createBoard(page, 'Paste');
    const stored = async () =>
      (
        (await (await page.request.get(`/api/boards/${boardId}/export.json`)).json()) as {
          shapes: ShapeRecord[];
        }
      ).shapes;
    // The view is centred on board (0, 0) at 100 %: a canvas point minus the area's middle is a board point.
    const area = (await boardArea(page).boundingBox())!;
    await place(page, 'Rectangle', area.width / 2, area.height / 2);
    await page.keyboard.press('Escape');
    await page.mouse.click(area.x + area.width / 2, area.y + area.height / 2);
    await page.keyboard.press('Control+c');
    await page.mouse.move(area.x + area.width / 2 + 300, area.y + area.height / 2 + 200, { steps: 4 });
    await page.keyboard.press('Control+v');
    await until(async () => (await stored()).length === 2, 'the pasted rectangle on the server');
    const [first, pasted] = (await stored()).sort((a, b) => a.x - b.x);
    const centre = { x: pasted!.x + pasted!.w / 2, y: pasted!.y + pasted!.h / 2 };
    assert.ok(
      Math.abs(centre.x - 300) < 2 && Math.abs(centre.y - 200) < 2,
      `the paste is centred on the pointer (300, 200), not at ${JSON.stringify(centre)} (the first is at ${first!.x}, ${first!.y})`,
    );
  });

  it('after a vote only the voted stickies carry a total; the totals can be cleared and stay cleared', async () => {
    const { page } = await newUser(app, 'Vera');
    await createBoard(page, 'Votes');
    const voted = await sticky(page, 300, 400, 'Voted');
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByRole('button', { name: 'Start vote' }).click();
    await page.getByText('3 votes left').waitFor();
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByRole('button', { name: /^Vote for Voted/ }).click();
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByText('2 votes left').waitFor();
    await page.getByRole('button', { name: 'End vote' }).click();
    await page.locator(`.vote-total[data-shape-id="${voted}"]`, { hasText: '1' }).waitFor();
    await page.getByRole('button', { name: 'Vote', exact: true }).click();

    const later = await sticky(page, 700, 400, 'Made later');
    assert.equal(
      await page.locator(`.vote-total[data-shape-id="${later}"]`).count(),
      0,
      'no “0” on a later note',
    );
    assert.equal(await page.locator('.vote-total').count(), 1);

    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByRole('button', { name: 'Clear results from the stickies' }).click();
    await until(async () => (await page.locator('.vote-total').count()) === 0, 'the totals cleared');
    await page.reload();
    await waitStatus(page, 'live');
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByRole('button', { name: 'Show results on the stickies' }).waitFor();
    await until(async () => (await shapes(page, 'sticky').count()) === 2, 'the notes are back');
    assert.equal(await page.locator('.vote-total').count(), 0, 'still cleared after a reload');
  });

  it('notices leave: a locked-shape notice goes by itself, “Cannot reach the server” goes once live', async () => {
    const { page, context } = await newUser(app, 'Nia');
    await createBoard(page, 'Notices');
    const id = await sticky(page, 400, 400, 'Fixed');
    const locked = await lockedDragNotice(page, id);
    await until(async () => (await locked.count()) === 0, 'the notice left by itself', 20_000);

    await context.setOffline(true);
    await waitStatus(page, 'offline');
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByRole('button', { name: 'Start vote' }).click();
    const unreachable = page.getByRole('alert').filter({ hasText: 'Cannot reach the server' });
    await unreachable.waitFor();
    await page.keyboard.press('Escape');
    await context.setOffline(false);
    await waitStatus(page, 'live');
    await until(async () => (await unreachable.count()) === 0, 'gone once the board is live');
  });

  it('offline, the status says the edits are kept on this device, and its sentence is not cut off', async () => {
    const { page, context } = await newUser(app, 'Olly');
    await createBoard(page, 'Offline');
    await context.setOffline(true);
    await waitStatus(page, 'offline');
    await sticky(page, 400, 400, 'Made offline');
    const status = page.locator('[role="status"][data-status="offline"]');
    await status
      .locator('[data-saved="saving"]', { hasText: 'Not saved yet: kept on this device' })
      .waitFor();
    const sentence = status.locator('.sentence');
    const cut = await sentence.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    assert.equal(cut, false, `the sentence is shown whole: ${await sentence.textContent()}`);
    await context.setOffline(false);
    await waitStatus(page, 'live');
  });

  it('a viewer’s Ctrl+A draws nothing on the editors’ screens', async () => {
    const fay = (await newUser(app, 'Fay')).page;
    const vi = (await newUser(app, 'Vi', { guest: true })).page;
    await sharedBoard(fay, 'Watched', { viewers: [vi] });
    const id = await sticky(fay, 400, 400, 'Mine');
    await vi.locator(`[data-shape-id="${id}"]`).waitFor();
    await canvas(vi).focus();
    await vi.keyboard.press('Control+a');
    await vi.locator(`[data-selected-id="${id}"]`).waitFor();
    // Presence carries the cursor and the selection in one state: once Fay sees Vi's cursor
    // where it moved after the Ctrl+A, she has the selection too.
    const area = (await boardArea(vi).boundingBox())!;
    await vi.mouse.move(area.x + 900, area.y + 600);
    await fay.locator('[data-cursor-name="Vi"]').waitFor();
    assert.equal(await fay.locator('[data-remote-selection="Vi"]').count(), 0);
  });

  it('a pasted image lands at the pointer', async () => {
    const { page } = await newUser(app, 'Pia');
    await createBoard(page, 'Pictures');
    const bytes = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const area = (await boardArea(page).boundingBox())!;
    await page.mouse.move(area.x + 250, area.y + 550);
    await page.evaluate((b64) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], 'pasted.png', { type: 'image/png' }));
      document.body.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    }, bytes.toString('base64'));
    await shapes(page, 'image').waitFor();
    const box = (await shapes(page, 'image').boundingBox())!;
    const centre = { x: box.x - area.x + box.width / 2, y: box.y - area.y + box.height / 2 };
    assert.ok(
      Math.abs(centre.x - 250) < 10 && Math.abs(centre.y - 550) < 10,
      `centred at the pointer: ${JSON.stringify(centre)}`,
    );
  });

  it('XL on a full note says why the text does not grow', async () => {
    const { page } = await newUser(app, 'Xan');
    await createBoard(page, 'Full note');
    const id = await sticky(
      page,
      400,
      400,
      'A long note about everything that went wrong in the sprint and what we should try next time around',
    );
    await page.locator(`[data-shape-id="${id}"]`).click();
    await page.getByRole('button', { name: 'Text size XL' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /shrinks to fit/ })
      .waitFor();
  });

  it('a person picks their colour in their avatar’s menu, and the other sees it live', async () => {
    const ana = (await newUser(app, 'Ana')).page;
    const ben = (await newUser(app, 'Ben')).page;
    await sharedBoard(ana, 'Colours', { editors: [ben] });
    const anaOnBen = ben.getByRole('button', { name: /^Follow Ana/ });
    await anaOnBen.waitFor();
    const before = await anaOnBen.locator('.avatar').evaluate((el) => getComputedStyle(el).backgroundColor);
    // A colour that is neither Ana's nor Ben's now.
    const benOnAna = ana.getByRole('button', { name: /^Follow Ben/ });
    await benOnAna.waitFor();
    const taken = [
      before,
      await benOnAna.locator('.avatar').evaluate((el) => getComputedStyle(el).backgroundColor),
    ];
    const palette: [string, string][] = [
      ['violet', 'rgb(162, 155, 254)'],
      ['green', 'rgb(76, 209, 55)'],
      ['blue', 'rgb(84, 160, 255)'],
    ];
    const [name, rgb] = palette.find(([, c]) => !taken.includes(c))!;
    await ana.getByRole('button', { name: 'Ana (you): your colour' }).click();
    await ana.getByRole('menuitemradio', { name: `Colour ${name}` }).click();
    await until(
      async () =>
        (await anaOnBen.locator('.avatar').evaluate((el) => getComputedStyle(el).backgroundColor)) === rgb,
      'Ben sees Ana’s new colour',
    );
    const mine = ana.getByRole('button', { name: 'Ana (you): your colour' }).locator('.avatar');
    assert.equal(
      await mine.evaluate((el) => getComputedStyle(el).backgroundColor),
      rgb,
      'her own avatar too',
    );
    await ana.getByRole('button', { name: 'Ana (you): your colour' }).click();
    await ana.screenshot({ path: `${artifacts}/trial-colour-menu.png` });
    // Kept on her account.
    const me = await ana.evaluate(async () => (await (await fetch('/api/me')).json()).user.color);
    assert.equal(me.toLowerCase(), { violet: '#a29bfe', green: '#4cd137', blue: '#54a0ff' }[name]);
    // On a phone the menu stays on the screen: hung from the avatar, it ran off the left edge.
    await ana.keyboard.press('Escape');
    await ana.setViewportSize({ width: 390, height: 844 });
    await ana.getByRole('button', { name: 'Ana (you): your colour' }).click();
    const menu = ana.getByRole('menu', { name: 'Your colour' });
    await menu.waitFor();
    await ana.screenshot({ path: `${artifacts}/trial-colour-menu-390.png` });
    const box = (await menu.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the menu within the screen: ${JSON.stringify(box)}`);
    const bar = (await ana.locator('.topbar > .right-panel').boundingBox())!;
    assert.ok(box.y >= bar.y + bar.height, 'below the top bar, not over it');
    for (const swatch of await menu.getByRole('menuitemradio').all()) {
      const b = (await swatch.boundingBox())!;
      assert.ok(b.x >= 0 && b.x + b.width <= 390, `a swatch off the screen: ${JSON.stringify(b)}`);
    }
  });

  it('a vote total on a sticky scrolled under the tool bar stays below it', async () => {
    const { page } = await newUser(app, 'Bea');
    await createBoard(page, 'Badges');
    const voted = await sticky(page, 640, 300, 'Voted');
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByRole('button', { name: 'Start vote' }).click();
    await page.getByText('3 votes left').waitFor();
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByRole('button', { name: /^Vote for Voted/ }).click();
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByText('2 votes left').waitFor();
    await page.getByRole('button', { name: 'End vote' }).click();
    const total = page.locator(`.vote-total[data-shape-id="${voted}"]`, { hasText: '1' });
    await total.waitFor();
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    // Scroll the board until the total sits on a tool bar button.
    const tool = page.getByRole('button', { name: 'Sticky note', exact: true });
    const t = (await tool.boundingBox())!;
    const b = (await total.boundingBox())!;
    await canvas(page).hover();
    await page.mouse.wheel(
      b.x + b.width / 2 - (t.x + t.width / 2),
      b.y + b.height / 2 - (t.y + t.height / 2),
    );
    await until(async () => {
      const now = (await total.boundingBox())!;
      return Math.abs(now.y + now.height / 2 - (t.y + t.height / 2)) < 12;
    }, 'the total under the tool bar');
    const now = (await total.boundingBox())!;
    // The total lets clicks through (pointer-events: none), which also hides it from
    // elementFromPoint: make it hittable so the point answers what is painted on top.
    await total.evaluate((el) => {
      (el as HTMLElement).style.pointerEvents = 'auto';
    });
    const on = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('.toolbar') !== null,
      { x: now.x + now.width / 2, y: now.y + now.height / 2 },
    );
    assert.equal(on, true, 'the tool bar, not the total, is at that point');
  });

  it('notices and messages share one stack, newest last, none over another', async () => {
    const { page, context } = await newUser(app, 'Stan');
    await createBoard(page, 'Stack');
    const id = await sticky(page, 400, 400, 'Fixed');
    const locked = await lockedDragNotice(page, id);
    await context.setOffline(true);
    await waitStatus(page, 'offline');
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByRole('button', { name: 'Start vote' }).click();
    const unreachable = page.getByRole('alert').filter({ hasText: 'Cannot reach the server' });
    await unreachable.waitFor();
    await page.keyboard.press('Escape');
    const a = (await locked.boundingBox())!;
    const c = (await unreachable.boundingBox())!;
    assert.ok(a.y + a.height <= c.y, `the newer message below the older, apart: ${JSON.stringify([a, c])}`);
    assert.equal(
      await locked.evaluate(
        (el, other) => el.parentElement === other?.parentElement,
        await unreachable.elementHandle(),
      ),
      true,
      'one stack',
    );
    await page.screenshot({ path: `${artifacts}/trial-notices.png` });
    await context.setOffline(false);
    await waitStatus(page, 'live');
  });
  it('a viewer following someone: the viewer note, the “Following” pill, the controls and a frame’s title do not overlap', async () => {
    const fay = (await newUser(app, 'Fae')).page;
    const vi = (await newUser(app, 'Vin', { guest: true })).page;
    await sharedBoard(fay, 'Followed', { viewers: [vi] });
    // The viewer's note leaves by itself after a while; the pointer on it holds it (RoleBanner).
    const note = vi.getByRole('note').filter({ hasText: 'You are viewing this board' });
    await note.hover();
    // A frame whose title sits near the top of the view, under where floating notes would go.
    await fay.keyboard.press('f');
    const area = (await boardArea(fay).boundingBox())!;
    await fay.mouse.move(area.x + 440, area.y + 140);
    await fay.mouse.down();
    await fay.mouse.move(area.x + 840, area.y + 460, { steps: 8 });
    await fay.mouse.up();
    await until(async () => (await shapes(fay, 'frame').count()) === 1, 'a frame');
    const frameId = (await shapes(fay, 'frame').getAttribute('data-shape-id'))!;
    await vi.getByRole('button', { name: /^Follow Fae/ }).click();
    const pill = vi.getByRole('status').filter({ hasText: 'Following Fae' });
    const title = vi.locator(`[data-frame-title="${frameId}"] .frame-name`);
    for (const size of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await vi.setViewportSize(size);
      await pill.waitFor();
      await note.hover();
      await title.waitFor();
      await vi.screenshot({ path: `${artifacts}/trial-viewer-following-${size.width}.png` });
      type Box = { x: number; y: number; width: number; height: number };
      const meets = (a: Box, b: Box) =>
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      const floating = { note: (await note.boundingBox())!, pill: (await pill.boundingBox())! };
      assert.ok(!meets(floating.note, floating.pill), `at ${size.width}: the note and the pill overlap`);
      const controls = await vi
        .locator('.topbar > .panel, [role="toolbar"], .status, .minimap')
        .evaluateAll((els) =>
          els
            .filter((e) => (e as HTMLElement).offsetParent !== null)
            .map((e) => {
              const r = e.getBoundingClientRect();
              const name = e.getAttribute('aria-label') ?? e.className;
              return { name, box: { x: r.x, y: r.y, width: r.width, height: r.height } };
            }),
        );
      assert.ok(controls.length >= 4, `the controls found: ${controls.map((c) => c.name).join(', ')}`);
      const titleBox = (await title.boundingBox())!;
      const inView = titleBox.y >= 0 && titleBox.y + titleBox.height <= size.height;
      for (const [which, box] of Object.entries(floating)) {
        for (const c of controls)
          assert.ok(!meets(box, c.box), `at ${size.width}: the ${which} covers ${c.name}`);
        if (inView)
          assert.ok(!meets(box, titleBox), `at ${size.width}: the ${which} covers the frame’s title`);
      }
    }
  });
});
