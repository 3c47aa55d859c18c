// Text in notes, in the browser: a 12-line sticky shows every line inside the note, and two
// people typing at the same spot of one note get two whole runs of letters, not a mix.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  boardArea,
  createBoard,
  newUser,
  place,
  shapes,
  sharedBoard,
  until,
  withApp,
} from './helpers.ts';

/** Every line's box of the first sticky, and the note's own box, in screen pixels. */
async function stickyLines(page: Page) {
  return page.evaluate(() => {
    const g = document.querySelector('[data-shape-type="sticky"]')!;
    const note = g.querySelector('rect.sticky')!.getBoundingClientRect();
    const lines = Array.from(g.querySelectorAll('.shape-text tspan')).map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent ?? '', top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    });
    return { note: { top: note.top, bottom: note.bottom, left: note.left, right: note.right }, lines };
  });
}

describe('text in notes', () => {
  const app = withApp();

  it('a 12-line sticky shows every line inside the note, and more lines grow the note', async () => {
    const { page } = await newUser(app, 'Tess');
    await createBoard(page, 'Long notes');
    await place(page, 'Sticky note', 500, 350);
    const field = page.getByLabel('Shape text');
    for (let i = 1; i <= 12; i++) {
      await field.pressSequentially(`Line ${i}`);
      if (i < 12) await field.press('Enter');
    }
    await page.keyboard.press('Escape');
    await until(async () => (await stickyLines(page)).lines.length === 12, '12 lines drawn');
    const { note, lines } = await stickyLines(page);
    assert.deepEqual(
      lines.map((l) => l.text.trim()),
      Array.from({ length: 12 }, (_, i) => `Line ${i + 1}`),
    );
    for (const l of lines) {
      assert.ok(l.top >= note.top && l.bottom <= note.bottom + 0.5, `${l.text} inside vertically`);
      assert.ok(l.left >= note.left && l.right <= note.right, `${l.text} inside horizontally`);
    }
    const h0 = note.bottom - note.top;
    await page.screenshot({ path: join(artifacts, 'sticky-12-lines.png') });

    // Past the font floor the note grows, and still every line is inside it.
    await page.locator('[data-shape-type="sticky"]').dblclick();
    await field.press('Control+End');
    for (let i = 13; i <= 30; i++) {
      await field.press('Enter');
      await field.pressSequentially(`Line ${i}`);
    }
    await page.keyboard.press('Escape');
    await until(async () => (await stickyLines(page)).lines.length === 30, '30 lines drawn');
    const grown = await stickyLines(page);
    assert.ok(grown.note.bottom - grown.note.top > h0 + 50, 'the note grew');
    for (const l of grown.lines) assert.ok(l.bottom <= grown.note.bottom + 0.5, `${l.text} inside`);
    await page.screenshot({ path: join(artifacts, 'sticky-30-lines.png') });
  });

  it('Ctrl+Z while typing takes back what was typed since the last pause, for everyone; past the first words, the note', async () => {
    const ada = (await newUser(app, 'Ada')).page;
    const bo = (await newUser(app, 'Bo')).page;
    await sharedBoard(ada, 'Undo while typing', { editors: [bo] });
    const seenByBo = () => bo.locator('[data-shape-type="sticky"] .shape-text').textContent();
    await place(ada, 'Sticky note', 500, 350);
    const field = ada.getByLabel('Shape text');
    await field.pressSequentially('Alpha.');
    // A pause longer than the board's undo step (captureTimeout, 400 ms) ends the first step.
    await ada.waitForTimeout(800);
    await field.pressSequentially(' Beta.');
    await until(async () => (await seenByBo()) === 'Alpha. Beta.', 'Bo sees both words');
    await field.press('Control+z');
    // The field's own undo emptied the note here, and the board stored every letter deleted.
    assert.equal(await field.inputValue(), 'Alpha.');
    await until(async () => (await seenByBo()) === 'Alpha.', 'Bo sees the last words taken back');
    await field.press('Control+y');
    assert.equal(await field.inputValue(), 'Alpha. Beta.', 'Ctrl+Y puts them back');
    await field.press('Control+Shift+z');
    assert.equal(await field.inputValue(), 'Alpha. Beta.', 'nothing more to redo');
    await field.press('Control+z');
    await field.press('Control+z');
    assert.equal(await field.inputValue(), '');
    await field.press('Control+z');
    await until(async () => (await shapes(ada, 'sticky').count()) === 0, 'the note itself is undone');
    await until(async () => (await shapes(bo, 'sticky').count()) === 0, 'for Bo too');
    assert.equal(await field.count(), 0, 'typing ended with the note');
    assert.equal(
      await ada.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Board canvas',
      'focus is back on the board',
    );
    assert.equal(await ada.getByText('Someone else deleted the note').count(), 0, 'no one else did');
    await ada.getByRole('button', { name: 'Redo', exact: true }).click();
    await until(async () => (await shapes(ada, 'sticky').count()) === 1, 'Redo brings the note back');
  });

  it('a click with the Text tool starts the text where the click was', async () => {
    const { page } = await newUser(app, 'Tom');
    await createBoard(page, 'Text at the click');
    await place(page, 'Text', 400, 300);
    await page.keyboard.type('Starts here');
    await page.keyboard.press('Escape');
    const text = page.locator('[data-shape-type="text"] .shape-text', { hasText: 'Starts here' });
    await text.waitFor();
    const area = (await boardArea(page).boundingBox())!;
    const box = (await text.boundingBox())!;
    const left = box.x - area.x;
    // Centred on the click, its first letter sat about 110 px to the left.
    assert.ok(left >= 380 && left <= 420, `the text starts at ${left}, the click was at 400`);
    assert.ok(Math.abs(box.y + box.height / 2 - area.y - 300) < 20, 'on the click’s line');
  });

  it('a click with the Text tool that types nothing leaves no shape and no undo step', async () => {
    const { page } = await newUser(app, 'Ezra');
    await createBoard(page, 'Empty text');
    await place(page, 'Rectangle', 300, 300);
    await until(async () => (await shapes(page).count()) === 1, 'the rectangle');
    await place(page, 'Text', 700, 400);
    await page.getByLabel('Shape text').waitFor();
    await page.keyboard.press('Escape');
    await page.getByLabel('Shape text').waitFor({ state: 'detached' });
    // No invisible empty box is left stored, as in Excalidraw and tldraw.
    await until(async () => (await shapes(page, 'text').count()) === 0, 'the empty text removed');
    assert.equal(await shapes(page).count(), 1, 'only the rectangle');
    // Ctrl+Z takes back the rectangle, not a box nobody saw.
    await page.keyboard.press('Control+z');
    await until(async () => (await shapes(page).count()) === 0, 'Ctrl+Z took back the rectangle');
  });

  it('a text’s box fits its text: a click beside a short text is not on it, and everyone sees that box', async () => {
    const ada = (await newUser(app, 'Ada')).page;
    const bo = (await newUser(app, 'Bo')).page;
    await sharedBoard(ada, 'Short text', { editors: [bo] });
    await place(ada, 'Text', 400, 300);
    await ada.keyboard.type('Hi');
    await ada.keyboard.press('Escape');
    const glyphs = ada.locator('[data-shape-type="text"] .shape-text', { hasText: 'Hi' });
    await glyphs.waitFor();
    const area = (await boardArea(ada).boundingBox())!;
    const hi = (await glyphs.boundingBox())!;
    const outline = ada.locator('[data-selected-id]');
    /** The width of the selection outline on `page`, in screen pixels (null with nothing selected). */
    const outlineWidth = async (page: Page) =>
      (await page.locator('[data-selected-id]').count()) === 1
        ? (await page.locator('[data-selected-id]').boundingBox())!.width
        : null;
    // Selected after typing, the outline hugs the two letters (it was 240 units wide).
    await until(async () => (await outlineWidth(ada)) !== null, 'the text selected after typing');
    const w = (await outlineWidth(ada))!;
    assert.ok(w < hi.width + 40, `the outline (${w} px) fits "Hi" (${hi.width} px)`);
    await ada.screenshot({ path: join(artifacts, 'text-short-selected.png') });

    // A click 150 px right of the text is on the board: nothing is selected.
    const y = hi.y + hi.height / 2 - area.y;
    await boardArea(ada).click({ position: { x: hi.x + hi.width + 150 - area.x, y } });
    await until(async () => (await outline.count()) === 0, 'a click beside the text selects nothing');
    // A click on the text selects it.
    await boardArea(ada).click({ position: { x: hi.x + hi.width / 2 - area.x, y } });
    await until(async () => (await outline.count()) === 1, 'a click on the text selects it');

    // Bo sees the same box: the stored width, not one his client made up.
    const boText = bo.locator('[data-shape-type="text"] .shape-text', { hasText: 'Hi' });
    await boText.waitFor();
    const onBo = (await boText.boundingBox())!;
    await boardArea(bo).click({ position: { x: onBo.x + onBo.width + 150 - area.x, y } });
    assert.equal(await bo.locator('[data-selected-id]').count(), 0, 'beside the text on Bo: nothing');
    await boardArea(bo).click({ position: { x: onBo.x + onBo.width / 2 - area.x, y } });
    await until(async () => (await outlineWidth(bo)) !== null, 'Bo selects the text');
    assert.ok(Math.abs((await outlineWidth(bo))! - w) < 1, 'the same box on Bo');

    // In a larger size the box grows to fit the text on one line (it wrapped letter by letter).
    await ada.getByRole('button', { name: 'Text size XL', exact: true }).click();
    await until(async () => ((await outlineWidth(ada)) ?? 0) > w * 1.5, 'the box grew with the font');
    assert.equal(await ada.locator('[data-shape-type="text"] .shape-text tspan').count(), 1, 'one line');
  });

  it('a turned note is typed into where it is drawn, and a turned text keeps its first letter in place as it grows', async () => {
    const { page } = await newUser(app, 'Rita');
    const boardId = await createBoard(page, 'Turned');
    const base = { color: 'yellow', createdBy: 'x', rotation: 0.6 };
    const file = join(tmpdir(), `tandem-turned-${process.pid}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        shapes: [
          { ...base, id: 'note', type: 'sticky', x: -300, y: -100, w: 200, h: 200, z: 'a0', text: 'Turned' },
          {
            ...base,
            id: 'words',
            type: 'text',
            x: 100,
            y: 0,
            w: 60,
            h: 40,
            z: 'a1',
            text: 'Hi',
            color: 'grey',
          },
        ],
      }),
    );
    await page.getByLabel('Import JSON file').setInputFiles(file);
    await page.getByText('Imported 2 shapes.').waitFor();
    const centre = (r: { x: number; y: number; width: number; height: number }) => ({
      x: r.x + r.width / 2,
      y: r.y + r.height / 2,
    });

    // The editor over a turned note is turned about the note's centre, as the note is.
    const note = page.locator('[data-shape-type="sticky"]');
    const noteBox = (await note.locator('rect.sticky').boundingBox())!;
    await note.dblclick();
    const field = page.getByLabel('Shape text');
    await field.waitFor();
    const fieldBox = (await field.boundingBox())!;
    await page.screenshot({ path: join(artifacts, 'text-turned-note-editing.png') });
    const [a, b] = [centre(noteBox), centre(fieldBox)];
    assert.ok(
      Math.hypot(a.x - b.x, a.y - b.y) < 3,
      `editor centred on the note: ${JSON.stringify({ a, b })}`,
    );
    await page.keyboard.press('Escape');

    // Typing into a turned text fits its box to its line (240 wide is the old default width, which
    // follows its text), so its width changes; its first letter stays where it was drawn.
    const firstLetter = async () => {
      const r = (await page.locator('[data-shape-type="text"] .shape-text tspan').first().boundingBox())!;
      return { x: r.x, y: r.y };
    };
    const before = await firstLetter();
    await page.locator('[data-shape-type="text"]').dblclick();
    await field.press('End');
    await field.pressSequentially(' there, a longer line');
    await page.keyboard.press('Escape');
    await until(
      async () =>
        ((await page.locator('[data-shape-type="text"] .shape-text').textContent()) ?? '').includes('longer'),
      'the longer text drawn',
    );
    const stored = (await (await page.request.get(`/api/boards/${boardId}/export.json`)).json()) as {
      shapes: { type: string; w: number }[];
    };
    const grownW = stored.shapes.find((s) => s.type === 'text')?.w ?? 240;
    assert.ok(grownW !== 240, `the text's width follows its line: ${grownW}`);
    const after = await firstLetter();
    await page.screenshot({ path: join(artifacts, 'text-turned-text-grown.png') });
    assert.ok(
      Math.hypot(after.x - before.x, after.y - before.y) < 3,
      `the first letter stayed: ${JSON.stringify({ before, after })}`,
    );
  });

  it('two people typing at the same spot get two whole runs', async () => {
    const ada = (await newUser(app, 'Ada')).page;
    const b = await newUser(app, 'Bo');
    const bo = b.page;
    await sharedBoard(ada, 'Typing together', { editors: [bo] });

    await place(ada, 'Sticky note', 500, 350);
    await ada.keyboard.type('Hello ');
    await ada.keyboard.press('Escape');
    await until(async () => (await bo.locator('[data-shape-type="sticky"] tspan').count()) > 0, 'note on Bo');
    await ada.locator('[data-shape-type="sticky"]').dblclick();
    await bo.locator('[data-shape-type="sticky"]').dblclick();
    const fa = ada.getByLabel('Shape text');
    const fb = bo.getByLabel('Shape text');
    await fa.press('Control+End');
    await fb.press('Control+End');

    // Turn by turn at the same spot, each waiting to see the other's letter arrive.
    const runA = 'banana';
    const runB = 'BERRY!';
    let expected = 'Hello ';
    for (let i = 0; i < runA.length; i++) {
      await fa.press(runA[i]!);
      expected += runA[i];
      const a = expected;
      await until(async () => (await fb.inputValue()).length === a.length, 'Ada’s letter on Bo');
      await fb.press(runB[i]!);
      expected += runB[i];
      const n = expected.length;
      await until(async () => (await fa.inputValue()).length === n, 'Bo’s letter on Ada');
    }
    const text = await fa.inputValue();
    assert.equal(await fb.inputValue(), text);
    assert.ok(text === `Hello ${runA}${runB}` || text === `Hello ${runB}${runA}`, `two whole runs: ${text}`);
  });
});
