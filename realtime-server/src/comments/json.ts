// Comment rows → the JSON of docs/api.md §18, the same for REST answers and socket.io events.
import {
  bodyExcerpt,
  type Comment,
  type Mention,
  type ThreadAnchor,
  type ThreadWithComments,
} from '@tandem/shared';
import type { CommentRow, MentionRow, ThreadRow } from '../store/store.ts';

export const toComment = (row: CommentRow): Comment => ({
  id: row.id,
  threadId: row.threadId,
  body: row.body,
  createdBy: row.createdBy,
  author: { id: row.createdBy, name: row.authorName, color: row.authorColor },
  createdAt: row.createdAt.toISOString(),
  editedAt: row.editedAt?.toISOString() ?? null,
});

const anchorOf = (row: ThreadRow): ThreadAnchor =>
  row.shapeId !== null ? { shapeId: row.shapeId } : { x: row.x ?? 0, y: row.y ?? 0 };

export const toThread = (row: ThreadRow, comments: CommentRow[]): ThreadWithComments => ({
  id: row.id,
  boardId: row.boardId,
  pageId: row.pageId,
  anchor: anchorOf(row),
  resolved: row.resolved,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  resolvedBy: row.resolvedBy,
  resolvedAt: row.resolvedAt?.toISOString() ?? null,
  comments: comments.map(toComment),
});

/** Threads with their comments, each thread's comments picked from one list. */
export function threadsWithComments(threads: ThreadRow[], comments: CommentRow[]): ThreadWithComments[] {
  const byThread = new Map<string, CommentRow[]>();
  for (const c of comments) {
    const list = byThread.get(c.threadId);
    if (list) list.push(c);
    else byThread.set(c.threadId, [c]);
  }
  return threads.map((t) => toThread(t, byThread.get(t.id) ?? []));
}

export const toMention = (row: MentionRow): Mention => ({
  boardId: row.boardId,
  boardTitle: row.boardTitle,
  threadId: row.threadId,
  commentId: row.commentId,
  by: row.by,
  at: row.createdAt.toISOString(),
  read: row.readAt !== null,
  excerpt: bodyExcerpt(row.body),
});
