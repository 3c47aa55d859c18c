// Alt text for images (docs/api.md §10 `alt`), in Chromium: an editor selects a pasted image,
// writes its alt text in the selection panel's labelled field, and the image's name in
// Chromium's own accessibility tree becomes "Image: …", on their screen and live on another
// editor's; it is one undo step, and a viewer gets no field to change it.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import {
  artifacts,
  canvas,
  exported,
  joinByLink,
  newUser,
  pasteImage,
  sharedBoard,
  shareLink,
  underCanvas,
  until,
  withApp,
} from './helpers.ts';

/** The names of the images in the canvas, as Chromium's accessibility tree has them (over CDP). */
const imageNames = async (page: Page): Promise<string[]> =>
  (await underCanvas(page))
    .filter((line) => /^image Image\b/.test(line))
    .map((line) => line.slice('image '.length));

const untilNamed = (page: Page, name: string, who: string) =>
  until(async () => {
    const names = await imageNames(page);
    return names.length === 1 && names[0] === name;
  }, `${who}'s accessibility tree names the image “${name}”`);

describe('alt text for images', () => {
  let ada: Page;
  let bo: Page;
  let boardId: string;

  const app = withApp();
  before(async () => {
    ada = (await newUser(app, 'Ada')).page;
    bo = (await newUser(app, 'Bo')).page;
    boardId = await sharedBoard(ada, 'Described pictures', { editors: [bo] });
    const picture = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#3a7bd5' } })
      .png()
      .toBuffer();
    await pasteImage(ada, picture);
    await untilNamed(ada, 'Image', 'Ada');
    await untilNamed(bo, 'Image', 'Bo');
  });

  it('an editor sets it in a labelled field; the name is "Image: …" for them and, live, for another editor', async () => {
    await canvas(ada).getByRole('img', { name: 'Image', exact: true }).click();
    const field = ada.getByRole('textbox', { name: 'Alt text' });
    await field.waitFor();
    assert.equal(await field.inputValue(), '', 'no alt text yet');
    // Typed key by key: still one change, made when Enter is pressed.
    await field.pressSequentially('a whiteboard photo');
    assert.deepEqual(await imageNames(bo), ['Image'], 'nothing sent while typing');
    await field.press('Enter');
    await untilNamed(ada, 'Image: a whiteboard photo', 'Ada');
    await untilNamed(bo, 'Image: a whiteboard photo', 'Bo');
    await ada.screenshot({ path: `${artifacts}/alt-text-set.png` });

    // Bo's panel shows the value when he selects the image, and his change reaches Ada live.
    await canvas(bo).getByRole('img', { name: 'Image: a whiteboard photo' }).click();
    const bosField = bo.getByRole('textbox', { name: 'Alt text' });
    assert.equal(await bosField.inputValue(), 'a whiteboard photo');
    await bosField.fill('');
    await bosField.pressSequentially('The team at the whiteboard');
    await bosField.blur();
    await untilNamed(ada, 'Image: The team at the whiteboard', 'Ada');
    await until(
      async () => (await field.inputValue()) === 'The team at the whiteboard',
      'Ada’s field shows Bo’s alt text',
    );
  });

  it('is one undo step', async () => {
    await bo.keyboard.press('Escape');
    await bo.keyboard.press('Control+z');
    await untilNamed(bo, 'Image: a whiteboard photo', 'Bo, after one undo');
    await untilNamed(ada, 'Image: a whiteboard photo', 'Ada, after Bo’s undo');
    await bo.keyboard.press('Control+Shift+z');
    await untilNamed(ada, 'Image: The team at the whiteboard', 'Ada, after Bo’s redo');
  });

  it("an SVG export carries it as the image's <title>", async () => {
    const svg = (await exported(ada, 'Board as SVG')).toString('utf8');
    assert.match(svg, /<title>The team at the whiteboard<\/title><image /);
  });

  it('a viewer hears it but gets no field to change it', async () => {
    const link = await shareLink(ada, 'can view');
    const vic = (await newUser(app, 'Vic')).page;
    await joinByLink(vic, link, boardId, 'read-only');
    await untilNamed(vic, 'Image: The team at the whiteboard', 'Vic');
    await canvas(vic).getByRole('img', { name: 'Image: The team at the whiteboard' }).click();
    assert.equal(await vic.getByRole('textbox', { name: 'Alt text' }).count(), 0);
  });
});
