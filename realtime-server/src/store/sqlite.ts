// The embedded Store: one SQLite file (tandem.db in DATA_DIR) in WAL mode, for single-instance
// deployments. better-sqlite3 is synchronous, so each method runs to completion before any
// other code in this process can touch the database. The repositories (facade.ts) run on its
// `sql` executor; this file holds what SQLite does its own way.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { dataDirFiles } from '../config.ts';
import * as doc from './doclog.ts';
import { type Engine, SqlStore } from './facade.ts';
import { migrations, PROBE_WRITE, sqliteDialect } from './migrations.ts';
import type { Row } from './rows.ts';
import { SqliteSql } from './sql.ts';
import { BoardGoneError, type DocEntry, type LogSize, type MergeParts, type StoredDoc } from './types.ts';
import { WalFlusher } from './walFlush.ts';

export interface SqliteStoreOptions {
  /** Directory holding tandem.db, or ':memory:' for a throwaway database. */
  dataDir: string;
}

/** The Store on SQLite: the repositories and the SQLite engine over one connection. */
export class SqliteStore extends SqlStore {
  readonly db: Database.Database;
  /** Flushes the WAL after each write (none for a database in memory). */
  readonly wal: WalFlusher | null;

  constructor(options: SqliteStoreOptions) {
    const db = openDatabase(options.dataDir);
    const wal = options.dataDir === ':memory:' ? null : new WalFlusher(`${db.name}-wal`);
    const sql = new SqliteSql(db, wal ? () => wal.flush() : undefined);
    super(sql, new SqliteEngine(db, sql, wal));
    this.db = db;
    this.wal = wal;
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
  // Every write reaches the disk before the Store reports it done: a board's edits are confirmed
  // "saved" to its clients once appended. A commit only writes the WAL (NORMAL); the call then
  // waits for an fdatasync of the WAL file off the event loop (store/walFlush.ts), where FULL
  // made the main thread wait for it (docs/operations.md, "Durability of SQLite"). A database in
  // memory has nothing to flush.
  db.pragma(dataDir === ':memory:' ? 'synchronous = FULL' : 'synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Another process holding the write lock (a backup, a second instance by mistake) makes
  // writers wait a little instead of failing at once.
  db.pragma('busy_timeout = 5000');
  return db;
}

class SqliteEngine implements Engine {
  readonly dialect = sqliteDialect;

  constructor(
    private readonly db: Database.Database,
    private readonly sql: SqliteSql,
    private readonly wal: WalFlusher | null,
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
    await this.sql.durable();
  }

  async ping(): Promise<void> {
    this.sql.prepare('SELECT 1').get();
  }

  async probeWrite(): Promise<void> {
    // The latest migration row always exists; rewriting it with its own value is a real write
    // (SQLite does not skip unchanged rows), committed to the WAL like any other.
    this.sql.prepare(PROBE_WRITE).run();
    await this.sql.durable();
  }

  async close(): Promise<void> {
    await this.wal?.close();
    if (this.db.open) this.db.close();
  }

  async loadDoc(key: string): Promise<StoredDoc> {
    return doc.toStoredDoc(this.sql.allSync(doc.loadDoc(key)));
  }

  async append(key: string, entries: DocEntry[]): Promise<LogSize> {
    const size = this.db.transaction(() => {
      // In the same transaction as the inserts: no content is stored for a deleted board.
      if (!this.sql.oneSync(doc.liveBoard(key))) throw new BoardGoneError(key);
      for (const q of doc.appendEntries(key, entries, false)) this.sql.runSync(q);
      return doc.toLogSize(this.sql.oneSync(doc.logSize(key)));
    })();
    await this.sql.durable();
    return size;
  }

  async compact(key: string, merge: MergeParts): Promise<void> {
    const read = this.db.transaction(() => ({
      snapshot: (this.sql.oneSync(doc.readSnapshot(key))?.data as Uint8Array | undefined) ?? null,
      log: this.sql.allSync(doc.readLog(key)),
    }))();
    if (read.log.length === 0) return;
    const parts = read.log.map((r) => r.data as Uint8Array);
    if (read.snapshot) parts.unshift(read.snapshot);
    // Merge outside any transaction: a throwing merge leaves nothing half-done, and anything
    // appended meanwhile is not among the entries retired below. Holding the write lock across
    // the merge (as PostgreSQL does) would stall every other write of this process meanwhile.
    const merged = await merge(parts);
    const seqs = read.log.map((r) => r.seq);
    const write = this.db.transaction(() => {
      if (!this.sql.oneSync(doc.liveBoard(key))) return;
      const { keep, remove } = doc.retireEntries(seqs);
      for (const q of keep) this.sql.runSync(q);
      let deleted = 0;
      for (const q of remove) deleted += this.sql.runSync(q);
      // Another process compacted these entries first; then its snapshot holds them.
      if (deleted !== seqs.length) throw new CompactionRaced();
      this.sql.runSync(doc.putSnapshot(key, merged));
    });
    try {
      write.immediate();
    } catch (err) {
      if (!(err instanceof CompactionRaced)) throw err;
    }
    await this.sql.durable();
  }
}

class CompactionRaced extends Error {}
