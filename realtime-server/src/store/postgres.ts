// The PostgreSQL Store, for several instances sharing one database. Anything two instances could
// do at once (migrating, compacting one board) runs under an advisory lock.
import type { BoardListItem, Member, Role } from '@tandem/shared';
import pg from 'pg';
import type { Logger } from 'pino';
import { migrations, postgresDialect, roleRankSql } from './migrations.ts';
import {
  memberOrder,
  type Row,
  toBoard,
  toBoardListItem,
  toLink,
  toMember,
  toSession,
  toUser,
} from './rows.ts';
import {
  type BoardRow,
  EmailTakenError,
  type LinkRow,
  type LogSize,
  type SessionRow,
  type Store,
  type StoredDoc,
  type UserRow,
} from './store.ts';

export interface PostgresStoreOptions {
  connectionString: string;
  /** A schema of its own (created when missing); tests use one per run. Default: the server's search_path. */
  schema?: string;
  logger?: Logger;
  /** Pool size; the default suits one instance of a small deployment. */
  max?: number;
  connectionTimeoutMillis?: number;
}

// Advisory lock keys are (class, object) pairs; the classes keep ours apart from anyone else's.
const MIGRATE_LOCK = 0x74616e64; // 'tand'
const COMPACT_LOCK = 0x636d7074; // 'cmpt'

const schemaPattern = /^[a-z_][a-z0-9_]{0,62}$/;

const bytes = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** Rows per INSERT when appending, well under PostgreSQL's 65535 parameters. */
const APPEND_CHUNK = 1000;

export class PostgresStore implements Store {
  readonly pool: pg.Pool;
  private readonly schema: string | undefined;

