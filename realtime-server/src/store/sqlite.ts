// The embedded Store: one SQLite file (tandem.db in DATA_DIR) in WAL mode, for single-instance
// deployments. better-sqlite3 is synchronous, so each method runs to completion before any
// other code in this process can touch the database.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BoardListItem, Member, Role } from '@tandem/shared';
import Database from 'better-sqlite3';
import { migrations, roleRankSql, sqliteDialect } from './migrations.ts';
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

export interface SqliteStoreOptions {
  /** Directory holding tandem.db, or ':memory:' for a throwaway database. */
  dataDir: string;
}

export class SqliteStore implements Store {
  readonly db: Database.Database;

  constructor(options: SqliteStoreOptions) {
    if (options.dataDir === ':memory:') {
      this.db = new Database(':memory:');
    } else {
      mkdirSync(options.dataDir, { recursive: true });
      this.db = new Database(join(options.dataDir, 'tandem.db'));
    }
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
    // Another process holding the write lock (a backup, a second instance by mistake) makes
    // writers wait a little instead of failing at once.
    this.db.pragma('busy_timeout = 5000');
  }

  async migrate(): Promise<void> {
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    const apply = this.db.transaction(() => {
      const done = new Set(
        this.db
          .prepare('SELECT id FROM migrations')
          .all()
          .map((r) => (r as Row).id as number),
      );
      for (const m of migrations) {
        if (done.has(m.id)) continue;
        for (const sql of m.statements(sqliteDialect)) this.db.exec(sql);
        this.db
          .prepare('INSERT INTO migrations (id, name, applied_at) VALUES (?, ?, ?)')
          .run(m.id, m.name, Date.now());
      }
    });
    apply.immediate();
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  async createUser(user: Omit<UserRow, 'createdAt'>): Promise<UserRow> {
    const createdAt = new Date();
    try {
      this.db
        .prepare(
          'INSERT INTO users (id, name, email, password_hash, color, is_guest, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          user.id,
          user.name,
          user.email,
          user.passwordHash,
          user.color,
          user.isGuest ? 1 : 0,
          createdAt.getTime(),
        );
    } catch (err) {
      if (isUniqueViolation(err) && user.email !== null && this.emailTaken(user.email)) {
        throw new EmailTakenError();
      }
      throw err;
    }
    return { ...user, createdAt };
  }

  private emailTaken(email: string): boolean {
    return this.db.prepare('SELECT 1 FROM users WHERE lower(email) = lower(?)').get(email) !== undefined;
  }

  async getUser(id: string): Promise<UserRow | null> {
    const r = this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as Row | undefined;
    return r ? toUser(r) : null;
  }

  async getUserByEmail(email: string): Promise<UserRow | null> {
    const r = this.db.prepare('SELECT * FROM users WHERE lower(email) = lower(?)').get(email) as
      | Row
      | undefined;
    return r ? toUser(r) : null;
  }

  async createSession(s: SessionRow): Promise<void> {
    this.db
      .prepare('INSERT INTO sessions (id_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
      .run(s.idHash, s.userId, s.createdAt.getTime(), s.expiresAt.getTime());
  }

  async getSession(idHash: string): Promise<SessionRow | null> {
    // An expired session is as good as none, so a caller can never accept one by mistake.
    const r = this.db
      .prepare('SELECT * FROM sessions WHERE id_hash = ? AND expires_at > ?')
      .get(idHash, Date.now()) as Row | undefined;
    return r ? toSession(r) : null;
  }

  async extendSession(idHash: string, expiresAt: Date): Promise<void> {
    this.db.prepare('UPDATE sessions SET expires_at = ? WHERE id_hash = ?').run(expiresAt.getTime(), idHash);
  }

  async deleteSession(idHash: string): Promise<void> {
    this.db.prepare('DELETE FROM sessions WHERE id_hash = ?').run(idHash);
  }

  async createBoard(board: { id: string; title: string; ownerId: string }): Promise<BoardRow> {
    const now = new Date();
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO boards (id, title, owner_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
        .run(board.id, board.title, board.ownerId, now.getTime(), now.getTime());
      this.db
        .prepare('INSERT INTO memberships (board_id, user_id, role, created_at) VALUES (?, ?, ?, ?)')
        .run(board.id, board.ownerId, 'owner', now.getTime());
    })();
    return { ...board, createdAt: now, updatedAt: now, deletedAt: null };
  }

  async getBoard(id: string): Promise<BoardRow | null> {
    const r = this.db.prepare('SELECT * FROM boards WHERE id = ? AND deleted_at IS NULL').get(id) as
      | Row
      | undefined;
    return r ? toBoard(r) : null;
  }

  async renameBoard(id: string, title: string): Promise<BoardRow | null> {
    const r = this.db
      .prepare(
        'UPDATE boards SET title = ?, updated_at = max(updated_at, ?) WHERE id = ? AND deleted_at IS NULL RETURNING *',
      )
      .get(title, Date.now(), id) as Row | undefined;
    return r ? toBoard(r) : null;
  }

  async deleteBoard(id: string): Promise<void> {
    this.db.transaction(() => {
      this.db
        .prepare('UPDATE boards SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL')
        .run(Date.now(), id);
      this.db.prepare('DELETE FROM doc_updates WHERE board_id = ?').run(id);
      this.db.prepare('DELETE FROM doc_snapshots WHERE board_id = ?').run(id);
    })();
  }

  async touchBoard(id: string, at: Date): Promise<void> {
    // Debounced writes from several places may arrive out of order; updatedAt never goes back.
    this.db
      .prepare('UPDATE boards SET updated_at = ? WHERE id = ? AND updated_at < ?')
      .run(at.getTime(), id, at.getTime());
  }

  async listBoards(userId: string): Promise<BoardListItem[]> {
    const rows = this.db
      .prepare(
        `SELECT b.id, b.title, m.role, o.name AS owner_name, b.updated_at
         FROM memberships m
         JOIN boards b ON b.id = m.board_id AND b.deleted_at IS NULL
         JOIN users o ON o.id = b.owner_id
         WHERE m.user_id = ?
         ORDER BY b.updated_at DESC, b.id`,
      )
      .all(userId) as Row[];
    return rows.map(toBoardListItem);
  }

  async getRole(boardId: string, userId: string): Promise<Role | null> {
    const r = this.db
      .prepare(
        `SELECT m.role FROM memberships m JOIN boards b ON b.id = m.board_id AND b.deleted_at IS NULL
         WHERE m.board_id = ? AND m.user_id = ?`,
      )
      .get(boardId, userId) as Row | undefined;
    return r ? (r.role as Role) : null;
  }

  async listMembers(boardId: string): Promise<Member[]> {
    const rows = this.db
      .prepare(
        `SELECT u.id, u.name, u.email, u.color, u.is_guest, m.role, m.created_at
         FROM memberships m JOIN users u ON u.id = m.user_id
         WHERE m.board_id = ?
         ORDER BY ${memberOrder}`,
      )
      .all(boardId) as Row[];
    return rows.map(toMember);
  }

  async setRole(boardId: string, userId: string, role: Role): Promise<boolean> {
    const res = this.db
      .prepare('UPDATE memberships SET role = ? WHERE board_id = ? AND user_id = ?')
      .run(role, boardId, userId);
    return res.changes > 0;
  }

  async grantAtLeast(boardId: string, userId: string, role: Role): Promise<Role> {
    const r = this.db
      .prepare(
        `INSERT INTO memberships (board_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (board_id, user_id) DO UPDATE SET role = CASE
           WHEN ${roleRankSql('excluded.role')} > ${roleRankSql('memberships.role')} THEN excluded.role
           ELSE memberships.role END
         RETURNING role`,
      )
      .get(boardId, userId, role, Date.now()) as Row;
    return r.role as Role;
  }

  async removeMember(boardId: string, userId: string): Promise<boolean> {
    const res = this.db
      .prepare('DELETE FROM memberships WHERE board_id = ? AND user_id = ?')
      .run(boardId, userId);
    return res.changes > 0;
  }

  async createLink(link: Omit<LinkRow, 'createdAt' | 'revokedAt'>): Promise<LinkRow> {
    const createdAt = new Date();
    this.db
      .prepare('INSERT INTO links (token, board_id, role, created_by, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(link.token, link.boardId, link.role, link.createdBy, createdAt.getTime());
    return { ...link, createdAt, revokedAt: null };
  }

  async listLinks(boardId: string): Promise<LinkRow[]> {
    const rows = this.db
      .prepare('SELECT * FROM links WHERE board_id = ? AND revoked_at IS NULL ORDER BY seq DESC')
      .all(boardId) as Row[];
    return rows.map(toLink);
  }

  async getLink(token: string): Promise<LinkRow | null> {
    const r = this.db.prepare('SELECT * FROM links WHERE token = ?').get(token) as Row | undefined;
    return r ? toLink(r) : null;
  }

  async revokeLink(boardId: string, token: string): Promise<boolean> {
    const res = this.db
      .prepare('UPDATE links SET revoked_at = ? WHERE board_id = ? AND token = ? AND revoked_at IS NULL')
      .run(Date.now(), boardId, token);
    return res.changes > 0;
  }

  async loadDoc(boardId: string): Promise<StoredDoc> {
    return this.db.transaction(() => readDoc(this.db, boardId))();
  }

  async appendUpdates(boardId: string, updates: Uint8Array[]): Promise<LogSize> {
    return this.db.transaction(() => {
      const insert = this.db.prepare('INSERT INTO doc_updates (board_id, data) VALUES (?, ?)');
      for (const u of updates) insert.run(boardId, u);
      return logSize(this.db, boardId);
    })();
  }

  async compact(boardId: string, merge: (parts: Uint8Array[]) => Uint8Array): Promise<void> {
    const read = this.db.transaction(() => {
      const snap = this.db.prepare('SELECT data FROM doc_snapshots WHERE board_id = ?').get(boardId) as
        | Row
        | undefined;
      const log = this.db
        .prepare('SELECT seq, data FROM doc_updates WHERE board_id = ? ORDER BY seq')
        .all(boardId) as Row[];
      return { snapshot: (snap?.data as Uint8Array | undefined) ?? null, log };
    })();
    if (read.log.length === 0) return;
    const parts = read.log.map((r) => r.data as Uint8Array);
    if (read.snapshot) parts.unshift(read.snapshot);
    // Merge outside any transaction: a throwing merge leaves nothing half-done, and anything
    // appended meanwhile is not among the entries deleted below.
    const merged = merge(parts);
    const seqs = read.log.map((r) => r.seq as number);
    const write = this.db.transaction(() => {
      // Another process may have compacted these entries already; then its snapshot holds them.
      const del = this.db.prepare('DELETE FROM doc_updates WHERE seq = ?');
      let deleted = 0;
      for (const seq of seqs) deleted += del.run(seq).changes;
      if (deleted !== seqs.length) throw new CompactionRaced();
      this.db
        .prepare(
          'INSERT INTO doc_snapshots (board_id, data) VALUES (?, ?) ON CONFLICT (board_id) DO UPDATE SET data = excluded.data',
        )
        .run(boardId, merged);
    });
    try {
      write.immediate();
    } catch (err) {
      if (!(err instanceof CompactionRaced)) throw err;
    }
  }
}

class CompactionRaced extends Error {}

function readDoc(db: Database.Database, boardId: string): StoredDoc {
  const snap = db.prepare('SELECT data FROM doc_snapshots WHERE board_id = ?').get(boardId) as
    | Row
    | undefined;
  const log = db
    .prepare('SELECT data FROM doc_updates WHERE board_id = ? ORDER BY seq')
    .all(boardId) as Row[];
  return {
    snapshot: (snap?.data as Uint8Array | undefined) ?? null,
    updates: log.map((r) => r.data as Uint8Array),
  };
}

function logSize(db: Database.Database, boardId: string): LogSize {
  const log = db
    .prepare('SELECT count(*) AS n, coalesce(sum(length(data)), 0) AS b FROM doc_updates WHERE board_id = ?')
    .get(boardId) as Row;
  const snap = db.prepare('SELECT length(data) AS b FROM doc_snapshots WHERE board_id = ?').get(boardId) as
    | Row
    | undefined;
  const bytes = Number(log.b);
  return { entries: Number(log.n), bytes, totalBytes: bytes + Number(snap?.b ?? 0) };
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}
