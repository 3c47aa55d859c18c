// Comment threads on the client (docs/api.md §18), as pure functions: the list kept up to date from
// REST answers and socket events, where a pin sits, which threads a filter shows, and the text a
// person types turned into a body with mentions (and back, to edit one). Tested in Node
// (client/test/comments.test.ts); the components only render and dispatch.
import {
  bodySegments,
  type Member,
  type Mention,
  mentionMarkup,
  type PageEntry,
  type ShapeRecord,
  type ThreadAnchor,
  type ThreadWithComments,
} from '@tandem/shared';

/**
 * Whether a thread started on this shape is pinned to it (docs/api.md §18): a frame only holds
 * shapes, so a thread started inside one sits at its point. The Comment tool's click and both ways
 * of opening the context menu's Comment ask this.
 */
export const pinsComment = (shape: Pick<ShapeRecord, 'type'>): boolean => shape.type !== 'frame';

export type ThreadsAction =
  | { type: 'loaded'; threads: ThreadWithComments[] }
  | { type: 'changed'; thread: ThreadWithComments }
  | { type: 'removed'; threadId: string };

/** The board's threads, oldest first; an event for a thread replaces it whole. */
export function threadsReducer(threads: ThreadWithComments[], action: ThreadsAction): ThreadWithComments[] {
  switch (action.type) {
    case 'loaded':
      return action.threads;
    case 'changed': {
      const at = threads.findIndex((t) => t.id === action.thread.id);
      if (at < 0) return [...threads, action.thread];
      const next = threads.slice();
      next[at] = action.thread;
      return next;
    }
    case 'removed':
      return threads.some((t) => t.id === action.threadId)
        ? threads.filter((t) => t.id !== action.threadId)
        : threads;
  }
}

/**
 * Where a thread's pin sits on the board: the top-right corner of its shape (so it follows the
 * shape wherever anyone moves it), or its point. Null for a thread whose shape was deleted: it
 * has no place on the canvas any more and is listed, marked, in the panel.
 */
export const pinPosition = (
  thread: ThreadWithComments,
  shapes: ReadonlyMap<string, ShapeRecord>,
): { x: number; y: number } | null => anchorPosition(thread.anchor, shapes);

/** Where an anchor is on the board now (null: its shape is gone). */
export function anchorPosition(
  anchor: ThreadAnchor,
  shapes: ReadonlyMap<string, ShapeRecord>,
): { x: number; y: number } | null {
  if ('x' in anchor) return { x: anchor.x, y: anchor.y };
  const shape = shapes.get(anchor.shapeId);
  if (!shape) return null;
  return { x: shape.x + shape.w, y: shape.y };
}

export const shapeDeleted = (thread: ThreadWithComments, shapes: ReadonlyMap<string, ShapeRecord>): boolean =>
  'shapeId' in thread.anchor && !shapes.has(thread.anchor.shapeId);

/**
 * Where a thread is from the page shown (docs/api.md §17, §18): on it; on another page of the board
 * (its pin is there, and opening it goes there), with that page's entry; or on a page
 * since deleted (no pin anywhere; it is read, answered and resolved from the list, like a thread
 * whose shape was deleted). A thread's shape is looked for only on its own page.
 */
export type ThreadPage = { kind: 'here' } | { kind: 'other'; page: PageEntry } | { kind: 'gone' };

export function threadPage(
  thread: ThreadWithComments,
  pageId: string,
  pages: readonly PageEntry[],
): ThreadPage {
  if (thread.pageId === pageId) return { kind: 'here' };
  const page = pages.find((p) => p.id === thread.pageId);
  return page ? { kind: 'other', page } : { kind: 'gone' };
}

export type ThreadFilter = 'open' | 'resolved' | 'mentions';

/** A comment of this thread mentions `userId`. */
export const mentionsUser = (thread: ThreadWithComments, userId: string): boolean =>
  thread.comments.some((c) => bodySegments(c.body).some((s) => s.kind === 'mention' && s.userId === userId));

/** The threads a panel tab lists, newest activity first. */
export function filterThreads(
  threads: ThreadWithComments[],
  filter: ThreadFilter,
  meId: string,
): ThreadWithComments[] {
  const shown = threads.filter((t) =>
    filter === 'open' ? !t.resolved : filter === 'resolved' ? t.resolved : mentionsUser(t, meId),
  );
  const last = (t: ThreadWithComments) => t.comments.at(-1)?.createdAt ?? t.createdAt;
  return shown.sort((a, b) => (last(a) < last(b) ? 1 : last(a) > last(b) ? -1 : 0));
}

/** Unread mentions of me on one board, by thread. */
export function unreadByThread(mentions: Mention[], boardId: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of mentions) {
    if (m.boardId !== boardId || m.read) continue;
    out.set(m.threadId, (out.get(m.threadId) ?? 0) + 1);
  }
  return out;
}

// --- typing a comment --------------------------------------------------------------------------

/** A member picked from the `@` list while typing: shown as `@Name`, sent as `@[Name](id)`. */
export interface Picked {
  name: string;
  userId: string;
}

/**
 * The body to send for what was typed: each `@Name` of a member picked from the list becomes a
 * mention (longest names first, so "@Ann Lee" is not taken for "@Ann"). So does an `@Name` typed
 * out in full without picking from the list, when it names exactly one of `typed` (the members
 * the list would offer: others, not bots), in any case, and the name ends there ("@Ben," yes,
 * "@Bent" no): someone who types "@Ben finishes it" means Ben, and Ben is told. Every other `@`
 * stays text.
 */