  constructor(options: PostgresStoreOptions) {
    if (options.schema !== undefined && !schemaPattern.test(options.schema)) {
      throw new Error(`schema must match ${schemaPattern}: ${JSON.stringify(options.schema)}`);
    }
    this.schema = options.schema;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
      // Set at connection start-up, so no query can ever run with another search_path.
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    const logger = options.logger;
    // An idle client whose server went away emits 'error' on the pool; unhandled, it would
    // crash the process. The next query reconnects (or fails and says so).
    this.pool.on('error', (err) => logger?.warn({ err }, 'idle postgres connection failed'));
  }

  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [MIGRATE_LOCK, this.schema ?? '']);
      try {
        if (this.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
        await client.query(
          'CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)',
        );
        const done = new Set(
          (await client.query('SELECT id FROM migrations')).rows.map((r) => r.id as number),
        );
        for (const m of migrations) {
          if (done.has(m.id)) continue;
          await client.query('BEGIN');
          try {
            for (const sql of m.statements(postgresDialect)) await client.query(sql);
            await client.query('INSERT INTO migrations (id, name, applied_at) VALUES ($1, $2, now())', [
              m.id,
              m.name,
            ]);
            await client.query('COMMIT');
          } catch (err) {
            await client.query('ROLLBACK');
            throw err;
          }
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [MIGRATE_LOCK, this.schema ?? '']);
      }
    } finally {
      // Closing this connection rather than pooling it ends its session, so the lock can never
      // outlive a failed migration or unlock.
      client.release(true);
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async one(sql: string, params: unknown[]): Promise<Row | null> {
    const res = await this.pool.query(sql, params);
    return (res.rows[0] as Row | undefined) ?? null;
  }

  private async transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      // A connection that cannot even roll back is not given back to the pool.
      broken = await client.query('ROLLBACK').then(
        () => undefined,
        (rollbackErr: Error) => rollbackErr,
      );
      throw err;
    } finally {
      client.release(broken);
    }
  }

  async createUser(user: Omit<UserRow, 'createdAt'>): Promise<UserRow> {
    const createdAt = new Date();
    try {
      await this.pool.query(
        'INSERT INTO users (id, name, email, password_hash, color, is_guest, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [user.id, user.name, user.email, user.passwordHash, user.color, user.isGuest, createdAt],
      );
    } catch (err) {
      const e = err as { code?: string; constraint?: string };
      if (e.code === '23505' && e.constraint === 'users_email') throw new EmailTakenError();
      throw err;
    }
    return { ...user, createdAt };
  }

  async getUser(id: string): Promise<UserRow | null> {
    const r = await this.one('SELECT * FROM users WHERE id = $1', [id]);
    return r ? toUser(r) : null;
  }

  async getUserByEmail(email: string): Promise<UserRow | null> {
    const r = await this.one('SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
    return r ? toUser(r) : null;
  }

  async createSession(s: SessionRow): Promise<void> {
    await this.pool.query(
      'INSERT INTO sessions (id_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
      [s.idHash, s.userId, s.createdAt, s.expiresAt],
    );
  }

  async getSession(idHash: string): Promise<SessionRow | null> {
    // An expired session is as good as none, so a caller can never accept one by mistake.
    const r = await this.one('SELECT * FROM sessions WHERE id_hash = $1 AND expires_at > $2', [
      idHash,
      new Date(),
    ]);
    return r ? toSession(r) : null;
  }

  async extendSession(idHash: string, expiresAt: Date): Promise<void> {
    await this.pool.query('UPDATE sessions SET expires_at = $1 WHERE id_hash = $2', [expiresAt, idHash]);
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.pool.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
  }

  async createBoard(board: { id: string; title: string; ownerId: string }): Promise<BoardRow> {
    const now = new Date();
    await this.transaction(async (c) => {
      await c.query(
        'INSERT INTO boards (id, title, owner_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)',
        [board.id, board.title, board.ownerId, now],
      );
      await c.query('INSERT INTO memberships (board_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)', [
        board.id,
        board.ownerId,
        'owner',
        now,
      ]);
    });
    return { ...board, createdAt: now, updatedAt: now, deletedAt: null };
  }

  async getBoard(id: string): Promise<BoardRow | null> {
    const r = await this.one('SELECT * FROM boards WHERE id = $1 AND deleted_at IS NULL', [id]);
    return r ? toBoard(r) : null;
  }

  async renameBoard(id: string, title: string): Promise<BoardRow | null> {
    const r = await this.one(
      `UPDATE boards SET title = $1, updated_at = greatest(updated_at, $2)
       WHERE id = $3 AND deleted_at IS NULL RETURNING *`,
      [title, new Date(), id],
    );
    return r ? toBoard(r) : null;
  }

  async deleteBoard(id: string): Promise<void> {
    await this.transaction(async (c) => {
      await c.query('UPDATE boards SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL', [
        new Date(),
        id,
      ]);
      await c.query('DELETE FROM doc_updates WHERE board_id = $1', [id]);
      await c.query('DELETE FROM doc_snapshots WHERE board_id = $1', [id]);
    });
  }

  async touchBoard(id: string, at: Date): Promise<void> {
    // Debounced writes from several instances may arrive out of order; updatedAt never goes back.
    await this.pool.query('UPDATE boards SET updated_at = $1 WHERE id = $2 AND updated_at < $1', [at, id]);
  }

  async listBoards(userId: string): Promise<BoardListItem[]> {
    const res = await this.pool.query(
      `SELECT b.id, b.title, m.role, o.name AS owner_name, b.updated_at
       FROM memberships m
       JOIN boards b ON b.id = m.board_id AND b.deleted_at IS NULL
       JOIN users o ON o.id = b.owner_id
       WHERE m.user_id = $1
       ORDER BY b.updated_at DESC, b.id`,
      [userId],
    );
    return res.rows.map(toBoardListItem);
  }

  async getRole(boardId: string, userId: string): Promise<Role | null> {
    const r = await this.one(
      `SELECT m.role FROM memberships m JOIN boards b ON b.id = m.board_id AND b.deleted_at IS NULL
       WHERE m.board_id = $1 AND m.user_id = $2`,
      [boardId, userId],
    );
    return r ? (r.role as Role) : null;
  }

  async listMembers(boardId: string): Promise<Member[]> {
    const res = await this.pool.query(
      `SELECT u.id, u.name, u.email, u.color, u.is_guest, m.role, m.created_at
       FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.board_id = $1
       ORDER BY ${memberOrder}`,
      [boardId],
    );
    return res.rows.map(toMember);
  }

  async setRole(boardId: string, userId: string, role: Role): Promise<boolean> {
    const res = await this.pool.query(
      'UPDATE memberships SET role = $1 WHERE board_id = $2 AND user_id = $3',
      [role, boardId, userId],
    );
    return (res.rowCount ?? 0) > 0;
  }

  async grantAtLeast(boardId: string, userId: string, role: Role): Promise<Role> {
    const r = await this.one(
      `INSERT INTO memberships (board_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (board_id, user_id) DO UPDATE SET role = CASE
         WHEN ${roleRankSql('excluded.role')} > ${roleRankSql('memberships.role')} THEN excluded.role
         ELSE memberships.role END
       RETURNING role`,
      [boardId, userId, role, new Date()],
    );
    return r?.role as Role;
  }

  async removeMember(boardId: string, userId: string): Promise<boolean> {
    const res = await this.pool.query('DELETE FROM memberships WHERE board_id = $1 AND user_id = $2', [
      boardId,
      userId,
    ]);
    return (res.rowCount ?? 0) > 0;
  }

  async createLink(link: Omit<LinkRow, 'createdAt' | 'revokedAt'>): Promise<LinkRow> {
    const createdAt = new Date();
    await this.pool.query(
      'INSERT INTO links (token, board_id, role, created_by, created_at) VALUES ($1, $2, $3, $4, $5)',
      [link.token, link.boardId, link.role, link.createdBy, createdAt],
    );
    return { ...link, createdAt, revokedAt: null };
  }

  async listLinks(boardId: string): Promise<LinkRow[]> {
    const res = await this.pool.query(
      'SELECT * FROM links WHERE board_id = $1 AND revoked_at IS NULL ORDER BY seq DESC',
      [boardId],
    );
    return res.rows.map(toLink);
  }

  async getLink(token: string): Promise<LinkRow | null> {
    const r = await this.one('SELECT * FROM links WHERE token = $1', [token]);
    return r ? toLink(r) : null;
  }

  async revokeLink(boardId: string, token: string): Promise<boolean> {
    const res = await this.pool.query(
      'UPDATE links SET revoked_at = $1 WHERE board_id = $2 AND token = $3 AND revoked_at IS NULL',
      [new Date(), boardId, token],
    );
    return (res.rowCount ?? 0) > 0;
  }

  async loadDoc(boardId: string): Promise<StoredDoc> {
    // One statement sees one snapshot of the database: never an old snapshot with a log that a
    // concurrent compaction has already emptied.
    const res = await this.pool.query(
      `SELECT 0 AS part, NULL::bigint AS seq, data FROM doc_snapshots WHERE board_id = $1
       UNION ALL
       SELECT 1 AS part, seq, data FROM doc_updates WHERE board_id = $1
       ORDER BY part, seq`,
      [boardId],
    );
    const doc: StoredDoc = { snapshot: null, updates: [] };
    for (const r of res.rows) {
      if (r.part === 0) doc.snapshot = r.data;
      else doc.updates.push(r.data);
    }
    return doc;
  }

  async appendUpdates(boardId: string, updates: Uint8Array[]): Promise<LogSize> {
    if (updates.length > APPEND_CHUNK) {
      await this.transaction(async (c) => {
        for (let i = 0; i < updates.length; i += APPEND_CHUNK) {
          await insertUpdates(c, boardId, updates.slice(i, i + APPEND_CHUNK));
        }
      });
    } else if (updates.length > 0) {
      await insertUpdates(this.pool, boardId, updates);
    }
    const r = await this.one(
      `SELECT
         (SELECT count(*) FROM doc_updates WHERE board_id = $1) AS entries,
         (SELECT coalesce(sum(octet_length(data)), 0) FROM doc_updates WHERE board_id = $1) AS bytes,
         coalesce((SELECT octet_length(data) FROM doc_snapshots WHERE board_id = $1), 0) AS snapshot`,
      [boardId],
    );
    const logBytes = Number(r?.bytes);
    return { entries: Number(r?.entries), bytes: logBytes, totalBytes: logBytes + Number(r?.snapshot) };
  }

  async compact(boardId: string, merge: (parts: Uint8Array[]) => Uint8Array): Promise<void> {
    await this.transaction(async (c) => {
      // Held to the end of the transaction: a second compactor waits, then reads our result.
      await c.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [COMPACT_LOCK, boardId]);
      const snap = await c.query('SELECT data FROM doc_snapshots WHERE board_id = $1', [boardId]);
      const log = await c.query('SELECT seq, data FROM doc_updates WHERE board_id = $1 ORDER BY seq', [
        boardId,
      ]);
      if (log.rows.length === 0) return;
      const parts: Uint8Array[] = log.rows.map((r) => r.data);
      if (snap.rows[0]) parts.unshift(snap.rows[0].data);
      const merged = merge(parts);
      await c.query(
        `INSERT INTO doc_snapshots (board_id, data) VALUES ($1, $2)
         ON CONFLICT (board_id) DO UPDATE SET data = excluded.data`,
        [boardId, bytes(merged)],
      );
      // Exactly the entries merged above: anything appended since stays in the log.
      await c.query('DELETE FROM doc_updates WHERE seq = ANY($1::bigint[])', [log.rows.map((r) => r.seq)]);
    });
  }
}

async function insertUpdates(db: pg.Pool | pg.PoolClient, boardId: string, updates: Uint8Array[]) {
  // Rows of one VALUES list take their sequence numbers in order.
  const values = updates.map((_, i) => `($1, $${i + 2})`).join(', ');
  await db.query(`INSERT INTO doc_updates (board_id, data) VALUES ${values}`, [
    boardId,
    ...updates.map(bytes),
  ]);
}
