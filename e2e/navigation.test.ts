// Finding your way on a large board: the minimap jumps and drags the view to an area and draws
// shapes as they look, "Zoom to fit" shows the whole board while "Zoom to selection" shows only
// what is selected.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { fromMinimap, minimapFrame, toMinimap } from '../client/src/board/model/minimap.ts';
import {
  artifacts,
  canvas,
  createBoard,
  gridBoardFile,
  newUser,
  place,
  shapes,
  until,
  withApp,
} from './helpers.ts';

const screen = { w: 1280, h: 800 };
const zoomLabel = (page: Page) => page.getByRole('button', { name: 'Reset zoom' });
/** The shape whose text is exactly `text` (the grid's notes are "#0", "#1", …). */
const shapeWithText = (page: Page, text: string) =>
  page
    .locator('[data-shape-id]')
    .filter({ has: page.locator('.shape-text', { hasText: new RegExp(`^${text}$`) }) });

/** How far the centre of a shape lies from the centre of the screen, in pixels (∞ when not drawn). */
async function offCentre(page: Page, text: string): Promise<number> {
  const shape = shapeWithText(page, text);
  if ((await shape.count()) === 0) return Number.POSITIVE_INFINITY;
  const box = await shape.first().boundingBox();
  if (!box) return Number.POSITIVE_INFINITY;
  return Math.hypot(box.x + box.width / 2 - screen.w / 2, box.y + box.height / 2 - screen.h / 2);
}

