// Version history rows (docs/api.md §12), each query written once for both engines over their `sql`
// executor: versions (a board's whole content at a log position, with its authors and stats) and
// the attributed log entries history reads (doc_history, what compaction merged away, plus
// doc_updates, what it has not).
import { docKey, pageOf } from '@tandem/shared';
import { ofDoc } from './doclog.ts';
import { type Row, time } from './rows.ts';
import { join, type Sql, sql } from './sql.ts';
import type { LogEntry, PastRevert, StoredVersion, VersionKind, VersionRow } from './types.ts';

const toVersion = (r: Row): VersionRow => ({
  id: r.id as string,
  // One history per page: a version names its document by key (shared/pages.ts).
  boardId: docKey(r.board_id as string, r.page_id as string),
  seq: Number(r.seq),
  createdAt: time(r.created_at),
  label: (r.label as string | null) ?? null,
  kind: r.kind as VersionKind,
  authors: JSON.parse(r.authors as string) as string[],
  createdBy: (r.created_by as string | null) ?? null,
  stats: { added: Number(r.added), changed: Number(r.changed), removed: Number(r.removed) },
});

const toStored = (r: Row): StoredVersion => ({
  ...toVersion(r),
  data: r.data as Uint8Array,
  assets: JSON.parse(r.assets as string) as string[],
});

const VERSION_COLUMNS = sql`id, board_id, page_id, seq, created_at, label, kind, authors, created_by, added, changed, removed`;

