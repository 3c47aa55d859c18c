// Hardening: a save the server confirmed survives an operating-system crash. SQLite in WAL mode
// with synchronous=NORMAL does not force a commit to disk by itself, so a power cut could undo
// "All changes saved"; the Store makes every write wait for an fdatasync of the WAL file, off the
// event loop (store/walFlush.ts), before it reports the write done. The crash itself cannot be
// staged here: this checks the running server's connection, that each write waits for a flush
// begun after its commit, that writes made together share one, and that a confirmed save is in the
// file when another connection reads it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import * as Y from 'yjs';
import { ApiClient } from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { SqliteStore } from '../src/store/sqlite.ts';

/** PRAGMA synchronous values: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA. */
const NORMAL = 1;

describe('hardening: SQLite writes are on disk before they are reported done', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  test('the running server’s connection commits to the WAL and flushes it after each write', async () => {
    assert.ok(server.store instanceof SqliteStore);
    const db = server.store.db;
    const wal = server.store.wal;
    assert.ok(wal, 'a database file has a WAL flusher');
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('synchronous', { simple: true }), NORMAL);
    const flushesBefore = wal.flushes;
    const owner = await new ApiClient(server.url).signup('Owner');
    const boardId = await owner.createBoard('Kept');
    assert.ok(
      wal.flushes > flushesBefore,
      'the signup and the new board were flushed before they were answered',
    );
    const reader = new Database(join(server.dataDir, 'tandem.db'), { readonly: true });
    try {
      const row = reader.prepare('SELECT title FROM boards WHERE id = ?').get(boardId) as { title: string };
      assert.equal(row.title, 'Kept');
    } finally {
      reader.close();
    }
  });
});

describe('the WAL flusher', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-wal-'));
  const store = new SqliteStore({ dataDir });
  before(async () => {
    await store.migrate();
  });
  after(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const update = (text: string) => {
    const doc = new Y.Doc();
    doc.getText('t').insert(0, text);
    return Y.encodeStateAsUpdate(doc);
  };

  test('each append resolves after a flush; appends made together share one', async () => {
    const wal = store.wal;
    assert.ok(wal);
    const owner = await store.users.create({
      id: 'u-wal',
      name: 'Owner',
      email: null,
      passwordHash: null,
      color: '#123456',
      isGuest: true,
    });
    const board = await store.boards.create({ id: 'b-wal', title: 'Flushed', ownerId: owner.id });
    const entry = (i: number) => ({ update: update(`edit ${i}`), userId: owner.id, at: new Date() });

    const one = wal.flushes;
    await store.append(board.id, [entry(0)]);
    assert.equal(wal.flushes, one + 1, 'one append, one flush begun after its commit');

    const together = wal.flushes;
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.append(board.id, [entry(i + 1)])));
    // The first append starts a flush; the other 19 committed while it ran and share the next one.
    assert.equal(wal.flushes, together + 2, '20 appends made together, two flushes');

    const stored = await store.loadDoc(board.id);
    assert.equal(stored.updates.length, 21);
  });
});
