// Webhooks in Chromium (docs/api.md §15): the owner adds a webhook in the Share dialog, copies its
// signing secret once, and sees its last deliveries, a failing one with the receiver's status and
// the sentence, then delivered. The receiver is a process of its own (testing/webhook-receiver.mjs).
// Screenshots of the dialog, wide and on a phone, go to test-artifacts/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiPaths } from '@tandem/shared';
import type { Page } from 'playwright-core';
import { Receiver, verifySignature } from '../testing/receiver.ts';
import {
  answerConfirm,
  artifacts,
  createBoard,
  failOnPageErrors,
  newUser,
  onPhone,
  until,
  withApp,
} from './helpers.ts';

describe('webhooks in the browser', () => {
  let ada: Page;
  let receiver: Receiver;
  // A webhook is turned off after 3 s of nothing but failures here (24 h by default): its first
  // retry, 6 s after a failure, turns it off when it fails too.
  const app = withApp({
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_RETRY_BASE_MS: '6000',
    WEBHOOK_POLL_MS: '100',
    WEBHOOK_DISABLE_AFTER_MS: '3000',
  });
  before(async () => {
    receiver = await Receiver.start();
    ada = (await newUser(app, 'Ada')).page;
  });
  after(() => receiver?.stop());

  it('the owner adds a webhook, copies its secret, and sees each delivery and why one failed', async () => {
    const boardId = await createBoard(ada, 'Retro');
    await receiver.plan('browser', [500]);
    await ada.getByRole('button', { name: 'Share' }).click();
    const dialog = ada.getByRole('dialog', { name: 'Share board' });
    const section = dialog.getByRole('region', { name: 'Webhooks' });
    await section.getByText('No webhooks.').waitFor();
    await section.getByLabel('Webhook URL').fill(receiver.url('browser'));
    await section.getByRole('checkbox', { name: 'Board changed' }).uncheck();
    await section.getByRole('button', { name: 'Add webhook' }).click();
    const secretField = section.getByLabel('Webhook signing secret');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    assert.match(secret, /^whsec_/);
    await section.getByRole('button', { name: 'Copy secret' }).click();
    await section.getByRole('button', { name: 'Copied' }).waitFor();
    const deliveries = section.getByRole('list', { name: `Deliveries to ${receiver.url('browser')}` });
    await deliveries.getByText('Nothing sent yet.').waitFor();

    // A comment (through the API, with Ada's session) is an event the webhook takes.
    const posted = await ada.evaluate(
      async ({ path }) =>
        (
          await fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ anchor: { x: 0, y: 0 }, body: 'Hello hooks' }),
          })
        ).status,
      { path: apiPaths.threads(boardId) },
    );
    assert.equal(posted, 201);
    // The first attempt gets 500: the dialog says so, with the sentence, while it is retried.
    await deliveries.getByText('Retrying (1 failed) · 500').waitFor({ timeout: 15_000 });
    await deliveries.getByText('The receiver answered 500.').waitFor();
    await dialog.screenshot({ path: join(artifacts, 'webhooks-share-dialog-failing.png') });
    // Then delivered, signed with the secret the dialog showed.
    await deliveries.getByText(/^Delivered · 200/).waitFor({ timeout: 30_000 });
    await section.scrollIntoViewIfNeeded();
    await dialog.screenshot({ path: join(artifacts, 'webhooks-share-dialog.png') });
    const got = await receiver.received('browser');
    assert.equal(got.length, 2);
    assert.ok(verifySignature(secret, got[1]!.headers['tandem-signature'] ?? '', got[1]!.body));

    await answerConfirm(
      ada,
      section.getByRole('button', { name: `Delete webhook ${receiver.url('browser')}` }),
      'Delete webhook',
    );
    await section.getByText('No webhooks.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('the dashboard tells the owner at once that a webhook was turned off, and its notice opens Share at the webhooks', async () => {
    await ada.goto('/boards');
    const boardId = await createBoard(ada, 'Hooked');
    await receiver.plan('gone', [500, 500, 500]);
    // The dashboard is open in another tab while the deliveries fail.
    const dashboard = await ada.context().newPage();
    failOnPageErrors(dashboard, 'Ada’s dashboard tab');
    await dashboard.goto('/boards');
    await dashboard.locator(`[data-board-id="${boardId}"]`).waitFor();
    const call = (method: string, path: string, body: unknown) =>
      ada.evaluate(
        async ({ method, path, body }) => {
          const response = await fetch(path, {
            method,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          return { status: response.status, body: response.status === 204 ? null : await response.json() };
        },
        { method, path, body },
      );
    const created = await call('POST', apiPaths.webhooks(boardId), {
      url: receiver.url('gone'),
      events: ['comment.created'],
    });
    assert.equal(created.status, 201);
    const webhookId = (created.body as { webhook: { id: string } }).webhook.id;
    assert.equal(
      (await call('POST', apiPaths.threads(boardId), { anchor: { x: 0, y: 0 }, body: 'Hi' })).status,
      201,
    );
    // The retry fails too, after more than WEBHOOK_DISABLE_AFTER_MS of failures: turned off, and
    // the open dashboard shows it without a reload.
    const liveNotice = dashboard
      .locator(`[data-board-id="${boardId}"]`)
      .getByRole('link', { name: /A webhook was turned off after a day of failed deliveries/ });
    await liveNotice.waitFor({ timeout: 30_000 });
    assert.equal((await receiver.received('gone')).length, 2, 'turned off on its second failure');
    const listed = await call('GET', apiPaths.webhooks(boardId), undefined);
    assert.notEqual(
      (listed.body as { webhooks: { id: string; disabledAt: string | null }[] }).webhooks.find(
        (w) => w.id === webhookId,
      )?.disabledAt,
      null,
    );

    await ada.goto('/boards');
    const card = ada.locator(`[data-board-id="${boardId}"]`);
    const notice = card.getByRole('link', {
      name: /A webhook was turned off after a day of failed deliveries/,
    });
    await notice.waitFor();
    assert.equal(
      await ada.getByRole('link', { name: /A webhook was turned off/ }).count(),
      1,
      'only that board',
    );
    await card.scrollIntoViewIfNeeded();
    await ada.screenshot({ path: join(artifacts, 'webhooks-dashboard-notice.png') });

    await onPhone(app, ada, async (phone) => {
      await phone.goto('/boards');
      const phoneNotice = phone
        .locator(`[data-board-id="${boardId}"]`)
        .getByRole('link', { name: /A webhook was turned off/ });
      await phoneNotice.scrollIntoViewIfNeeded();
      const box = await phoneNotice.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
      await phone.screenshot({ path: join(artifacts, 'webhooks-dashboard-notice-phone.png') });
    });

    await notice.click();
    await ada.waitForURL(`**/b/${boardId}`);
    const dialog = ada.getByRole('dialog', { name: 'Share board' });
    const section = dialog.getByRole('region', { name: 'Webhooks' });
    await section.getByText('Disabled after 24 h of failures').waitFor();
    await until(async () => {
      const box = await section.boundingBox();
      return !!box && box.y >= 0 && box.y < 800;
    }, 'the webhooks section is scrolled into view');
    await ada.screenshot({ path: join(artifacts, 'webhooks-dashboard-notice-opened.png') });
    assert.equal(new URL(ada.url()).search, '', 'a reload does not open Share again');
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Deleting the webhook that was turned off takes the notice away, on the open dashboard too.
    assert.equal((await call('DELETE', apiPaths.webhook(boardId, webhookId), undefined)).status, 204);
    await until(async () => (await liveNotice.count()) === 0, 'the notice gone from the open dashboard');
    await dashboard.close();
    await ada.goto('/boards');
  });

  it('a webhook the server refuses says why, not only that a field needs attention', async () => {
    await createBoard(ada, 'Refused');
    await ada.getByRole('button', { name: 'Share' }).click();
    const section = ada
      .getByRole('dialog', { name: 'Share board' })
      .getByRole('region', { name: 'Webhooks' });
    await section.getByText('No webhooks.').waitFor();
    // A well-formed URL the server refuses (422, its reason in `fields`): credentials in it.
    await section.getByLabel('Webhook URL').fill('https://ada:secret@hooks.example.net/hook');
    await section.getByRole('button', { name: 'Add webhook' }).click();
    const alert = section.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), 'Leave the user name and password out of the URL.');
    await section.getByText('No webhooks.').waitFor();
    await ada.keyboard.press('Escape');
  });

  it('the section fits a phone', async () => {
    await onPhone(app, ada, async (phone) => {
      await phone.getByRole('button', { name: 'Share' }).click();
      const section = phone.getByRole('region', { name: 'Webhooks' });
      await section.getByLabel('Webhook URL').fill(receiver.url('phone-with-a-rather-long-path-name'));
      await section.getByRole('button', { name: 'Add webhook' }).click();
      await section.getByLabel('Webhook signing secret').waitFor();
      await until(
        async () => (await section.getByText('Nothing sent yet.').count()) === 1,
        'the webhook is listed',
      );
      await section.scrollIntoViewIfNeeded();
      const box = await section.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
      await phone.screenshot({ path: join(artifacts, 'webhooks-share-dialog-phone.png') });
    });
  });
});
