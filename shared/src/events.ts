// The workspace socket (socket.io on WORKSPACE_PATH, docs/api.md §7): typed event maps shared by server and client so
// an event name is written once.
import type { Board } from './api.ts';
import type { MentionEvent, ThreadChanged, ThreadRemoved } from './comments.ts';
import type { PresenceUser } from './presence.ts';
import type { VotesChanged } from './votes.ts';

export type BoardPresence = Record<string, PresenceUser[]>;

export interface ServerToClientEvents {
  'board:changed': (payload: { board: Board }) => void;
  'board:removed': (payload: { boardId: string }) => void;
  'presence:boards': (payload: BoardPresence) => void;
  'members:changed': (payload: { boardId: string }) => void;
  /** A vote session of the board started, gained a voter, or closed (docs/api.md §14). */
  'votes:changed': (payload: VotesChanged) => void;
  /** A thread was created, replied to, edited or (un)resolved: the whole thread (docs/api.md §18). */
  'thread:changed': (payload: ThreadChanged) => void;
  'thread:removed': (payload: ThreadRemoved) => void;
  /** Someone mentioned me in a comment: to the mentioned user only. */
  mention: (payload: MentionEvent) => void;
  /**
   * Whether a board has a webhook turned off after a day of failed deliveries (docs/api.md §15),
   * told to the board's owner when it is turned off and when one is deleted: the dashboard's notice.
   */
  'webhooks:health': (payload: WebhookHealth) => void;
  /**
   * The board's owner undid this user's changes on a page ("Undo all of Ben's changes since…",
   * docs/api.md §12): to that user only, so the person whose work went is told who took it back.
   */
  'changes:undone': (payload: ChangesUndone) => void;
}

/**
 * Every event the server sends on the workspace channel: a record over ServerToClientEvents' keys,
 * so an event added there and not here fails the typecheck (the client would never hear it, and
 * docs/api.md §7 would not name it: a test reads this list).
 */
export const serverEventNames = Object.keys({
  'board:changed': true,
  'board:removed': true,
  'presence:boards': true,
  'members:changed': true,
  'votes:changed': true,
  'thread:changed': true,
  'thread:removed': true,
  mention: true,
  'webhooks:health': true,
  'changes:undone': true,
} satisfies Record<keyof ServerToClientEvents, true>) as (keyof ServerToClientEvents)[];

export interface ChangesUndone {
  boardId: string;
  /** The page whose changes were undone (`main` for the first page). */
  pageId: string;
  /** Who undid them (the board's owner). */
  by: { id: string; name: string };
  /** How many shapes the undo changed (added back, removed or set back). */
  changes: number;
  /** Changes made since this time (ISO) were undone. */
  since: string;
}

export interface WebhookHealth {
  boardId: string;
  disabled: boolean;
}

export interface ClientToServerEvents {
  /** Ask for a fresh `presence:boards` (for example after the board list changed). */
  'presence:refresh': () => void;
}

/** Every event a client may send on the workspace channel (as serverEventNames). */
export const clientEventNames = Object.keys({
  'presence:refresh': true,
} satisfies Record<keyof ClientToServerEvents, true>) as (keyof ClientToServerEvents)[];
