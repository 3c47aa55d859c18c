// The Store seam: every row Tandem keeps (accounts, sessions, boards, memberships, share links)
// and every board's Yjs content (an append-only update log plus one compacted snapshot).
// SQLite (embedded default) and PostgreSQL implement it and pass one shared contract suite.
import type { BoardListItem, LinkRole, Member, Role } from '@tandem/shared';

export interface UserRow {
  id: string;
  name: string;
  email: string | null;
  passwordHash: string | null;
  color: string;
  isGuest: boolean;
  createdAt: Date;
}

export interface SessionRow {
  idHash: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
}

export interface BoardRow {
  id: string;
  title: string;
  ownerId: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface LinkRow {
  token: string;
  boardId: string;
  role: LinkRole;
  createdBy: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** A board's stored content: the compacted snapshot (if any) followed by the log appended since. */
export interface StoredDoc {
  snapshot: Uint8Array | null;
  updates: Uint8Array[];
}

/** Size of a board's stored content after an append, so the caller can decide to compact. */
export interface LogSize {
  entries: number;
  bytes: number;
  /** Snapshot plus log, in bytes. */
  totalBytes: number;
}

/** Thrown by createUser when the email is already in use. */
export class EmailTakenError extends Error {
  constructor() {
    super('email taken');
    this.name = 'EmailTakenError';
  }
}

export interface Store {
  /** Creates or upgrades the schema. Safe to call from several instances at once. */
  migrate(): Promise<void>;
  /** Throws when the backing database cannot be reached (for /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;

  createUser(user: Omit<UserRow, 'createdAt'>): Promise<UserRow>;
  getUser(id: string): Promise<UserRow | null>;
  getUserByEmail(email: string): Promise<UserRow | null>;

  createSession(session: SessionRow): Promise<void>;
  getSession(idHash: string): Promise<SessionRow | null>;
  /** Slides a session's expiry. */
  extendSession(idHash: string, expiresAt: Date): Promise<void>;
  deleteSession(idHash: string): Promise<void>;

  /** Creates the board and its owner's membership in one transaction. */
  createBoard(board: { id: string; title: string; ownerId: string }): Promise<BoardRow>;
  /** A board that is not deleted, or null. */
  getBoard(id: string): Promise<BoardRow | null>;
  renameBoard(id: string, title: string): Promise<BoardRow | null>;
  /** Marks a board deleted; its content may be dropped. */
  deleteBoard(id: string): Promise<void>;
  /** Records that the board's content changed (for updatedAt). */
  touchBoard(id: string, at: Date): Promise<void>;
  /** Every non-deleted board the user is a member of, most recently updated first. */
  listBoards(userId: string): Promise<BoardListItem[]>;

  /** The user's role on a non-deleted board, or null. */
  getRole(boardId: string, userId: string): Promise<Role | null>;
  listMembers(boardId: string): Promise<Member[]>;
  /** Sets a member's role; false when there is no such member. */
  setRole(boardId: string, userId: string, role: Role): Promise<boolean>;
  /** Adds a membership, or raises an existing one to `role`; never lowers. Returns the resulting role. */
  grantAtLeast(boardId: string, userId: string, role: Role): Promise<Role>;
  /** Removes a membership; false when there was none. */
  removeMember(boardId: string, userId: string): Promise<boolean>;

  createLink(link: Omit<LinkRow, 'createdAt' | 'revokedAt'>): Promise<LinkRow>;
  /** Active (not revoked) links of a board, newest first. */
  listLinks(boardId: string): Promise<LinkRow[]>;
  /** A link whatever its state, or null. */
  getLink(token: string): Promise<LinkRow | null>;
  /** Revokes an active link of that board; false when there is none. */
  revokeLink(boardId: string, token: string): Promise<boolean>;

  /** The board's stored content. Rejects (never returns empty) when it cannot be read. */
  loadDoc(boardId: string): Promise<StoredDoc>;
  /** Appends updates to the log in one transaction, in order. */
  appendUpdates(boardId: string, updates: Uint8Array[]): Promise<LogSize>;
  /**
   * Replaces the snapshot and the log entries read into it with `merge(snapshot, ...entries)`,
   * under a per-board lock so two instances never compact one board at once. Entries appended
   * while merging are kept.
   */
  compact(boardId: string, merge: (parts: Uint8Array[]) => Uint8Array): Promise<void>;
}
