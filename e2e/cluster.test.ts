// Two browsers on two different instances (real Redis and PostgreSQL between them) edit one
// board live: what one person draws and types appears for the other, with their cursor.
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { TestCluster } from '../testing/cluster.ts';
import type { TestServer } from '../testing/server.ts';
import { skipUnless } from '../testing/services.ts';
import {
  artifacts,
  createBoard,
  launch,
  newUser,
  place,
  shareLink,
  stickyText,
  until,
  waitStatus,
} from './helpers.ts';

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

describe('two browsers on two instances', { skip }, () => {
  const cluster = new TestCluster({
    env: { CLIENT_DIR: resolve(import.meta.dirname, '..', 'client', 'dist') },
  });
  let browser: Browser;
  let one: TestServer;
  let two: TestServer;
  let ada: Page;
  let bo: Page;
  let boardId: string;

  before(async () => {
    one = await cluster.start();
    two = await cluster.start();
    browser = await launch();
    // Each person talks to a different instance, as two browsers behind a balancer may.
    ada = (await newUser({ browser, server: one }, 'Ada')).page;
    bo = (await newUser({ browser, server: two }, 'Bo', { guest: true })).page;
    boardId = await createBoard(ada, 'Across instances');
    const link = new URL(await shareLink(ada, 'can edit'));
    await bo.goto(`${two.url}${link.pathname}`);
    await bo.waitForURL(`**/b/${boardId}`);
    await waitStatus(bo, 'live');
  });
  after(async () => {
    await browser?.close();
    await cluster.close();
  });

  it('a sticky and its text made on one instance appear on the other, with the author’s cursor', async () => {
    assert.equal(one.app.rooms.get(boardId)?.peers.size, 1, 'Ada is on instance one');
    assert.equal(two.app.rooms.get(boardId)?.peers.size, 1, 'Bo is on instance two');
    await place(ada, 'Sticky note', 420, 330);
    await ada.keyboard.type('Hello from one');
    await ada.keyboard.press('Escape');
    await until(
      async () => (await stickyText(bo).textContent()) === 'Hello from one',
      'the sticky on instance two',
    );
    await place(bo, 'Rectangle', 760, 420);
    await until(
      async () => (await ada.locator('[data-shape-type="rect"]').count()) === 1,
      'Bo’s rectangle for Ada',
    );
    await ada.mouse.move(640, 560, { steps: 3 });
    await until(
      async () => (await bo.getByText('Ada', { exact: true }).count()) > 0,
      'Ada’s cursor label for Bo',
    );
    await bo.screenshot({ path: resolve(artifacts, 'cluster-two-instances.png') });
  });
});
