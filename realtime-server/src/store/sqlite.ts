// The embedded Store: one SQLite file (tandem.db in DATA_DIR) in WAL mode, for single-instance
// deployments. better-sqlite3 is synchronous, so each method runs to completion before any
// other code in this process can touch the database. The repositories (facade.ts) run on its
// `sql` executor; this file holds what SQLite does its own way.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { DATA_DIR_MODE, dataDirFiles } from '../config.ts';
import * as doc from './doclog.ts';
import { type Engine, SqlStore } from './facade.ts';
import { migrations, PROBE_WRITE, sqliteDialect } from './migrations.ts';
import type { Row } from './rows.ts';
import { SqliteSql } from './sql.ts';
import { readCompaction, writeCompaction } from './sqliteCompaction.ts';
import { SqliteMaintenance, WAL_KEPT_BYTES } from './sqliteMaintenance.ts';
import { BoardGoneError, type DocEntry, type LogSize, type MergeParts, type StoredDoc } from './types.ts';
import { WalFlusher } from './walFlush.ts';
import { WriteGate } from './writeGate.ts';

export interface SqliteStoreOptions {
  /** Directory holding tandem.db, or ':memory:' for a throwaway database. */
  dataDir: string;
  /**
   * False: compactions' writes and checkpoints run on the calling thread, as before the SQLite
   * worker (store/sqliteMaintenance.ts); scripts/sqlite-compaction-bench.ts compares the two.
   */
  offThread?: boolean;
  /** Told when the SQLite worker fails and the main thread takes its work back. */
  logger?: Logger;
}

/** The Store on SQLite: the repositories and the SQLite engine over one connection. */
export class SqliteStore extends SqlStore {
  readonly db: Database.Database;
  /** Flushes the WAL after each write (none for a database in memory). */
  readonly wal: WalFlusher | null;
  /** Compacts and checkpoints in a worker thread (none for a database in memory). */
  readonly maintenance: SqliteMaintenance | null;
  /** Where this connection's writes wait while the worker writes. */
  readonly writeGate: WriteGate;

  constructor(options: SqliteStoreOptions) {
    const db = openDatabase(options.dataDir);
    const inMemory = options.dataDir === ':memory:';
    const gate = new WriteGate();
    const maintenance =
      inMemory || options.offThread === false
        ? null
        : new SqliteMaintenance(db.name, gate, (err) => {
            // The worker failed: commits checkpoint by themselves again, as SQLite does by default.
            options.logger?.warn(
              { err },
              'sqlite worker failed; compactions and checkpoints run on the main thread',
            );
            if (db.open) db.pragma('wal_autocheckpoint = 1000');
          });
    if (maintenance) {
      db.pragma('wal_autocheckpoint = 0');
      // The connection that starts the WAL over (the next writer after a checkpoint) cuts it back.
      db.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
    }
    const wal = inMemory ? null : new WalFlusher(`${db.name}-wal`, (bytes) => maintenance?.walFlushed(bytes));
    const sql = new SqliteSql(db, wal ? () => wal.flush() : undefined, gate);
    super(sql, new SqliteEngine(db, sql, wal, gate, maintenance));
    this.db = db;
    this.wal = wal;
    this.maintenance = maintenance;
    this.writeGate = gate;
  }
}

function openDatabase(dataDir: string): Database.Database {
  let db: Database.Database;
  if (dataDir === ':memory:') {
    db = new Database(':memory:');
  } else {
    mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
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
    private readonly gate: WriteGate,
    private readonly maintenance: SqliteMaintenance | null,
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
    if (this.gate.held) await this.gate.open();
    // The latest migration row always exists; rewriting it with its own value is a real write
    // (SQLite does not skip unchanged rows), committed to the WAL like any other.
    this.sql.prepare(PROBE_WRITE).run();
    await this.sql.durable();
  }

  async close(): Promise<void> {
    await this.maintenance?.close();
    await this.wal?.close();
    if (this.db.open) this.db.close();
  }

  async loadDoc(key: string): Promise<StoredDoc> {
    return doc.toStoredDoc(this.sql.allSync(doc.loadDoc(key)));
  }

  logHeads(keys: readonly string[]): Promise<Map<string, number>> {
    return doc.readLogHeads(keys, (query) => this.sql.allSync(query));
  }

  async append(key: string, entries: DocEntry[]): Promise<LogSize> {
    if (this.gate.held) await this.gate.open();
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
    // Reading a big board and writing it back held the event loop for tens of ms: in the worker
    // when there is one (store/sqliteMaintenance.ts).
    const worker = this.maintenance?.usable ? this.maintenance : null;
    const input = worker ? await worker.readCompaction(key) : readCompaction(this.db, this.sql, key);
    if (!input) return;
    const merged = await merge(input.parts);
    if (worker?.usable) {
      await worker.writeCompaction(key, input.seqs, merged);
    } else {
      if (this.gate.held) await this.gate.open();
      writeCompaction(this.db, this.sql, key, input.seqs, merged);
    }
    await this.sql.durable();
  }
}
