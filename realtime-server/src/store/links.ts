// Share links, each query written once for both engines over their `sql` executor.
import { toLink } from './rows.ts';
import { type Sql, sql } from './sql.ts';
import type { LinkRow } from './types.ts';

export class LinkRepository {
  constructor(private readonly sql: Sql) {}

  async create(link: Omit<LinkRow, 'createdAt' | 'revokedAt'>): Promise<LinkRow> {
    const createdAt = new Date();
    await this.sql.run(
      sql`INSERT INTO links (token, board_id, role, created_by, created_at)
          VALUES (${link.token}, ${link.boardId}, ${link.role}, ${link.createdBy}, ${createdAt})`,
    );
    return { ...link, createdAt, revokedAt: null };
  }

  /** Active (not revoked) links of a board, newest first. */
  async list(boardId: string): Promise<LinkRow[]> {
    const rows = await this.sql.all(
      sql`SELECT * FROM links WHERE board_id = ${boardId} AND revoked_at IS NULL ORDER BY seq DESC`,
    );
    return rows.map(toLink);
  }

  /** A link whatever its state, or null. */
  async get(token: string): Promise<LinkRow | null> {
    const r = await this.sql.one(sql`SELECT * FROM links WHERE token = ${token}`);
    return r ? toLink(r) : null;
  }

  async revoke(boardId: string, token: string): Promise<boolean> {
    const changed = await this.sql.run(
      sql`UPDATE links SET revoked_at = ${new Date()}
          WHERE board_id = ${boardId} AND token = ${token} AND revoked_at IS NULL`,
    );
    // A revocation is a change of access: the periodic re-check (documents/accessCheck.ts) then
    // reads the link again and closes its anonymous viewers (docs/api.md §16) where the bus missed it.
    if (changed > 0)
      await this.sql.run(sql`UPDATE boards SET access_version = access_version + 1 WHERE id = ${boardId}`);
    return changed > 0;
  }
}
