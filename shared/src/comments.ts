// Comments and @mentions (docs/api.md §18): the REST bodies and answers, the socket.io payloads,
// and the one reading of a comment's text (mentions and links) that the server (who is notified)
// and the client (what is shown) share. Threads live in the Store, never in the board's Yjs
// document: they have authors, edits, resolution and notifications to authorize.
import { z } from 'zod';
import { limits } from './limits.ts';
import { withThousands } from './numbers.ts';
import { MAIN_PAGE_ID, pageIdPattern } from './pages.ts';

const finite = z.number({ error: 'A position is a number.' }).finite({ error: 'A position is a number.' });
/** A shape id as the board document spells it (docs/api.md §10: at most 64 characters). */
const shapeId = z.string({ error: 'Name the shape.' }).min(1).max(64);

/** Where a thread sits: on a shape (its pin follows the shape) or at a board point. */
export const ThreadAnchor = z.union([z.strictObject({ shapeId }), z.strictObject({ x: finite, y: finite })]);
export type ThreadAnchor = z.infer<typeof ThreadAnchor>;

export const commentBodyField = z
  .string({ error: 'Write a comment.' })
  .trim()
  .min(1, { error: 'Write a comment.' })
  .max(limits.commentBodyMax, {
    error: `A comment has at most ${withThousands(limits.commentBodyMax)} characters.`,
  })
  // PostgreSQL's text cannot hold a NUL character; no one types one.
  .refine((body) => !body.includes('\u0000'), { error: 'A comment cannot contain a NUL character.' });

export const ThreadCreateBody = z.object({
  anchor: ThreadAnchor,
  body: commentBodyField,
  pageId: z.string().regex(pageIdPattern, { error: 'Not a page of this board.' }).default(MAIN_PAGE_ID),
});
export type ThreadCreateBody = z.infer<typeof ThreadCreateBody>;
export const ThreadPatchBody = z.object({ resolved: z.boolean({ error: 'Say whether it is resolved.' }) });
export type ThreadPatchBody = z.infer<typeof ThreadPatchBody>;
export const CommentBody = z.object({ body: commentBodyField });
export type CommentBody = z.infer<typeof CommentBody>;
/** `POST /api/me/mentions/read`: marks my mentions in one thread (or a whole board) read. */
export const MentionsReadBody = z.object({
  boardId: z.string().min(1).max(64),
  threadId: z.string().min(1).max(64).optional(),
});
export type MentionsReadBody = z.infer<typeof MentionsReadBody>;

/** Who wrote something, as every reader is shown them. */
export interface CommentAuthor {
  id: string;
  name: string;
  color: string;
}
export interface Comment {
  id: string;
  threadId: string;
  body: string;
  createdBy: string;
  author: CommentAuthor;
  createdAt: string;
  editedAt: string | null;
}
export interface Thread {
  id: string;
  boardId: string;
  pageId: string;
  anchor: ThreadAnchor;
  resolved: boolean;
  createdBy: string;
  createdAt: string;
  resolvedBy: string | null;
  resolvedAt: string | null;
}
export interface ThreadWithComments extends Thread {
  /** Oldest first; the first one opened the thread. */
  comments: Comment[];
}
export interface ThreadCreatedAnswer {
  thread: ThreadWithComments;
  comment: Comment;
}
export interface ThreadsAnswer {
  threads: ThreadWithComments[];
}
export interface ThreadAnswer {
  thread: ThreadWithComments;
}
export interface CommentAnswer {
  comment: Comment;
}
export interface Mention {
  boardId: string;
  boardTitle: string;
  threadId: string;
  commentId: string;
  by: CommentAuthor;
  at: string;
  read: boolean;
  /** The start of the comment, for the dashboard's list. */
  excerpt: string;
}
export interface MentionsAnswer {
  mentions: Mention[];
}

/** socket.io `thread:changed`: the whole thread as it is now, comments included. */
export interface ThreadChanged {
  boardId: string;
  thread: ThreadWithComments;
}
export interface ThreadRemoved {
  boardId: string;
  threadId: string;
}
/** socket.io `mention`, to the mentioned user only. */
export interface MentionEvent {
  boardId: string;
  threadId: string;
  commentId: string;
  by: CommentAuthor;
  mention: Mention;
}

// --- the text of a comment ---------------------------------------------------------------------

/** `@[Name](userId)`: the name as it was written, the id that is notified. */
const MENTION = /@\[([^\]\n]{1,40})\]\(([A-Za-z0-9_-]{16,64})\)/g;
/**
 * Only http(s) addresses become links; `javascript:`, `data:` and the rest stay text. A trailing
 * full stop, comma or closing bracket ends the sentence, not the address.
 */
const LINK = /\bhttps?:\/\/[^\s<>"'`]+[^\s<>"'`.,;:!?)\]]/g;

export type BodySegment =
  | { kind: 'text'; text: string }
  | { kind: 'mention'; name: string; userId: string }
  | { kind: 'link'; href: string; text: string };

/** Writes a mention the way a body carries it. */
export const mentionMarkup = (name: string, userId: string): string =>
  `@[${name.replace(/[[\]\n]/g, '').slice(0, 40)}](${userId})`;

/** The ids a body mentions, each once, in order. */
export function mentionedUserIds(body: string): string[] {
  const ids = new Set<string>();
  for (const match of body.matchAll(MENTION)) ids.add(match[2] as string);
  return [...ids];
}

function linkSegments(text: string): BodySegment[] {
  const out: BodySegment[] = [];
  let at = 0;
  for (const match of text.matchAll(LINK)) {
    const index = match.index ?? 0;
    if (index > at) out.push({ kind: 'text', text: text.slice(at, index) });
    out.push({ kind: 'link', href: match[0], text: match[0] });
    at = index + match[0].length;
  }
  if (at < text.length) out.push({ kind: 'text', text: text.slice(at) });
  return out;
}

/**
 * A body as plain text, mentions and links, in order. Renderers show each segment as text (never
 * as HTML), so whatever a body holds — a script tag, a `javascript:` address — is shown as typed.
 */
export function bodySegments(body: string): BodySegment[] {
  const out: BodySegment[] = [];
  let at = 0;
  for (const match of body.matchAll(MENTION)) {
    const index = match.index ?? 0;
    if (index > at) out.push(...linkSegments(body.slice(at, index)));
    out.push({ kind: 'mention', name: match[1] as string, userId: match[2] as string });
    at = index + match[0].length;
  }
  if (at < body.length) out.push(...linkSegments(body.slice(at)));
  return out;
}

/** A body as one line of plain text, mentions as `@Name` (lists, notifications). */
export function bodyExcerpt(body: string, max = 140): string {
  const text = bodySegments(body)
    .map((s) => (s.kind === 'mention' ? `@${s.name}` : s.text))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
