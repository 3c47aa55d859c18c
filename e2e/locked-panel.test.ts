// A locked shape's style panel (a user trial: a 176 px card round one icon) is only as wide as its
// one control, Unlock with its word beside the icon; Unlock still unlocks, and the full panel returns.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { artifacts, createBoard, newUser, place, shapes, withApp } from './helpers.ts';

describe('locked style panel', () => {
  const app = withApp();

  it('is compact: just Unlock with its label', async () => {
    const page = (await newUser(app, 'Lu')).page;
    await createBoard(page, 'Locked panel');
    await place(page, 'Rectangle', 400, 300);
    await shapes(page, 'rect').waitFor();
    const panel = page.getByRole('toolbar', { name: 'Selection' });
    await panel.waitFor();
    const open = (await panel.boundingBox())!;
    await page.getByRole('button', { name: 'Lock', exact: true }).click();
    const unlock = panel.getByRole('button', { name: 'Unlock', exact: true });
    await unlock.waitFor();
    await page.waitForTimeout(200);
    const locked = (await panel.boundingBox())!;
    await page.screenshot({ path: join(artifacts, 'locked-panel.png') });
    await panel.screenshot({ path: join(artifacts, 'locked-panel-close.png') });
    // One control in it, its word shown.
    assert.equal(await panel.getByRole('button').count(), 1);
    assert.equal((await unlock.innerText()).trim(), 'Unlock');
    const button = (await unlock.boundingBox())!;
    assert.ok(locked.width < open.width * 0.75, `locked ${locked.width} px wide, open ${open.width}`);
    assert.ok(locked.width - button.width <= 16, `panel ${locked.width} round a ${button.width} px button`);
    assert.ok(locked.height - button.height <= 16, `panel ${locked.height} high round ${button.height}`);
    await unlock.click();
    await page.getByRole('button', { name: 'Lock', exact: true }).waitFor();
    assert.ok(Math.abs((await panel.boundingBox())!.width - open.width) < 1, 'the full panel again');
  });
});
