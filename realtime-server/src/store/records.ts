// The account and board rows (users, sessions, boards, memberships, share links), each query
// written once for both stores: SqliteStore and PostgresStore extend this class with their own
// executor (sql.ts), their migrations and the document log.
import type { BoardListItem, Member, Role } from '@tandem/shared';
import { roleRankSql } from './migrations.ts';
import { memberOrder, toBoard, toBoardListItem, toLink, toMember, toSession, toUser } from './rows.ts';
import { join, raw, type Sql, sql } from './sql.ts';

/** Values per IN list, well under both databases' parameter limits. */
const IN_CHUNK = 500;

import { type BoardRow, EmailTakenError, type LinkRow, type SessionRow, type UserRow } from './types.ts';

/** `a` unless `b` is later: max() in SQLite and greatest() in PostgreSQL, written once. */
const later = (column: string, value: Date) =>
  sql`CASE WHEN ${raw(column)} > ${value} THEN ${raw(column)} ELSE ${value} END`;

export abstract class SqlRecords {
  protected abstract readonly sql: Sql;

  async createUser(user: Omit<UserRow, 'createdAt'>): Promise<UserRow> {
    const createdAt = new Date();
    try {
      await this.sql.run(
        sql`INSERT INTO users (id, name, email, password_hash, color, is_guest, created_at)
            VALUES (${user.id}, ${user.name}, ${user.email}, ${user.passwordHash}, ${user.color},
                    ${user.isGuest}, ${createdAt})`,
      );
    } catch (err) {
      // The id is random, so a unique violation with the email in use is the email's.
      if (this.sql.isUniqueViolation(err) && user.email !== null && (await this.getUserByEmail(user.email))) {
        throw new EmailTakenError();
      }
      throw err;
    }
    return { ...user, createdAt };
  }

  async upgradeGuest(
    id: string,
    account: { name: string; email: string; passwordHash: string },
  ): Promise<UserRow | null> {
    try {
      await this.sql.run(
        sql`UPDATE users SET name = ${account.name}, email = ${account.email},
              password_hash = ${account.passwordHash}, is_guest = ${false}
            WHERE id = ${id} AND is_guest = ${true}`,
      );
    } catch (err) {
      if (this.sql.isUniqueViolation(err) && (await this.getUserByEmail(account.email))) {
        throw new EmailTakenError();
      }
      throw err;
    }
    const after = await this.getUser(id);
    return after && !after.isGuest && after.email === account.email ? after : null;
  }

  async getUser(id: string): Promise<UserRow | null> {
    const r = await this.sql.one(sql`SELECT * FROM users WHERE id = ${id}`);
    return r ? toUser(r) : null;
  }

  async getUserByEmail(email: string): Promise<UserRow | null> {
    const r = await this.sql.one(sql`SELECT * FROM users WHERE lower(email) = lower(${email})`);
    return r ? toUser(r) : null;
  }

  async createSession(s: SessionRow): Promise<void> {
    await this.sql.run(
      sql`INSERT INTO sessions (id_hash, user_id, created_at, expires_at)
          VALUES (${s.idHash}, ${s.userId}, ${s.createdAt}, ${s.expiresAt})`,
    );
  }

  async getSession(idHash: string): Promise<SessionRow | null> {
    // An expired session is as good as none, so a caller can never accept one by mistake.
    const r = await this.sql.one(
      sql`SELECT * FROM sessions WHERE id_hash = ${idHash} AND expires_at > ${new Date()}`,
    );
    return r ? toSession(r) : null;
  }

  async extendSession(idHash: string, expiresAt: Date): Promise<void> {
    await this.sql.run(sql`UPDATE sessions SET expires_at = ${expiresAt} WHERE id_hash = ${idHash}`);
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.sql.run(sql`DELETE FROM sessions WHERE id_hash = ${idHash}`);
  }

  async createBoard(board: { id: string; title: string; ownerId: string }): Promise<BoardRow> {
    const now = new Date();
    await this.sql.batch([
      sql`INSERT INTO boards (id, title, owner_id, created_at, updated_at)
          VALUES (${board.id}, ${board.title}, ${board.ownerId}, ${now}, ${now})`,
      sql`INSERT INTO memberships (board_id, user_id, role, created_at)
          VALUES (${board.id}, ${board.ownerId}, 'owner', ${now})`,
    ]);
    return { ...board, createdAt: now, updatedAt: now, deletedAt: null };
  }

  async getBoard(id: string): Promise<BoardRow | null> {
    const r = await this.sql.one(sql`SELECT * FROM boards WHERE id = ${id} AND deleted_at IS NULL`);
    return r ? toBoard(r) : null;
  }

  async renameBoard(id: string, title: string): Promise<BoardRow | null> {
    const r = await this.sql.one(
      sql`UPDATE boards SET title = ${title}, updated_at = ${later('updated_at', new Date())}
          WHERE id = ${id} AND deleted_at IS NULL RETURNING *`,
    );
    return r ? toBoard(r) : null;
  }

