// Turns database rows (snake_case, dialect-specific types) into the Store's row types. SQLite
// hands back epoch milliseconds and 0/1, PostgreSQL Dates and booleans; both land here.
import type { BoardListItem, Member, Role } from '@tandem/shared';
import type {
  BoardRow,
  CommentRow,
  IntegrationRow,
  LinkRow,
  MentionRow,
  SessionRow,
  ThreadRow,
  UserRow,
  VoteSessionRow,
} from './types.ts';

export type Row = Record<string, unknown>;

export const time = (v: unknown): Date => (v instanceof Date ? v : new Date(Number(v)));
export const timeOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : time(v));
const iso = (v: unknown): string => time(v).toISOString();
const bool = (v: unknown): boolean => v === true || v === 1;
const str = (v: unknown): string => v as string;
const strOrNull = (v: unknown): string | null => (v as string | null | undefined) ?? null;

export const toUser = (r: Row): UserRow => ({
  id: str(r.id),
  name: str(r.name),
  email: strOrNull(r.email),
  passwordHash: strOrNull(r.password_hash),
  color: str(r.color),
  isGuest: bool(r.is_guest),
  createdAt: time(r.created_at),
});

export const toSession = (r: Row): SessionRow => ({
  idHash: str(r.id_hash),
  userId: str(r.user_id),
  createdAt: time(r.created_at),
  expiresAt: time(r.expires_at),
});

export const toBoard = (r: Row): BoardRow => ({
  id: str(r.id),
  title: str(r.title),
  ownerId: str(r.owner_id),
  createdAt: time(r.created_at),
  updatedAt: time(r.updated_at),
  deletedAt: timeOrNull(r.deleted_at),
});

export const toLink = (r: Row): LinkRow => ({
  token: str(r.token),
  boardId: str(r.board_id),
  role: r.role as LinkRow['role'],
  createdBy: str(r.created_by),
  createdAt: time(r.created_at),
  revokedAt: timeOrNull(r.revoked_at),
});

/** From `SELECT b.id, b.title, m.role, o.name AS owner_name, b.updated_at`. */
export const toBoardListItem = (r: Row): BoardListItem => ({
  id: str(r.id),
  title: str(r.title),
  role: r.role as Role,
  ownerName: str(r.owner_name),
  updatedAt: iso(r.updated_at),
  thumbnailAt: r.thumbnail_at === null || r.thumbnail_at === undefined ? null : iso(r.thumbnail_at),
  ...(Number(r.webhook_disabled) === 1 ? { webhookDisabled: true as const } : {}),
});

/** From `SELECT u.id, u.name, u.email, u.color, u.is_guest, m.role, m.created_at[, is_bot]`. */
export const toMember = (r: Row): Member => ({
  userId: str(r.id),
  name: str(r.name),
  email: strOrNull(r.email),
  color: str(r.color),
  isGuest: bool(r.is_guest),
  role: r.role as Role,
  createdAt: iso(r.created_at),
  // Only on an integration's identity, so a person's member record is as it always was.
  ...(bool(r.is_bot) ? { isBot: true as const } : {}),
});

/** Owner first, then in the order people joined. */
export const memberOrder = "CASE WHEN m.role = 'owner' THEN 0 ELSE 1 END, m.created_at, u.id";

export const toVoteSession = (r: Row): VoteSessionRow => ({
  id: str(r.id),
  boardId: str(r.board_id),
  votesPerPerson: Number(r.votes_per_person),
  startedBy: str(r.started_by),
  createdAt: time(r.created_at),
  closedAt: timeOrNull(r.closed_at),
});

/** From `SELECT i.*, u.name, u.color, m.role` (integrations joined with its user and membership). */
export const toIntegration = (r: Row): IntegrationRow => ({
  id: str(r.id),
  boardId: str(r.board_id),
  userId: str(r.user_id),
  name: str(r.name),
  color: str(r.color),
  role: (r.role as Role | null | undefined) ?? null,
  frameId: strOrNull(r.frame_id),
  createdBy: str(r.created_by),
  createdAt: time(r.created_at),
  lastUsedAt: timeOrNull(r.last_used_at),
  revokedAt: timeOrNull(r.revoked_at),
});

const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export const toThread = (r: Row): ThreadRow => ({
  id: str(r.id),
  boardId: str(r.board_id),
  pageId: str(r.page_id),
  shapeId: strOrNull(r.shape_id),
  x: numOrNull(r.x),
  y: numOrNull(r.y),
  resolved: bool(r.resolved),
  resolvedBy: strOrNull(r.resolved_by),
  resolvedAt: timeOrNull(r.resolved_at),
  createdBy: str(r.created_by),
  createdAt: time(r.created_at),
});

/** From `SELECT c.*, u.name AS author_name, u.color AS author_color`. */
export const toComment = (r: Row): CommentRow => ({
  id: str(r.id),
  threadId: str(r.thread_id),
  boardId: str(r.board_id),
  body: str(r.body),
  createdBy: str(r.created_by),
  authorName: str(r.author_name),
  authorColor: str(r.author_color),
  createdAt: time(r.created_at),
  editedAt: timeOrNull(r.edited_at),
});

export const toMention = (r: Row): MentionRow => ({
  boardId: str(r.board_id),
  boardTitle: str(r.board_title),
  threadId: str(r.thread_id),
  commentId: str(r.comment_id),
  body: str(r.body),
  by: { id: str(r.by_user), name: str(r.by_name), color: str(r.by_color) },
  createdAt: time(r.created_at),
  readAt: timeOrNull(r.read_at),
});
