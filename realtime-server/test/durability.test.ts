// Nothing that reached the server is lost: across a restart, and across SIGTERM of the real
// process while edits are still waiting for their debounced write.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CloseCode } from '@tandem/shared';
import * as Y from 'yjs';
import { ApiClient, addShape, connectDoc, shapesJson, waitSynced } from '../../testing/clients.ts';
import { startProcess } from '../../testing/process.ts';
import { startServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';
import type { SqliteStore } from '../src/store/sqlite.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-durability-'));
  dirs.push(dir);
  return dir;
};

test('accounts, boards and content survive a restart on the same data dir', async () => {
  const dataDir = tempDir();
  const first = await startServer({ dataDir });
  const owner = await new ApiClient(first.url).signup('Owner');
  const boardId = await owner.createBoard('Kept');
  const client = connectDoc(first.wsUrl, boardId, { cookie: owner.cookie });
  await waitSynced(client);
  for (let i = 0; i < 20; i++) addShape(client.doc, `s${i}`, { type: 'rect', x: i, y: i }, `text ${i}`);
  const expected = shapesJson(client.doc);
  await waitUntil('server has every edit', () => shapesJson(first.app.rooms.get(boardId)!.doc) === expected);
  client.destroy();
  await first.close({ keepData: true });

  const second = await startServer({ dataDir, port: Number(new URL(first.url).port) });
  try {
    const again = new ApiClient(second.url);
    again.cookie = owner.cookie;
    const boards = await again.call<{ boards: { id: string; title: string }[] }>('GET', '/api/boards');
    assert.equal(boards.status, 200);
    assert.deepEqual(
      boards.body.boards.map((b) => b.title),
      ['Kept'],
    );
    const reader = connectDoc(second.wsUrl, boardId, { cookie: owner.cookie });
    await waitSynced(reader);
    await waitUntil('content restored', () => shapesJson(reader.doc) === expected);
    reader.destroy();
  } finally {
    await second.close({ keepData: true });
  }
});

test('SIGTERM stores every edit that reached the server and closes clients with 1001', async () => {
  const dataDir = tempDir();
  // Long debounce: at SIGTERM the edits are still only in memory.
  const env = { DATA_DIR: dataDir, PERSIST_DEBOUNCE_MS: '60000', PERSIST_MAX_DELAY_MS: '60000' };
  const server = await startProcess(env);
  const url = server.url;
  const owner = await new ApiClient(url).signup('Owner');
  const boardId = await owner.createBoard();
  const writer = connectDoc(url.replace('http', 'ws'), boardId, { cookie: owner.cookie });
  const observer = connectDoc(url.replace('http', 'ws'), boardId, { cookie: owner.cookie });
  await Promise.all([waitSynced(writer), waitSynced(observer)]);
  for (let i = 0; i < 50; i++) addShape(writer.doc, `n${i}`, { type: 'sticky', x: i, y: 0 }, `note ${i}`);
  const expected = shapesJson(writer.doc);
  // The observer got them through the server, so the server holds them.
  await waitUntil('observer has every edit', () => shapesJson(observer.doc) === expected);
  writer.provider.shouldConnect = false;
  observer.provider.shouldConnect = false;
  assert.equal(await server.stop('SIGTERM'), 0);
  await waitUntil('clients told 1001', () =>
    [writer, observer].every((c) => c.closes.some((close) => close.code === CloseCode.GOING_AWAY)),
  );
  writer.destroy();
  observer.destroy();

  const restarted = await startProcess(env, server.port);
  try {
    const reader = connectDoc(url.replace('http', 'ws'), boardId, { cookie: owner.cookie });
    await waitSynced(reader);
    await waitUntil('every edit was stored', () => shapesJson(reader.doc) === expected);
    reader.destroy();
  } finally {
    await restarted.stop();
  }
});

test('each stored batch names the user who sent it, and when (attribution for version history)', async () => {
  const server = await startServer();
  try {
    const ada = await new ApiClient(server.url).signup('Ada');
    const boardId = await ada.createBoard('Attributed');
    const link = await ada.call<{ link: { token: string } }>('POST', `/api/boards/${boardId}/links`, {
      role: 'editor',
    });
    assert.equal(link.status, 201);
    const ben = await new ApiClient(server.url).signup('Ben');
    assert.equal((await ben.call('POST', `/api/join/${link.body.link.token}`)).status, 200);
    const before = Date.now();
    const onAda = connectDoc(server.wsUrl, boardId, { cookie: ada.cookie });
    const onBen = connectDoc(server.wsUrl, boardId, { cookie: ben.cookie });
    await Promise.all([waitSynced(onAda), waitSynced(onBen)]);
    addShape(onAda.doc, 'by-ada', { type: 'rect', x: 0, y: 0 });
    addShape(onBen.doc, 'by-ben', { type: 'ellipse', x: 1, y: 1 });
    await waitUntil('both edits are stored', async () => {
      const rows = (server.store as SqliteStore).db
        .prepare('SELECT user_id FROM doc_updates WHERE board_id = ? AND user_id IS NOT NULL')
        .all(boardId) as { user_id: string }[];
      return new Set(rows.map((r) => r.user_id)).size === 2;
    });
    const rows = (server.store as SqliteStore).db
      .prepare('SELECT user_id, created_at, data FROM doc_updates WHERE board_id = ? ORDER BY seq')
      .all(boardId) as { user_id: string | null; created_at: number; data: Uint8Array }[];
    const shapesBy = (userId: string) => {
      const doc = new Y.Doc();
      for (const row of rows) if (row.user_id === userId) Y.applyUpdate(doc, row.data);
      return [...doc.getMap('shapes').keys()];
    };
    assert.ok(shapesBy(ada.userId).includes('by-ada'));
    assert.ok(!shapesBy(ada.userId).includes('by-ben'));
    assert.ok(shapesBy(ben.userId).includes('by-ben'));
    for (const row of rows)
      if (row.user_id) assert.ok(row.created_at >= before - 1000 && row.created_at <= Date.now());
    onAda.destroy();
    onBen.destroy();
  } finally {
    await server.close();
  }
});
