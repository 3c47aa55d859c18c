// The document log's statements (a board's snapshot, its append-only update log and the history
// compaction keeps), written once for both engines. What differs is only how the engines hold
// their transactions around them, which SQLite and PostgreSQL cannot share:
// - better-sqlite3 runs a transaction synchronously. Awaiting inside one would let any other
//   call in this process run inside it (and be rolled back with it), so the SQLite engine runs
//   these statements with its synchronous executor, and merges between two transactions.
// - PostgreSQL takes row and advisory locks that two instances need (sqlite.ts and postgres.ts
//   say which), and holds its compaction transaction across the merge.
// The document keys' own module, not the package's index: the SQLite worker loads this file, and
// the index would bring the shape schemas (zod) and Yjs into its heap.
import { pageOf } from '@tandem/shared/docKeys';
import type { Row } from './rows.ts';
import { inLists, join, type Query, raw, sql } from './sql.ts';
import type { DocEntry, LogSize, StoredDoc } from './types.ts';

/**
 * The rows of one document: a document key (shared/pages.ts) names a board's page, its rows are
 * keyed (board_id, page_id). The board's own checks (liveBoard, updated_at) use the board id.
 */
export const ofDoc = (key: string): Query => {
  const { boardId, pageId } = pageOf(key);
  return sql`board_id = ${boardId} AND page_id = ${pageId}`;
};

/** Rows per INSERT when appending, well under both databases' parameter limits. */
const APPEND_CHUNK = 1000;

/**
 * The board's snapshot (part 0) and log (part 1, in order) in one statement: one statement sees
 * one state of the database, never an old snapshot with a log a compaction has since emptied.
 */
export const loadDoc = (key: string): Query =>
  sql`SELECT 0 AS part, CAST(NULL AS BIGINT) AS seq, data FROM doc_snapshots WHERE ${ofDoc(key)}
      UNION ALL
      SELECT 1 AS part, seq, data FROM doc_updates WHERE ${ofDoc(key)}
      ORDER BY part, seq`;

export function toStoredDoc(rows: Row[]): StoredDoc {
  const doc: StoredDoc = { snapshot: null, updates: [] };
  for (const r of rows) {
    if (Number(r.part) === 0) doc.snapshot = r.data as Uint8Array;
    else doc.updates.push(r.data as Uint8Array);
  }
  return doc;
}

/** The document's board exists and is not deleted; `lock` is a row-locking clause where the engine needs one. */
export const liveBoard = (key: string, lock = ''): Query =>
  sql`SELECT 1 AS live FROM boards WHERE id = ${pageOf(key).boardId} AND deleted_at IS NULL ${raw(lock)}`;

/**
 * Appends `entries` in order and moves the board's updatedAt forward to the latest (never back).
 * PostgreSQL does both in one statement per chunk (one round trip); SQLite has no INSERT inside
 * WITH, so there it is an INSERT per chunk and one UPDATE.
 */
export function appendEntries(key: string, entries: DocEntry[], oneStatement: boolean): Query[] {
  if (entries.length === 0) return [];
  const { boardId, pageId } = pageOf(key);
  const latest = new Date(Math.max(...entries.map((e) => e.at.getTime())));
  const touch = sql`UPDATE boards SET updated_at = ${latest} WHERE id = ${boardId} AND updated_at < ${latest}`;
  const inserts: Query[] = [];
  for (let i = 0; i < entries.length; i += APPEND_CHUNK) {
    // Rows of one VALUES list take their sequence numbers in order.
    const rows = join(
      entries
        .slice(i, i + APPEND_CHUNK)
        .map((e) => sql`(${boardId}, ${pageId}, ${e.update}, ${e.userId}, ${e.at})`),
      ', ',
    );
    inserts.push(sql`INSERT INTO doc_updates (board_id, page_id, data, user_id, created_at) VALUES ${rows}`);
  }
  if (!oneStatement) return [...inserts, touch];
  return inserts.map((insert) => sql`WITH inserted AS (${insert}) ${touch}`);
}

