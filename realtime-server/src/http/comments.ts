// Comments and @mentions (docs/api.md §18): threads on a shape or a board point, replies, edits,
// resolution, deletion, and each user's mentions. Every change is announced on socket.io to the
// board's members (`thread:changed` / `thread:removed`, the whole thread each time) and a mention to
// the mentioned member only; a new comment also goes to CommentEvents (webhooks' seam).
import { randomBytes } from 'node:crypto';
import {
  CommentBody,
  canComment,
  type MentionsAnswer,
  MentionsReadBody,
  mentionedUserIds,
  type Role,
  ThreadCreateBody,
  ThreadPatchBody,
  type ThreadsAnswer,
  type ThreadWithComments,
} from '@tandem/shared';
import type { FastifyInstance } from 'fastify';
import type { HttpLimits } from '../auth/rateLimit.ts';
import type { CommentEvents } from '../comments/events.ts';
import { threadsWithComments, toComment, toMention, toThread } from '../comments/json.ts';
import type { CommentRow, Store, ThreadRow, UserRow } from '../store/store.ts';
import type { LiveEvents } from '../workspace/live.ts';
import { requireRole } from './access.ts';
import { forbidden, notFound } from './errors.ts';
import { parseBody, rateLimit, signedIn } from './request.ts';

export interface CommentsDeps {
  store: Store;
  live: LiveEvents;
  comments: CommentEvents;
  limits: HttpLimits;
}

/** 16 random bytes, base64url, like every other id: a malformed one is a plain 404. */
const newCommentId = (): string => randomBytes(16).toString('base64url');
const commentIdPattern = /^[A-Za-z0-9_-]{22}$/;
/** How many mentions `GET /api/me/mentions` answers, newest first. */
const MENTIONS_LISTED = 100;

type BoardParams = { Params: { id: string } };
type ThreadParams = { Params: { id: string; threadId: string } };
type CommentParams = { Params: { id: string; threadId: string; commentId: string } };