export function composeBody(text: string, picked: Picked[], typed: readonly Picked[] = []): string {
  const byLength = [...new Map(picked.map((p) => [p.name, p])).values()].sort(
    (a, b) => b.name.length - a.name.length,
  );
  // A name two members share cannot be told apart by typing: it stays text unless picked.
  const typedNames = new Map<string, Picked | null>();
  for (const m of typed) {
    const key = m.name.toLowerCase();
    typedNames.set(key, typedNames.has(key) ? null : m);
  }
  const typedByLength = [...typedNames.entries()]
    .filter((e): e is [string, Picked] => e[1] !== null && e[0].trim() !== '')
    .sort((a, b) => b[0].length - a[0].length);
  const endsName = (at: number) => at >= text.length || !/[\p{L}\p{N}_]/u.test(text[at] as string);
  let out = '';
  let at = 0;
  while (at < text.length) {
    const next = text.indexOf('@', at);
    if (next < 0) break;
    const pickedHit = byLength.find((p) => text.startsWith(`@${p.name}`, next));
    // Typed out: after a space or an opening bracket, as the list is offered (not "a@b.c").
    const typedHit =
      pickedHit || (next > 0 && !/\s|[([{]/.test(text[next - 1] as string))
        ? undefined
        : typedByLength.find(
            ([key]) =>
              text.slice(next + 1, next + 1 + key.length).toLowerCase() === key &&
              endsName(next + 1 + key.length),
          );
    const found = pickedHit ?? typedHit?.[1];
    if (!found) {
      out += text.slice(at, next + 1);
      at = next + 1;
      continue;
    }
    out += text.slice(at, next) + mentionMarkup(found.name, found.userId);
    at = next + 1 + (pickedHit ? pickedHit.name.length : (typedHit?.[0].length ?? 0));
  }
  return (out + text.slice(at)).trim();
}

/** A stored body as the person edits it again: mentions as `@Name`, with who they are. */
export function editableText(body: string): { text: string; picked: Picked[] } {
  const picked: Picked[] = [];
  const text = bodySegments(body)
    .map((s) => {
      if (s.kind !== 'mention') return s.text;
      picked.push({ name: s.name, userId: s.userId });
      return `@${s.name}`;
    })
    .join('');
  return { text, picked };
}

/** The `@…` being typed just before the caret, if any: where it starts and what follows the `@`. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return null;
  // An @ inside a word (an email address) is not a mention.
  if (at > 0 && !/\s|[([{]/.test(before[at - 1] as string)) return null;
  const query = before.slice(at + 1);
  if (query.length > 40 || /\n/.test(query) || /\s\s/.test(query)) return null;
  return { start: at, query };
}

/** Members whose name starts (or has a word starting) with the query, the author left out. */
export function mentionCandidates(members: Member[], query: string, meId: string, max = 6): Member[] {
  const q = query.trim().toLowerCase();
  return (
    members
      // An integration is a member (docs/api.md §15) with no one behind its bell: not offered.
      .filter((m) => m.userId !== meId && !m.isBot)
      .filter(
        (m) =>
          q === '' ||
          m.name
            .toLowerCase()
            .split(/\s+/)
            .some((w) => w.startsWith(q)) ||
          m.name.toLowerCase().startsWith(q),
      )
      .slice(0, max)
  );
}

/** Replaces the `@query` before the caret with `@Name ` and says where the caret goes. */
export function insertMention(
  text: string,
  query: { start: number; query: string },
  name: string,
): { text: string; caret: number } {
  const inserted = `@${name} `;
  const end = query.start + 1 + query.query.length;
  return {
    text: text.slice(0, query.start) + inserted + text.slice(end),
    caret: query.start + inserted.length,
  };
}

/** What punctuation typed right after a picked mention's space takes the place of that space. */
const CLOSES_UP = /^[.,!?;:)\]}’'"…]$/;

/**
 * Punctuation typed right after a mention picked from the list takes the place of the space the
 * pick added, as Slack and GitHub do: "@Ana?" and "@Ana," rather than "@Ana ?" (a trial). `space`
 * is where that space is in `before`; `after` is the text once one more character was typed. Null
 * when the change is anything else (a letter, a paste, a deletion): the space stays.
 */
export function closeUpAfterMention(
  before: string,
  after: string,
  space: number,
): { text: string; caret: number } | null {
  if (before[space] !== ' ' || after.length !== before.length + 1) return null;
  if (after.slice(0, space + 1) !== before.slice(0, space + 1)) return null;
  if (after.slice(space + 2) !== before.slice(space + 1)) return null;
  const typed = after[space + 1] as string;
  if (!CLOSES_UP.test(typed)) return null;
  return { text: before.slice(0, space) + typed + before.slice(space + 1), caret: space + 1 };
}

/**
 * "Resolved by Ana" on a resolved thread: who resolved it (the server keeps `resolvedBy`, §18),
 * named as the board's members or the thread's authors name them; "you" for the person reading;
 * "Resolved" alone when the name is not known here (someone no longer on the board).
 */
export function resolvedText(
  thread: Pick<ThreadWithComments, 'resolved' | 'resolvedBy' | 'comments'>,
  members: readonly Pick<Member, 'userId' | 'name'>[],
  meId: string,
): string {
  if (!thread.resolved) return 'Open';
  const by = thread.resolvedBy;
  if (by === null) return 'Resolved';
  if (by === meId) return 'Resolved by you';
  const name =
    members.find((m) => m.userId === by)?.name ??
    thread.comments.find((c) => c.createdBy === by)?.author.name;
  return name ? `Resolved by ${name}` : 'Resolved';
}