describe('navigation', () => {
  let page: Page;

  const app = withApp();
  before(async () => {
    page = (await newUser(app, 'Noor')).page;
  });
  /**
   * A new board of `count` notes (400 unless said), 20 a row, 260 units apart (400 of them are
   * 5,180 units square), its notes at (260i, 260j), seen at 100 % around its centre. Each test makes its own, so none counts on where another left
   * the view.
   */
  async function bigMap(title: string, count = 400): Promise<void> {
    await page.goto('/boards');
    await createBoard(page, title);
    await page.getByLabel('Import JSON file').setInputFiles(gridBoardFile(count, { perRow: 20 }));
    await page.getByText(`Imported ${count} shapes.`).waitFor();
    await zoomLabel(page).click();
    await until(async () => (await zoomLabel(page).textContent()) === '100%', 'at 100%');
  }

  it('the minimap jumps the view to the area pressed, and follows a drag', async () => {
    await bigMap('Big map');
    const minimap = page.getByRole('region', { name: 'Minimap' });
    // Off until asked for (it covers a corner of the board), then on.
    assert.equal(await minimap.count(), 0);
    await page.getByRole('button', { name: 'Minimap' }).click();
    await minimap.waitFor();
    const box = (await minimap.boundingBox())!;
    // The board is drawn on the minimap by the same mapping the page uses: where does a note lie?
    const content = { x: 0, y: 0, w: 19 * 260 + 200, h: 19 * 260 + 200 };
    const view = { x: content.w / 2 - screen.w / 2, y: content.h / 2 - screen.h / 2, ...screen };
    const frame = minimapFrame(content, view, { w: box.width, h: box.height });
    const at = (col: number, row: number) => {
      const m = toMinimap(frame, { x: col * 260 + 100, y: row * 260 + 100, w: 0, h: 0 });
      return { x: box.x + m.x, y: box.y + m.y };
    };
    // One minimap pixel is 1/scale board units: the note lands within that of the centre.
    const slack = 2 / frame.scale;
    assert.ok(slack < 100, `a minimap pixel is ${1 / frame.scale} units`);
    assert.ok((await offCentre(page, '#0')) > 1000, 'the first note starts far from view');

    const first = at(0, 0);
    await page.mouse.click(first.x, first.y);
    await until(async () => (await offCentre(page, '#0')) < slack, 'the view jumped to the first note');
    assert.equal(await zoomLabel(page).textContent(), '100%', 'a jump keeps the zoom');
    await page.screenshot({ path: `${artifacts}/minimap-jump.png` });

    // Drag along the minimap: the view follows the pointer to the last note.
    const last = at(19, 19);
    const middle = fromMinimap(frame, last.x - box.x, last.y - box.y);
    assert.ok(middle.x > 4900 && middle.y > 4900, 'the test aims at the last note');
    await page.mouse.move(first.x, first.y);
    await page.mouse.down();
    const mid = at(10, 10);
    await page.mouse.move(mid.x, mid.y, { steps: 4 });
    await until(async () => (await offCentre(page, '#210')) < slack, 'mid-drag, the view is mid-board');
    await page.mouse.move(last.x, last.y, { steps: 4 });
    await page.mouse.up();
    await until(async () => (await offCentre(page, '#399')) < slack, 'the view followed the drag');
  });

  it('Zoom to fit shows the whole board, Zoom to selection only the selection (Shift+1, Shift+2)', async () => {
    await bigMap('Fit and select');
    const rendered = async () => Number(await canvas(page).getAttribute('data-rendered-count'));
    // Select a note near the middle of the screen, then fit the board: all of it is drawn.
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    const note = (await shapeWithText(page, '#210').boundingBox())!;
    await page.mouse.click(note.x + note.width / 2, note.y + note.height / 2);
    await until(async () => (await page.locator('.selection rect').count()) > 0, 'a note selected');
    await page.getByRole('button', { name: 'Zoom to fit' }).click();
    await until(async () => (await rendered()) === 400, 'the whole board in view');
    const fit = await zoomLabel(page).textContent();
    await page.getByRole('button', { name: 'Zoom to selection' }).click();
    await until(async () => (await zoomLabel(page).textContent()) === '200%', 'zoomed to the one note');
    assert.ok((await offCentre(page, '#210')) < 10, 'the selected note is centred');
    await canvas(page).focus();
    await page.keyboard.press('Shift+Digit1');
    await until(async () => (await zoomLabel(page).textContent()) === fit, 'Shift+1 fits the board');
    await page.keyboard.press('Shift+Digit2');
    await until(async () => (await zoomLabel(page).textContent()) === '200%', 'Shift+2 fits the selection');
    await page.keyboard.press('Escape');
    assert.ok(
      await page.getByRole('button', { name: 'Zoom to selection' }).isDisabled(),
      'nothing selected, nothing to zoom to',
    );
  });

  it('Zoom to fit with the Pages panel open fits the board beside it, not under it', async () => {
    // 20 × 8 notes: wider than high, so fitted to the screen's width its top left corner would
    // come at (80, 175), under the panel (down to y ≈ 216).
    await bigMap('Fit beside the list', 160);
    await page.getByRole('button', { name: 'Pages', exact: true }).click();
    const panel = (await page.getByRole('region', { name: 'Pages' }).boundingBox())!;
    const rendered = async () => Number(await canvas(page).getAttribute('data-rendered-count'));
    await page.getByRole('button', { name: 'Zoom to fit' }).click();
    await until(async () => (await rendered()) === 160, 'the whole board in view');
    // Every shape (their union, as drawn) is right of the panel and on screen. Words are not drawn
    // at this zoom, so the shapes are told apart by nothing but their boxes.
    const drawn = () =>
      page.evaluate(() => {
        const boxes = [...document.querySelectorAll('[data-shape-id]')].map((el) =>
          el.getBoundingClientRect(),
        );
        return {
          count: boxes.length,
          left: Math.min(...boxes.map((b) => b.left)),
          right: Math.max(...boxes.map((b) => b.right)),
          top: Math.min(...boxes.map((b) => b.top)),
          bottom: Math.max(...boxes.map((b) => b.bottom)),
        };
      });
    await until(
      async () => (await drawn()).left > panel.x + panel.width,
      'the board is clear of the Pages panel',
    );
    const all = await drawn();
    assert.equal(all.count, 160);
    assert.ok(all.right < screen.w && all.top > 0 && all.bottom < screen.h, JSON.stringify(all));
    await page.screenshot({ path: `${artifacts}/navigation-fit-beside-pages.png` });
    await page.getByRole('button', { name: 'Pages', exact: true }).click();
  });

  it('going back to a page shows it as it was left, not fitted afresh', async () => {
    await bigMap('Views per page');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await until(async () => (await zoomLabel(page).textContent()) === '125%', 'zoomed in');
    const before = await offCentre(page, '#210');
    await page.getByRole('button', { name: 'Pages', exact: true }).click();
    await page.getByRole('button', { name: 'Add page' }).click();
    await page.getByLabel('Page name').press('Enter');
    await until(async () => (await shapes(page).count()) === 0, 'on the new, empty page');
    await page.locator('.pages-panel .page-name', { hasText: 'Page 1' }).click();
    await until(async () => (await shapeWithText(page, '#210').count()) === 1, 'back on the first page');
    assert.equal(await zoomLabel(page).textContent(), '125%', 'the zoom it was left at');
    assert.ok(Math.abs((await offCentre(page, '#210')) - before) < 2, 'the place it was left at');
    await page.getByRole('button', { name: 'Pages', exact: true }).click();
  });

  it('the minimap draws a shape in its own stroke, fill and fill style, not a block of its colour', async () => {
    // Two rectangles with a red outline and a yellow fill, hatched on the left, solid on the right.
    await page.goto('/boards');
    await createBoard(page, 'Styled map');
    for (const [x, fillStyle] of [
      [350, 'hatched'],
      [850, 'solid'],
    ] as const) {
      const before = await shapes(page, 'rect').count();
      await place(page, 'Rectangle', x, 330);
      await until(async () => (await shapes(page, 'rect').count()) === before + 1, 'the rectangle');
      await page.getByRole('button', { name: 'Stroke red' }).click();
      await page.getByRole('button', { name: 'Fill yellow' }).click();
      await page.getByLabel('Fill style').selectOption(fillStyle);
    }
    await page.keyboard.press('Escape');
    const minimap = page.getByRole('region', { name: 'Minimap' });
    if ((await minimap.count()) === 0) await page.getByRole('button', { name: 'Minimap' }).click();
    await minimap.waitFor();
    // Counted in the minimap's own pixels, each half apart: the hatched rectangle is on the left.
    const count = () =>
      minimap.locator('canvas').evaluate((el: HTMLCanvasElement) => {
        const { data, width } = el.getContext('2d')!.getImageData(0, 0, el.width, el.height);
        const halves = [0, 1].map(() => ({ red: 0, yellow: 0, paleYellow: 0, blue: 0 }));
        for (let i = 0; i < data.length; i += 4) {
          // The canvas is see-through: as seen, over the minimap's background (#fbfbfc).
          const a = data[i + 3]! / 255;
          const [r, g, b] = [251, 251, 252].map((bg, k) => data[i + k]! * a + bg * (1 - a)) as [
            number,
            number,
            number,
          ];
          const n = halves[(i / 4) % width < width / 2 ? 0 : 1]!;
          // Red ink #c0392b, a little blended at the edges of a one-pixel line.
          if (r > 150 && r - g > 80 && r - b > 80) n.red++;
          // Palette yellow #ffd84d as a solid fill…
          else if (r > 230 && g > 190 && g < 230 && b < 120) n.yellow++;
          // …and as the light tone a hatch is drawn in below 30 % (the canvas's own, far away).
          else if (r > 240 && g > 225 && g < 248 && b > 150 && b < 230) n.paleYellow++;
          else if (b > 150 && b - r > 60) n.blue++;
        }
        return halves;
      });
    let seen = await count();
    await until(async () => {
      seen = await count();
      return seen[0]!.red > 0 || seen[0]!.blue > 0;
    }, 'the minimap painted');
    await minimap.screenshot({ path: `${artifacts}/minimap-styled.png` });
    const [hatched, solid] = seen as [(typeof seen)[0], (typeof seen)[0]];
    const seenText = JSON.stringify(seen);
    assert.ok(hatched.red > 15 && solid.red > 15, `red outlines on the minimap: ${seenText}`);
    assert.ok(solid.yellow > 40, `the solid fill is yellow: ${seenText}`);
    assert.ok(hatched.paleYellow > 40, `the hatch is its light yellow tone: ${seenText}`);
    assert.ok(hatched.yellow < 5, `the hatch is not a solid fill: ${seenText}`);
    assert.ok(hatched.blue + solid.blue < 5, `no blue (the shapes' colour, not their style): ${seenText}`);
  });
});
