// A retrospective as a small team runs it (docs/api.md §14): Ana facilitates on a 1280×800 desktop
// and Cy takes part from a 390×844 phone. What tripped them up: the presenter's "You are presenting"
// chip (with its Stop button) lay under the editor's messages, and on the phone the "Ana is
// presenting" chip sat on the facilitation bar and the zoom controls.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import {
  artifacts,
  boardArea,
  createBoard,
  joinByLink,
  newUser,
  shapes,
  shareLink,
  until,
  withApp,
} from './helpers.ts';

type Box = { x: number; y: number; width: number; height: number };
const apart = (a: Box, b: Box) =>
  a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

/** Fails naming the two when any two of `named` overlap on screen. */
async function noneOverlap(named: Record<string, Locator>): Promise<void> {
  const boxes = await Promise.all(
    Object.entries(named).map(async ([name, locator]) => {
      const box = await locator.boundingBox();
      assert.ok(box, `${name} is on screen`);
      return [name, box] as const;
    }),
  );
  for (const [i, [a, boxA]] of boxes.entries())
    for (const [b, boxB] of boxes.slice(i + 1))
      assert.ok(apart(boxA, boxB), `${a} ${JSON.stringify(boxA)} overlaps ${b} ${JSON.stringify(boxB)}`);
}

/** Whether a click at the centre of `button` reaches it (nothing lies over it). */
async function reachable(button: Locator): Promise<boolean> {
  const box = (await button.boundingBox())!;
  return button.evaluate((el, { x, y }) => el.contains(document.elementFromPoint(x, y)), {
    x: box.x + box.width / 2,
    y: box.y + box.height / 2,
  });
}

describe('a retro: Ana facilitates on a desktop, Cy joins from a phone', () => {
  const app = withApp();
  let ana: Page;
  let cy: Page;
  let boardId: string;

  before(async () => {
    ana = (await newUser(app, 'Ana')).page;
    cy = (await newUser(app, 'Cy')).page;
    await cy.setViewportSize({ width: 390, height: 844 });
  });

  it('presenting: the chip and its buttons lie clear of the messages and, on a phone, of every bar', async () => {
    boardId = await createBoard(ana, 'Sprint retro', 'Mad, Sad, Glad');
    await until(async () => (await shapes(ana, 'frame').count()) === 3, 'the template’s three frames');
    // The template leaves a notice ("Inserted … Undo removes it.") at the bottom of the screen.
    const notice = ana.locator('.message-stack .toast').filter({ hasText: 'Inserted' });
    await notice.waitFor();
    await ana.getByRole('button', { name: 'Present', exact: true }).click();
    await ana.getByRole('button', { name: 'Start presenting' }).click();
    const anaChip = ana.locator('.presenting-chip');
    await anaChip.waitFor();
    await ana.screenshot({ path: join(artifacts, 'retro-1-presenting.png') });
    await noneOverlap({ 'the presenting chip': anaChip, 'the notice': notice });
    assert.ok(await reachable(ana.getByRole('button', { name: 'Stop', exact: true })), 'Stop can be clicked');

    await joinByLink(cy, await shareLink(ana, 'can edit'), boardId);
    const cyChip = cy.locator('.presenting-chip');
    await cyChip.filter({ hasText: 'Ana is presenting' }).waitFor();
    await cy.locator('.follow-banner').waitFor();
    await cy.screenshot({ path: join(artifacts, 'retro-2-phone-following.png') });
    const phoneBars = {
      'the facilitation bar': cy.getByRole('toolbar', { name: 'Facilitation' }),
      'the zoom bar': cy.getByRole('toolbar', { name: 'Zoom' }),
      'the tools': cy.getByRole('toolbar', { name: 'Tools' }),
      'the status': cy.locator('.status'),
    };
    await noneOverlap({
      ...phoneBars,
      'the presenting chip': cyChip,
      'the Following banner': cy.locator('.follow-banner'),
    });

    // Cy looks around by herself: the chip offers to follow again, clear of the bars.
    const area = (await boardArea(cy).boundingBox())!;
    await cy.mouse.move(area.x + 200, area.y + 300);
    await cy.mouse.wheel(0, 300);
    const followAgain = cy.getByRole('button', { name: 'Follow again' });
    await followAgain.waitFor();
    await cy.locator('.follow-banner').waitFor({ state: 'detached' });
    await cy.screenshot({ path: join(artifacts, 'retro-3-phone-follow-again.png') });
    await noneOverlap({ ...phoneBars, 'the presenting chip': cyChip });
    assert.ok(await reachable(followAgain), 'Follow again can be tapped');
    await followAgain.click();
    await cy.locator('.follow-banner').waitFor();
    await ana.getByRole('button', { name: 'Stop', exact: true }).click();
    await cyChip.waitFor({ state: 'detached' });
  });
});
