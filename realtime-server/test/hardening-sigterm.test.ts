// Hardening: SIGTERM to the real server process in the middle of heavy editing. Every edit that
// reached the server is in the store when the process exits, the clients are closed with 1001,
// they reconnect by themselves to the restarted server, and nothing any of them typed is lost.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CloseCode } from '@tandem/shared';
import type * as Y from 'yjs';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  shapesJson,
  storedDoc,
  waitSynced,
} from '../../testing/clients.ts';
import { type ServerProcess, startProcess } from '../../testing/process.ts';
import { waitUntil } from '../../testing/services.ts';
import { SqliteStore } from '../src/store/sqlite.ts';

// Long debounce: at SIGTERM most edits are only in memory.
const env = (dataDir: string) => ({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  PERSIST_DEBOUNCE_MS: '60000',
  PERSIST_MAX_DELAY_MS: '60000',
});

/** The board as stored on disk, read with the server stopped. */
async function storedOnDisk(dataDir: string, boardId: string): Promise<Y.Doc> {
  const store = new SqliteStore({ dataDir });
  try {
    return await storedDoc(store, boardId);
  } finally {
    await store.close();
  }
}

test('hardening: SIGTERM during heavy editing stores every edit, closes with 1001, and the clients reconnect with nothing lost', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-sigterm-'));
  let server: ServerProcess | null = await startProcess(env(dataDir));
  const { url, wsUrl, port } = server;
  const clients: DocClient[] = [];
  const typing: NodeJS.Timeout[] = [];
  try {
    const owner = await new ApiClient(url).signup('Owner');
    const boardId = await owner.createBoard();
    const writers = [0, 1, 2].map(() => connectDoc(wsUrl, boardId, { cookie: owner.cookie }));
    const observer = connectDoc(wsUrl, boardId, { cookie: owner.cookie });
    clients.push(...writers, observer);
    await Promise.all(clients.map((client) => waitSynced(client)));

    // What the observer had when the server said goodbye: all of it went through the server.
    let observedAtClose: string | null = null;
    observer.provider.on('connection-close', () => {
      observedAtClose ??= shapesJson(observer.doc);
    });
    // Heavy editing: every writer adds a shape and types into a shared note every few ms.
    addShape(writers[0]!.doc, 'shared', { type: 'sticky', x: 0, y: 0 }, '');
    await waitUntil('everyone has the shared note', () =>
      writers.every((w) => w.doc.getMap('shapes').has('shared')),
    );
    writers.forEach((writer, w) => {
      let n = 0;
      typing.push(
        setInterval(() => {
          // Bounded, so a slow machine does not pile up more than it can compare afterwards.
          if (n >= 400) return;
          n += 1;
          addShape(writer.doc, `w${w}-${n}`, { type: 'rect', x: n, y: w });
          const note = writer.doc.getMap('shapes').get('shared') as Y.Map<Y.Text>;
          note.get('text')!.insert(0, String(w));
        }, 5),
      );
    });
    await waitUntil(
      'a good amount of editing reached the observer',
      () => observer.doc.getMap('shapes').size > 150,
    );

    assert.equal(await server.stop(), 0);
    server = null;
    await waitUntil('every client told 1001', () =>
      clients.every((client) => client.closes.some((close) => close.code === CloseCode.GOING_AWAY)),
    );
    for (const timer of typing.splice(0)) clearInterval(timer);
    assert.ok(observedAtClose, 'the observer saw the close');

    // Everything the observer had seen is on disk.
    const onDisk = await storedOnDisk(dataDir, boardId);
    const seen = JSON.parse(observedAtClose as string) as Record<string, unknown>;
    const stored = JSON.parse(shapesJson(onDisk)) as Record<string, unknown>;
    for (const id of Object.keys(seen))
      assert.ok(id in stored, `${id} reached the server but was not stored`);
    onDisk.destroy();

    // The clients come back by themselves to the restarted server and sync what they typed
    // while it was down.
    server = await startProcess(env(dataDir), port);
    await waitUntil('every client reconnected and synced', () =>
      clients.every((client) => client.provider.wsconnected && client.provider.synced),
    );
    // Converged: every replica equal to every other (each one's offline edits have reached all).
    await waitUntil(
      'every replica converged',
      () => new Set(clients.map((client) => shapesJson(client.doc))).size === 1,
      60_000,
    );
    const expected = shapesJson(writers[0]!.doc);
    // Nothing typed before the stop was lost on the way.
    for (const [w, writer] of writers.entries()) {
      assert.ok(writer.doc.getMap('shapes').has(`w${w}-1`), `writer ${w}'s first edit survived`);
    }
    const fresh = connectDoc(wsUrl, boardId, { cookie: owner.cookie });
    clients.push(fresh);
    await waitSynced(fresh);
    await waitUntil('a fresh reader gets everything', () => shapesJson(fresh.doc) === expected);

    for (const client of clients) client.provider.shouldConnect = false;
    assert.equal(await server.stop(), 0);
    server = null;
    const final = await storedOnDisk(dataDir, boardId);
    assert.equal(shapesJson(final), expected, 'everything is stored after the second SIGTERM');
    final.destroy();
  } finally {
    for (const timer of typing) clearInterval(timer);
    for (const client of clients) client.destroy();
    if (server) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
