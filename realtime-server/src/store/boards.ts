// Boards, each query written once for both engines over their `sql` executor.
import type { BoardListItem } from '@tandem/shared';
import { toBoard, toBoardListItem } from './rows.ts';
import { inLists, raw, type Sql, sql } from './sql.ts';
import type { BoardRow } from './types.ts';

/** `a` unless `b` is later: max() in SQLite and greatest() in PostgreSQL, written once. */
const later = (column: string, value: Date) =>
  sql`CASE WHEN ${raw(column)} > ${value} THEN ${raw(column)} ELSE ${value} END`;

export class BoardRepository {
  constructor(private readonly sql: Sql) {}

  /** Creates the board and its owner's membership in one transaction. */
  async create(board: { id: string; title: string; ownerId: string }): Promise<BoardRow> {
    const now = new Date();
    await this.sql.batch([
      sql`INSERT INTO boards (id, title, owner_id, created_at, updated_at)
          VALUES (${board.id}, ${board.title}, ${board.ownerId}, ${now}, ${now})`,
      sql`INSERT INTO memberships (board_id, user_id, role, created_at)
          VALUES (${board.id}, ${board.ownerId}, 'owner', ${now})`,
    ]);
    return { ...board, createdAt: now, updatedAt: now, deletedAt: null };
  }

  /** A board that is not deleted, or null. */
  async get(id: string): Promise<BoardRow | null> {
    const r = await this.sql.one(sql`SELECT * FROM boards WHERE id = ${id} AND deleted_at IS NULL`);
    return r ? toBoard(r) : null;
  }

  async rename(id: string, title: string): Promise<BoardRow | null> {
    const r = await this.sql.one(
      sql`UPDATE boards SET title = ${title}, updated_at = ${later('updated_at', new Date())}
          WHERE id = ${id} AND deleted_at IS NULL RETURNING *`,
    );
    return r ? toBoard(r) : null;
  }

  /**
   * Marks a board deleted and drops its content, versions, thumbnail and comment threads (their
   * comments and mentions go with them) in one transaction.
   */
  async delete(id: string): Promise<void> {
    await this.sql.batch([
      sql`UPDATE boards SET deleted_at = ${new Date()}, access_version = access_version + 1
          WHERE id = ${id} AND deleted_at IS NULL`,
      sql`DELETE FROM doc_updates WHERE board_id = ${id}`,
      sql`DELETE FROM doc_snapshots WHERE board_id = ${id}`,
      sql`DELETE FROM doc_versions WHERE board_id = ${id}`,
      sql`DELETE FROM doc_history WHERE board_id = ${id}`,
      sql`DELETE FROM board_thumbnails WHERE board_id = ${id}`,
      sql`DELETE FROM comment_threads WHERE board_id = ${id}`,
    ]);
  }

  async touch(id: string, at: Date): Promise<void> {
    // Debounced writes from several places may arrive out of order; updatedAt never goes back.
    await this.sql.run(sql`UPDATE boards SET updated_at = ${at} WHERE id = ${id} AND updated_at < ${at}`);
  }

  /** Every non-deleted board the user is a member of, most recently updated first. */
  async listFor(userId: string): Promise<BoardListItem[]> {
    const rows = await this.sql.all(
      sql`SELECT b.id, b.title, m.role, o.name AS owner_name, b.updated_at, t.updated_at AS thumbnail_at,
                 CASE WHEN m.role = 'owner' AND EXISTS (SELECT 1 FROM webhooks w
                        WHERE w.board_id = b.id AND w.disabled_at IS NOT NULL) THEN 1 ELSE 0 END
                   AS webhook_disabled
          FROM memberships m
          JOIN boards b ON b.id = m.board_id AND b.deleted_at IS NULL
          JOIN users o ON o.id = b.owner_id
          LEFT JOIN board_thumbnails t ON t.board_id = b.id
          WHERE m.user_id = ${userId}
          ORDER BY b.updated_at DESC, b.id`,
    );
    return rows.map(toBoardListItem);
  }

  /** The access version of each board that exists and is not deleted. */
  async accessVersions(boardIds: string[]): Promise<Map<string, number>> {
    const versions = new Map<string, number>();
    for (const ids of inLists(boardIds)) {
      const rows = await this.sql.all(
        sql`SELECT id, access_version FROM boards WHERE deleted_at IS NULL AND id IN (${ids})`,
      );
      for (const r of rows) versions.set(r.id as string, Number(r.access_version));
    }
    return versions;
  }
}
