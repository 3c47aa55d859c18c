// Integrations in Chromium (docs/api.md §15): the owner creates a key in the Share dialog and
// copies it; a bot uses it over REST; the owner sees the bot's cursor "Sorter (bot)" and its
// stickies appear live; a person's edit made in between stays when the owner undoes all of the
// bot's changes since a time in the History panel; revoking the key in the dialog stops it. A
// bot that moves a frame moves what it holds, and a page it adds shows in the Pages panel.
// Screenshots of the dialog and of the bot at work go to test-artifacts/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { apiPaths, contentPaths } from '@tandem/shared';
import type { Page } from 'playwright-core';
import {
  answerConfirm,
  artifacts,
  createBoard,
  newUser,
  onPhone,
  place,
  shapes,
  until,
  withApp,
} from './helpers.ts';

const count = async (page: Page) => shapes(page).count();

describe('integrations in the browser', () => {
  let ada: Page;
  const app = withApp();
  before(async () => {
    ada = (await newUser(app, 'Ada')).page;
  });

  const botWrite = (key: string, boardId: string, method: string, body: unknown) =>
    fetch(app.server.url + contentPaths.shapes(boardId), {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('a key made in the Share dialog writes live as "<name> (bot)", and the owner undoes the bot alone', async () => {
    const boardId = await createBoard(ada, 'Retro');
    await ada.getByRole('button', { name: 'Share' }).click();
    const dialog = ada.getByRole('dialog', { name: 'Share board' });
    const section = dialog.getByRole('region', { name: 'Integrations' });
    await section.getByText('No integrations.').waitFor();
    await section.getByLabel('Integration name').fill('Sorter');
    await section.getByRole('button', { name: 'Create key' }).click();
    const keyField = section.getByLabel('Sorter key');
    await keyField.waitFor();
    const key = await keyField.inputValue();
    assert.match(key, /^tdm_[A-Za-z0-9_-]{43}$/);
    await section.getByRole('button', { name: 'Copy key' }).click();
    await section.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await ada.evaluate(() => navigator.clipboard.readText()), key);
    await section.getByRole('button', { name: 'Revoke Sorter' }).waitFor();
    // Beside it, how to use it: the board's id, and a request that works as written (the key put in).
    const usage = section.locator('.integration-usage');
    assert.match((await usage.textContent()) ?? '', new RegExp(`Board id ${boardId}\\.`));
    const example = (await usage.locator('pre').textContent()) ?? '';
    const [, url] = /^curl -H "Authorization: Bearer <key>" (\S+)$/.exec(example) ?? [];
    assert.equal(url, app.server.url + contentPaths.board(boardId), example);
    const tried = await fetch(url!, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(tried.status, 200);
    await dialog.screenshot({ path: `${artifacts}/integrations-key-usage.png` });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Opened again (the members read afresh, the bot among them on the server): listed under
    // Integrations only, not again under Members, where a trial took it for a second thing.
    await ada.getByRole('button', { name: 'Share' }).click();
    await section.getByRole('button', { name: 'Revoke Sorter' }).waitFor();
    await dialog.locator('.members li', { hasText: 'Ada' }).waitFor();
    assert.deepEqual(
      await dialog.locator('.members .member-name').allTextContents(),
      ['Ada (you)'],
      'the bot is not among Members',
    );
    await dialog.screenshot({ path: join(artifacts, 'integrations-share-dialog.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // A time before the bot's edits, with real time on each side of it (the revert works to the second).
    await new Promise((r) => setTimeout(r, 1100));
    const since = new Date();
    await new Promise((r) => setTimeout(r, 1100));
    const added = await botWrite(key, boardId, 'POST', {
      shapes: [
        { type: 'sticky', x: 200, y: 200, text: 'From the bot' },
        { type: 'sticky', x: 450, y: 200, text: 'Also the bot' },
      ],
    });
    assert.equal(added.status, 201);
    await until(async () => (await count(ada)) === 2, 'the bot stickies appear live');
    await ada.getByText('Sorter (bot)').first().waitFor();
    await ada.screenshot({ path: join(artifacts, 'integrations-bot-cursor.png') });

    // A person's edit in between stays.
    await place(ada, 'Ellipse', 300, 550);
    await ada.keyboard.press('Escape');
    await until(async () => (await count(ada)) === 3, 'Ada’s ellipse added');
    await ada.locator('[data-saved="saved"]').waitFor();

    await ada.keyboard.press('Control+Alt+KeyH');
    await ada.getByRole('complementary', { name: 'Version history' }).waitFor();
    const people = ada.getByRole('region', { name: "Undo one person's changes" });
    await people.getByRole('button', { name: "Undo all of Sorter's changes since…" }).click();
    const p = (n: number) => String(n).padStart(2, '0');
    await ada
      .getByLabel('Since')
      .fill(
        `${since.getFullYear()}-${p(since.getMonth() + 1)}-${p(since.getDate())}T${p(since.getHours())}:${p(since.getMinutes())}:${p(since.getSeconds())}`,
      );
    // The History panel asks before undoing someone's changes (its confirmation naming them).
    const question = await answerConfirm(
      ada,
      ada.getByRole('button', { name: "Undo Sorter's changes" }),
      'Undo all',
    );
    assert.match(question, /Sorter/, question);
    await until(async () => (await count(ada)) === 1, 'the bot stickies are gone');
    assert.equal(await shapes(ada, 'ellipse').count(), 1, 'Ada’s ellipse kept');
    await ada.keyboard.press('Control+Alt+KeyH');

    // Revoked in the dialog: the key stops working.
    await ada.getByRole('button', { name: 'Share' }).click();
    await answerConfirm(ada, section.getByRole('button', { name: 'Revoke Sorter' }), 'Revoke key');
    await section.getByText('No integrations.').waitFor();
    const refused = await botWrite(key, boardId, 'POST', { shapes: [{ type: 'sticky', x: 0, y: 0 }] });
    assert.equal(refused.status, 401);
    assert.equal(await count(ada), 1);
  });

  // Revoke and Remove take their row away with the focused button: focus fell to the page's body,
  // behind the modal, so the owner's next Tab started from the board's top. It stays in the dialog.
  it('after Revoke or Remove in the Share dialog, focus stays in the dialog', async () => {
    await ada.goto('/boards');
    await createBoard(ada, 'Focus');
    await ada.getByRole('button', { name: 'Share' }).click();
    const dialog = ada.getByRole('dialog', { name: 'Share board' });
    const section = dialog.getByRole('region', { name: 'Integrations' });
    const focused = () =>
      ada.evaluate(() => {
        const el = document.activeElement;
        if (el === document.body) return 'outside: the page body';
        return `${el?.closest('dialog') ? 'in dialog' : 'outside'}: ${el?.getAttribute('aria-label') ?? el?.textContent?.trim()}`;
      });
    // In the dialog: on the section's first control, or where the browser put it (its Close).
    const focusInDialog = async () => {
      let seen = '';
      const check = async () => {
        seen = await focused();
        return seen.startsWith('in dialog: ');
      };
      await until(check, 'focus in the dialog', 3000).catch(() => {
        assert.equal(seen, 'in dialog: …');
      });
    };

    // No name: the sentence is tied to the field, which takes the caret, and goes once a name is typed.
    const nameField = section.getByLabel('Integration name');
    await section.getByRole('button', { name: 'Create key' }).click();
    const refused = section.getByRole('alert');
    assert.equal(await refused.textContent(), 'Enter a name.');
    assert.equal(await nameField.getAttribute('aria-invalid'), 'true');
    assert.equal(await nameField.getAttribute('aria-describedby'), await refused.getAttribute('id'));
    await until(
      () => nameField.evaluate((el) => el === document.activeElement),
      'the name field has the caret',
    );
    await ada.keyboard.type('S');
    await until(
      async () => (await section.getByRole('alert').count()) === 0,
      'the sentence goes as a name is typed',
    );
    assert.equal(await nameField.getAttribute('aria-invalid'), null);

    await nameField.fill('Sorter');
    await section.getByRole('button', { name: 'Create key' }).click();
    await answerConfirm(ada, section.getByRole('button', { name: 'Revoke Sorter' }), 'Revoke key');
    await section.getByText('No integrations.').waitFor();
    await focusInDialog();

    await dialog.getByRole('button', { name: 'Create “can view” link' }).click();
    // Each link's buttons say which link they act on.
    await dialog.getByRole('button', { name: 'Create “public view” link' }).click();
    await dialog.getByRole('button', { name: 'Copy the public link', exact: true }).waitFor();
    await answerConfirm(
      ada,
      dialog.getByRole('button', { name: 'Revoke the public link', exact: true }),
      'Revoke',
    );
    await dialog
      .getByRole('button', { name: 'Copy the public link', exact: true })
      .waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Copy the “can view” link', exact: true }).waitFor();
    await answerConfirm(
      ada,
      dialog.getByRole('button', { name: 'Revoke the “can view” link', exact: true }),
      'Revoke',
    );
    await dialog.getByText('No active links.').waitFor();
    await focusInDialog();
  });

  // The key is shown once. Made with the name field near the dialog's bottom, the new member row
  // above pushed the key box below the dialog's visible bottom, focus stayed on Create key, and
  // nothing in view said a key was made: closing the dialog lost it. It is scrolled to and focused.
  it('a new key is scrolled into view and focused', async () => {
    await ada.goto('/boards');
    await createBoard(ada, 'Key in view');
    await ada.getByRole('button', { name: 'Share' }).click();
    const dialog = ada.getByRole('dialog', { name: 'Share board' });
    const section = dialog.getByRole('region', { name: 'Integrations' });
    await section.getByText('No integrations.').waitFor();
    const nameField = section.getByLabel('Integration name');
    // Earlier keys and links: the dialog scrolls, as the trial's did. The keys are no longer listed
    // under Members as well, which pushed the name field down: a shorter window does that now.
    await ada.setViewportSize({ width: 1280, height: 620 });
    for (const earlier of ['Key zero', 'Key one']) {
      await nameField.fill(earlier);
      await section.getByRole('button', { name: 'Create key' }).click();
      await section.getByRole('button', { name: `Revoke ${earlier}` }).waitFor();
    }
    for (const role of ['can edit', 'can comment', 'can view', 'public view']) {
      await dialog.getByRole('button', { name: `Create “${role}” link` }).click();
      const link = role === 'public view' ? 'public' : `“${role}”`;
      await dialog.getByRole('button', { name: `Revoke the ${link} link`, exact: true }).waitFor();
    }
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await ada.getByRole('button', { name: 'Share' }).click();
    await section.getByRole('button', { name: 'Revoke Key one' }).waitFor();
    // Scroll the dialog (as far as it goes) so the name field sits just above its bottom.
    await nameField
      .evaluate((field) => {
        const box = field.closest('dialog') as HTMLDialogElement;
        const fieldRect = field.getBoundingClientRect();
        const boxRect = box.getBoundingClientRect();
        box.scrollTop += fieldRect.bottom - (boxRect.bottom - 12);
        return boxRect.bottom - field.getBoundingClientRect().bottom;
      })
      .then((gap) => assert.ok(gap >= 0 && gap < 60, `the name field near the bottom: ${gap} px above`));
    await nameField.fill('Key two');
    await section.getByRole('button', { name: 'Create key' }).click();
    await section.getByLabel('Key two key').waitFor();
    await section.getByRole('button', { name: 'Revoke Key two' }).waitFor();
    const where = () =>
      section.locator('.integration-key').evaluate((key) => {
        const box = key.closest('dialog') as HTMLDialogElement;
        const r = key.getBoundingClientRect();
        const d = box.getBoundingClientRect();
        return {
          inView: r.top >= d.top && r.bottom <= d.bottom,
          focused: key.contains(document.activeElement),
          key: [Math.round(r.top), Math.round(r.bottom)],
          dialog: [Math.round(d.top), Math.round(d.bottom)],
          active: document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent,
        };
      });
    let seen = await where();
    await until(
      async () => {
        seen = await where();
        return seen.inView && seen.focused;
      },
      'the key box in view and focused',
      3000,
    ).catch(() => assert.fail(JSON.stringify(seen)));
    // It stays so once the lists around it have settled.
    await new Promise((r) => setTimeout(r, 500));
    seen = await where();
    assert.ok(seen.inView && seen.focused, JSON.stringify(seen));
    await dialog.screenshot({ path: join(artifacts, 'integrations-key-in-view.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await ada.setViewportSize({ width: 1280, height: 800 });
  });

  it('a bot moves a frame and adds a page: Ada sees the note go with its frame and the page in the Pages panel', async () => {
    await ada.goto('/boards');
    const boardId = await createBoard(ada, 'Sprint');
    const made = await ada.request.post(apiPaths.integrations(boardId), {
      data: { name: 'Planner', role: 'editor' },
      headers: { origin: app.server.url },
    });
    assert.equal(made.status(), 201, await made.text());
    const { key } = (await made.json()) as { key: string };
    const added = await botWrite(key, boardId, 'POST', {
      shapes: [
        { id: 'lane', type: 'frame', x: 100, y: 100, w: 420, h: 320, name: 'Doing' },
        { id: 'card', type: 'sticky', x: 160, y: 180, text: 'Ship pages' },
      ],
    });
    assert.equal(added.status, 201);
    const card = ada.locator('[data-shape-id="card"]');
    await card.waitFor();
    const before = await card.boundingBox();
    assert.ok(before);

    const moved = await botWrite(key, boardId, 'PATCH', { shapes: [{ id: 'lane', x: 600 }] });
    assert.equal(moved.status, 200);
    await until(
      async () => ((await card.boundingBox())?.x ?? 0) > before.x + 100,
      'the note moves with its frame',
    );
    const after = await card.boundingBox();
    assert.ok(after && Math.abs(after.y - before.y) < 1, 'only sideways');

    const page = await fetch(app.server.url + contentPaths.pages(boardId), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bot notes' }),
    });
    assert.equal(page.status, 201);
    await ada.getByRole('button', { name: 'Pages', exact: true }).click();
    await until(
      async () =>
        (await ada.locator('.pages-panel .page-name').allTextContents()).join(',') === 'Page 1,Bot notes',
      'the bot’s page in Ada’s Pages panel',
    );
    await ada.getByRole('button', { name: 'Zoom to fit', exact: true }).click();
    await until(async () => {
      const [frame, note] = [
        await ada.locator('[data-shape-id="lane"]').boundingBox(),
        await card.boundingBox(),
      ];
      return !!frame && !!note && note.x > frame.x && note.x + note.width < frame.x + frame.width;
    }, 'the note inside its frame, in view');
    await ada.screenshot({ path: join(artifacts, 'integrations-bot-frame-page.png') });
    await ada.getByRole('button', { name: 'Pages', exact: true }).click();
  });

  it('the dialog fits a phone', async () => {
    // Same account: the session cookie from Ada's context.
    await onPhone(app, ada, async (phone) => {
      await phone.getByRole('button', { name: 'Share' }).click();
      const section = phone.getByRole('region', { name: 'Integrations' });
      await section.getByLabel('Integration name').fill('Importer with a long name');
      await section.getByRole('button', { name: 'Create key' }).click();
      await section.getByLabel('Importer with a long name key').waitFor();
      await section.scrollIntoViewIfNeeded();
      const box = await section.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
      await phone.screenshot({ path: join(artifacts, 'integrations-share-dialog-phone.png') });
    });
  });
});