export async function commentRoutes(
  app: FastifyInstance,
  { store, live, comments: events, limits }: CommentsDeps,
): Promise<void> {
  // Per user, across boards: a flood from one person is refused while everyone else writes on.
  const writes = limits.commentWrites;

  /** The thread, only when it belongs to this board: another board's thread id is a 404. */
  async function threadOf(boardId: string, threadId: string): Promise<ThreadRow> {
    const thread = commentIdPattern.test(threadId) ? await store.comments.getThread(threadId) : null;
    if (!thread || thread.boardId !== boardId) throw notFound('thread');
    return thread;
  }
  async function commentOf(thread: ThreadRow, commentId: string): Promise<CommentRow> {
    const comment = commentIdPattern.test(commentId) ? await store.comments.getComment(commentId) : null;
    if (!comment || comment.threadId !== thread.id) throw notFound('comment');
    return comment;
  }
  async function requireCommenter(boardId: string, user: UserRow): Promise<{ id: string; role: Role }> {
    const { board, role } = await requireRole(store, boardId, user.id, 'viewer');
    if (!canComment(role)) throw forbidden('Viewers can read comments but not write them.');
    return { id: board.id, role };
  }
  /** The members a body mentions, the author excluded: nobody else is told. */
  async function mentionsIn(boardId: string, body: string, author: string): Promise<string[]> {
    const ids = mentionedUserIds(body).filter((id) => id !== author);
    if (ids.length === 0) return [];
    const members = new Set((await store.listMembers(boardId)).map((m) => m.userId));
    return ids.filter((id) => members.has(id));
  }
  async function fullThread(thread: ThreadRow): Promise<ThreadWithComments> {
    return toThread(thread, await store.comments.commentsOf([thread.id]));
  }
  /** Tells each newly mentioned member, wherever their dashboard or board is open. */
  function notify(
    thread: ThreadWithComments,
    comment: CommentRow,
    userIds: string[],
    boardTitle: string,
  ): void {
    const by = { id: comment.createdBy, name: comment.authorName, color: comment.authorColor };
    for (const userId of userIds) {
      live.mentioned(userId, {
        boardId: thread.boardId,
        threadId: thread.id,
        commentId: comment.id,
        by,
        mention: toMention({
          boardId: thread.boardId,
          boardTitle,
          threadId: thread.id,
          commentId: comment.id,
          body: comment.body,
          by,
          createdAt: comment.editedAt ?? comment.createdAt,
          readAt: null,
        }),
      });
    }
  }

  app.get<BoardParams>('/api/boards/:id/threads', async (request): Promise<ThreadsAnswer> => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, 'viewer');
    const threads = await store.comments.listThreads(board.id);
    const comments = await store.comments.commentsOf(threads.map((t) => t.id));
    return { threads: threadsWithComments(threads, comments) };
  });

  app.post<BoardParams>('/api/boards/:id/threads', async (request, reply) => {
    const user = signedIn(request);
    const board = await requireCommenter(request.params.id, user);
    const body = parseBody(ThreadCreateBody, request.body);
    await rateLimit(writes, user.id, reply);
    const threadId = newCommentId();
    const mentions = await mentionsIn(board.id, body.body, user.id);
    const anchor = 'shapeId' in body.anchor ? body.anchor : null;
    const point = 'x' in body.anchor ? body.anchor : null;
    const created = await store.comments.createThread(
      {
        id: threadId,
        boardId: board.id,
        pageId: body.pageId,
        shapeId: anchor?.shapeId ?? null,
        x: point?.x ?? null,
        y: point?.y ?? null,
        createdBy: user.id,
      },
      { id: newCommentId(), threadId, boardId: board.id, body: body.body, createdBy: user.id, mentions },
    );
    const thread = toThread(created.thread, [created.comment]);
    const comment = toComment(created.comment);
    live.threadChanged({ boardId: board.id, thread });
    if (mentions.length > 0) {
      const title = (await store.getBoard(board.id))?.title ?? '';
      notify(thread, created.comment, mentions, title);
    }
    events.created({ boardId: board.id, thread, comment, mentioned: mentions });
    return reply.code(201).send({ thread, comment });
  });

  app.patch<ThreadParams>('/api/boards/:id/threads/:threadId', async (request) => {
    const user = signedIn(request);
    const board = await requireCommenter(request.params.id, user);
    const thread = await threadOf(board.id, request.params.threadId);
    const body = parseBody(ThreadPatchBody, request.body);
    const changed = await store.comments.setResolved(thread.id, body.resolved, user.id);
    if (!changed) throw notFound('thread');
    const full = await fullThread(changed);
    live.threadChanged({ boardId: board.id, thread: full });
    return { thread: full };
  });

  app.delete<ThreadParams>('/api/boards/:id/threads/:threadId', async (request, reply) => {
    const user = signedIn(request);
    const board = await requireCommenter(request.params.id, user);
    const thread = await threadOf(board.id, request.params.threadId);
    if (board.role !== 'owner' && thread.createdBy !== user.id) {
      throw forbidden('Only the person who started this thread, or the board’s owner, can delete it.');
    }
    if (await store.comments.deleteThread(thread.id)) {
      live.threadRemoved({ boardId: board.id, threadId: thread.id });
    }
    return reply.code(204).send();
  });

  app.post<ThreadParams>('/api/boards/:id/threads/:threadId/comments', async (request, reply) => {
    const user = signedIn(request);
    const board = await requireCommenter(request.params.id, user);
    const thread = await threadOf(board.id, request.params.threadId);
    const body = parseBody(CommentBody, request.body);
    await rateLimit(writes, user.id, reply);
    const mentions = await mentionsIn(board.id, body.body, user.id);
    const row = await store.comments.addComment({
      id: newCommentId(),
      threadId: thread.id,
      boardId: board.id,
      body: body.body,
      createdBy: user.id,
      mentions,
    });
    // Deleted between the check and the write.
    if (!row) throw notFound('thread');
    const full = await fullThread(thread);
    const comment = toComment(row);
    live.threadChanged({ boardId: board.id, thread: full });
    if (mentions.length > 0) notify(full, row, mentions, (await store.getBoard(board.id))?.title ?? '');
    events.created({ boardId: board.id, thread: full, comment, mentioned: mentions });
    return reply.code(201).send({ comment });
  });

  app.patch<CommentParams>(
    '/api/boards/:id/threads/:threadId/comments/:commentId',
    async (request, reply) => {
      const user = signedIn(request);
      const board = await requireCommenter(request.params.id, user);
      const thread = await threadOf(board.id, request.params.threadId);
      const comment = await commentOf(thread, request.params.commentId);
      if (comment.createdBy !== user.id) throw forbidden('Only its author can edit a comment.');
      const body = parseBody(CommentBody, request.body);
      await rateLimit(writes, user.id, reply);
      const mentions = await mentionsIn(board.id, body.body, user.id);
      const edited = await store.comments.editComment(comment.id, body.body, mentions);
      if (!edited) throw notFound('comment');
      const full = await fullThread(thread);
      live.threadChanged({ boardId: board.id, thread: full });
      // Only the people this edit newly mentions are told; the others already were.
      if (edited.added.length > 0) {
        notify(full, edited.comment, edited.added, (await store.getBoard(board.id))?.title ?? '');
      }
      return { comment: toComment(edited.comment) };
    },
  );

  app.delete<CommentParams>(
    '/api/boards/:id/threads/:threadId/comments/:commentId',
    async (request, reply) => {
      const user = signedIn(request);
      const { board, role } = await requireRole(store, request.params.id, user.id, 'viewer');
      const thread = await threadOf(board.id, request.params.threadId);
      const comment = await commentOf(thread, request.params.commentId);
      const mayDelete = role === 'owner' || (comment.createdBy === user.id && canComment(role));
      if (!mayDelete) throw forbidden('Only its author, or the board’s owner, can delete a comment.');
      await store.comments.deleteComment(comment.id);
      const left = await store.comments.commentsOf([thread.id]);
      if (left.length === 0) {
        // A thread with no comment left has nothing to show: it goes too.
        await store.comments.deleteThread(thread.id);
        live.threadRemoved({ boardId: board.id, threadId: thread.id });
      } else {
        const now = await store.comments.getThread(thread.id);
        if (now) live.threadChanged({ boardId: board.id, thread: toThread(now, left) });
      }
      return reply.code(204).send();
    },
  );

  app.get('/api/me/mentions', async (request): Promise<MentionsAnswer> => {
    const user = signedIn(request);
    const rows = await store.comments.mentionsFor(user.id, MENTIONS_LISTED);
    return { mentions: rows.map(toMention) };
  });

  app.post('/api/me/mentions/read', async (request) => {
    const user = signedIn(request);
    const body = parseBody(MentionsReadBody, request.body);
    const updated = await store.comments.markMentionsRead(user.id, body.boardId, body.threadId ?? null);
    return { updated };
  });
}
