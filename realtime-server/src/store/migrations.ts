// The schema, written once for both stores. Column types are the only thing that differs between
// SQLite and PostgreSQL, so each migration is a function of a dialect's type names.
// Append new migrations at the end; never edit one that has shipped.
import { ROLES_BY_RANK } from '@tandem/shared';

export interface Dialect {
  engine: 'sqlite' | 'postgres';
  /** Timestamps: epoch milliseconds in SQLite, timestamptz in PostgreSQL. */
  time: string;
  bool: string;
  bytes: string;
  /** An auto-incrementing integer primary key, used where insertion order matters. */
  serialKey: string;
  /**
   * Appended to the inner SELECT of a claim (webhook deliveries): PostgreSQL skips rows another
   * instance is claiming instead of waiting for them; SQLite has one writer, so nothing to skip.
   */
  skipLocked: string;
}

export const sqliteDialect: Dialect = {
  engine: 'sqlite',
  time: 'INTEGER',
  bool: 'INTEGER',
  bytes: 'BLOB',
  serialKey: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  skipLocked: '',
};

export const postgresDialect: Dialect = {
  engine: 'postgres',
  time: 'TIMESTAMPTZ',
  bool: 'BOOLEAN',
  bytes: 'BYTEA',
  serialKey: 'BIGSERIAL PRIMARY KEY',
  skipLocked: 'FOR UPDATE SKIP LOCKED',
};

/**
 * The write /readyz probes with (Store.probeWrite), the same on both stores: the latest row of
 * the migrations table, which every migrated database has, rewritten with its own value.
 */
