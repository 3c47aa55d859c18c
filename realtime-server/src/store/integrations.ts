// Integrations (docs/api.md §15) and the answers remembered for Idempotency-Key, each query
// written once for both engines over their `sql` executor. An integration is created with its
// identity (a users row that cannot sign in) and its membership in one transaction; revoking it
// removes the membership, which raises the board's access version like any removal.
import { toIntegration } from './rows.ts';
import { type Sql, sql } from './sql.ts';
import type { IdempotentAnswer, IntegrationRow } from './types.ts';

const withIdentity = sql`SELECT i.*, u.name, u.color, m.role
  FROM integrations i JOIN users u ON u.id = i.user_id
  LEFT JOIN memberships m ON m.board_id = i.board_id AND m.user_id = i.user_id`;

export interface NewIntegration {
  id: string;
  boardId: string;
  userId: string;
  name: string;
  color: string;
  role: 'editor' | 'viewer';
  keyHash: string;
  frameId: string | null;
  createdBy: string;
}

export class IntegrationRepository {
  constructor(private readonly sql: Sql) {}

  async create(integration: NewIntegration): Promise<IntegrationRow> {
    const at = new Date();
    const { id, boardId, userId, name, color, role, keyHash, frameId, createdBy } = integration;
    await this.sql.batch([
      sql`INSERT INTO users (id, name, email, password_hash, color, is_guest, created_at)
          VALUES (${userId}, ${name}, ${null}, ${null}, ${color}, ${true}, ${at})`,
      sql`INSERT INTO memberships (board_id, user_id, role, created_at)
          VALUES (${boardId}, ${userId}, ${role}, ${at})`,
      sql`INSERT INTO integrations (id, board_id, user_id, key_hash, frame_id, created_by, created_at)
          VALUES (${id}, ${boardId}, ${userId}, ${keyHash}, ${frameId}, ${createdBy}, ${at})`,
    ]);
    return {
      id,
      boardId,
      userId,
      name,
      color,
      role,
      frameId,
      createdBy,
      createdAt: at,
      lastUsedAt: null,
      revokedAt: null,
    };
  }

  /** The board's integrations that are not revoked, oldest first. */
  async list(boardId: string): Promise<IntegrationRow[]> {
    const rows = await this.sql.all(
      sql`${withIdentity} WHERE i.board_id = ${boardId} AND i.revoked_at IS NULL ORDER BY i.created_at, i.id`,
    );
    return rows.map(toIntegration);
  }

  /**
   * The integration a key (by its hash) belongs to, while it works: not revoked, still a member,
   * on a board that is not deleted. Read from the Store on every call, so a revocation on any
   * instance holds on every instance at once.
   */
  async byKey(keyHash: string): Promise<IntegrationRow | null> {
    const r = await this.sql.one(
      sql`${withIdentity} JOIN boards b ON b.id = i.board_id AND b.deleted_at IS NULL
          WHERE i.key_hash = ${keyHash} AND i.revoked_at IS NULL AND m.role IS NOT NULL`,
    );
    return r ? toIntegration(r) : null;
  }

  /** Revokes it and removes its membership; its user id, or null when there was none to revoke. */
  async revoke(boardId: string, id: string): Promise<string | null> {
    const r = await this.sql.one(
      sql`SELECT user_id FROM integrations WHERE id = ${id} AND board_id = ${boardId} AND revoked_at IS NULL`,
    );
    if (!r) return null;
    const userId = r.user_id as string;
    await this.sql.batch([
      sql`UPDATE integrations SET revoked_at = ${new Date()} WHERE id = ${id}`,
      sql`DELETE FROM memberships WHERE board_id = ${boardId} AND user_id = ${userId}`,
      // After the removal, as every revocation does: the periodic access re-check sees it.
      sql`UPDATE boards SET access_version = access_version + 1 WHERE id = ${boardId}`,
    ]);
    return userId;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.sql.run(sql`UPDATE integrations SET last_used_at = ${at} WHERE id = ${id}`);
  }

  /**
   * Claims an Idempotency-Key for a write: null when this call is the first (it goes ahead and
   * then calls `answer`), else what the first call answered (status null while it is still running).
   * Keys older than `since` are forgotten first.
   */
  async claimIdempotency(userId: string, key: string, since: Date): Promise<IdempotentAnswer | null> {
    await this.sql.run(
      sql`DELETE FROM idempotent_answers WHERE user_id = ${userId} AND idempotency_key = ${key}
            AND created_at < ${since}`,
    );
    try {
      await this.sql.run(
        sql`INSERT INTO idempotent_answers (user_id, idempotency_key, created_at)
            VALUES (${userId}, ${key}, ${new Date()})`,
      );
      return null;
    } catch (err) {
      if (!this.sql.isUniqueViolation(err)) throw err;
    }
    const r = await this.sql.one(
      sql`SELECT status, body FROM idempotent_answers WHERE user_id = ${userId} AND idempotency_key = ${key}`,
    );
    // Forgotten between the two statements (a sweep): answered as still running, the caller retries.
    if (!r) return { status: null, body: null };
    return { status: r.status === null ? null : Number(r.status), body: (r.body as string | null) ?? null };
  }

  /** Records a claimed key's answer; a failed call releases its key instead (status null: deleted). */
  async answerIdempotency(userId: string, key: string, answer: IdempotentAnswer): Promise<void> {
    if (answer.status === null) {
      await this.sql.run(
        sql`DELETE FROM idempotent_answers WHERE user_id = ${userId} AND idempotency_key = ${key}`,
      );
      return;
    }
    await this.sql.run(
      sql`UPDATE idempotent_answers SET status = ${answer.status}, body = ${answer.body}
          WHERE user_id = ${userId} AND idempotency_key = ${key}`,
    );
  }

  /** Forgets every answer older than `before`; how many. */
  async sweepIdempotency(before: Date): Promise<number> {
    return this.sql.run(sql`DELETE FROM idempotent_answers WHERE created_at < ${before}`);
  }
}
