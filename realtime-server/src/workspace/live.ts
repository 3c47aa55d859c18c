// What REST changes announce live: to dashboards (socket.io) and to open document connections,
// on every instance.
import type {
  Board,
  ChangesUndone,
  MentionEvent,
  Role,
  ThreadChanged,
  ThreadRemoved,
  VotesChanged,
  WebhookHealth,
} from '@tandem/shared';

export interface LiveEvents {
  boardChanged(board: Board): void;
  /** The board was deleted: its connections close with 4404 and its members' dashboards drop it. */
  boardRemoved(boardId: string, memberIds: string[]): void;
  membersChanged(boardId: string): void;
  membershipAdded(boardId: string, userId: string): void;
  /** A member's role changed, or (null) the member was removed: their connections follow at once. */
  accessChanged(boardId: string, userId: string, role: Role | null): void;
  /** A session ended (logout): the document connections opened with it close, on every instance. */
  sessionEnded(sessionHash: string): void;
  /** A vote session started, gained a voter or closed: counts only, to the board's members. */
  votesChanged(payload: VotesChanged): void;
  /** A thread was created, replied to, edited or (un)resolved: the whole thread, to the board's members. */
  threadChanged(payload: ThreadChanged): void;
  threadRemoved(payload: ThreadRemoved): void;
  /** A comment mentions this user: to them only, on every instance (docs/api.md §18). */
  mentioned(userId: string, payload: MentionEvent): void;
  /** Whether the board has a webhook turned off: to its owner only, on every instance (§15). */
  webhookHealth(ownerId: string, payload: WebhookHealth): void;
  /** The owner undid this user's changes (docs/api.md §12): to them only, on every instance. */
  changesUndone(userId: string, payload: ChangesUndone): void;
}