export class HistoryRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Log entries after `afterSeq`, oldest first, whether compacted into history or not; at most
   * `limit` of them when given (one more row may be read: a row caught between the two tables).
   */
  async logSince(boardId: string, afterSeq: number, limit?: number): Promise<LogEntry[]> {
    const rows = await this.sql.all(
      sql`SELECT seq, user_id, created_at, data FROM doc_history WHERE ${ofDoc(boardId)} AND seq > ${afterSeq}
          UNION ALL
          SELECT seq, user_id, created_at, data FROM doc_updates WHERE ${ofDoc(boardId)} AND seq > ${afterSeq}
          ORDER BY seq ${limit === undefined ? sql`` : sql`LIMIT ${limit + 1}`}`,
    );
    const out: LogEntry[] = [];
    for (const r of rows) {
      const seq = Number(r.seq);
      // A row caught between the two tables by a compaction is read once.
      if (out.length > 0 && out[out.length - 1]!.seq === seq) continue;
      out.push({
        seq,
        update: r.data as Uint8Array,
        userId: (r.user_id as string | null) ?? null,
        at: r.created_at === null ? new Date(0) : time(r.created_at),
      });
    }
    return limit === undefined ? out : out.slice(0, limit);
  }

  /**
   * The board's last log position (0 when it has none). Appends to one board take turns (a lock
   * on its row), so positions are handed out in commit order: nothing later appears below it.
   */
  async lastSeq(boardId: string): Promise<number> {
    const row = await this.sql.one(
      sql`SELECT max(seq) AS seq FROM (
            SELECT seq FROM doc_history WHERE ${ofDoc(boardId)}
            UNION ALL
            SELECT seq FROM doc_updates WHERE ${ofDoc(boardId)}) AS log`,
    );
    return Number(row?.seq ?? 0);
  }

  /**
   * Records a version. With `ifNewerThan`, only when no version of the board covers a log
   * position at or past `version.seq` yet, so two instances recording the same interval mostly
   * store one (a rare duplicate automatic version is harmless).
   */
  async insertVersion(version: StoredVersion, ifNewerThan = false): Promise<boolean> {
    if (ifNewerThan) {
      const covered = await this.sql.one(
        sql`SELECT 1 AS x FROM doc_versions WHERE ${ofDoc(version.boardId)} AND seq >= ${version.seq} LIMIT 1`,
      );
      if (covered) return false;
    }
    await this.sql.run(
      sql`INSERT INTO doc_versions (id, board_id, page_id, seq, created_at, label, kind, authors, created_by, added, changed, removed, assets, data, reverted)
          VALUES (${version.id}, ${pageOf(version.boardId).boardId}, ${pageOf(version.boardId).pageId}, ${version.seq}, ${version.createdAt}, ${version.label},
            ${version.kind}, ${JSON.stringify(version.authors)}, ${version.createdBy}, ${version.stats.added}, ${version.stats.changed},
            ${version.stats.removed}, ${JSON.stringify(version.assets)}, ${version.data},
            ${version.reverted ? JSON.stringify({ userId: version.reverted.userId, since: version.reverted.since.toISOString() }) : null})`,
    );
    return true;
  }

  /** The reverts of `userId`'s edits recorded on this document, oldest first. */
  async revertsOf(boardId: string, userId: string): Promise<PastRevert[]> {
    const rows = await this.sql.all(
      sql`SELECT seq, reverted FROM doc_versions WHERE ${ofDoc(boardId)} AND kind = 'revert' AND reverted IS NOT NULL
          ORDER BY n`,
    );
    return rows.flatMap((r) => {
      const reverted = JSON.parse(r.reverted as string) as { userId: string; since: string };
      return reverted.userId === userId ? [{ since: new Date(reverted.since), seq: Number(r.seq) }] : [];
    });
  }

  async latestVersion(boardId: string): Promise<StoredVersion | null> {
    const r = await this.sql.one(
      sql`SELECT ${VERSION_COLUMNS}, assets, data FROM doc_versions WHERE ${ofDoc(boardId)} ORDER BY n DESC LIMIT 1`,
    );
    return r ? toStored(r) : null;
  }

  async getVersion(boardId: string, id: string): Promise<StoredVersion | null> {
    const r = await this.sql.one(
      sql`SELECT ${VERSION_COLUMNS}, assets, data FROM doc_versions WHERE ${ofDoc(boardId)} AND id = ${id}`,
    );
    return r ? toStored(r) : null;
  }

  /** The last version recorded at or before `at`: where a replay from `at` starts. */
  async versionAtOrBefore(boardId: string, at: Date): Promise<StoredVersion | null> {
    const r = await this.sql.one(
      sql`SELECT ${VERSION_COLUMNS}, assets, data FROM doc_versions WHERE ${ofDoc(boardId)} AND created_at <= ${at}
          ORDER BY n DESC LIMIT 1`,
    );
    return r ? toStored(r) : null;
  }

  /** Newest first; `before` is a version id (the last one of the previous page). */
  async listVersions(boardId: string, before: string | null, limit: number): Promise<VersionRow[]> {
    const after = before
      ? sql`AND n < (SELECT n FROM doc_versions WHERE ${ofDoc(boardId)} AND id = ${before})`
      : sql``;
    const rows = await this.sql.all(
      sql`SELECT ${VERSION_COLUMNS} FROM doc_versions WHERE ${ofDoc(boardId)} ${after}
          ORDER BY n DESC LIMIT ${limit}`,
    );
    return rows.map(toVersion);
  }

  async deleteVersion(boardId: string, id: string): Promise<boolean> {
    return (await this.sql.run(sql`DELETE FROM doc_versions WHERE ${ofDoc(boardId)} AND id = ${id}`)) > 0;
  }

  /** Every image id that a kept version of any page of the board shows: images are the board's. */
  async versionAssets(boardId: string): Promise<string[]> {
    const rows = await this.sql.all(
      sql`SELECT assets FROM doc_versions WHERE board_id = ${pageOf(boardId).boardId}`,
    );
    return [...new Set(rows.flatMap((r) => JSON.parse(r.assets as string) as string[]))];
  }

  /**
   * Past the history window: keeps the last version of each UTC day recorded before `cutoff`
   * (and every named one), and drops the log entries older than `cutoff` that no replay can
   * need any more (those at or before the last version recorded before `cutoff`).
   */
  async thin(boardId: string, cutoff: Date): Promise<{ versions: number; entries: number }> {
    const old = await this.sql.all(
      sql`SELECT id, created_at, kind, seq FROM doc_versions WHERE ${ofDoc(boardId)} AND created_at < ${cutoff}
          ORDER BY n DESC`,
    );
    const keptDays = new Set<string>();
    const drop: string[] = [];
    for (const r of old) {
      const day = time(r.created_at).toISOString().slice(0, 10);
      if (r.kind === 'named' || !keptDays.has(day)) keptDays.add(day);
      else drop.push(r.id as string);
    }
    let versions = 0;
    if (drop.length > 0) {
      versions = await this.sql.run(
        sql`DELETE FROM doc_versions WHERE ${ofDoc(boardId)} AND id IN (${join(
          drop.map((id) => sql`${id}`),
          ', ',
        )})`,
      );
    }
    const floor = old.length > 0 ? Number(old[0]!.seq) : 0;
    const entries =
      floor > 0
        ? await this.sql.run(
            sql`DELETE FROM doc_history WHERE ${ofDoc(boardId)} AND seq <= ${floor} AND created_at < ${cutoff}`,
          )
        : 0;
    return { versions, entries };
  }
}
