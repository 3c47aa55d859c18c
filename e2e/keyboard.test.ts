// A person who works with the keyboard only (and a screen reader): what they meet on the way
// from the dashboard to a board, judged by roles, names and where focus is.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  artifacts,
  canvas,
  createBoard,
  focused,
  inView,
  newUser,
  shapes,
  stickyText,
  until,
  withApp,
} from './helpers.ts';

/** Presses `key` and waits until focus is on `where`. */
async function pressTo(page: Page, key: string, where: string): Promise<void> {
  await page.keyboard.press(key);
  await until(async () => (await focused(page)) === where, `${key} moves focus to ${where}`);
}

describe('keyboard only', () => {
  let kay: Page;

  const app = withApp();
  before(async () => {
    kay = (await newUser(app, 'Kay')).page;
  });

  it('a dialog takes focus as it opens and gives it back to its button when Escape closes it', async () => {
    // The dashboard's New board gallery.
    await kay.getByLabel('New board title').focus();
    await pressTo(kay, 'Tab', 'button New board');
    await pressTo(kay, 'Enter', 'button Close');
    await kay.getByRole('dialog', { name: 'New board' }).waitFor();
    await pressTo(kay, 'Escape', 'button New board');
    assert.equal(await kay.getByRole('dialog').count(), 0, 'the gallery is closed');

    // On a board: Keyboard shortcuts (?) and Share.
    await createBoard(kay, 'Keys');
    const shortcuts = kay.getByRole('button', { name: 'Keyboard shortcuts' });
    await shortcuts.focus();
    await pressTo(kay, 'Enter', 'button Close');
    await kay.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await pressTo(kay, 'Escape', 'button Keyboard shortcuts');
    await kay.getByRole('button', { name: 'Share', exact: true }).focus();
    await pressTo(kay, 'Enter', 'button Close');
    await kay.getByRole('dialog', { name: 'Share board' }).waitFor();
    await pressTo(kay, 'Escape', 'button Share');
    // Its Close button, pressed with Enter, gives focus back too.
    await pressTo(kay, 'Enter', 'button Close');
    await pressTo(kay, 'Enter', 'button Share');
    assert.equal(await kay.getByRole('dialog').count(), 0, 'the share dialog is closed');
  });

  it('? on the canvas, and a dialog opened from a menu, give focus back too', async () => {
    await canvas(kay).focus();
    await kay.keyboard.press('?');
    await kay.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await pressTo(kay, 'Escape', 'application Board canvas');
    // Templates → Insert template…: the menu item is gone when the dialog closes; its button is not.
    await kay.getByRole('button', { name: 'Templates', exact: true }).focus();
    await pressTo(kay, 'Enter', 'menuitem Insert template…');
    await pressTo(kay, 'Enter', 'button Close');
    await kay.getByRole('dialog', { name: 'Insert template' }).waitFor();
    await pressTo(kay, 'Escape', 'button Templates');
  });

  it('picks a shape tool by its key and Enter places the shape mid-view, a note ready to type into', async () => {
    await canvas(kay).focus();
    await kay.keyboard.press('n');
    await kay.getByRole('button', { name: 'Sticky note', exact: true, pressed: true }).waitFor();
    await pressTo(kay, 'Enter', 'textarea Shape text');
    assert.equal(await shapes(kay, 'sticky').count(), 1, 'one note');
    await kay.keyboard.type('Said with keys');
    await pressTo(kay, 'Escape', 'application Board canvas');
    assert.equal(await stickyText(kay).textContent(), 'Said with keys');
    // The note is selected: Shift+arrow moves it 10 to the right.
    const before = (await shapes(kay, 'sticky').first().boundingBox())!;
    await kay.keyboard.press('Shift+ArrowRight');
    await until(
      async () => (await shapes(kay, 'sticky').boundingBox())!.x > before.x + 5,
      'the note moved right',
    );
    // R, then Enter: a rectangle, selected, and the Select tool back.
    await kay.keyboard.press('r');
    await kay.getByRole('button', { name: 'Rectangle', exact: true, pressed: true }).waitFor();
    await kay.keyboard.press('Enter');
    await until(async () => (await shapes(kay, 'rect').count()) === 1, 'a rectangle');
    await kay.getByRole('button', { name: 'Select', exact: true, pressed: true }).waitFor();
    assert.equal(
      await kay.getByRole('toolbar', { name: 'Selection' }).count(),
      1,
      'the rectangle is selected',
    );
  });

  it('the Pages and History buttons say whether their panel is open', async () => {
    for (const name of ['Pages', 'History']) {
      const button = kay.getByRole('button', { name, exact: true });
      await button.focus();
      assert.equal(await button.getAttribute('aria-pressed'), 'false', `${name}: closed`);
      await kay.keyboard.press('Enter');
      await kay.getByRole('button', { name, exact: true, pressed: true }).waitFor();
      // The open panel took focus; its button, pressed again, closes it.
      await button.focus();
      await kay.keyboard.press('Enter');
      await kay.getByRole('button', { name, exact: true, pressed: false }).waitFor();
    }
  });

  it('a side panel’s Close button gives focus back to the button that opened the panel', async () => {
    for (const name of ['Pages', 'History', 'Comments']) {
      await kay.getByRole('button', { name, exact: true }).focus();
      await kay.keyboard.press('Enter');
      await kay.getByRole('button', { name: `Close ${name.toLowerCase()}` }).focus();
      await pressTo(kay, 'Enter', `button ${name}`);
      assert.equal(
        await kay.getByRole('button', { name, exact: true }).getAttribute('aria-pressed'),
        'false',
      );
    }
  });

  it('a side panel takes focus as it opens; Escape in it closes it and gives focus back to its button', async () => {
    const panels = [
      ['Pages', 'region', 'Pages'],
      ['History', 'complementary', 'Version history'],
      ['Comments', 'complementary', 'Comments panel'],
    ] as const;
    for (const [name, role, label] of panels) {
      await kay.getByRole('button', { name, exact: true }).focus();
      await pressTo(kay, 'Enter', `h2 ${name}`);
      // One step on in the panel: Escape works from any of its controls, not only its heading.
      await pressTo(kay, 'Tab', `button Close ${name.toLowerCase()}`);
      await pressTo(kay, 'Escape', `button ${name}`);
      assert.equal(await kay.getByRole(role, { name: label }).count(), 0, `the ${name} panel is closed`);
      assert.equal(
        await kay.getByRole('button', { name, exact: true }).getAttribute('aria-pressed'),
        'false',
      );
    }
  });

  it('History opened from the canvas by Ctrl+Alt+H gives focus back to the canvas on Escape; opened by its button, to the button', async () => {
    const history = kay.getByRole('complementary', { name: 'Version history' });
    await canvas(kay).focus();
    await pressTo(kay, 'Control+Alt+KeyH', 'h2 History');
    await pressTo(kay, 'Tab', 'button Close history');
    await pressTo(kay, 'Escape', 'application Board canvas');
    assert.equal(await history.count(), 0, 'the History panel is closed');
    // Its Close button too.
    await pressTo(kay, 'Control+Alt+KeyH', 'h2 History');
    await kay.getByRole('button', { name: 'Close history' }).click();
    await until(async () => (await focused(kay)) === 'application Board canvas', 'Close: back to the canvas');
    assert.equal(await history.count(), 0, 'the History panel is closed');
    // And by the shortcut again, pressed inside the panel.
    await pressTo(kay, 'Control+Alt+KeyH', 'h2 History');
    await pressTo(kay, 'Control+Alt+KeyH', 'application Board canvas');
    assert.equal(await history.count(), 0, 'the History panel is closed');
    // Opened by its button after that, Escape goes back to the button, not to the canvas of before.
    await kay.getByRole('button', { name: 'History', exact: true }).click();
    await until(async () => (await focused(kay)) === 'h2 History', 'the panel takes focus');
    await pressTo(kay, 'Escape', 'button History');
    assert.equal(await history.count(), 0, 'the History panel is closed');
  });

  it('a facilitation menu takes focus as it opens; Escape, in it or in its field, closes it back to its button', async () => {
    await kay.getByRole('button', { name: 'Timer', exact: true }).focus();
    await pressTo(kay, 'Enter', 'button Start 1 min');
    await pressTo(kay, 'Escape', 'button Timer');
    assert.equal(
      await kay.getByRole('region', { name: 'Timer controls' }).count(),
      0,
      'the timer menu is closed',
    );
    await kay.getByRole('button', { name: 'Vote', exact: true }).focus();
    await kay.keyboard.press('Enter');
    const field = kay.getByRole('region', { name: 'Voting' }).getByRole('spinbutton');
    await until(() => field.evaluate((el) => el === document.activeElement), 'the vote’s field has focus');
    await pressTo(kay, 'Escape', 'button Vote');
    assert.equal(await kay.getByRole('region', { name: 'Voting' }).count(), 0, 'the vote menu is closed');
  });

  it('a menu opened by Enter or Space takes focus on its first item, the arrows go round it, Escape closes it back to its button', async () => {
    await kay.getByRole('button', { name: 'Export', exact: true }).focus();
    await kay.keyboard.press('Enter');
    const items = kay.getByRole('menu').getByRole('menuitem');
    await items.first().waitFor();
    const enabled = await items.evaluateAll((els) =>
      els
        .filter((el) => !(el as HTMLButtonElement).disabled)
        .map((el) => `menuitem ${el.textContent?.trim()}`),
    );
    await until(async () => (await focused(kay)) === enabled[0], 'the first item has focus');
    await pressTo(kay, 'ArrowDown', enabled[1]!);
    await pressTo(kay, 'ArrowUp', enabled[0]!);
    await pressTo(kay, 'ArrowUp', enabled.at(-1)!);
    await pressTo(kay, 'ArrowDown', enabled[0]!);
    await pressTo(kay, 'Escape', 'button Export');
    assert.equal(await kay.getByRole('menu').count(), 0, 'the export menu is closed');

    // Space, on the Templates menu and on one's own avatar (the colour menu).
    for (const [name, item] of [
      ['Templates', 'menuitem Insert template…'],
      ['Kay (you): your colour', 'menuitemradio'],
    ] as const) {
      await kay.getByRole('button', { name, exact: true }).focus();
      await kay.keyboard.press('Space');
      await until(
        async () => (await focused(kay)).startsWith(item),
        `Space on ${name}: its first item has focus`,
      );
      await pressTo(kay, 'Escape', `button ${name}`);
      assert.equal(await kay.getByRole('menu').count(), 0, `the ${name} menu is closed`);
    }
  });

  it('the canvas shows a thin focus line on the board’s edge when Tab reaches it with nothing selected, not when it is clicked', async () => {
    // A strip at the left edge of the view, clear of the bars: what the line would change.
    const edge = () => kay.screenshot({ clip: { x: 0, y: 300, width: 8, height: 120 } });
    // The indicator's computed outline (the editor's ::after, editor.css).
    const ring = () =>
      kay.locator('.editor').evaluate((el) => {
        const after = getComputedStyle(el, '::after');
        return after.outlineStyle === 'none' ? 'none' : `${after.outlineStyle} ${after.outlineWidth}`;
      });
    const allBoards = kay.getByRole('link', { name: 'All boards' });
    const toolStop = kay.getByRole('toolbar', { name: 'Tools' }).locator('[tabindex="0"]');
    // Nothing selected (an earlier test left its shapes selected).
    await canvas(kay).focus();
    await kay.keyboard.press('Escape');
    await allBoards.focus();
    const unfocused = await edge();
    assert.equal(await ring(), 'none', 'no line without focus');
    // The canvas comes after the tool bar's one stop (the header and the tools come first).
    await toolStop.focus();
    await pressTo(kay, 'Tab', 'application Board canvas');
    await kay.screenshot({ path: `${artifacts}/canvas-focus-ring.png` });
    assert.equal(await ring(), 'solid 2px', 'Tab to the canvas: a thin line on the edge of the view');
    assert.notDeepEqual(await edge(), unfocused, 'the line shows on the edge of the view');
    await allBoards.focus();
    assert.deepEqual(await edge(), unfocused, 'the line goes with focus');
    // A click on the board (an empty spot) focuses it without a line.
    await canvas(kay).click({ position: { x: 640, y: 420 } });
    await until(
      async () => (await focused(kay)) === 'application Board canvas',
      'the click focused the canvas',
    );
    assert.deepEqual(await edge(), unfocused, 'no line after a click');
    assert.equal(await ring(), 'none', 'no outline after a click');
    // With a shape selected, its selection outline shows where the keys act: no line on the view.
    await kay.keyboard.press('Control+a');
    await kay.locator('.selection > rect').first().waitFor();
    await toolStop.focus();
    await pressTo(kay, 'Tab', 'application Board canvas');
    assert.equal(await ring(), 'none', 'no line while something is selected');
    await kay.screenshot({ path: `${artifacts}/canvas-focus-selected.png` });
    await kay.keyboard.press('Escape');
    await until(async () => (await ring()) === 'solid 2px', 'the line once the selection is cleared');
  });

  it('with nothing selected the arrow keys pan the view (Shift: further); with a selection they nudge it', async () => {
    await kay.goto('/boards');
    await createBoard(kay, 'Pan by keys');
    await canvas(kay).focus();
    await kay.keyboard.press('n');
    await pressTo(kay, 'Enter', 'textarea Shape text');
    await kay.keyboard.type('Landmark');
    await pressTo(kay, 'Escape', 'application Board canvas');
    await kay.keyboard.press('Escape');
    await kay.getByRole('toolbar', { name: 'Selection' }).waitFor({ state: 'detached' });
    const note = canvas(kay).getByRole('img', { name: 'Sticky note: Landmark' });
    const box = async () => (await note.boundingBox())!;
    const start = await box();
    // The view moves right, so what is drawn on it moves left on screen, by the step (50 px).
    await kay.keyboard.press('ArrowRight');
    await until(async () => Math.abs((await box()).x - (start.x - 50)) < 1, 'ArrowRight panned 50 px');
    await kay.keyboard.press('Shift+ArrowDown');
    await until(async () => Math.abs((await box()).y - (start.y - 300)) < 1, 'Shift+ArrowDown panned 300 px');
    await kay.screenshot({ path: `${artifacts}/keyboard-panned.png` });
    await kay.keyboard.press('ArrowLeft');
    await kay.keyboard.press('Shift+ArrowUp');
    await until(async () => {
      const b = await box();
      return Math.abs(b.x - start.x) < 1 && Math.abs(b.y - start.y) < 1;
    }, 'panned back to where it was');
    // The note itself never moved: Enter selects it (the first shape), and an arrow nudges it by 1
    // board unit, not the view by 50.
    await kay.keyboard.press('Enter');
    await kay.getByRole('toolbar', { name: 'Selection' }).waitFor();
    await kay.keyboard.press('Shift+ArrowRight');
    await until(
      async () => Math.abs((await box()).x - (start.x + 10)) < 1,
      'Shift+ArrowRight nudged the note 10',
    );
  });

  it('the tool bar is one Tab stop between the header and the canvas; arrows, Home and End move in it', async () => {
    const bar = kay.getByRole('toolbar', { name: 'Tools' });
    await kay.getByRole('link', { name: 'All boards' }).focus();
    // Tab through the header: every stop is in it until the tool bar's one stop, then the canvas.
    const where = () =>
      kay.evaluate(() => {
        const el = document.activeElement;
        return el?.closest('header')
          ? 'header'
          : el?.closest('[role="toolbar"][aria-label="Tools"]')
            ? 'tools'
            : 'else';
      });
    let tabs = 0;
    while ((await where()) === 'header' && tabs < 30) {
      await kay.keyboard.press('Tab');
      tabs++;
    }
    assert.equal(await where(), 'tools', 'after the header, the tool bar');
    assert.equal(await focused(kay), 'button Select', 'its stop is the picked tool');
    await pressTo(kay, 'Tab', 'application Board canvas');
    assert.equal(await bar.locator('[tabindex="0"]').count(), 1, 'one button of the bar is in the Tab order');
    // A tool picked by its key becomes the bar's stop.
    await kay.keyboard.press('Escape');
    await kay.keyboard.press('r');
    await bar.getByRole('button', { name: 'Rectangle', pressed: true }).waitFor();
    await pressTo(kay, 'Shift+Tab', 'button Rectangle');
    await pressTo(kay, 'ArrowRight', 'button Ellipse');
    await pressTo(kay, 'ArrowDown', 'button Diamond');
    await pressTo(kay, 'ArrowLeft', 'button Ellipse');
    await pressTo(kay, 'Home', 'button Select');
    // The last button that can be pressed (Redo is greyed with nothing to redo).
    const last = `button ${await bar.locator('button:not(:disabled)').last().getAttribute('aria-label')}`;
    await pressTo(kay, 'ArrowLeft', last);
    await pressTo(kay, 'Home', 'button Select');
    await pressTo(kay, 'End', last);
    await pressTo(kay, 'ArrowRight', 'button Select');
    await kay.screenshot({
      path: `${artifacts}/toolbar-focus.png`,
      clip: { x: 300, y: 0, width: 680, height: 70 },
    });
    // Enter and Space pick the tool focused.
    await pressTo(kay, 'ArrowRight', 'button Hand');
    await kay.keyboard.press('Enter');
    await bar.getByRole('button', { name: 'Hand', pressed: true }).waitFor();
    await pressTo(kay, 'ArrowRight', 'button Sticky note');
    await kay.keyboard.press('Space');
    await bar.getByRole('button', { name: 'Sticky note', pressed: true }).waitFor();
    // The stop follows focus in the bar: Tab out and Shift+Tab back lands on the same button.
    await pressTo(kay, 'Tab', 'application Board canvas');
    await pressTo(kay, 'Shift+Tab', 'button Sticky note');
    assert.equal(await bar.locator('[tabindex="0"]').count(), 1, 'still one stop');
    // With a shape selected, an arrow in the bar moves along the bar and leaves the shape be.
    await canvas(kay).focus();
    await kay.keyboard.press('Enter');
    await until(async () => (await shapes(kay, 'sticky').count()) === 2, 'a second note');
    await kay.keyboard.press('Escape');
    await kay.keyboard.press('Control+a');
    await kay.getByRole('toolbar', { name: 'Selection' }).waitFor();
    const before = (await shapes(kay, 'sticky').first().boundingBox())!;
    await bar.getByRole('button', { name: 'Hand' }).focus();
    await pressTo(kay, 'ArrowRight', 'button Sticky note');
    assert.equal((await shapes(kay, 'sticky').first().boundingBox())!.x, before.x, 'the note did not move');
  });

  it('notes made by N and Enter, one after the other, go side by side in view, not on top of each other', async () => {
    await kay.goto('/boards');
    await createBoard(kay, 'Notes by keys');
    // Six: the view holds a row of five, and the sixth went mid-view again, onto the first.
    const words = ['One', 'Two', 'Three', 'Four', 'Five', 'Six'];
    for (const word of words) {
      await canvas(kay).focus();
      await kay.keyboard.press('n');
      await pressTo(kay, 'Enter', 'textarea Shape text');
      await kay.keyboard.type(word);
      await pressTo(kay, 'Escape', 'application Board canvas');
    }
    const boxes = await Promise.all(
      words.map(async (word) => {
        const name = `Sticky note: ${word}`;
        assert.ok(await inView(kay, name), `${name} is in view`);
        return (await canvas(kay).getByRole('img', { name, exact: true }).boundingBox())!;
      }),
    );
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        assert.ok(
          a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y,
          `no two notes overlap: ${JSON.stringify(boxes)}`,
        );
    await kay.screenshot({ path: `${artifacts}/keyboard-notes.png` });
  });
  it('the Align and group bar and the zoom controls are one Tab stop each; arrows, Home and End move in them and leave the shapes and the view be', async () => {
    // The six notes of the test before, all selected: the Align and group bar shows.
    await canvas(kay).focus();
    await kay.keyboard.press('Control+a');
    const arrange = kay.getByRole('toolbar', { name: 'Align and group' });
    const zoom = kay.getByRole('toolbar', { name: 'Zoom' });
    await arrange.waitFor();
    const note = canvas(kay).getByRole('img', { name: 'Sticky note: One', exact: true });
    const before = (await note.boundingBox())!;
    const view = await canvas(kay).getAttribute('data-viewport');
    for (const bar of [arrange, zoom])
      assert.equal(
        await bar.locator('[tabindex="0"]').count(),
        1,
        'one button of the bar is in the Tab order',
      );
    // Into the bar by Tab from the control before it (the style panel's last), on to the next by
    // Tab: one stop each.
    await kay.getByRole('toolbar', { name: 'Selection' }).locator('button:not(:disabled)').last().focus();
    await pressTo(kay, 'Tab', 'button Align left');
    await pressTo(kay, 'ArrowRight', 'button Align centre');
    await pressTo(kay, 'ArrowDown', 'button Align right');
    await pressTo(kay, 'End', 'button Group');
    await pressTo(kay, 'ArrowRight', 'button Align left');
    await pressTo(kay, 'ArrowLeft', 'button Group');
    await pressTo(kay, 'Home', 'button Align left');
    await pressTo(kay, 'ArrowRight', 'button Align centre');
    await kay.screenshot({ path: `${artifacts}/arrange-bar-focus.png` });
    // Out and back: the stop is the button last focused while in the bar.
    await pressTo(kay, 'Tab', 'button Zoom out');
    await pressTo(kay, 'Shift+Tab', 'button Align centre');
    await pressTo(kay, 'Tab', 'button Zoom out');
    await pressTo(kay, 'ArrowRight', 'button Reset zoom');
    await pressTo(kay, 'ArrowRight', 'button Zoom in');
    await pressTo(kay, 'End', 'button Keyboard shortcuts');
    await pressTo(kay, 'ArrowRight', 'button Zoom out');
    await pressTo(kay, 'ArrowLeft', 'button Keyboard shortcuts');
    await pressTo(kay, 'Home', 'button Zoom out');
    await pressTo(kay, 'ArrowRight', 'button Reset zoom');
    await kay.screenshot({ path: `${artifacts}/zoom-bar-focus.png` });
    // Tab leaves the zoom bar at once.
    await kay.keyboard.press('Tab');
    assert.equal(
      await kay.evaluate(
        () => document.activeElement?.closest('[role="toolbar"][aria-label="Zoom"]') == null,
      ),
      true,
      'Tab leaves the zoom controls',
    );
    // Nothing moved: no arrow nudged the notes or panned the view, no button was pressed.
    assert.deepEqual(await note.boundingBox(), before, 'the notes stayed where they were');
    assert.equal(await canvas(kay).getAttribute('data-viewport'), view, 'the view stayed where it was');
    assert.equal(await arrange.count(), 1, 'the selection is still there');
  });

  it('while presenting, an arrow on a focused tool moves along the tool bar, not to the next frame', async () => {
    // Two frames, each round one of the notes.
    for (const word of ['One', 'Two']) {
      await canvas(kay)
        .getByRole('img', { name: `Sticky note: ${word}`, exact: true })
        .click();
      await kay.keyboard.press('f');
    }
    await until(async () => (await shapes(kay, 'frame').count()) === 2, 'two frames');
    await kay.getByRole('button', { name: 'Present', exact: true }).click();
    await kay.getByRole('button', { name: 'Start presenting' }).click();
    await kay.getByText('You are presenting').waitFor();
    await kay.keyboard.press('Escape');
    const view = async () => canvas(kay).getAttribute('data-viewport');
    let first = await view();
    await until(async () => {
      const now = await view();
      const still = now === first;
      first = now;
      return still;
    }, 'the view rests on the first frame');
    const tools = kay.getByRole('toolbar', { name: 'Tools' });
    await tools.getByRole('button', { name: 'Select', exact: true }).focus();
    await pressTo(kay, 'ArrowRight', 'button Hand');
    await pressTo(kay, 'ArrowLeft', 'button Select');
    await kay.getByRole('toolbar', { name: 'Zoom' }).getByRole('button', { name: 'Zoom in' }).focus();
    await pressTo(kay, 'ArrowRight', 'button Zoom to fit');
    assert.equal(await view(), first, 'still on the first frame');
    // From the canvas the arrows step the frames, as ever.
    await canvas(kay).focus();
    await kay.keyboard.press('ArrowRight');
    await until(async () => (await view()) !== first, 'the canvas’s arrow stepped to the next frame');
    await kay.getByRole('button', { name: 'Stop', exact: true }).click();
  });
  it('the zoom keys zoom from the canvas and are listed, as the one table has them, in the shortcuts dialog', async () => {
    const level = kay.getByRole('button', { name: 'Reset zoom' });
    await canvas(kay).focus();
    await kay.keyboard.press('Control+0');
    await until(async () => (await level.textContent()) === '100%', 'Ctrl+0: 100%');
    for (const [key, shown] of [
      ['=', '125%'],
      ['Control+0', '100%'],
      ['Control+=', '125%'],
      ['-', '100%'],
      ['Control+-', '80%'],
      ['Shift+=', '100%'],
    ] as const) {
      await kay.keyboard.press(key);
      await until(async () => (await level.textContent()) === shown, `${key}: ${shown}`);
    }
    await kay.keyboard.press('?');
    const dialog = kay.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    const row = (what: string) => dialog.getByText(what, { exact: true }).locator('..');
    for (const [what, keys] of [
      ['Zoom in', ['+', '=', 'Ctrl+=', 'Ctrl++']],
      ['Zoom out', ['−', 'Ctrl+−']],
      ['Zoom to 100%', ['Ctrl+0']],
    ] as const)
      assert.deepEqual(await row(what).locator('kbd').allTextContents(), keys, `${what}: its keys`);
    await kay.keyboard.press('Escape');
  });
});
