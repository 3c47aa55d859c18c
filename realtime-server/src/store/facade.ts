// The Store as callers see it: one flat interface (store.ts) kept as a facade, delegating each
// method to a repository composed over the engine's `sql` executor (one per resource: users,
// sessions, boards, members, links, thumbnails, votes, history, comments) or to the engine itself (what
// differs per database: migrating, probing, closing, and the document log's transactions).
// The flat interface stays because some fifty call sites across http/, documents/, history/ and
// workspace/ use it, several of them being changed by others at the same time; a caller may
// reach a repository directly (store.users.get) where that reads better.
import type { BoardListItem, Member, Role } from '@tandem/shared';
import { withOrderedDeletes } from '../documents/updates.ts';
import { BoardRepository } from './boards.ts';
import { CommentRepository } from './comments.ts';
import { HistoryRepository } from './history.ts';
import { IntegrationRepository } from './integrations.ts';
import { LinkRepository } from './links.ts';
import { MemberRepository } from './members.ts';
import type { Dialect } from './migrations.ts';
import { SessionRepository } from './sessions.ts';
import type { Sql } from './sql.ts';
import type { DocStore, Store } from './store.ts';
import { TemplateRepository } from './templates.ts';
import { ThumbnailRepository } from './thumbnails.ts';
import type {
  BoardRow,
  DocEntry,
  LinkRow,
  LogEntry,
  LogSize,
  MergeParts,
  PastRevert,
  SessionRow,
  StoredDoc,
  StoredVersion,
  TemplateRow,
  ThumbnailRow,
  UserBadge,
  UserRow,
  VersionRow,
  VoteSessionRow,
} from './types.ts';
import { UserRepository } from './users.ts';
import { VoteRepository } from './votes.ts';
import { WebhookRepository } from './webhooks.ts';

/** What each database does its own way (sqlite.ts, postgres.ts); logSince is one query for both (history.ts). */
export interface Engine extends Omit<DocStore, 'logSince'> {
  readonly dialect: Dialect;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  probeWrite(): Promise<void>;
  close(): Promise<void>;
}

export class SqlStore implements Store {
  readonly users: UserRepository;
  readonly sessions: SessionRepository;
  readonly boards: BoardRepository;
  readonly members: MemberRepository;
  readonly links: LinkRepository;
  readonly thumbnails: ThumbnailRepository;
  readonly votes: VoteRepository;
  readonly history: HistoryRepository;
  readonly integrations: IntegrationRepository;
  readonly templates: TemplateRepository;
  readonly comments: CommentRepository;
  readonly webhooks: WebhookRepository;

  constructor(
    sql: Sql,
    private readonly engine: Engine,
  ) {
    this.users = new UserRepository(sql);
    this.sessions = new SessionRepository(sql);
    this.boards = new BoardRepository(sql);
    this.members = new MemberRepository(sql);
    this.links = new LinkRepository(sql);
    this.thumbnails = new ThumbnailRepository(sql);
    this.votes = new VoteRepository(sql);
    this.history = new HistoryRepository(sql);
    this.integrations = new IntegrationRepository(sql);
    this.templates = new TemplateRepository(sql);
    this.comments = new CommentRepository(sql);
    this.webhooks = new WebhookRepository(sql, engine.dialect);
  }

  // The engine.
  migrate(): Promise<void> {
    return this.engine.migrate();
  }
  ping(): Promise<void> {
    return this.engine.ping();
  }
  probeWrite(): Promise<void> {
    return this.engine.probeWrite();
  }
  close(): Promise<void> {
    return this.engine.close();
  }
  async loadDoc(boardId: string): Promise<StoredDoc> {
    const stored = await this.engine.loadDoc(boardId);
    return { ...stored, updates: stored.updates.map(withOrderedDeletes) };
  }
  /**
   * The board as stored, its entries not put in order: for a caller that applies them in the
   * history worker, which does (history/board.ts, docOfParts). Walking a big board's entries here
   * held the main thread for each export.json of a board nobody had open.
   */
  loadDocAsStored(boardId: string): Promise<StoredDoc> {
    return this.engine.loadDoc(boardId);
  }
  append(boardId: string, entries: DocEntry[]): Promise<LogSize> {
    return this.engine.append(boardId, entries);
  }
  logHeads(keys: readonly string[]): Promise<Map<string, number>> {
    return this.engine.logHeads(keys);
  }
  compact(boardId: string, merge: MergeParts): Promise<void> {
    return this.engine.compact(boardId, merge);
  }

