// What happens to comments, told to whoever listens, from the one place that writes them
// (http/comments.ts). The live socket.io events are sent there directly; this is the seam for
// everything else that reacts to a new comment — webhooks' `comment.created` (docs/api.md §15)
// subscribe here once they exist, without the comment routes knowing about them.
import type { Comment, ThreadWithComments } from '@tandem/shared';
import type { Logger } from 'pino';

export interface CommentCreated {
  boardId: string;
  thread: ThreadWithComments;
  comment: Comment;
  /** Members the comment mentions (the author excluded). */
  mentioned: string[];
}

export type CommentCreatedListener = (event: CommentCreated) => void;

export class CommentEvents {
  private readonly createdListeners = new Set<CommentCreatedListener>();

  constructor(private readonly log: Logger) {}

  /** Listens to every comment written on this instance (a new thread's first one included). */
  onCreated(listener: CommentCreatedListener): () => void {
    this.createdListeners.add(listener);
    return () => this.createdListeners.delete(listener);
  }

  created(event: CommentCreated): void {
    // A listener's failure is its own: the comment is stored and answered all the same.
    for (const listener of this.createdListeners) {
      try {
        listener(event);
      } catch (error) {
        this.log.warn({ err: error, boardId: event.boardId }, 'a comment.created listener failed');
      }
    }
  }
}