export const PROBE_WRITE =
  'UPDATE migrations SET applied_at = applied_at WHERE id = (SELECT max(id) FROM migrations)';

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
  {
    id: 2,
    name: "a version number on each board's access, bumped by every revocation",
    // Instances compare it with the version each connection was admitted under, so a removal
    // they missed on the bus (Redis down, a message lost) is still noticed (docs/security.md).
    statements: () => ['ALTER TABLE boards ADD COLUMN access_version INTEGER NOT NULL DEFAULT 0'],
  },
  {
    // Version history (docs/api.md §12) needs to know who sent each stored batch and when. Both are
    // nullable: rows stored before this migration, and repairs between instances, have no author.
    // No foreign key: attribution must never make storing an edit fail.
    id: 3,
    name: 'attribution of stored document updates',
    statements: (d) => [
      'ALTER TABLE doc_updates ADD COLUMN user_id TEXT',
      `ALTER TABLE doc_updates ADD COLUMN created_at ${d.time}`,
    ],
  },
  {
    id: 4,
    name: 'board images (the PostgreSQL AssetStore)',
    // On SQLite, images are files under DATA_DIR (assets/disk.ts): there is nothing to create.
    statements: (d) =>
      d.engine === 'sqlite'
        ? []
        : [
            // No foreign key to boards: an asset outlives nothing by itself, and the clean-up
            // (assets/cleanup.ts) removes a deleted board's images after HISTORY_DAYS like any other.
            `CREATE TABLE assets (
              board_id TEXT NOT NULL,
              id TEXT NOT NULL,
              mime TEXT NOT NULL,
              width INTEGER NOT NULL,
              height INTEGER NOT NULL,
              bytes BIGINT NOT NULL,
              data ${d.bytes} NOT NULL,
              created_at ${d.time} NOT NULL,
              -- Set by the clean-up while nothing references the image; deleted HISTORY_DAYS later.
              unreferenced_since ${d.time},
              PRIMARY KEY (board_id, id)
            )`,
            `CREATE TABLE asset_renditions (
              board_id TEXT NOT NULL,
              asset_id TEXT NOT NULL,
              width INTEGER NOT NULL,
              mime TEXT NOT NULL,
              data ${d.bytes} NOT NULL,
              PRIMARY KEY (board_id, asset_id, width),
              FOREIGN KEY (board_id, asset_id) REFERENCES assets (board_id, id) ON DELETE CASCADE
            )`,
          ],
  },
  {
    // Version history (docs/api.md §12). A version holds the whole board as it was (so a preview, an
    // export or a restore reads one row) and the log position it covers. doc_history keeps the
    // attributed log entries that compaction merged away, for as long as the history window
    // needs them (reverting one user's edits replays them).
    id: 5,
    name: 'version history',
    statements: (d) => [
      `CREATE TABLE doc_versions (
        n ${d.serialKey},
        id TEXT NOT NULL UNIQUE,
        board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
        seq BIGINT NOT NULL,
        created_at ${d.time} NOT NULL,
        label TEXT,
        kind TEXT NOT NULL,
        authors TEXT NOT NULL,
        added INTEGER NOT NULL,
        changed INTEGER NOT NULL,
        removed INTEGER NOT NULL,
        assets TEXT NOT NULL,
        data ${d.bytes} NOT NULL
      )`,
      'CREATE INDEX doc_versions_board ON doc_versions (board_id, n)',
      `CREATE TABLE doc_history (
        seq BIGINT PRIMARY KEY,
        board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
        user_id TEXT,
        created_at ${d.time},
        data ${d.bytes} NOT NULL
      )`,
      'CREATE INDEX doc_history_board ON doc_history (board_id, seq)',
    ],
  },
  {
    // docs/api.md §14: dot voting. Votes live here, never in the board's Yjs document.
    id: 6,
    name: 'vote sessions and ballots',
    statements: (d) => [
      `CREATE TABLE vote_sessions (
        id TEXT PRIMARY KEY,
        board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
        votes_per_person INTEGER NOT NULL,
        started_by TEXT NOT NULL REFERENCES users (id),
        created_at ${d.time} NOT NULL,
        closed_at ${d.time}
      )`,
      // At most one open session per board, enforced by the database so two instances starting
      // one at the same moment cannot both succeed (the loser answers 409).
      'CREATE UNIQUE INDEX vote_sessions_open ON vote_sessions (board_id) WHERE closed_at IS NULL',
      'CREATE INDEX vote_sessions_board ON vote_sessions (board_id, created_at)',
      `CREATE TABLE vote_ballots (
        session_id TEXT NOT NULL REFERENCES vote_sessions (id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        shape_id TEXT NOT NULL,
        votes INTEGER NOT NULL,
        PRIMARY KEY (session_id, user_id, shape_id)
      )`,
    ],
  },
  {
    // Thumbnails: the dashboard shows each board's content in small. A client that edits the board
    // renders the picture; the server re-encodes it (http/thumbnails.ts) and keeps one per board.
    id: 9,
    name: 'board thumbnails',
    statements: (d) => [
      `CREATE TABLE board_thumbnails (
        board_id TEXT PRIMARY KEY REFERENCES boards (id) ON DELETE CASCADE,
        mime TEXT NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        data ${d.bytes} NOT NULL,
        updated_at ${d.time} NOT NULL
      )`,
    ],
  },
  {
    // Who saved a version (a named one, a restore, a revert), so that named versions
    // one person saves in quick succession collapse into one (history/versions.ts).
    id: 10,
    name: 'who saved a version',
    statements: () => ['ALTER TABLE doc_versions ADD COLUMN created_by TEXT'],
  },
  {
    // docs/api.md §18: comment threads, their comments and the mentions they notify. In the
    // Store, not the Yjs document: authorship, edits, resolution and who is told are checked
    // per call. A thread anchored to a shape keeps the shape's id only; the pin's position is
    // the shape's, read from the document by whoever draws it.
    id: 11,
    name: 'comments and mentions',
    statements: (d) => [
      `CREATE TABLE comment_threads (
        n ${d.serialKey},
        id TEXT NOT NULL UNIQUE,
        board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
        page_id TEXT NOT NULL,
        shape_id TEXT,
        x DOUBLE PRECISION,
        y DOUBLE PRECISION,
        resolved ${d.bool} NOT NULL,
        resolved_by TEXT,
        resolved_at ${d.time},
        created_by TEXT NOT NULL REFERENCES users (id),
        created_at ${d.time} NOT NULL
      )`,
      'CREATE INDEX comment_threads_board ON comment_threads (board_id, n)',
      // n orders the comments of a thread even when two share a millisecond.
      `CREATE TABLE comments (
        n ${d.serialKey},
        id TEXT NOT NULL UNIQUE,
        thread_id TEXT NOT NULL REFERENCES comment_threads (id) ON DELETE CASCADE,
        board_id TEXT NOT NULL,
        body TEXT NOT NULL,
        created_by TEXT NOT NULL REFERENCES users (id),
        created_at ${d.time} NOT NULL,
        edited_at ${d.time}
      )`,
      'CREATE INDEX comments_thread ON comments (thread_id, n)',
      `CREATE TABLE comment_mentions (
        comment_id TEXT NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        board_id TEXT NOT NULL,
        thread_id TEXT NOT NULL,
        by_user TEXT NOT NULL,
        created_at ${d.time} NOT NULL,
        read_at ${d.time},
        PRIMARY KEY (comment_id, user_id)
      )`,
      'CREATE INDEX comment_mentions_user ON comment_mentions (user_id, created_at)',
    ],
  },
  {
    // docs/api.md §19: saved templates. The content is the §10 JSON form as text, checked by the
    // shared schema before it is stored; built-in templates are code (shared/src/templates.ts).
    // 12, not 11: migration 11 (comments, docs/api.md §18) was written at the same time on main.
    id: 12,
    name: 'saved templates',
    statements: (d) => [
      `CREATE TABLE templates (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        content TEXT NOT NULL,
        shape_count INTEGER NOT NULL,
        shared ${d.bool} NOT NULL,
        created_at ${d.time} NOT NULL
      )`,
      'CREATE INDEX templates_owner ON templates (owner_id, created_at)',
      'CREATE INDEX templates_shared ON templates (shared, created_at)',
    ],
  },
  {
    // docs/api.md §15: integrations. Each is a member-like identity: its own users row (no email,
    // no password: it cannot sign in) and a membership carrying its role, so the one access rule,
    // revocation, history attribution and revert hold for it unchanged. Only the key's SHA-256 is
    // kept. Idempotency-Key answers are rows too, so a retry reaching another instance is answered
    // the same; an answer still being made has a null status.
    // 13: migrations 11 (comments, §18) and 12 (templates, §19) were written at the same time.
    id: 13,
    name: 'integrations and idempotent answers',
    statements: (d) => [
      `CREATE TABLE integrations (
        id TEXT PRIMARY KEY,
        board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users (id),
        key_hash TEXT NOT NULL,
        frame_id TEXT,
        created_by TEXT NOT NULL REFERENCES users (id),
        created_at ${d.time} NOT NULL,
        last_used_at ${d.time},
        revoked_at ${d.time}
      )`,
      'CREATE UNIQUE INDEX integrations_key ON integrations (key_hash)',
      'CREATE INDEX integrations_board ON integrations (board_id, created_at)',
      `CREATE TABLE idempotent_answers (
        user_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        status INTEGER,
        body TEXT,
        created_at ${d.time} NOT NULL,
        PRIMARY KEY (user_id, idempotency_key)
      )`,
      'CREATE INDEX idempotent_answers_age ON idempotent_answers (created_at)',
    ],
  },
  {
    // docs/api.md §17: pages. Each page is its own document, its rows keyed (board_id, page_id);
    // every row stored before pages is the first page's ('main'), so nothing stored moves. The
    // board's deletion still drops every page (board_id). doc_snapshots is rebuilt for its new
    // primary key (SQLite cannot alter one); the same statements run on both engines.
    id: 14,
    name: 'pages: documents keyed by board and page',
    statements: (d) => [
      `ALTER TABLE doc_updates ADD COLUMN page_id TEXT NOT NULL DEFAULT 'main'`,
      `ALTER TABLE doc_history ADD COLUMN page_id TEXT NOT NULL DEFAULT 'main'`,
      `ALTER TABLE doc_versions ADD COLUMN page_id TEXT NOT NULL DEFAULT 'main'`,
      'DROP INDEX doc_updates_board',
      'CREATE INDEX doc_updates_board ON doc_updates (board_id, page_id, seq)',
      'DROP INDEX doc_history_board',
      'CREATE INDEX doc_history_board ON doc_history (board_id, page_id, seq)',
      'DROP INDEX doc_versions_board',
      'CREATE INDEX doc_versions_board ON doc_versions (board_id, page_id, n)',
      `CREATE TABLE doc_page_snapshots (
        board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
        page_id TEXT NOT NULL,
        data ${d.bytes} NOT NULL,
        PRIMARY KEY (board_id, page_id)
      )`,
      `INSERT INTO doc_page_snapshots (board_id, page_id, data) SELECT board_id, 'main', data FROM doc_snapshots`,
      'DROP TABLE doc_snapshots',
      'ALTER TABLE doc_page_snapshots RENAME TO doc_snapshots',
    ],
  },
  {
    // docs/api.md §15: webhooks. A delivery is a row (one event for one webhook), claimed by
    // whichever instance is alive for `lease_until` (the send's timeout and a margin): a claim
    // of an instance that died lapses and another sends it, so no delivery dies with the
    // instance that queued it. board.updated is coalesced in the Store, not in one instance's
    // memory: every instance adds the changes it stored to webhook_changes, and whichever
    // instance claims the board's webhook_windows row once the window is due (CAS on `version`)
    // turns them into one event; `last_sent_at` keeps two events of a board a window apart.
    // 15: written beside pages (14) in the same session and renumbered when the two were merged.
    id: 15,
    name: 'webhooks, their deliveries, and board changes waiting for board.updated',
    statements: (d) => [
      `CREATE TABLE webhooks (
        id TEXT PRIMARY KEY,
        board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        events TEXT NOT NULL,
        secret TEXT NOT NULL,
        created_by TEXT NOT NULL REFERENCES users (id),
        created_at ${d.time} NOT NULL,
        failing_since ${d.time},
        disabled_at ${d.time},
        deleted_at ${d.time}
      )`,
      'CREATE INDEX webhooks_board ON webhooks (board_id, created_at)',
      `CREATE TABLE webhook_deliveries (
        id TEXT PRIMARY KEY,
        webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        board_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        created_at ${d.time} NOT NULL,
        next_at ${d.time} NOT NULL,
        lease_owner TEXT,
        lease_until ${d.time},
        last_attempt_at ${d.time},
        response_status INTEGER,
        error TEXT,
        duration_ms INTEGER
      )`,
      'CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_at)',
      'CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at)',
      `CREATE TABLE webhook_changes (
        id ${d.serialKey},
        board_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        shape_id TEXT NOT NULL,
        created_at ${d.time} NOT NULL
      )`,
      'CREATE INDEX webhook_changes_board ON webhook_changes (board_id)',
      `CREATE TABLE webhook_windows (
        board_id TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        last_sent_at ${d.time},
        claim_until ${d.time}
      )`,
    ],
  },
  {
    // docs/api.md §15: board.updated says which page each changed shape is on, so a receiver can
    // read it with the content API's ?page=. Changes already waiting were noted without their
    // page: they are put on the first page (`main`), wrong at most once, in one window's event.
    id: 16,
    name: "board.updated: each waiting change's page",
    statements: () => [`ALTER TABLE webhook_changes ADD COLUMN page_id TEXT NOT NULL DEFAULT 'main'`],
  },
  {
    // Whose edits a revert undid and since when (JSON {userId, since}): a later revert of the
    // same person skips the edits an earlier one already undid. Undoing them again restored a
    // text's deleted characters a second time ("Ship it" became "Ship itShip it"). Reverts
    // stored before this have none; they are as before.
    id: 17,
    name: 'what a revert undid',
    statements: () => ['ALTER TABLE doc_versions ADD COLUMN reverted TEXT'],
  },
];

/** A role as a number, higher is more (shared's ROLES_BY_RANK, so the order is written once). */
export const roleRankSql = (column: string): string =>
  `CASE ${column} ${ROLES_BY_RANK.map((role, i) => `WHEN '${role}' THEN ${ROLES_BY_RANK.length - i}`).join(' ')} ELSE 0 END`;
