// The embedded Store: one SQLite file (tandem.db in DATA_DIR) in WAL mode, for single-instance
// deployments. better-sqlite3 is synchronous, so each method runs to completion before any
// other code in this process can touch the database. The repositories (facade.ts) run on its
// `sql` executor; this file holds what SQLite does its own way.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { dataDirFiles } from '../config.ts';
import { type Engine, SqlStore } from './facade.ts';
import { migrations, PROBE_WRITE, sqliteDialect } from './migrations.ts';
import type { Row } from './rows.ts';
import { SqliteSql } from './sql.ts';
import { BoardGoneError, type DocEntry, type LogSize, type MergeParts, type StoredDoc } from './types.ts';

export interface SqliteStoreOptions {
  /** Directory holding tandem.db, or ':memory:' for a throwaway database. */
  dataDir: string;
}

/** The Store on SQLite: the repositories and the SQLite engine over one connection. */
export class SqliteStore extends SqlStore {
  readonly db: Database.Database;

  constructor(options: SqliteStoreOptions) {
    const db = openDatabase(options.dataDir);
    const sql = new SqliteSql(db);
    super(sql, new SqliteEngine(db, sql));
    this.db = db;
  }
}

function openDatabase(dataDir: string): Database.Database {
  let db: Database.Database;
  if (dataDir === ':memory:') {
    db = new Database(':memory:');
  } else {
    mkdirSync(dataDir, { recursive: true });
    db = new Database(join(dataDir, dataDirFiles.database));
  }
  db.pragma('journal_mode = WAL');
  // Every commit reaches the disk before it returns: a board's edits are confirmed "saved" to
  // its clients once appended, and with NORMAL (the build's default in WAL mode) an operating
  // system crash or power cut could still undo the last commits. Measured cost: about 0.2 ms
  // more per commit on the reference machine (docs/operations.md, "Durability of SQLite").
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // Another process holding the write lock (a backup, a second instance by mistake) makes
  // writers wait a little instead of failing at once.
  db.pragma('busy_timeout = 5000');
  return db;
}

class SqliteEngine implements Engine {
  constructor(
    private readonly db: Database.Database,
    private readonly sql: SqliteSql,
  ) {}

  async migrate(): Promise<void> {
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    const apply = this.db.transaction(() => {
      const done = new Set(
        this.db
          .prepare('SELECT id FROM migrations')
          .all()
          .map((r) => (r as Row).id as number),
      );
      for (const m of migrations) {
        if (done.has(m.id)) continue;
        for (const sql of m.statements(sqliteDialect)) this.db.exec(sql);
        this.db
          .prepare('INSERT INTO migrations (id, name, applied_at) VALUES (?, ?, ?)')
          .run(m.id, m.name, Date.now());
      }
    });
    apply.immediate();
  }

  async ping(): Promise<void> {
    this.sql.prepare('SELECT 1').get();
  }

  async probeWrite(): Promise<void> {
    // The latest migration row always exists; rewriting it with its own value is a real write
    // (SQLite does not skip unchanged rows), committed to the WAL like any other.
    this.sql.prepare(PROBE_WRITE).run();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  async loadDoc(boardId: string): Promise<StoredDoc> {
    return this.db.transaction(() => readDoc(this.sql, boardId))();
  }

  async append(boardId: string, entries: DocEntry[]): Promise<LogSize> {
    return this.db.transaction(() => {
      // In the same transaction as the inserts: no content is stored for a deleted board.
      if (!isLive(this.sql, boardId)) throw new BoardGoneError(boardId);
      const insert = this.sql.prepare(
        'INSERT INTO doc_updates (board_id, data, user_id, created_at) VALUES (?, ?, ?, ?)',
      );
      let latest = 0;
      for (const e of entries) {
        insert.run(boardId, e.update, e.userId, e.at.getTime());
        latest = Math.max(latest, e.at.getTime());
      }
      if (entries.length > 0) {
        this.sql
          .prepare('UPDATE boards SET updated_at = ? WHERE id = ? AND updated_at < ?')
          .run(latest, boardId, latest);
      }
      return logSize(this.sql, boardId);
    })();
  }

  async compact(boardId: string, merge: MergeParts): Promise<void> {
    const read = this.db.transaction(() => {
      const snap = this.sql.prepare('SELECT data FROM doc_snapshots WHERE board_id = ?').get(boardId) as
        | Row
        | undefined;
      const log = this.sql
        .prepare('SELECT seq, data FROM doc_updates WHERE board_id = ? ORDER BY seq')
        .all(boardId) as Row[];
      return { snapshot: (snap?.data as Uint8Array | undefined) ?? null, log };
    })();
    if (read.log.length === 0) return;
    const parts = read.log.map((r) => r.data as Uint8Array);
    if (read.snapshot) parts.unshift(read.snapshot);
    // Merge outside any transaction: a throwing merge leaves nothing half-done, and anything
    // appended meanwhile is not among the entries deleted below.
    const merged = await merge(parts);
    const seqs = read.log.map((r) => r.seq as number);
    const write = this.db.transaction(() => {
      if (!isLive(this.sql, boardId)) return;
      // Another process may have compacted these entries already; then its snapshot holds them.
      // Version history keeps the attributed entries it may replay (store/history.ts).
      const keep = this.sql.prepare(
        `INSERT INTO doc_history (seq, board_id, user_id, created_at, data)
         SELECT seq, board_id, user_id, created_at, data FROM doc_updates WHERE seq = ?`,
      );
      const del = this.sql.prepare('DELETE FROM doc_updates WHERE seq = ?');
      let deleted = 0;
      for (const seq of seqs) {
        keep.run(seq);
        deleted += del.run(seq).changes;
      }
      if (deleted !== seqs.length) throw new CompactionRaced();
      this.sql
        .prepare(
          'INSERT INTO doc_snapshots (board_id, data) VALUES (?, ?) ON CONFLICT (board_id) DO UPDATE SET data = excluded.data',
        )
        .run(boardId, merged);
    });
    try {
      write.immediate();
    } catch (err) {
      if (!(err instanceof CompactionRaced)) throw err;
    }
  }
}

class CompactionRaced extends Error {}

/** The board exists and is not deleted (asked inside the transaction that writes its content). */
function isLive(sql: SqliteSql, boardId: string): boolean {
  return sql.prepare('SELECT 1 FROM boards WHERE id = ? AND deleted_at IS NULL').get(boardId) !== undefined;
}

function readDoc(sql: SqliteSql, boardId: string): StoredDoc {
  const snap = sql.prepare('SELECT data FROM doc_snapshots WHERE board_id = ?').get(boardId) as
    | Row
    | undefined;
  const log = sql
    .prepare('SELECT data FROM doc_updates WHERE board_id = ? ORDER BY seq')
    .all(boardId) as Row[];
  return {
    snapshot: (snap?.data as Uint8Array | undefined) ?? null,
    updates: log.map((r) => r.data as Uint8Array),
  };
}

function logSize(sql: SqliteSql, boardId: string): LogSize {
  const log = sql
    .prepare('SELECT count(*) AS n, coalesce(sum(length(data)), 0) AS b FROM doc_updates WHERE board_id = ?')
    .get(boardId) as Row;
  const snap = sql.prepare('SELECT length(data) AS b FROM doc_snapshots WHERE board_id = ?').get(boardId) as
    | Row
    | undefined;
  const bytes = Number(log.b);
  return { entries: Number(log.n), bytes, totalBytes: bytes + Number(snap?.b ?? 0) };
}
