// The schema, written once for both stores. Column types are the only thing that differs between
// SQLite and PostgreSQL, so each migration is a function of a dialect's type names.
// Append new migrations at the end; never edit one that has shipped.

export interface Dialect {
  /** Timestamps: epoch milliseconds in SQLite, timestamptz in PostgreSQL. */
  time: string;
  bool: string;
  bytes: string;
  /** An auto-incrementing integer primary key, used where insertion order matters. */
  serialKey: string;
}

export const sqliteDialect: Dialect = {
  time: 'INTEGER',
  bool: 'INTEGER',
  bytes: 'BLOB',
  serialKey: 'INTEGER PRIMARY KEY AUTOINCREMENT',
};

export const postgresDialect: Dialect = {
  time: 'TIMESTAMPTZ',
  bool: 'BOOLEAN',
  bytes: 'BYTEA',
  serialKey: 'BIGSERIAL PRIMARY KEY',
};

export interface Migration {
  id: number;
  name: string;
  statements: (d: Dialect) => string[];
}

export const migrations: Migration[] = [
  {
    id: 1,
    name: 'accounts, boards, memberships, links, board content',
    statements: (d) => [
      `CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        email TEXT,
        password_hash TEXT,
        color TEXT NOT NULL,
        is_guest ${d.bool} NOT NULL,
        created_at ${d.time} NOT NULL
      )`,
      // Emails are compared case-insensitively whatever case the caller stored.
      'CREATE UNIQUE INDEX users_email ON users (lower(email))',
      `CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at ${d.time} NOT NULL,
        expires_at ${d.time} NOT NULL
      )`,
      'CREATE INDEX sessions_user ON sessions (user_id)',
      `CREATE TABLE boards (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        owner_id TEXT NOT NULL REFERENCES users (id),
        created_at ${d.time} NOT NULL,
        updated_at ${d.time} NOT NULL,
        deleted_at ${d.time}
      )`,
      `CREATE TABLE memberships (
        board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        created_at ${d.time} NOT NULL,
        PRIMARY KEY (board_id, user_id)
      )`,
      'CREATE INDEX memberships_user ON memberships (user_id)',
      // seq orders links newest first even when two share a millisecond.
      `CREATE TABLE links (
        seq ${d.serialKey},
        token TEXT NOT NULL UNIQUE,
        board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        created_by TEXT NOT NULL REFERENCES users (id),
        created_at ${d.time} NOT NULL,
        revoked_at ${d.time}
      )`,
      'CREATE INDEX links_board ON links (board_id, seq)',
      `CREATE TABLE doc_snapshots (
        board_id TEXT PRIMARY KEY REFERENCES boards (id) ON DELETE CASCADE,
        data ${d.bytes} NOT NULL
      )`,
      // seq is what compaction deletes by, so entries appended while it merges survive.
      `CREATE TABLE doc_updates (
        seq ${d.serialKey},
        board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
        data ${d.bytes} NOT NULL
      )`,
      'CREATE INDEX doc_updates_board ON doc_updates (board_id, seq)',
    ],
  },
];

export const roleRankSql = (column: string): string =>
  `CASE ${column} WHEN 'owner' THEN 3 WHEN 'editor' THEN 2 ELSE 1 END`;
