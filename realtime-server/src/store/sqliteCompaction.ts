// A SQLite compaction's two transactions, shared by the SQLite worker (store/sqliteWorker.ts, for
// a file) and the engine (which runs them on the main thread when there is no worker: a database
// in memory, `offThread: false`, or a worker that failed).
// The merge runs between them, outside any transaction: a throwing merge leaves nothing half-done,
// and anything appended meanwhile is not among the entries retired. Holding the write lock across
// the merge (as PostgreSQL does) would stall every other write meanwhile.
import type Database from 'better-sqlite3';
import * as doc from './doclog.ts';
import type { SqliteSql } from './sql.ts';

/** What a compaction read: the parts to merge (snapshot first) and the log positions they cover. */
export interface CompactionInput {
  parts: Uint8Array[];
  seqs: unknown[];
}

/** The snapshot and the log, in one read transaction; null when the log is empty. */
export function readCompaction(db: Database.Database, sql: SqliteSql, key: string): CompactionInput | null {
  const read = db.transaction(() => ({
    snapshot: (sql.oneSync(doc.readSnapshot(key))?.data as Uint8Array | undefined) ?? null,
    log: sql.allSync(doc.readLog(key)),
  }))();
  if (read.log.length === 0) return null;
  const parts = read.log.map((r) => r.data as Uint8Array);
  if (read.snapshot) parts.unshift(read.snapshot);
  return { parts, seqs: read.log.map((r) => r.seq) };
}

/**
 * Retires the entries read (into doc_history) and writes the merged snapshot, in one write
 * transaction. Nothing is written for a deleted board, nor when another process compacted those
 * entries first (then its snapshot holds them).
 */
export function writeCompaction(
  db: Database.Database,
  sql: SqliteSql,
  key: string,
  seqs: unknown[],
  merged: Uint8Array,
): void {
  const write = db.transaction(() => {
    if (!sql.oneSync(doc.liveBoard(key))) return;
    const { keep, remove } = doc.retireEntries(seqs);
    for (const q of keep) sql.runSync(q);
    let deleted = 0;
    for (const q of remove) deleted += sql.runSync(q);
    if (deleted !== seqs.length) throw new CompactionRaced();
    sql.runSync(doc.putSnapshot(key, merged));
  });
  try {
    write.immediate();
  } catch (err) {
    if (!(err instanceof CompactionRaced)) throw err;
  }
}

class CompactionRaced extends Error {}
