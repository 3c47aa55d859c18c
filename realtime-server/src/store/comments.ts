// Comment threads, comments and mentions (docs/api.md §18), each query written once for both
// engines over their `sql` executor.
import { toComment, toMention, toThread } from './rows.ts';
import { inLists, type Query, type Sql, sql } from './sql.ts';
import type { CommentStore } from './store.ts';
import type { CommentRow, MentionRow, NewComment, NewThread, ThreadRow } from './types.ts';

const commentsWithAuthors = (where: Query): Query =>
  sql`SELECT c.*, u.name AS author_name, u.color AS author_color
      FROM comments c JOIN users u ON u.id = c.created_by
      WHERE ${where}
      ORDER BY c.n`;

const insertMentions = (comment: NewComment, userIds: string[], at: Date): Query[] =>
  userIds.map(
    (userId) =>
      sql`INSERT INTO comment_mentions (comment_id, user_id, board_id, thread_id, by_user, created_at)
          SELECT ${comment.id}, ${userId}, ${comment.boardId}, ${comment.threadId}, ${comment.createdBy}, ${at}
          WHERE EXISTS (SELECT 1 FROM comments WHERE id = ${comment.id})
          ON CONFLICT (comment_id, user_id) DO NOTHING`,
  );

export class CommentRepository implements CommentStore {
  constructor(private readonly sql: Sql) {}

  /** A thread and its first comment (and its mentions), in one transaction. */
  async createThread(
    thread: NewThread,
    first: NewComment,
  ): Promise<{ thread: ThreadRow; comment: CommentRow }> {
    const at = new Date();
    await this.sql.batch([
      sql`INSERT INTO comment_threads (id, board_id, page_id, shape_id, x, y, resolved, created_by, created_at)
          VALUES (${thread.id}, ${thread.boardId}, ${thread.pageId}, ${thread.shapeId}, ${thread.x},
                  ${thread.y}, ${false}, ${thread.createdBy}, ${at})`,
      sql`INSERT INTO comments (id, thread_id, board_id, body, created_by, created_at)
          VALUES (${first.id}, ${thread.id}, ${thread.boardId}, ${first.body}, ${first.createdBy}, ${at})`,
      ...insertMentions(first, first.mentions, at),
    ]);
    const comment = await this.getComment(first.id);
    if (!comment) throw new Error('a comment just written is missing');
    return {
      thread: { ...thread, resolved: false, resolvedBy: null, resolvedAt: null, createdAt: at },
      comment,
    };
  }

  async getThread(threadId: string): Promise<ThreadRow | null> {
    const r = await this.sql.one(sql`SELECT * FROM comment_threads WHERE id = ${threadId}`);
    return r ? toThread(r) : null;
  }

  /** The board's threads, oldest first. */
  async listThreads(boardId: string): Promise<ThreadRow[]> {
    const rows = await this.sql.all(
      sql`SELECT * FROM comment_threads WHERE board_id = ${boardId} ORDER BY n`,
    );
    return rows.map(toThread);
  }

  /** The comments of these threads, each thread's oldest first. */
  async commentsOf(threadIds: string[]): Promise<CommentRow[]> {
    const out: CommentRow[] = [];
    for (const ids of inLists(threadIds)) {
      const rows = await this.sql.all(commentsWithAuthors(sql`c.thread_id IN (${ids})`));
      out.push(...rows.map(toComment));
    }
    return out;
  }

  /** Resolves or reopens a thread; null when there is no such thread. */
  async setResolved(threadId: string, resolved: boolean, by: string): Promise<ThreadRow | null> {
    const at = resolved ? new Date() : null;
    const r = await this.sql.one(
      sql`UPDATE comment_threads SET resolved = ${resolved}, resolved_by = ${resolved ? by : null},
            resolved_at = ${at}
          WHERE id = ${threadId} RETURNING *`,
    );
    return r ? toThread(r) : null;
  }

  /** Deletes a thread with its comments and their mentions; false when there was none. */
  async deleteThread(threadId: string): Promise<boolean> {
    return (await this.sql.run(sql`DELETE FROM comment_threads WHERE id = ${threadId}`)) > 0;
  }

