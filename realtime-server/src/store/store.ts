// The Store seam: every row Tandem keeps (accounts, sessions, boards, memberships, share links)
// and every board's Yjs content (an append-only update log plus one compacted snapshot).
// SQLite (embedded default) and PostgreSQL implement it and pass one shared contract suite. The
// document path (documents/) sees only the DocStore part.
import type { BoardListItem, Member, Role } from '@tandem/shared';
import type { IntegrationRepository } from './integrations.ts';
import type {
  BoardRow,
  CommentRow,
  DocEntry,
  LinkRow,
  LogEntry,
  LogSize,
  MentionRow,
  MergeParts,
  NewComment,
  NewThread,
  PastRevert,
  SessionRow,
  StoredDoc,
  StoredVersion,
  TemplateRow,
  ThreadRow,
  ThumbnailRow,
  UserBadge,
  UserRow,
  VersionRow,
  VoteSessionRow,
} from './types.ts';
import type { WebhookRepository } from './webhooks.ts';

// The row types and errors live in types.ts; re-exported so callers keep importing from here.
export type * from './types.ts';
export { BoardGoneError, EmailTakenError, partsOf, VoteSessionOpenError } from './types.ts';

/**
 * Version history (docs/api.md §12): versions and the attributed log they are computed from, per
 * document: `boardId` here is a document key (shared/pages.ts), one history per page.
 */
export interface HistoryStore {
  /** The board's last log position, 0 when none: positions of one board follow commit order. */
  lastSeq(boardId: string): Promise<number>;
  /** Records a version; with `ifNewerThan`, only if none covers its log position yet. */
  insertVersion(version: StoredVersion, ifNewerThan?: boolean): Promise<boolean>;
  latestVersion(boardId: string): Promise<StoredVersion | null>;
  getVersion(boardId: string, id: string): Promise<StoredVersion | null>;
  /** Removes one version (a named one another replaced); false when there was none. */
  deleteVersion(boardId: string, id: string): Promise<boolean>;
  /** The last version recorded at or before `at`. */
  versionAtOrBefore(boardId: string, at: Date): Promise<StoredVersion | null>;
  /** Newest first, without their content; `before` is the id of the last one already seen. */
  listVersions(boardId: string, before: string | null, limit: number): Promise<VersionRow[]>;
  /** The reverts of `userId`'s edits recorded on this document, oldest first. */
  revertsOf(boardId: string, userId: string): Promise<PastRevert[]>;
  userBadges(ids: string[]): Promise<UserBadge[]>;
  /** Every image id that a kept version of any page of the board shows (a board id, not a key). */
  versionAssets(boardId: string): Promise<string[]>;
  /** Thins versions recorded before `cutoff` to one a day and drops log entries no replay needs. */
  thinHistory(boardId: string, cutoff: Date): Promise<{ versions: number; entries: number }>;
}

/** Comment threads, comments and mentions (docs/api.md §18). */
export interface CommentStore {
  /** A thread and its first comment (with its mentions), in one transaction. */
  createThread(thread: NewThread, first: NewComment): Promise<{ thread: ThreadRow; comment: CommentRow }>;
  getThread(threadId: string): Promise<ThreadRow | null>;
  /** The board's threads, oldest first. */
  listThreads(boardId: string): Promise<ThreadRow[]>;
  /** The comments of these threads with their authors' names and colours, each thread's oldest first. */
  commentsOf(threadIds: string[]): Promise<CommentRow[]>;
  /** Resolves or reopens a thread; null when there is no such thread. */
  setResolved(threadId: string, resolved: boolean, by: string): Promise<ThreadRow | null>;
  /** Deletes a thread, its comments and their mentions; false when there was none. */
  deleteThread(threadId: string): Promise<boolean>;
  /** Adds a comment (with its mentions); null, nothing stored, when the thread is gone. */
  addComment(comment: NewComment): Promise<CommentRow | null>;
  getComment(commentId: string): Promise<CommentRow | null>;
  /**
   * Replaces a comment's body; its mentions become `mentions` (people no longer mentioned lose
   * theirs). Answers the comment and who was newly mentioned, or null when there is no such comment.
   */
  editComment(
    commentId: string,
    body: string,
    mentions: string[],
  ): Promise<{ comment: CommentRow; added: string[] } | null>;
  deleteComment(commentId: string): Promise<boolean>;
  /** The user's mentions, newest first, on boards that exist and that they are still a member of. */
  mentionsFor(userId: string, limit: number): Promise<MentionRow[]>;
  /** Marks the user's mentions in one thread (or, with null, on the whole board) read; how many changed. */
  markMentionsRead(userId: string, boardId: string, threadId: string | null): Promise<number>;
}

/**
 * The document path's view of the Store: all that documents/ needs to keep a board's content.
 * SQLite and PostgreSQL implement it as part of the Store; tests have an in-memory one.
 */
export interface DocStore {
  // Each call names one document by its key (shared/pages.ts docKey): the board id for a board's
  // first page, `boardId/pageId` for the others. The board's deletion and liveness are the board's.
  /** The document's stored content. Rejects (never returns empty) when it cannot be read. */
  loadDoc(key: string): Promise<StoredDoc>;
  /**
   * Appends entries to the log in one transaction, in order, and moves the board's updatedAt
   * forward to the latest entry's time (never back). Rejects with BoardGoneError (storing
   * nothing) when the board is deleted, even when the deletion commits at the same moment.
   */
  append(key: string, entries: DocEntry[]): Promise<LogSize>;
  /**
   * Each document's last log position, 0 when it has none. A document someone appended to since
   * shows another number (positions follow commit order; compaction keeps them): a cheap "did
   * anyone write to it" for many documents in one call.
   */
  logHeads(keys: readonly string[]): Promise<Map<string, number>>;
  /**
   * Log entries after `afterSeq`, oldest first, including those compaction merged away; at most
   * `limit`. History replays them; a room that knows a document's head reads only what came since.
   */
  logSince(key: string, afterSeq: number, limit?: number): Promise<LogEntry[]>;
  /**
   * Replaces the snapshot and the log entries read into it with `merge(snapshot, ...entries)`,
   * under a per-board lock so two instances never compact one board at once. Entries appended
   * while merging (which may run off the main thread: `merge` may return a promise) are kept.
   */
  compact(key: string, merge: MergeParts): Promise<void>;
}

