// The Store's row types and errors, in one module that imports nothing of the store's: the
// Store interface (store.ts), the repositories and the engines all import from here, so no
// import ever points back at an implementation (the lint's noImportCycles rule keeps it so).
import type { LinkRole, Role, VersionStats, WebhookEvent } from '@tandem/shared';

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

export interface ThumbnailRow {
  boardId: string;
  mime: string;
  width: number;
  height: number;
  data: Uint8Array;
  updatedAt: Date;
}

/** An integration (docs/api.md §15) with the name, colour and role of its identity. */
export interface IntegrationRow {
  id: string;
  boardId: string;
  /** Its identity: a users row and a membership of the board. */
  userId: string;
  name: string;
  color: string;
  /** Its membership's role; null once the membership is gone (revoked, or removed as a member). */
  role: Role | null;
  frameId: string | null;
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** What a retried write with the same Idempotency-Key is answered (status null: still being made). */
export interface IdempotentAnswer {
  status: number | null;
  body: string | null;
}

/** A comment thread (docs/api.md §18): anchored to a shape, or to a point when shapeId is null. */
export interface ThreadRow {
  id: string;
  boardId: string;
  pageId: string;
  shapeId: string | null;
  x: number | null;
  y: number | null;
  resolved: boolean;
  resolvedBy: string | null;
  resolvedAt: Date | null;
  createdBy: string;
  createdAt: Date;
}

export type NewThread = Omit<ThreadRow, 'createdAt' | 'resolved' | 'resolvedBy' | 'resolvedAt'>;

/** A comment as it is written: who is mentioned in it is decided by the caller. */
export interface NewComment {
  id: string;
  threadId: string;
  boardId: string;
  body: string;
  createdBy: string;
  /** Users to notify (members of the board other than the author). */
  mentions: string[];
}

export interface CommentRow {
  id: string;
  threadId: string;
  boardId: string;
  body: string;
  createdBy: string;
  /** The author's name and colour as they are now. */
  authorName: string;
  authorColor: string;
  createdAt: Date;
  editedAt: Date | null;
}

/** One mention of a user, with what the dashboard shows of it. */
export interface MentionRow {
  boardId: string;
  boardTitle: string;
  threadId: string;
  commentId: string;
  body: string;
  by: { id: string; name: string; color: string };
  createdAt: Date;
  readAt: Date | null;
}

/** A dot-voting session (docs/api.md §14). */
export interface VoteSessionRow {
  id: string;
  boardId: string;
  votesPerPerson: number;
  startedBy: string;
  createdAt: Date;
  closedAt: Date | null;
}

/** A board's stored content: the compacted snapshot (if any) followed by the log appended since. */
export interface StoredDoc {
  snapshot: Uint8Array | null;
  updates: Uint8Array[];
}

/** A stored board as the list of updates that rebuild it: the snapshot first, then the log. */
export function partsOf(stored: StoredDoc): Uint8Array[] {
  return stored.snapshot ? [stored.snapshot, ...stored.updates] : stored.updates;
}

/**
 * One batch of a board's updates as it is appended: who sent it (the user of the connection it
 * came from; null when unknown, e.g. a difference repaired between instances) and when it was
 * received. Version history (docs/api.md §12) reads this attribution.
 */
export interface DocEntry {
  update: Uint8Array;
  userId: string | null;
  at: Date;
}

/** How compaction merges a board's snapshot and log: in place, or off the main thread (a promise). */
export type MergeParts = (parts: Uint8Array[]) => Uint8Array | Promise<Uint8Array>;

/** Size of a board's stored content after an append, so the caller can decide to compact. */
export interface LogSize {
  entries: number;
  bytes: number;
  /** Snapshot plus log, in bytes. */
  totalBytes: number;
}

export type VersionKind = 'auto' | 'named' | 'restore' | 'revert';

/** A version (docs/api.md §12): a board's whole content at a log position, with its authors and stats. */
export interface VersionRow {
  id: string;
  boardId: string;
  /** The last log entry the version holds (0: none). */
  seq: number;
  createdAt: Date;
  label: string | null;
  kind: VersionKind;
  /** Ids of the users whose entries this version added since the one before. */
  authors: string[];
  /** Who asked for it (a named version, a restore, a revert); null for automatic ones. */
  createdBy: string | null;
  stats: VersionStats;
}

/** What a revert undid: `userId`'s edits at or after `since`, up to the revert's log position. */
export interface RevertedEdits {
  userId: string;
  since: Date;
}

/** A revert of `userId`'s edits as stored: its version's log position and since when it undid. */
export interface PastRevert {
  since: Date;
  seq: number;
}

/** A version with the board as it was: a Yjs update holding the whole doc. */
export interface StoredVersion extends VersionRow {
  data: Uint8Array;
  /** A revert's version: whose edits it undid, and since when. */
  reverted?: RevertedEdits | null;
  /** Ids of the images its shapes show, so the image clean-up keeps them (docs/api.md §13). */
  assets: string[];
}

/** One attributed entry of a board's log, with its position. */
export interface LogEntry {
  seq: number;
  update: Uint8Array;
  userId: string | null;
  at: Date;
}

export interface UserBadge {
  id: string;
  name: string;
  color: string;
}

/** Thrown by createVoteSession when the board already has an open session. */
export class VoteSessionOpenError extends Error {
  constructor() {
    super('a vote session is already open');
    this.name = 'VoteSessionOpenError';
  }
}

/** Thrown by createUser when the email is already in use. */
export class EmailTakenError extends Error {
  constructor() {
    super('email taken');
    this.name = 'EmailTakenError';
  }
}

/** Thrown when content is appended to a board that is deleted (or never existed): nothing was stored. */
export class BoardGoneError extends Error {
  constructor(readonly boardId: string) {
    super(`board ${boardId} is deleted`);
    this.name = 'BoardGoneError';
  }
}

/** A saved template (docs/api.md §19); `content` is the §10 JSON as stored text. */
export interface TemplateRow {
  id: string;
  ownerId: string;
  ownerName: string;
  name: string;
  description: string;
  content: string;
  shapeCount: number;
  shared: boolean;
  createdAt: Date;
}

/** A board's webhook (docs/api.md §15); `events` as the owner chose them. */
export interface WebhookRow {
  id: string;
  boardId: string;
  url: string;
  events: WebhookEvent[];
  /** The HMAC key its deliveries are signed with. */
  secret: string;
  createdBy: string;
  createdAt: Date;
  /** The first failure since its last success, or null. */
  failingSince: Date | null;
  disabledAt: Date | null;
}

/** One event for one webhook: its body as it is signed and sent, and where its sending stands. */
export interface DeliveryRow {
  id: string;
  webhookId: string;
  boardId: string;
  eventId: string;
  type: WebhookEvent;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  createdAt: Date;
  nextAt: Date;
  lastAttemptAt: Date | null;
  responseStatus: number | null;
  error: string | null;
  durationMs: number | null;
}
