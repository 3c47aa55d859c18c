// Board thumbnails: one small picture per board, each query written once for both
// engines over their `sql` executor.
import { time } from './rows.ts';
import { type Sql, sql } from './sql.ts';
import type { ThumbnailRow } from './types.ts';

export class ThumbnailRepository {
  constructor(private readonly sql: Sql) {}

  /** Replaces the board's thumbnail; false (nothing stored) when the board is deleted or unknown. */
  async put(t: Omit<ThumbnailRow, 'updatedAt'>, at: Date): Promise<boolean> {
    const changed = await this.sql.run(
      sql`INSERT INTO board_thumbnails (board_id, mime, width, height, data, updated_at)
          SELECT id, ${t.mime}, ${t.width}, ${t.height}, ${t.data}, ${at}
          FROM boards WHERE id = ${t.boardId} AND deleted_at IS NULL
          ON CONFLICT (board_id) DO UPDATE SET mime = excluded.mime, width = excluded.width,
            height = excluded.height, data = excluded.data, updated_at = excluded.updated_at`,
    );
    return changed > 0;
  }

  async get(boardId: string): Promise<ThumbnailRow | null> {
    const r = await this.sql.one(
      sql`SELECT t.* FROM board_thumbnails t JOIN boards b ON b.id = t.board_id AND b.deleted_at IS NULL
          WHERE t.board_id = ${boardId}`,
    );
    if (!r) return null;
    return {
      boardId: r.board_id as string,
      mime: r.mime as string,
      width: Number(r.width),
      height: Number(r.height),
      data: r.data as Uint8Array,
      updatedAt: time(r.updated_at),
    };
  }
}