/** Saved templates (docs/api.md §19): a person sees their own and every shared one. */
export interface TemplateStore {
  createTemplate(template: Omit<TemplateRow, 'createdAt' | 'ownerName'>): Promise<void>;
  /** The user's own templates and every shared one, newest first, without their content. */
  listTemplates(userId: string): Promise<Omit<TemplateRow, 'content'>[]>;
  /** A template the user may see, with its content; else null. */
  getTemplate(id: string, userId: string): Promise<TemplateRow | null>;
  /** Changes the owner's template; false when `ownerId` owns none of that id. */
  updateTemplate(
    id: string,
    ownerId: string,
    change: { name?: string | undefined; description?: string | undefined; shared?: boolean | undefined },
  ): Promise<boolean>;
  /** Deletes the owner's template; false when `ownerId` owns none of that id. */
  deleteTemplate(id: string, ownerId: string): Promise<boolean>;
}

export interface Store extends DocStore, HistoryStore, TemplateStore {
  /** Integrations and the answers kept for Idempotency-Key (docs/api.md §15). */
  readonly integrations: IntegrationRepository;
  /** Comments (docs/api.md §18), reached as `store.comments.…`: a resource of its own. */
  readonly comments: CommentStore;
  /** Webhooks, their deliveries and the changes waiting for board.updated (docs/api.md §15). */
  readonly webhooks: WebhookRepository;
  /** Creates or upgrades the schema. Safe to call from several instances at once. */
  migrate(): Promise<void>;
  /** Throws when the backing database cannot be reached (for /readyz). */
  ping(): Promise<void>;
  /**
   * Throws when a write cannot be committed although the database answers reads (disk full, a
   * read-only file or database, a replica after a failover): one committed no-op update of one
   * row, for /readyz.
   */
  probeWrite(): Promise<void>;
  /** loadDoc without putting an older server's entries in order: for the history worker, which does. */
  loadDocAsStored(boardId: string): Promise<StoredDoc>;
  close(): Promise<void>;

  createUser(user: Omit<UserRow, 'createdAt'>): Promise<UserRow>;
  /**
   * Turns a guest into a full account (same id, so every membership and board is kept). Answers
   * null when `id` is not a guest; throws EmailTakenError when the email is in use.
   */
  upgradeGuest(
    id: string,
    account: { name: string; email: string; passwordHash: string },
  ): Promise<UserRow | null>;
  getUser(id: string): Promise<UserRow | null>;
  /** The colour a person picked for themselves (docs/api.md §7); null when there is no such user. */
  setUserColor(id: string, color: string): Promise<UserRow | null>;
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
  /**
   * The access version of each board that exists and is not deleted (absent: deleted or unknown).
   * Every change that can take access away (a role changed, a member removed, the board deleted)
   * raises it, after the change.
   */
  accessVersions(boardIds: string[]): Promise<Map<string, number>>;
  /** Which of these session id hashes belong to sessions that exist and have not expired. */
  liveSessions(idHashes: string[]): Promise<Set<string>>;

  createLink(link: Omit<LinkRow, 'createdAt' | 'revokedAt'>): Promise<LinkRow>;
  /** Active (not revoked) links of a board, newest first. */
  listLinks(boardId: string): Promise<LinkRow[]>;
  /** A link whatever its state, or null. */
  getLink(token: string): Promise<LinkRow | null>;
  /** Revokes an active link of that board; false when there is none. */
  revokeLink(boardId: string, token: string): Promise<boolean>;

  /** Replaces the board's thumbnail; false (nothing stored) when the board is deleted or unknown. */
  putThumbnail(thumbnail: Omit<ThumbnailRow, 'updatedAt'>, at: Date): Promise<boolean>;
  /** The thumbnail of a board that is not deleted, or null. */
  getThumbnail(boardId: string): Promise<ThumbnailRow | null>;

  /** Starts a session; throws VoteSessionOpenError when the board already has an open one. */
  createVoteSession(session: Omit<VoteSessionRow, 'createdAt' | 'closedAt'>): Promise<VoteSessionRow>;
  /** The board's open session, else its most recently closed one, else null. */
  currentVoteSession(boardId: string): Promise<VoteSessionRow | null>;
  getVoteSession(sessionId: string): Promise<VoteSessionRow | null>;
  /**
   * Replaces one person's whole ballot (counts of 0 are dropped), only while the session is open:
   * false (and the previous ballot kept) when it is closed.
   */
  setBallot(sessionId: string, userId: string, votes: Record<string, number>): Promise<boolean>;
  /** One person's votes: shapeId → count. */
  getBallot(sessionId: string, userId: string): Promise<Record<string, number>>;
  /** How many people have at least one vote in the session and are still members of the board. */
  countVoters(sessionId: string): Promise<number>;
  /** Closes an open session; false when it was already closed (or never existed). */
  closeVoteSession(sessionId: string): Promise<boolean>;
  /** Total votes per shape from the ballots of people still members of the board, unsorted. */
  voteTotals(sessionId: string): Promise<{ shapeId: string; votes: number }[]>;
}