  // Users and sessions.
  createUser(user: Omit<UserRow, 'createdAt'>): Promise<UserRow> {
    return this.users.create(user);
  }
  upgradeGuest(
    id: string,
    account: { name: string; email: string; passwordHash: string },
  ): Promise<UserRow | null> {
    return this.users.upgradeGuest(id, account);
  }
  setUserColor(id: string, color: string): Promise<UserRow | null> {
    return this.users.setColor(id, color);
  }
  getUser(id: string): Promise<UserRow | null> {
    return this.users.get(id);
  }
  getUserByEmail(email: string): Promise<UserRow | null> {
    return this.users.getByEmail(email);
  }
  userBadges(ids: string[]): Promise<UserBadge[]> {
    return this.users.badges(ids);
  }
  createSession(session: SessionRow): Promise<void> {
    return this.sessions.create(session);
  }
  getSession(idHash: string): Promise<SessionRow | null> {
    return this.sessions.get(idHash);
  }
  extendSession(idHash: string, expiresAt: Date): Promise<void> {
    return this.sessions.extend(idHash, expiresAt);
  }
  deleteSession(idHash: string): Promise<void> {
    return this.sessions.delete(idHash);
  }
  liveSessions(idHashes: string[]): Promise<Set<string>> {
    return this.sessions.live(idHashes);
  }

  // Boards, memberships and links.
  createBoard(board: { id: string; title: string; ownerId: string }): Promise<BoardRow> {
    return this.boards.create(board);
  }
  getBoard(id: string): Promise<BoardRow | null> {
    return this.boards.get(id);
  }
  renameBoard(id: string, title: string): Promise<BoardRow | null> {
    return this.boards.rename(id, title);
  }
  deleteBoard(id: string): Promise<void> {
    return this.boards.delete(id);
  }
  touchBoard(id: string, at: Date): Promise<void> {
    return this.boards.touch(id, at);
  }
  listBoards(userId: string): Promise<BoardListItem[]> {
    return this.boards.listFor(userId);
  }
  accessVersions(boardIds: string[]): Promise<Map<string, number>> {
    return this.boards.accessVersions(boardIds);
  }
  getRole(boardId: string, userId: string): Promise<Role | null> {
    return this.members.role(boardId, userId);
  }
  listMembers(boardId: string): Promise<Member[]> {
    return this.members.list(boardId);
  }
  setRole(boardId: string, userId: string, role: Role): Promise<boolean> {
    return this.members.setRole(boardId, userId, role);
  }
  grantAtLeast(boardId: string, userId: string, role: Role): Promise<Role> {
    return this.members.grantAtLeast(boardId, userId, role);
  }
  removeMember(boardId: string, userId: string): Promise<boolean> {
    return this.members.remove(boardId, userId);
  }
  createLink(link: Omit<LinkRow, 'createdAt' | 'revokedAt'>): Promise<LinkRow> {
    return this.links.create(link);
  }
  listLinks(boardId: string): Promise<LinkRow[]> {
    return this.links.list(boardId);
  }
  getLink(token: string): Promise<LinkRow | null> {
    return this.links.get(token);
  }
  revokeLink(boardId: string, token: string): Promise<boolean> {
    return this.links.revoke(boardId, token);
  }

  // Thumbnails.
  putThumbnail(thumbnail: Omit<ThumbnailRow, 'updatedAt'>, at: Date): Promise<boolean> {
    return this.thumbnails.put(thumbnail, at);
  }
  getThumbnail(boardId: string): Promise<ThumbnailRow | null> {
    return this.thumbnails.get(boardId);
  }

