// Writing without a tool and the board around it: a double-click on empty canvas writes text,
// pasted plain text becomes a text shape or a sticky note, the title is renamed in place with the
// dashboard's rules, Back and Forward move between the dashboard and a board, and the dashboard
// shows each board's real thumbnail.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { apiPaths } from '@tandem/shared';
import type { Page } from 'playwright-core';
import { artifacts, boardArea, createBoard, newUser, place, shapes, until, withApp } from './helpers.ts';

/** Pastes `text` as the system clipboard would, onto the page (not into a field). */
const pastePlain = (page: Page, text: string) =>
  page.evaluate((text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    document.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);

const textOf = (page: Page, type: string, nth = 0) =>
  shapes(page, type).nth(nth).locator('.shape-text').textContent();

describe('text entry, title and thumbnails', () => {
  let page: Page;

  const app = withApp();
  before(async () => {
    page = (await newUser(app, 'Tove')).page;
  });
  /** Each test on a new, empty board of its own, so none counts on what another left behind. */
  async function newBoard(title: string): Promise<string> {
    await page.goto('/boards');
    return createBoard(page, title);
  }

  it('a double-click on empty canvas writes text there; leaving it empty leaves nothing', async () => {
    await newBoard('Words');
    await boardArea(page).dblclick({ position: { x: 400, y: 300 } });
    const field = page.getByLabel('Shape text');
    await field.waitFor();
    await field.pressSequentially('Hello there');
    await field.press('Escape');
    await until(async () => (await textOf(page, 'text')) === 'Hello there', 'the text shape');
    const box = (await shapes(page, 'text').first().boundingBox())!;
    assert.ok(
      Math.abs(box.x + 12 - 400) < 30 && Math.abs(box.y + box.height / 2 - 300) < 30,
      'where clicked',
    );
    // A second double-click elsewhere, then Escape at once: no empty text shape stays behind.
    await boardArea(page).dblclick({ position: { x: 800, y: 550 } });
    await page.getByLabel('Shape text').waitFor();
    await page.keyboard.press('Escape');
    await until(async () => (await page.getByLabel('Shape text').count()) === 0, 'editing ended');
    assert.equal(await shapes(page, 'text').count(), 1);
  });

  it('pasted plain text becomes a text shape, or a sticky note when it is long', async () => {
    await newBoard('Pasted');
    await boardArea(page).click({ position: { x: 100, y: 700 } });
    await pastePlain(page, 'A short line');
    await until(async () => (await shapes(page, 'text').count()) === 1, 'a text shape from the paste');
    assert.ok(
      (await shapes(page, 'text').allTextContents()).some((t) => t.includes('A short line')),
      'it holds the pasted words',
    );
    await pastePlain(page, 'First point\r\nSecond point\r\nThird point');
    await until(async () => (await shapes(page, 'sticky').count()) === 1, 'a sticky from the paste');
    assert.deepEqual(await shapes(page, 'sticky').first().locator('.shape-text tspan').allTextContents(), [
      'First point',
      'Second point',
      'Third point',
    ]);
    // Whitespace alone makes nothing.
    await pastePlain(page, '  \n ');
    assert.equal(await shapes(page).count(), 2);
    await page.keyboard.press('Control+z');
    await until(async () => (await shapes(page, 'sticky').count()) === 0, 'one undo removes the paste');
    await page.keyboard.press('Control+Shift+z');
    await until(async () => (await shapes(page, 'sticky').count()) === 1, 'and redo brings it back');
  });

  it('the title is renamed in place; an invalid one keeps the field open with a sentence', async () => {
    const boardId = await newBoard('Words');
    await page.getByRole('button', { name: 'Rename board: Words' }).click();
    const field = page.getByLabel('Board title');
    await field.fill('   ');
    await field.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Enter a title.' }).waitFor();
    await field.fill('x'.repeat(121));
    await field.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'A title has at most 120 characters.' }).waitFor();
    assert.ok(await field.isVisible(), 'the field stays open');
    await field.fill('Words and pictures');
    await field.press('Enter');
    await page.getByRole('button', { name: 'Rename board: Words and pictures' }).waitFor();
    const stored = await page.evaluate(
      async (id) => (await (await fetch(`/api/boards/${id}`)).json()).board.title,
      boardId,
    );
    assert.equal(stored, 'Words and pictures');
    // Escape gives up an edit.
    await page.getByRole('button', { name: 'Rename board: Words and pictures' }).click();
    await page.getByLabel('Board title').fill('Never mind');
    await page.getByLabel('Board title').press('Escape');
    await page.getByRole('button', { name: 'Rename board: Words and pictures' }).waitFor();
  });

  // The field was 320 px wide whatever room the bar had: it pushed the Pages button out of the title bar
  // (its white ended before the button) and over the tool bar, whose Select, Hand, Sticky and
  // Rectangle could not be clicked while renaming. The field takes the bar's room and no more.
  it('while the title is renamed, the tool bar stays clear and clickable', async () => {
    await newBoard('Overlap');
    // Two pages: the button names the page open (cut short: a name may be 100 characters) and
    // where it is in the list; the tab says the page too.
    const long = 'The parking lot of ideas we did not get to this week';
    await page.getByRole('button', { name: 'Pages', exact: true }).click();
    await page.getByRole('button', { name: 'Add page' }).click();
    await page.getByLabel('Page name').fill(long);
    await page.getByLabel('Page name').press('Enter');
    await page.getByRole('button', { name: 'Close pages' }).click();
    const pagesButton = page.getByRole('button', { name: 'Pages', exact: true });
    await until(
      async () => (await pagesButton.textContent())?.endsWith(' (2/2)') === true,
      'the page and its place',
    );
    assert.equal(await pagesButton.getAttribute('title'), `Pages: on ${long}, page 2 of 2`);
    await until(async () => (await page.title()) === `Overlap · ${long} · Tandem`, 'the page in the tab');
    assert.ok((await pagesButton.boundingBox())!.width < 260, 'the button stays short');
    await page.screenshot({ path: `${artifacts}/entry-pages-button-long-name.png` });
    await page.getByRole('button', { name: 'Rename board: Overlap' }).click();
    const field = page.getByLabel('Board title');
    await field.waitFor();
    const hits = await page.getByRole('toolbar', { name: 'Tools' }).evaluate((bar) =>
      Array.from(bar.querySelectorAll('button')).flatMap((button) => {
        const r = button.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return top && button.contains(top)
          ? []
          : [`${button.getAttribute('aria-label')}: ${top?.getAttribute('aria-label') ?? top?.tagName}`];
      }),
    );
    assert.deepEqual(hits, [], 'each tool is on top at its centre');
    // The Pages button and the field are inside the title bar's white, which ends before the tools.
    const box = async (l: ReturnType<Page['locator']>) => (await l.boundingBox())!;
    const bar = await box(page.locator('.title-panel'));
    const tools = await box(page.getByRole('toolbar', { name: 'Tools' }));
    for (const [name, inner] of [
      ['Pages', await box(page.getByRole('button', { name: 'Pages', exact: true }))],
      ['the field', await box(field)],
    ] as const) {
      assert.ok(inner.x + inner.width <= bar.x + bar.width + 0.5, `${name} inside the title bar`);
    }
    assert.ok(bar.x + bar.width <= tools.x, 'the title bar ends before the tools');
    await page.screenshot({
      path: `${artifacts}/title-renaming.png`,
      clip: { x: 0, y: 0, width: 1280, height: 120 },
    });
    // The tools work while the field is open (a click on one ends the renaming, as any click away).
    await page.getByRole('button', { name: 'Rectangle', exact: true }).click({ timeout: 3000 });
    await page.getByRole('button', { name: 'Rectangle', exact: true, pressed: true }).waitFor();
  });

  it('the browser’s Back and Forward move between the dashboard and a board', async () => {
    await newBoard('Travel');
    const onBoard = page.getByRole('button', { name: 'Rename board: Travel' });
    const onDashboard = page.getByRole('heading', { name: 'My boards' });
    await onBoard.waitFor();
    await page.getByRole('link', { name: 'All boards' }).click();
    await onDashboard.waitFor();
    await page.goBack();
    await onBoard.waitFor();
    assert.equal(await onDashboard.count(), 0);
    await page.goForward();
    await onDashboard.waitFor();
    assert.equal(await onBoard.count(), 0);
  });

  it('the dashboard shows the board’s real thumbnail, painted from its shapes', async () => {
    // A few coloured shapes make the picture; leaving the board sends the last one.
    const boardId = await newBoard('Pictures');
    await place(page, 'Sticky note', 300, 300);
    await page.getByLabel('Shape text').pressSequentially('Yellow');
    await page.keyboard.press('Escape');
    await until(async () => (await shapes(page, 'sticky').count()) === 1, 'the sticky note');
    await page.getByRole('button', { name: 'Rectangle', exact: true }).click();
    await boardArea(page).click({ position: { x: 900, y: 250 } });
    await page.getByRole('button', { name: 'Ellipse', exact: true }).click();
    await boardArea(page).click({ position: { x: 1000, y: 500 } });
    await page.getByRole('link', { name: 'All boards' }).click();
    await page.getByRole('heading', { name: 'My boards' }).waitFor();
    // The picture is the board: the yellow of the sticky note is in it.
    const yellow = await yellowInThumbnail(boardId);
    assert.ok(yellow > 50, `yellow pixels in the thumbnail: ${yellow}`);
    // A second board, untouched, has an empty card rather than a made-up picture.
    await createBoard(page, 'Blank');
    await page.getByRole('link', { name: 'All boards' }).click();
    await page.getByRole('heading', { name: 'My boards' }).waitFor();
    assert.equal(await page.locator('.board-card').filter({ hasText: 'Blank' }).locator('img').count(), 0);
    await page.screenshot({ path: `${artifacts}/dashboard-thumbnails.png` });
  });

  it('a page hidden right after an edit (a tab closed or switched) sends the thumbnail at once', async () => {
    const boardId = await newBoard('Quick note');
    await place(page, 'Sticky note', 400, 300);
    await page.getByLabel('Shape text').pressSequentially('Now');
    await page.keyboard.press('Escape');
    await page.locator('[data-saved="saved"]').waitFor();
    // What a closing or switched-away tab does first, within the seconds between two thumbnails:
    // the page becomes hidden. Its thumbnail must be on its way in that very event (nothing of the
    // page may run after a close); the board's own clean-up never runs. Leaving by navigation
    // raced the browser's keepalive handling under load (it failed a CI run), so the page stays.
    const stored = page.waitForResponse(
      (r) => r.url().endsWith(apiPaths.thumbnail(boardId)) && r.request().method() === 'PUT',
    );
    const sentInTheEvent = await page.evaluate(() => {
      let sent = 0;
      const realFetch = window.fetch;
      window.fetch = (input, init) => {
        if (String(input).endsWith('/thumbnail')) sent++;
        return realFetch(input, init);
      };
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
      delete (document as { visibilityState?: unknown }).visibilityState;
      window.fetch = realFetch;
      return sent;
    });
    assert.equal(sentInTheEvent, 1, 'the thumbnail is sent as the page is hidden');
    assert.ok((await stored).ok(), 'the server stored it');
    await page.goto('/boards');
    await page.getByRole('heading', { name: 'My boards' }).waitFor();
    const yellow = await yellowInThumbnail(boardId);
    assert.ok(yellow > 50, `yellow pixels in the thumbnail: ${yellow}`);
  });

  it('the thumbnail draws a shape in its own stroke, fill and fill style', async () => {
    // A rectangle with a red outline and a yellow hatched fill, not the plain blue of its colour.
    const boardId = await newBoard('Styled');
    await page.getByRole('button', { name: 'Rectangle', exact: true }).click();
    await boardArea(page).click({ position: { x: 600, y: 400 } });
    await until(async () => (await shapes(page, 'rect').count()) === 1, 'the rectangle');
    await page.getByRole('button', { name: 'Stroke red' }).click();
    await page.getByRole('button', { name: 'Fill yellow' }).click();
    await page.getByLabel('Fill style').selectOption('hatched');
    await page.locator('[data-saved="saved"]').waitFor();
    await page.getByRole('link', { name: 'All boards' }).click();
    await page.getByRole('heading', { name: 'My boards' }).waitFor();
    const seen = await pixelsInThumbnail(boardId);
    await page
      .locator(`[data-board-id="${boardId}"]`)
      .screenshot({ path: `${artifacts}/dashboard-thumbnail-styled.png` });
    assert.ok(seen.red > 50, `red outline pixels in the thumbnail: ${seen.red}`);
    assert.ok(seen.yellowish > 50, `yellow hatch pixels in the thumbnail: ${seen.yellowish}`);
    assert.ok(seen.white > 50, `white between the hatch lines: ${seen.white}`);
    assert.ok(seen.blue < 20, `blue pixels (the shape's colour, not its style): ${seen.blue}`);
  });

  /** Waits for the board's card to show its thumbnail (reloading the dashboard), and counts its sticky-note yellow pixels. */
  async function yellowInThumbnail(boardId: string): Promise<number> {
    return (await pixelsInThumbnail(boardId)).yellow;
  }

  /**
   * Waits for the board's card to show its thumbnail (reloading the dashboard), and counts its
   * pixels of palette yellow (#ffd84d, and lighter where blended), red ink (#c0392b), blue (ink
   * #1e6fd9 or its light tint) and white inside the painted shapes' box.
   */
  async function pixelsInThumbnail(
    boardId: string,
  ): Promise<{ yellow: number; yellowish: number; red: number; blue: number; white: number }> {
    const img = page.locator(`[data-board-id="${boardId}"] img.thumb-img`);
    await until(
      async () => {
        if ((await img.count()) === 0) {
          await page.reload();
          return false;
        }
        // Briefly: the picture can leave the card between the count and this (a re-render, or a
        // failed load that empties the card), and the next round reloads. At the default timeout
        // one such round held the whole wait (a clean-clone run under load, 30 s).
        return img
          .evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0, undefined, {
            timeout: 1000,
          })
          .catch(() => false);
      },
      'the thumbnail on the card',
      30_000,
    );
    return img.evaluate((el: HTMLImageElement) => {
      const c = document.createElement('canvas');
      c.width = el.naturalWidth;
      c.height = el.naturalHeight;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(el, 0, 0);
      const { data } = ctx.getImageData(0, 0, c.width, c.height);
      const n = { yellow: 0, yellowish: 0, red: 0, blue: 0, white: 0 };
      // White counts only inside the shapes' box: the margin around them is white anyway.
      let [x0, y0, x1, y1] = [c.width, c.height, 0, 0];
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
        if (r > 230 && g > 190 && g < 230 && b < 120) n.yellow++;
        // Thin hatch lines blend with the white between them: yellow, lighter.
        if (r > 230 && g > 190 && b < g - 50) n.yellowish++;
        else if (r > 150 && r < 220 && g < 90 && b < 80) n.red++;
        else if ((r < 80 && g > 80 && g < 140 && b > 190) || (r < 225 && b > 245 && b - r > 30)) n.blue++;
        if (r < 245 || g < 245 || b < 245) {
          const x = (i / 4) % c.width;
          const y = Math.floor(i / 4 / c.width);
          [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
        }
      }
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const i = (y * c.width + x) * 4;
          if (data[i]! > 250 && data[i + 1]! > 250 && data[i + 2]! > 250) n.white++;
        }
      }
      return n;
    });
  }
});
