// Board memberships (who has which role), each query written once for both engines over their
// `sql` executor. Every change that can take access away raises the board's access version.
import type { Member, Role } from '@tandem/shared';
import { roleRankSql } from './migrations.ts';
import { memberOrder, toMember } from './rows.ts';
import { raw, type Sql, sql } from './sql.ts';

export class MemberRepository {
  constructor(private readonly sql: Sql) {}

  /** The user's role on a non-deleted board, or null. */
  async role(boardId: string, userId: string): Promise<Role | null> {
    const r = await this.sql.one(
      sql`SELECT m.role FROM memberships m JOIN boards b ON b.id = m.board_id AND b.deleted_at IS NULL
          WHERE m.board_id = ${boardId} AND m.user_id = ${userId}`,
    );
    return r ? (r.role as Role) : null;
  }

  async list(boardId: string): Promise<Member[]> {
    const rows = await this.sql.all(
      sql`SELECT u.id, u.name, u.email, u.color, u.is_guest, m.role, m.created_at,
            EXISTS (SELECT 1 FROM integrations i WHERE i.user_id = u.id) AS is_bot
          FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.board_id = ${boardId}
          ORDER BY ${raw(memberOrder)}`,
    );
    return rows.map(toMember);
  }

  async setRole(boardId: string, userId: string, role: Role): Promise<boolean> {
    const changed = await this.sql.run(
      sql`UPDATE memberships SET role = ${role} WHERE board_id = ${boardId} AND user_id = ${userId}`,
    );
    // After the change, never before: whoever reads the new version reads the new role too.
    if (changed > 0) await this.bumpAccess(boardId);
    return changed > 0;
  }

  /** Adds a membership, or raises an existing one to `role`; never lowers. */
  async grantAtLeast(boardId: string, userId: string, role: Role): Promise<Role> {
    // A row comes back only when the membership was created or raised: then (after the change,
    // as setRole does) the access version moves, so every instance's periodic re-check sees the
    // new role even when the live bus message is lost.
    const r = await this.sql.one(
      sql`INSERT INTO memberships (board_id, user_id, role, created_at)
          VALUES (${boardId}, ${userId}, ${role}, ${new Date()})
          ON CONFLICT (board_id, user_id) DO UPDATE SET role = excluded.role
            WHERE ${raw(roleRankSql('excluded.role'))} > ${raw(roleRankSql('memberships.role'))}
          RETURNING role`,
    );
    if (r) {
      await this.bumpAccess(boardId);
      return r.role as Role;
    }
    return (await this.role(boardId, userId)) ?? role;
  }

  async remove(boardId: string, userId: string): Promise<boolean> {
    const changed = await this.sql.run(
      sql`DELETE FROM memberships WHERE board_id = ${boardId} AND user_id = ${userId}`,
    );
    if (changed > 0) await this.bumpAccess(boardId);
    return changed > 0;
  }

  private async bumpAccess(boardId: string): Promise<void> {
    await this.sql.run(sql`UPDATE boards SET access_version = access_version + 1 WHERE id = ${boardId}`);
  }
}