  /** Adds a comment to a thread; null (nothing stored) when the thread is gone. */
  async addComment(comment: NewComment): Promise<CommentRow | null> {
    const at = new Date();
    await this.sql.batch([
      // INSERT … SELECT: a thread deleted meanwhile stores nothing, rather than failing on the key.
      sql`INSERT INTO comments (id, thread_id, board_id, body, created_by, created_at)
          SELECT ${comment.id}, ${comment.threadId}, ${comment.boardId}, ${comment.body}, ${comment.createdBy}, ${at}
          WHERE EXISTS (SELECT 1 FROM comment_threads WHERE id = ${comment.threadId})`,
      ...insertMentions(comment, comment.mentions, at),
    ]);
    return this.getComment(comment.id);
  }

  async getComment(commentId: string): Promise<CommentRow | null> {
    const r = await this.sql.one(commentsWithAuthors(sql`c.id = ${commentId}`));
    return r ? toComment(r) : null;
  }

  /**
   * Replaces a comment's body. Mentions follow the new text: people no longer mentioned lose
   * theirs, people newly mentioned get one. Answers the comment and who was newly mentioned;
   * null when there is no such comment.
   */
  async editComment(
    commentId: string,
    body: string,
    mentions: string[],
  ): Promise<{ comment: CommentRow; added: string[] } | null> {
    const before = await this.getComment(commentId);
    if (!before) return null;
    const had = new Set(
      (await this.sql.all(sql`SELECT user_id FROM comment_mentions WHERE comment_id = ${commentId}`)).map(
        (r) => r.user_id as string,
      ),
    );
    const added = mentions.filter((id) => !had.has(id));
    const removed = [...had].filter((id) => !mentions.includes(id));
    const at = new Date();
    const written: NewComment = { ...before, mentions: added };
    await this.sql.batch([
      sql`UPDATE comments SET body = ${body}, edited_at = ${at} WHERE id = ${commentId}`,
      ...removed.map(
        (userId) => sql`DELETE FROM comment_mentions WHERE comment_id = ${commentId} AND user_id = ${userId}`,
      ),
      ...insertMentions(written, added, at),
    ]);
    const comment = await this.getComment(commentId);
    return comment ? { comment, added } : null;
  }

  /** Deletes one comment and its mentions; false when there was none. */
  async deleteComment(commentId: string): Promise<boolean> {
    return (await this.sql.run(sql`DELETE FROM comments WHERE id = ${commentId}`)) > 0;
  }

  /**
   * The user's mentions, newest first, on boards that exist and that they are still a member of
   * (a mention never outlives the access that lets its reader open it).
   */
  async mentionsFor(userId: string, limit: number): Promise<MentionRow[]> {
    const rows = await this.sql.all(
      sql`SELECT cm.board_id, b.title AS board_title, cm.thread_id, cm.comment_id, c.body, cm.by_user,
                 u.name AS by_name, u.color AS by_color, cm.created_at, cm.read_at
          FROM comment_mentions cm
          JOIN comments c ON c.id = cm.comment_id
          JOIN boards b ON b.id = cm.board_id AND b.deleted_at IS NULL
          JOIN memberships m ON m.board_id = cm.board_id AND m.user_id = cm.user_id
          JOIN users u ON u.id = cm.by_user
          WHERE cm.user_id = ${userId}
          ORDER BY cm.created_at DESC, cm.comment_id
          LIMIT ${limit}`,
    );
    return rows.map(toMention);
  }

  /** Marks the user's mentions in one thread, or on a whole board, read; answers how many changed. */
  async markMentionsRead(userId: string, boardId: string, threadId: string | null): Promise<number> {
    const inThread = threadId === null ? sql`1 = 1` : sql`thread_id = ${threadId}`;
    return this.sql.run(
      sql`UPDATE comment_mentions SET read_at = ${new Date()}
          WHERE user_id = ${userId} AND board_id = ${boardId} AND ${inThread} AND read_at IS NULL`,
    );
  }
}