  async deleteBoard(id: string): Promise<void> {
    await this.sql.batch([
      sql`UPDATE boards SET deleted_at = ${new Date()}, access_version = access_version + 1
          WHERE id = ${id} AND deleted_at IS NULL`,
      sql`DELETE FROM doc_updates WHERE board_id = ${id}`,
      sql`DELETE FROM doc_snapshots WHERE board_id = ${id}`,
      sql`DELETE FROM doc_versions WHERE board_id = ${id}`,
      sql`DELETE FROM doc_history WHERE board_id = ${id}`,
      sql`DELETE FROM board_thumbnails WHERE board_id = ${id}`,
    ]);
  }

  async touchBoard(id: string, at: Date): Promise<void> {
    // Debounced writes from several places may arrive out of order; updatedAt never goes back.
    await this.sql.run(sql`UPDATE boards SET updated_at = ${at} WHERE id = ${id} AND updated_at < ${at}`);
  }

  async listBoards(userId: string): Promise<BoardListItem[]> {
    const rows = await this.sql.all(
      sql`SELECT b.id, b.title, m.role, o.name AS owner_name, b.updated_at, t.updated_at AS thumbnail_at
          FROM memberships m
          JOIN boards b ON b.id = m.board_id AND b.deleted_at IS NULL
          JOIN users o ON o.id = b.owner_id
          LEFT JOIN board_thumbnails t ON t.board_id = b.id
          WHERE m.user_id = ${userId}
          ORDER BY b.updated_at DESC, b.id`,
    );
    return rows.map(toBoardListItem);
  }

  async getRole(boardId: string, userId: string): Promise<Role | null> {
    const r = await this.sql.one(
      sql`SELECT m.role FROM memberships m JOIN boards b ON b.id = m.board_id AND b.deleted_at IS NULL
          WHERE m.board_id = ${boardId} AND m.user_id = ${userId}`,
    );
    return r ? (r.role as Role) : null;
  }

  async listMembers(boardId: string): Promise<Member[]> {
    const rows = await this.sql.all(
      sql`SELECT u.id, u.name, u.email, u.color, u.is_guest, m.role, m.created_at
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

  private async bumpAccess(boardId: string): Promise<void> {
    await this.sql.run(sql`UPDATE boards SET access_version = access_version + 1 WHERE id = ${boardId}`);
  }

  async accessVersions(boardIds: string[]): Promise<Map<string, number>> {
    const versions = new Map<string, number>();
    for (let i = 0; i < boardIds.length; i += IN_CHUNK) {
      const ids = join(
        boardIds.slice(i, i + IN_CHUNK).map((id) => sql`${id}`),
        ', ',
      );
      const rows = await this.sql.all(
        sql`SELECT id, access_version FROM boards WHERE deleted_at IS NULL AND id IN (${ids})`,
      );
      for (const r of rows) versions.set(r.id as string, Number(r.access_version));
    }
    return versions;
  }

  async liveSessions(idHashes: string[]): Promise<Set<string>> {
    const live = new Set<string>();
    const now = new Date();
    for (let i = 0; i < idHashes.length; i += IN_CHUNK) {
      const hashes = join(
        idHashes.slice(i, i + IN_CHUNK).map((h) => sql`${h}`),
        ', ',
      );
      const rows = await this.sql.all(
        sql`SELECT id_hash FROM sessions WHERE expires_at > ${now} AND id_hash IN (${hashes})`,
      );
      for (const r of rows) live.add(r.id_hash as string);
    }
    return live;
  }

  async grantAtLeast(boardId: string, userId: string, role: Role): Promise<Role> {
    const r = await this.sql.one(
      sql`INSERT INTO memberships (board_id, user_id, role, created_at)
          VALUES (${boardId}, ${userId}, ${role}, ${new Date()})
          ON CONFLICT (board_id, user_id) DO UPDATE SET role = CASE
            WHEN ${raw(roleRankSql('excluded.role'))} > ${raw(roleRankSql('memberships.role'))} THEN excluded.role
            ELSE memberships.role END
          RETURNING role`,
    );
    return r?.role as Role;
  }

  async removeMember(boardId: string, userId: string): Promise<boolean> {
    const changed = await this.sql.run(
      sql`DELETE FROM memberships WHERE board_id = ${boardId} AND user_id = ${userId}`,
    );
    if (changed > 0) await this.bumpAccess(boardId);
    return changed > 0;
  }

  async createLink(link: Omit<LinkRow, 'createdAt' | 'revokedAt'>): Promise<LinkRow> {
    const createdAt = new Date();
    await this.sql.run(
      sql`INSERT INTO links (token, board_id, role, created_by, created_at)
          VALUES (${link.token}, ${link.boardId}, ${link.role}, ${link.createdBy}, ${createdAt})`,
    );
    return { ...link, createdAt, revokedAt: null };
  }

  async listLinks(boardId: string): Promise<LinkRow[]> {
    const rows = await this.sql.all(
      sql`SELECT * FROM links WHERE board_id = ${boardId} AND revoked_at IS NULL ORDER BY seq DESC`,
    );
    return rows.map(toLink);
  }

  async getLink(token: string): Promise<LinkRow | null> {
    const r = await this.sql.one(sql`SELECT * FROM links WHERE token = ${token}`);
    return r ? toLink(r) : null;
  }

  async revokeLink(boardId: string, token: string): Promise<boolean> {
    const changed = await this.sql.run(
      sql`UPDATE links SET revoked_at = ${new Date()}
          WHERE board_id = ${boardId} AND token = ${token} AND revoked_at IS NULL`,
    );
    return changed > 0;
  }
}
