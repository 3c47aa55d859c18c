// The board on a phone (390 × 844, touch): hints speak of taps, every tool is in the bar, on
// screen without a sideways scroll, or under its "More tools" menu (at 360 px too), where one is
// picked by tap or keys, and the minimap stays out of the way; the facilitation bar's buttons say
// their names; the Pages panel shows who is on a page as a few readable faces and "+N"; the top
// bar keeps room for the board's title beside its controls, one's own avatar first and another
// person's face in sight; a selection's style panel is a sheet at the bottom that leaves the shape in sight and
// recolours it by tap; the Pages panel takes the width (the style sheet folds away while it is
// open); the Share dialog's links are readable; a template inserted comes at a zoom it can be
// read at, its first column in sight. At 700 px (the phone layout's widest, a phone held
// sideways) as at 390, the Find bar and the Pages panel are whole and the status stays in sight
// while Comments is open.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import {
  artifacts,
  boardArea,
  covered,
  createBoard,
  failOnPageErrors,
  joinByLink,
  newUser,
  shapes,
  shareLink,
  until,
  withApp,
} from './helpers.ts';

describe('phone', () => {
  let phone: BrowserContext;
  let page: Page;
  let boardId: string;

  const app = withApp();
  before(async () => {
    // Sign up on a desktop page, then carry the session cookie to a phone.
    const desk = await newUser(app, 'Pia');
    // Long enough to be cut short on a phone.
    boardId = await createBoard(desk.page, 'On the go: quarterly planning');
    phone = await app.browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      baseURL: app.server.url,
    });
    await phone.addCookies(await desk.context.cookies());
    await desk.context.close();
    page = await phone.newPage();
    failOnPageErrors(page, 'Pia on a phone');
    await page.goto(`/b/${boardId}`);
    await page.locator('[role="status"][data-status="live"]').waitFor();
  });

  /** True when the button is on screen and is what a tap at its centre would hit. */
  const reachable = (name: string) =>
    page.getByRole('button', { name, exact: true }).evaluate((el) => {
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const onScreen =
        r.left >= 0 && r.right <= window.innerWidth && r.top >= 0 && r.bottom <= window.innerHeight;
      const hit = document.elementFromPoint(x, y);
      return onScreen && !!hit && el.contains(hit);
    });

  it('the empty board’s hint speaks of taps, not keys', async () => {
    const hint = page.locator('.empty-hint');
    await hint.waitFor();
    const text = (await hint.textContent()) ?? '';
    assert.match(text, /Tap a tool/);
    assert.doesNotMatch(text, /press|key|click/i);
    assert.equal(await page.getByRole('region', { name: 'Minimap' }).count(), 0, 'no minimap on a phone');
  });

  it('the top bar shows the first characters of the board’s title beside its controls, none over another', async () => {
    type Box = { x: number; y: number; width: number; height: number };
    const meets = (a: Box, b: Box) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    const title = (await page.locator('.topbar .board-title').boundingBox())!;
    await page.screenshot({ path: `${artifacts}/topbar-phone-390.png` });
    // With History, Templates and Export folded behind "More" it has room for words: it showed
    // four letters ("On t…") beside eight controls.
    assert.ok(title.width > 90, `the title is ${title.width} px wide`);
    assert.ok(
      await page.locator('.topbar .title-button').evaluate((el) => el.scrollWidth > el.clientWidth),
      'the long title is cut short (ellipsised), not spilling over',
    );
    const controls = await page.locator('.title-panel > :not(.board-title), .right-panel > *').all();
    assert.equal(controls.length, 6, 'the back link, Pages, the avatars, Comments, More and Share');
    const boxes: Box[] = [];
    for (const control of controls) {
      const box = (await control.boundingBox())!;
      const name = (await control.getAttribute('aria-label')) ?? (await control.getAttribute('class'));
      assert.ok(!meets(box, title), `${name} is over the title`);
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `${name} is on the screen`);
      for (const other of boxes) assert.ok(!meets(box, other), `${name} is over another control`);
      boxes.push(box);
    }
    // Renaming, the field takes the bar, within the screen and beside Pages; Escape gives it back.
    await page.locator('.topbar .title-button').tap();
    const field = (await page.getByLabel('Board title').boundingBox())!;
    const pages = (await page.getByRole('button', { name: 'Pages', exact: true }).boundingBox())!;
    await page.screenshot({ path: `${artifacts}/topbar-phone-rename-390.png` });
    assert.ok(field.width > 200, `the field is ${field.width} px wide`);
    assert.ok(field.x + field.width <= pages.x && pages.x + pages.width <= 390, 'the field runs over Pages');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Share', exact: true }).waitFor();
  });

  // A trial: the tool bar scrolled sideways on a phone, its scrollbar hidden, so the tools past its
  // edge were out of sight with nothing to say they were there. The most used stay in the bar;
  // the rest are under "More tools", a menu of them named beside their icons.
  const allTools = [
    'Select',
    'Hand',
    'Sticky note',
    'Rectangle',
    'Ellipse',
    'Diamond',
    'Text',
    'Arrow',
    'Pen',
    'Eraser',
    'Comment',
    'Tool lock',
    'Image',
  ];
  for (const width of [390, 360, 320]) {
    it(`at ${width} px every tool is in the bar, on screen with no sideways scroll, or under More tools`, async () => {
      await page.setViewportSize({ width, height: 844 });
      try {
        const bar = page.getByRole('toolbar', { name: 'Tools' });
        assert.ok(
          await bar.evaluate((el) => el.scrollWidth <= el.clientWidth),
          'the bar does not scroll sideways',
        );
        assert.equal(
          await bar.locator('.history-tools').evaluate((el) => getComputedStyle(el).boxShadow),
          'none',
          'no shadow over the tools beside Undo, as if more were past the edge',
        );
        const inBar: string[] = [];
        for (const button of await bar.getByRole('button').all()) {
          const name = (await button.getAttribute('aria-label'))!;
          assert.ok(await button.evaluate(inSight), `${name} is on screen, nothing over it`);
          const box = (await button.boundingBox())!;
          assert.ok(box.width >= 28 && box.height >= 28, `${name} is ${box.width} × ${box.height} px`);
          inBar.push(name);
        }
        await page.screenshot({ path: `${artifacts}/phone-tools-${width}.png` });
        const more = bar.getByRole('button', { name: 'More tools', exact: true });
        await more.tap();
        const menu = page.getByRole('menu', { name: 'More tools' });
        await menu.waitFor();
        await page.screenshot({ path: `${artifacts}/phone-more-tools-${width}.png` });
        const inMenu: string[] = [];
        for (const item of await menu.locator('[role^="menuitem"]').all()) {
          const name = (await item.textContent())!;
          assert.ok(await item.evaluate(inSight), `${name} in the menu is on screen, nothing over it`);
          inMenu.push(name);
        }
        assert.deepEqual(
          [...inBar.filter((n) => !['More tools', 'Undo', 'Redo'].includes(n)), ...inMenu].sort(),
          [...allTools].sort(),
          'each tool once, in the bar or in the menu',
        );
        assert.ok(inBar.includes('Undo') && inBar.includes('Redo'), 'Undo and Redo in the bar');
        await page.keyboard.press('Escape');
        await until(async () => (await menu.count()) === 0, 'Escape closes the menu');
      } finally {
        await page.setViewportSize({ width: 390, height: 844 });
      }
    });
  }

  // A phone held sideways (700 px) folded the same tools into More tools as at 390 px, though the
  // bar had room for all of them; the bar now folds only what does not fit.
  it('at 700 px every tool is in the bar, with no More tools and no sideways scroll', async () => {
    await page.setViewportSize({ width: 700, height: 844 });
    try {
      const bar = page.getByRole('toolbar', { name: 'Tools' });
      await until(
        async () => (await bar.getByRole('button', { name: 'More tools' }).count()) === 0,
        'no More tools',
      );
      assert.ok(
        await bar.evaluate((el) => el.scrollWidth <= el.clientWidth),
        'the bar does not scroll sideways',
      );
      const inBar: string[] = [];
      for (const button of await bar.getByRole('button').all()) {
        const name = (await button.getAttribute('aria-label'))!;
        assert.ok(await button.evaluate(inSight), `${name} is on screen, nothing over it`);
        inBar.push(name);
      }
      assert.deepEqual(inBar, [...allTools, 'Undo', 'Redo']);
      await page.screenshot({ path: `${artifacts}/phone-tools-700.png` });
    } finally {
      await page.setViewportSize({ width: 390, height: 844 });
    }
  });

  // From 761 to 1100 px (a tablet) the facilitation bar showed its icons only, with room to spare
  // for its names under the top bar.
  for (const width of [820, 900, 1100]) {
    it(`at ${width} px the facilitation bar’s buttons show their names, whole and on screen`, async () => {
      await page.setViewportSize({ width, height: 800 });
      try {
        const bar = page.getByRole('toolbar', { name: 'Facilitation' });
        for (const button of await bar.getByRole('button').all()) {
          const name = (await button.getAttribute('aria-label'))!;
          assert.ok(await button.evaluate(inSight), `${name} is on screen, nothing over it`);
          const label = button.locator('.label');
          assert.ok(await label.isVisible(), `${name} shows its label`);
          assert.ok(
            await label.evaluate((el) => el.scrollWidth <= el.clientWidth),
            `${name}’s label is whole`,
          );
        }
        assert.ok(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
          'nothing past the window’s edge',
        );
        await page.screenshot({ path: `${artifacts}/tablet-facilitation-${width}.png` });
      } finally {
        await page.setViewportSize({ width: 390, height: 844 });
      }
    });
  }

  it('a tool picked from More tools, by tap or by keys, draws; the button then shows it', async () => {
    const more = page.getByRole('button', { name: 'More tools', exact: true });
    const menu = page.getByRole('menu', { name: 'More tools' });
    await more.tap();
    await menu.getByRole('menuitemradio', { name: 'Ellipse' }).tap();
    await until(async () => (await menu.count()) === 0, 'the choice closes the menu');
    assert.match((await more.getAttribute('title'))!, /Ellipse in use/);
    assert.match((await more.getAttribute('class'))!, /\bactive\b/, 'the button is drawn on');
    await boardArea(page).tap({ position: { x: 195, y: 300 } });
    await until(async () => (await shapes(page, 'ellipse').count()) === 1, 'an ellipse placed by tap');
    await page.screenshot({ path: `${artifacts}/phone-ellipse-390.png` });
    await page.keyboard.press('Escape');
    // By keys: Enter opens it on its first item, the arrows move, Enter picks; focus is back on
    // the button.
    await more.focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Hand');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Diamond');
    await page.keyboard.press('Enter');
    await until(async () => (await menu.count()) === 0, 'Enter picks and closes');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'More tools');
    await boardArea(page).tap({ position: { x: 195, y: 520 } });
    await until(async () => (await shapes(page, 'diamond').count()) === 1, 'a diamond placed by tap');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Undo', exact: true }).tap();
    await page.getByRole('button', { name: 'Undo', exact: true }).tap();
    await until(async () => (await shapes(page).count()) === 0, 'both undone by tap');
  });

  it('Undo and Redo work by tap', async () => {
    await page.getByRole('button', { name: 'Sticky note', exact: true }).tap();
    await boardArea(page).tap({ position: { x: 195, y: 380 } });
    await until(async () => (await shapes(page, 'sticky').count()) === 1, 'a sticky placed by tap');
    await page.keyboard.press('Escape');
    await page.screenshot({ path: `${artifacts}/board-phone-390.png` });
    await page.getByRole('button', { name: 'Undo', exact: true }).tap();
    await until(async () => (await shapes(page, 'sticky').count()) === 0, 'undone by tap');
    await page.getByRole('button', { name: 'Redo', exact: true }).tap();
    await until(async () => (await shapes(page, 'sticky').count()) === 1, 'redone by tap');
  });

  // A trial: the facilitation bar showed seven glyphs (▭ ☰ ▶ ✦ ☺ ◔ ●) and nothing said what each
  // did (a phone has no tooltips). Each now says its name under its icon, whole, all on screen.
  it('each facilitation button has a name and shows it under its icon, whole and on screen', async () => {
    const bar = page.getByRole('toolbar', { name: 'Facilitation' });
    await page.screenshot({ path: `${artifacts}/phone-facilitation-390.png` });
    const shown: Record<string, string> = {};
    for (const button of await bar.getByRole('button').all()) {
      const name = (await button.getAttribute('aria-label'))!;
      assert.ok(name, 'the button has an accessible name');
      assert.ok(await button.evaluate(inSight), `${name} is on screen, nothing over it`);
      const label = button.locator('.label');
      assert.ok(await label.isVisible(), `${name} shows its label`);
      assert.ok(
        await label.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const b = el.parentElement!.getBoundingClientRect();
          return el.scrollWidth <= el.clientWidth && r.left >= b.left && r.right <= b.right;
        }),
        `${name}’s label is whole, inside its button`,
      );
      shown[name] = (await label.textContent())!;
    }
    assert.deepEqual(shown, {
      Frame: 'Frame',
      Frames: 'Frames',
      Present: 'Present',
      'Laser pointer': 'Laser',
      Reactions: 'React',
      Timer: 'Timer',
      Vote: 'Vote',
    });
  });

  it('History, Templates and Export are under More: named in a column on screen; a choice folds them away', async () => {
    const more = page.getByRole('button', { name: 'More', exact: true });
    for (const name of ['History', 'Templates', 'Export']) {
      assert.ok(await page.getByRole('button', { name, exact: true }).isHidden(), `${name} is folded`);
    }
    await more.tap();
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    const folded = page.locator('.fold-items');
    for (const name of ['History', 'Templates', 'Export']) {
      const control = folded.getByRole('button', { name, exact: true });
      assert.ok(await control.evaluate(inSight), `${name} is in sight`);
      const label = control.locator('.label');
      assert.ok(await label.isVisible(), `${name} says its name beside its icon`);
      assert.equal(await label.textContent(), name);
    }
    await page.screenshot({ path: `${artifacts}/phone-more-390.png` });
    // A menu opened from the fold takes the first Escape; the fold the next, focus back on More.
    await folded.getByRole('button', { name: 'Templates', exact: true }).tap();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Insert template…' }).waitFor();
    assert.ok(await menu.evaluate(inSight), 'the Templates menu is in sight');
    await page.screenshot({ path: `${artifacts}/phone-more-templates-390.png` });
    await page.keyboard.press('Escape');
    await until(async () => (await menu.count()) === 0, 'the menu closes');
    assert.ok(
      await folded.getByRole('button', { name: 'Export', exact: true }).isVisible(),
      'the fold stays open',
    );
    await page.keyboard.press('Escape');
    await until(async () => (await more.getAttribute('aria-expanded')) === 'false', 'Escape folds it');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'More');
    // The gallery a folded menu opens is on screen, though the fold closed behind it.
    await more.tap();
    await folded.getByRole('button', { name: 'Templates', exact: true }).tap();
    await menu.getByRole('menuitem', { name: 'Insert template…' }).tap();
    const gallery = page.getByRole('dialog', { name: 'Insert template' });
    await gallery.waitFor();
    assert.equal(await more.getAttribute('aria-expanded'), 'false', 'the choice folded the group');
    assert.ok(await gallery.evaluate(inSight), 'the gallery is in sight');
    await page.screenshot({ path: `${artifacts}/phone-more-gallery-390.png` });
    await gallery.getByRole('button', { name: 'Close', exact: true }).tap();
    await until(async () => (await gallery.count()) === 0, 'the gallery closes');
    // History opens its panel and folds the group; a tap outside folds it too.
    await more.tap();
    await folded.getByRole('button', { name: 'History', exact: true }).tap();
    await page.getByRole('complementary', { name: 'Version history' }).waitFor();
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    await page.getByRole('button', { name: 'Close history' }).tap();
    await more.tap();
    await boardArea(page).tap({ position: { x: 60, y: 300 } });
    await until(async () => (await more.getAttribute('aria-expanded')) === 'false', 'a tap outside folds it');
  });

  /**
   * True when the element is wholly on screen and nothing covers it: a tap at its centre and just
   * inside each of its corners lands on it.
   */
  const inSight = (el: Element) => {
    const r = el.getBoundingClientRect();
    const onScreen =
      r.left >= 0 && r.right <= window.innerWidth && r.top >= 0 && r.bottom <= window.innerHeight;
    // Inside the rounded corners (panels' radius is 12 px; a button's smaller than its half size).
    const inset = Math.min(10, r.width / 4, r.height / 4);
    const points = [
      [r.left + r.width / 2, r.top + r.height / 2],
      [r.left + inset, r.top + inset],
      [r.right - inset, r.top + inset],
      [r.left + inset, r.bottom - inset],
      [r.right - inset, r.bottom - inset],
    ];
    const hits = points.map(([x, y]) => document.elementFromPoint(x!, y!));
    return onScreen && r.width > 0 && hits.every((hit) => !!hit && el.contains(hit));
  };

  /**
   * How much of the shape's on-screen box the style panel covers (0 to 1, from a 9 × 9 grid of
   * points), and whether its centre is covered: what a tap or a look at each point would meet.
   */
  const coveredByPanel = (g: Element) => {
    // (No functions declared in here: the test's build names them with a helper the page lacks.)
    const r = g.getBoundingClientRect();
    const panel = document.querySelector('.style-panel');
    const points: [number, number][] = [[r.left + r.width / 2, r.top + r.height / 2]];
    for (let i = 0; i < 9; i++)
      for (let j = 0; j < 9; j++)
        points.push([r.left + ((i + 0.5) * r.width) / 9, r.top + ((j + 0.5) * r.height) / 9]);
    const under = points.map(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return !!hit && !!panel && panel.contains(hit);
    });
    return { centre: under[0], share: under.slice(1).filter(Boolean).length / 81 };
  };

  // A user trial: the style panel (142 × 600 px down the left) hid most of the shape selected,
  // so a colour picked could not be seen on it. On a phone it is a sheet at the bottom.
  for (const [tool, type, at] of [
    ['Rectangle', 'rect', { x: 110, y: 560 }],
    ['Sticky note', 'sticky', { x: 195, y: 420 }],
  ] as const) {
    it(`a ${type} selected in the ${at.x < 150 ? 'lower left' : 'middle'} stays in sight beside its style controls, which recolour it by tap`, async () => {
      await page.getByRole('button', { name: tool, exact: true }).tap();
      await boardArea(page).tap({ position: at });
      const shape = shapes(page, type).last();
      await shape.waitFor();
      const panel = page.getByRole('toolbar', { name: 'Selection' });
      await panel.waitFor();
      await page.screenshot({ path: `${artifacts}/phone-style-${type}-390.png` });
      const seen = await shape.evaluate(coveredByPanel);
      assert.ok(!seen.centre, 'the shape’s centre is not under the style panel');
      assert.ok(seen.share <= 0.2, `${Math.round(seen.share * 100)}% of the shape is under the style panel`);
      // The panel is within the screen and leaves the tool bar's Undo and Redo in reach.
      const box = (await panel.boundingBox())!;
      assert.ok(
        box.x >= 0 && box.y >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844,
        'on screen',
      );
      assert.ok(await reachable('Undo'), 'Undo in reach beside the style panel');
      assert.ok(await reachable('Redo'), 'Redo in reach beside the style panel');
      // Every control of the panel can be brought into sight (it scrolls sideways) and tapped.
      const controls = await panel.locator('button, select, input, textarea').all();
      assert.ok(controls.length > 8, `${controls.length} controls`);
      for (const control of controls) {
        await control.evaluate((el) => el.scrollIntoView({ block: 'nearest', inline: 'nearest' }));
        const name = (await control.getAttribute('aria-label')) ?? (await control.textContent());
        assert.ok(await control.evaluate(inSight), `${name} can be brought into sight and tapped`);
        const size = (await control.boundingBox())!;
        assert.ok(size.height >= 24 && size.width >= 20, `${name} is ${size.width} × ${size.height} px`);
      }
      // A colour picked by tap shows on the shape, which stays in sight.
      const paint = () =>
        shape.evaluate((g) =>
          [...g.querySelectorAll('rect, path, polygon, ellipse')]
            .map((el) => getComputedStyle(el).fill)
            .join(' '),
        );
      const before = await paint();
      const red = panel.getByRole('button', { name: 'Colour red', exact: true });
      await red.evaluate((el) => el.scrollIntoView({ block: 'nearest', inline: 'nearest' }));
      assert.ok(await red.evaluate(inSight), 'the red swatch is in sight');
      await red.tap();
      await until(async () => (await red.getAttribute('aria-pressed')) === 'true', 'red is picked');
      await until(async () => (await paint()) !== before, 'the shape is drawn in its new colour');
      await page.screenshot({ path: `${artifacts}/phone-style-${type}-red-390.png` });
      const after = await shape.evaluate(coveredByPanel);
      assert.ok(!after.centre && after.share <= 0.2, 'the recoloured shape is in sight');
      await page.keyboard.press('Escape');
      await until(async () => (await panel.count()) === 0, 'the selection is cleared');
    });
  }

  it('the open Pages panel takes the width, its names whole; a selection’s style panel folds away until it closes', async () => {
    await page.getByRole('button', { name: 'Rectangle', exact: true }).tap();
    await boardArea(page).tap({ position: { x: 250, y: 520 } });
    const style = page.locator('.style-panel');
    await style.waitFor();
    await page.getByRole('button', { name: 'Pages', exact: true }).tap();
    const pages = page.getByRole('region', { name: 'Pages' });
    await pages.waitFor();
    await page.screenshot({ path: `${artifacts}/phone-style-and-pages-390.png` });
    assert.ok(await pages.evaluate(inSight), 'the Pages panel is on screen, nothing over it');
    const width = (await pages.boundingBox())!.width;
    assert.ok(width >= 360, `the Pages panel is ${width} px wide`);
    const names = await pages
      .locator('.page-name')
      .evaluateAll((els) =>
        els.map((el) => ({ text: el.textContent, cut: el.scrollWidth > el.clientWidth })),
      );
    assert.deepEqual(names, [{ text: 'Page 1', cut: false }], 'the page’s name is whole, not “Pag…”');
    assert.ok(await style.isHidden(), 'the style panel is folded away while Pages is open');
    await page.getByRole('button', { name: 'Close pages' }).tap();
    await until(async () => (await pages.count()) === 0, 'the Pages panel is closed');
    await style.waitFor();
    await page.screenshot({ path: `${artifacts}/phone-style-after-pages-390.png` });
    assert.ok(await style.evaluate(inSight), 'the style panel is back, the shape still selected');
    await page.keyboard.press('Escape');
    await until(async () => (await style.count()) === 0, 'the selection is cleared');
  });

  it('another person shows as a face (“+1”) beside one’s own avatar, which is first in the Tab order too', async () => {
    const link = await shareLink(page, 'can edit');
    const otto = await newUser(app, 'Otto');
    try {
      await joinByLink(otto.page, link, boardId);
      const more = page.getByRole('button', { name: '1 more person on this board', exact: true });
      await more.waitFor();
      await page.screenshot({ path: `${artifacts}/phone-avatars-390.png` });
      const mine = page.getByRole('button', { name: 'Pia (you): your colour' });
      assert.ok(await mine.evaluate(inSight), 'my avatar is wholly in sight');
      assert.ok(await more.evaluate(inSight), 'the button for the others is wholly in sight');
      const face = (await more.locator('.avatar').boundingBox())!;
      assert.ok(face.width >= 24, `Otto’s face is ${face.width} px wide, not a sliver`);
      assert.equal(await more.locator('.avatar').textContent(), 'O');
      const title = (await page.locator('.topbar .board-title').boundingBox())!;
      assert.ok(title.width > 30, `the title keeps ${title.width} px`);
      // Tab from Pages (the title panel's last control) reaches my avatar first, as it is drawn.
      await page.getByRole('button', { name: 'Pages', exact: true }).focus();
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
        'Pia (you): your colour',
      );
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
        '1 more person on this board',
      );
      // The face opens the list of the others, to follow one.
      await more.tap();
      const menu = page.getByRole('menu', { name: 'Everyone on this board' });
      await menu.getByRole('menuitemcheckbox', { name: 'Otto' }).tap();
      await until(async () => (await menu.count()) === 0, 'the menu closes');
      await more.tap();
      await menu.getByRole('menuitemcheckbox', { name: 'Otto', checked: true }).waitFor();
      await menu.getByRole('menuitemcheckbox', { name: 'Otto' }).tap();
      await more.tap();
      await menu.getByRole('menuitemcheckbox', { name: 'Otto', checked: false }).waitFor();
      await page.keyboard.press('Escape');
      await until(async () => (await menu.count()) === 0, 'the menu closes on Escape');
    } finally {
      await otto.context.close();
    }
  });

  // A trial: the Pages panel piled the faces of who is on a page each over half of the one before,
  // initials hidden, and counted one person twice (two tabs) in its "+N".
  it('the Pages panel shows who is on a page as two faces and “+N”, each face readable, in the row beside the name', async () => {
    const link = await shareLink(page, 'can edit');
    const others = await Promise.all(['Ada', 'Ben', 'Cy'].map((name) => newUser(app, name)));
    // Pia a second time, in another tab of her phone: one person still.
    const tab = await phone.newPage();
    failOnPageErrors(tab, 'Pia’s second tab');
    try {
      // The second tab first: its presence reaches the phone before that of the last to join.
      await tab.goto(`/b/${boardId}`);
      await tab.locator('[role="status"][data-status="live"]').waitFor();
      for (const other of others) await joinByLink(other.page, link, boardId);
      await page.getByRole('button', { name: 'Pages', exact: true }).tap();
      const pages = page.getByRole('region', { name: 'Pages' });
      const row = pages.locator('.page-row').first();
      const people = row.locator('.page-people');
      await until(async () => /\bCy\b/.test((await people.getAttribute('title')) ?? ''), 'Cy on the page');
      await page.screenshot({ path: `${artifacts}/phone-pages-people-390.png` });
      await row.screenshot({ path: `${artifacts}/phone-pages-people-row-390.png` });
      assert.equal(await people.locator('.avatar').count(), 2, 'two faces');
      assert.equal(
        await people.locator('.page-people-more').textContent(),
        '+2',
        'and two more: four people',
      );
      const boxes = await people.evaluate((el) =>
        [...el.children].map((c) => {
          const r = c.getBoundingClientRect();
          return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        }),
      );
      for (const [i, b] of boxes.slice(1).entries()) {
        assert.ok(
          b.left - boxes[i]!.left >= 14,
          `face ${i + 1} shows ${b.left - boxes[i]!.left} px of its 20`,
        );
      }
      const name = (await row.locator('.page-name').boundingBox())!;
      const rowBox = (await row.boundingBox())!;
      for (const b of boxes) {
        assert.ok(b.left >= name.x + name.width, 'the faces are right of the page’s name, not over it');
        assert.ok(
          b.top >= rowBox.y && b.bottom <= rowBox.y + rowBox.height && b.right <= rowBox.x + rowBox.width,
          'the faces are inside the row',
        );
      }
      assert.ok(
        await row.locator('.page-name').evaluate((el) => el.scrollWidth <= el.clientWidth),
        'the page’s name is whole',
      );
      await page.getByRole('button', { name: 'Close pages' }).tap();
      await until(async () => (await pages.count()) === 0, 'the Pages panel is closed');
    } finally {
      await tab.close();
      for (const other of others) await other.context.close();
    }
  });

  it('the Share dialog shows a link in a field as wide as the dialog, its Copy button in sight', async () => {
    await page.getByRole('button', { name: 'Share', exact: true }).tap();
    const dialog = page.getByRole('dialog', { name: 'Share board' });
    await dialog.getByRole('button', { name: 'Create “can view” link' }).tap();
    const field = dialog.getByLabel('Can view link');
    await field.waitFor();
    await page.screenshot({ path: `${artifacts}/phone-share-390.png` });
    const row = dialog.getByRole('listitem').filter({ has: page.getByLabel('Can view link') });
    const width = (await row.boundingBox())!.width;
    const box = (await field.boundingBox())!;
    assert.ok(box.width >= width - 1, `the field is ${box.width} px wide of its row's ${width}`);
    assert.ok(await field.evaluate(inSight), 'the field is in sight');
    assert.ok(
      await row.getByRole('button', { name: 'Copy' }).evaluate(inSight),
      'its Copy button is in sight',
    );
    assert.ok(await row.getByRole('button', { name: 'Revoke' }).evaluate(inSight), 'its Revoke button too');
    await dialog.getByRole('button', { name: 'Close', exact: true }).tap();
  });

  // A template inserted on a phone was fitted whole, at 14 %: Kanban's three columns in a strip
  // of 390 px, its words 2 px high. It comes at a zoom it can be read at (TEMPLATE_MIN_ZOOM, 50 %),
  // its start (the first column's title, prompt and note) in sight under the top bar.
  it('a template inserted from the gallery is shown at a readable zoom, its first column in sight', async () => {
    await page.goto('/boards');
    await createBoard(page, 'Phone kanban');
    await page.getByRole('button', { name: 'More', exact: true }).tap();
    await page.locator('.fold-items').getByRole('button', { name: 'Templates', exact: true }).tap();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Insert template…' }).tap();
    await page
      .getByRole('dialog', { name: 'Insert template' })
      .getByRole('button', { name: 'Use template Kanban', exact: true })
      .tap();
    await until(async () => (await shapes(page, 'frame').count()) === 3, 'the three Kanban frames');
    await page.locator('.toast[role="alert"]', { hasText: /Inserted “Kanban”/ }).waitFor();
    // The zoom read-out is hidden on a phone (ZoomControls.tsx) but still says the zoom.
    const readout = page.locator('.zoom-level');
    await until(async () => (await readout.textContent()) !== '100%', 'the view moved to the template');
    await page.screenshot({ path: `${artifacts}/phone-template-390.png` });
    const zoom = Number.parseInt((await readout.textContent())!, 10);
    assert.ok(zoom >= 50, `inserted at ${zoom} %`);
    // The template's first shape, the "To do" frame, is wholly in sight between the top bar and
    // the controls at the bottom, with its title, prompt and starter note.
    const first = page
      .locator('[data-frame-title]')
      .filter({ has: page.locator('.frame-name', { hasText: 'To do' }) });
    const id = (await first.getAttribute('data-frame-title'))!;
    const bar = (await page.locator('.topbar').boundingBox())!;
    const top = bar.y + bar.height;
    const below = await page
      .locator('[role="toolbar"], [role="status"]')
      .evaluateAll((els) =>
        els.map((el) => el.getBoundingClientRect().top).filter((y) => y > window.innerHeight / 2),
      );
    const bottom = Math.min(...below);
    for (const [name, target] of [
      ['the first frame', page.locator(`[data-shape-id="${id}"]`)],
      ['its title', first],
      ['its prompt', page.locator('.shape-text', { hasText: 'Work not started yet.' })],
      ['its starter note', page.locator('[data-shape-type="sticky"]', { hasText: 'A task' })],
    ] as const) {
      const box = (await target.boundingBox())!;
      assert.ok(
        box.x >= 0 && box.x + box.width <= 390 && box.y >= top && box.y + box.height <= bottom,
        `${name} is in sight: ${JSON.stringify(box)}, between ${top} and ${bottom}`,
      );
    }
  });

  // The phone layout runs to 760 px, but the facilitation bar moved above the tools only at 640:
  // from 641 to 760 px (a narrow tablet, a phone held sideways) it stood at the top right, over the
  // ends of the full-width Find bar and Pages panel, whose close buttons could not be reached. And
  // at every phone width the Comments panel ran down over the status row, hiding "Live" and the
  // save state while it was open.
  for (const size of [
    { width: 700, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`at ${size.width} px the Find bar and the Pages panel are whole and the status stays in sight under Comments`, async () => {
      await page.setViewportSize(size);
      try {
        await page.goto(`/b/${boardId}`);
        await page.locator('[role="status"][data-status="live"]').waitFor();
        await page.getByRole('button', { name: 'Find on this page', exact: true }).tap();
        const find = page.locator('.find-bar');
        await find.waitFor();
        await page.screenshot({ path: `${artifacts}/phone-find-${size.width}.png` });
        assert.deepEqual(
          await covered(find.getByRole('button')),
          [],
          'every button of the Find bar can be tapped',
        );
        await find.getByRole('button', { name: 'Close find' }).tap();
        await until(async () => (await find.count()) === 0, 'the Find bar is closed');

        await page.getByRole('button', { name: 'Pages', exact: true }).tap();
        const pages = page.getByRole('region', { name: 'Pages' });
        await pages.waitFor();
        await page.screenshot({ path: `${artifacts}/phone-pages-${size.width}.png` });
        assert.deepEqual(await covered(pages.getByRole('button')), [], 'every button of Pages can be tapped');
        await page.getByRole('button', { name: 'Close pages' }).tap();
        await until(async () => (await pages.count()) === 0, 'the Pages panel is closed');

        await page.getByRole('button', { name: 'Comments', exact: true }).tap();
        await page.locator('.comments-panel').waitFor();
        await page.screenshot({ path: `${artifacts}/phone-comments-${size.width}.png` });
        assert.deepEqual(
          await covered(page.locator('[role="status"][data-status="live"]')),
          [],
          'the connection state is in sight while Comments is open',
        );
        assert.deepEqual(await covered(page.getByRole('button', { name: 'Close comments' })), []);
        await page.getByRole('button', { name: 'Close comments' }).tap();
        await until(async () => (await page.locator('.comments-panel').count()) === 0, 'Comments is closed');
      } finally {
        await page.setViewportSize({ width: 390, height: 844 });
      }
    });
  }

  // The dashboard's header hides the name on a phone to make room; its rule hid every span in the
  // account corner, the avatar too, so nothing said who was signed in.
  it('the dashboard shows whose account it is (the avatar) on a phone', async () => {
    await page.goto('/boards');
    const avatar = page.locator('.dash-header .me .avatar');
    await avatar.waitFor({ state: 'attached' });
    assert.equal(await avatar.getAttribute('title'), 'Pia');
    const box = await avatar.boundingBox();
    assert.ok(box && box.width >= 28 && box.x + box.width <= 390, `avatar on screen: ${JSON.stringify(box)}`);
    assert.ok(await avatar.isVisible(), 'avatar visible');
  });
});