  // Dot voting.
  createVoteSession(session: Omit<VoteSessionRow, 'createdAt' | 'closedAt'>): Promise<VoteSessionRow> {
    return this.votes.createSession(session);
  }
  currentVoteSession(boardId: string): Promise<VoteSessionRow | null> {
    return this.votes.currentSession(boardId);
  }
  getVoteSession(sessionId: string): Promise<VoteSessionRow | null> {
    return this.votes.getSession(sessionId);
  }
  setBallot(sessionId: string, userId: string, votes: Record<string, number>): Promise<boolean> {
    return this.votes.setBallot(sessionId, userId, votes);
  }
  getBallot(sessionId: string, userId: string): Promise<Record<string, number>> {
    return this.votes.getBallot(sessionId, userId);
  }
  countVoters(sessionId: string): Promise<number> {
    return this.votes.countVoters(sessionId);
  }
  closeVoteSession(sessionId: string): Promise<boolean> {
    return this.votes.closeSession(sessionId);
  }
  voteTotals(sessionId: string): Promise<{ shapeId: string; votes: number }[]> {
    return this.votes.totals(sessionId);
  }

  // Saved templates.
  createTemplate(template: Omit<TemplateRow, 'createdAt' | 'ownerName'>): Promise<void> {
    return this.templates.create(template);
  }
  listTemplates(userId: string): Promise<Omit<TemplateRow, 'content'>[]> {
    return this.templates.listVisible(userId);
  }
  getTemplate(id: string, userId: string): Promise<TemplateRow | null> {
    return this.templates.getVisible(id, userId);
  }
  updateTemplate(
    id: string,
    ownerId: string,
    change: { name?: string | undefined; description?: string | undefined; shared?: boolean | undefined },
  ): Promise<boolean> {
    return this.templates.update(id, ownerId, change);
  }
  deleteTemplate(id: string, ownerId: string): Promise<boolean> {
    return this.templates.delete(id, ownerId);
  }

  // Version history.
  /**
   * The log as stored: an entry of an older server may name its deletions out of clock order
   * (withOrderedDeletes), so what applies these updates to a doc puts them in order first — the
   * history's replays do, in its worker (history/board.ts). Read on the main thread, walking every
   * entry of a long log held the event loop (133 ms when a 20,000-edit board's version was
   * recorded); the integrations' change feed only reads which shapes an entry touches.
   */
  logSince(boardId: string, afterSeq: number, limit?: number): Promise<LogEntry[]> {
    return this.history.logSince(boardId, afterSeq, limit);
  }
  lastSeq(boardId: string): Promise<number> {
    return this.history.lastSeq(boardId);
  }
  insertVersion(version: StoredVersion, ifNewerThan?: boolean): Promise<boolean> {
    return this.history.insertVersion(version, ifNewerThan);
  }
  latestVersion(boardId: string): Promise<StoredVersion | null> {
    return this.history.latestVersion(boardId);
  }
  getVersion(boardId: string, id: string): Promise<StoredVersion | null> {
    return this.history.getVersion(boardId, id);
  }
  deleteVersion(boardId: string, id: string): Promise<boolean> {
    return this.history.deleteVersion(boardId, id);
  }
  versionAtOrBefore(boardId: string, at: Date): Promise<StoredVersion | null> {
    return this.history.versionAtOrBefore(boardId, at);
  }
  listVersions(boardId: string, before: string | null, limit: number): Promise<VersionRow[]> {
    return this.history.listVersions(boardId, before, limit);
  }
  revertsOf(boardId: string, userId: string): Promise<PastRevert[]> {
    return this.history.revertsOf(boardId, userId);
  }
  versionAssets(boardId: string): Promise<string[]> {
    return this.history.versionAssets(boardId);
  }
  thinHistory(boardId: string, cutoff: Date): Promise<{ versions: number; entries: number }> {
    return this.history.thin(boardId, cutoff);
  }
}
