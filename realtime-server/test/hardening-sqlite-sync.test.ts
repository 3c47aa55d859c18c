// Hardening: a save the server confirmed survives an operating-system crash. SQLite in WAL mode
// with synchronous=NORMAL (better-sqlite3's build default) does not force a commit to disk, so a
// power cut could undo "All changes saved"; the Store runs with synchronous=FULL. The crash itself
// cannot be staged here: this checks the setting of the running server's own connection, and that
// a confirmed save is in the file when another connection reads it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { ApiClient } from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { SqliteStore } from '../src/store/sqlite.ts';

/** PRAGMA synchronous values: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA. */
const FULL = 2;

describe('hardening: SQLite commits are forced to disk', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  test('the running server’s SQLite connection uses synchronous=FULL in WAL mode', async () => {
    assert.ok(server.store instanceof SqliteStore);
    const db = server.store.db;
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('synchronous', { simple: true }), FULL);
    const owner = await new ApiClient(server.url).signup('Owner');
    const boardId = await owner.createBoard('Kept');
    const reader = new Database(join(server.dataDir, 'tandem.db'), { readonly: true });
    try {
      const row = reader.prepare('SELECT title FROM boards WHERE id = ?').get(boardId) as { title: string };
      assert.equal(row.title, 'Kept');
    } finally {
      reader.close();
    }
  });
});