/** Documents per logHeads statement: nine parameters each, well under both databases' limits. */
const HEADS_CHUNK = 200;

/**
 * Each document's last log position (0 when it has none), for up to HEADS_CHUNK keys: what
 * LapseCatchUp compares to learn which open boards someone else wrote to, two index lookups a key.
 * Compaction moves entries into doc_history, so both tables are looked at.
 */
export const logHeads = (keys: readonly string[]): Query =>
  join(
    keys.map(
      (key, i) =>
        sql`SELECT ${i} AS i,
              (SELECT max(seq) FROM doc_updates WHERE ${ofDoc(key)}) AS live,
              (SELECT max(seq) FROM doc_history WHERE ${ofDoc(key)}) AS kept`,
    ),
    ' UNION ALL ',
  );

/** `DocStore.logHeads` for both SQL stores, HEADS_CHUNK keys a query, run by `all`. */
export async function readLogHeads(
  keys: readonly string[],
  all: (query: Query) => Row[] | Promise<Row[]>,
): Promise<Map<string, number>> {
  const heads = new Map<string, number>();
  for (let i = 0; i < keys.length; i += HEADS_CHUNK) {
    const chunk = keys.slice(i, i + HEADS_CHUNK);
    for (const r of await all(logHeads(chunk))) {
      const key = chunk[Number(r.i)];
      if (key !== undefined) heads.set(key, Math.max(Number(r.live ?? 0), Number(r.kept ?? 0)));
    }
  }
  return heads;
}

/** Entries and bytes in the log, and snapshot plus log in bytes. */
export const logSize = (key: string): Query =>
  sql`SELECT
        (SELECT count(*) FROM doc_updates WHERE ${ofDoc(key)}) AS entries,
        (SELECT coalesce(sum(length(data)), 0) FROM doc_updates WHERE ${ofDoc(key)}) AS bytes,
        coalesce((SELECT length(data) FROM doc_snapshots WHERE ${ofDoc(key)}), 0) AS snapshot`;

export function toLogSize(r: Row | null): LogSize {
  const bytes = Number(r?.bytes ?? 0);
  return { entries: Number(r?.entries ?? 0), bytes, totalBytes: bytes + Number(r?.snapshot ?? 0) };
}

/** What compaction reads: the snapshot, then the log with its positions. */
export const readSnapshot = (key: string): Query => sql`SELECT data FROM doc_snapshots WHERE ${ofDoc(key)}`;
export const readLog = (key: string): Query =>
  sql`SELECT seq, data FROM doc_updates WHERE ${ofDoc(key)} ORDER BY seq`;

/**
 * Moves the entries at `seqs` out of the log: kept in doc_history with their attribution (version
 * history may replay them, store/history.ts), then deleted from doc_updates. Run in order, in one
 * transaction; the DELETEs' changes add up to how many of `seqs` were still in the log.
 */
export function retireEntries(seqs: readonly unknown[]): { keep: Query[]; remove: Query[] } {
  const lists = inLists(seqs);
  return {
    keep: lists.map(
      (list) =>
        sql`INSERT INTO doc_history (seq, board_id, page_id, user_id, created_at, data)
            SELECT seq, board_id, page_id, user_id, created_at, data FROM doc_updates WHERE seq IN (${list})`,
    ),
    remove: lists.map((list) => sql`DELETE FROM doc_updates WHERE seq IN (${list})`),
  };
}

export const putSnapshot = (key: string, data: Uint8Array): Query => {
  const { boardId, pageId } = pageOf(key);
  return sql`INSERT INTO doc_snapshots (board_id, page_id, data) VALUES (${boardId}, ${pageId}, ${data})
      ON CONFLICT (board_id, page_id) DO UPDATE SET data = excluded.data`;
};
