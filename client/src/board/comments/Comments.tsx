// Comments on the board (docs/api.md §18): pins on the canvas (following their shapes), the thread
// beside its pin, the composer of a thread being placed with the Comment tool, and the Comments
// panel (open / resolved / mentions me). Threads come from the server, never the Yjs document.

import {
  bodyExcerpt,
  canComment,
  type PageEntry,
  type Role,
  type ThreadWithComments,
  type User,
} from '@tandem/shared';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { api, errorSentence } from '../../api/client.ts';
import { PHONE_QUERY } from '../../breakpoints.ts';
import { navigate } from '../../router.tsx';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { useHistoryPanel } from '../history/state.ts';
import { pageLabel, pagePath } from '../pages/model.ts';
import { useColorOf } from '../presence/shownColors.ts';
import { toScreen, useEditor } from '../store.ts';
import { Icon } from '../ui/icons.tsx';
import { SidePanel } from '../ui/SidePanelHead.tsx';
import { panelButtonId } from '../ui/sidePanels.ts';
import { CommentText } from './CommentText.tsx';
import { Composer } from './Composer.tsx';
import {
  anchorPosition,
  editableText,
  filterThreads,
  pinPosition,
  resolvedText,
  shapeDeleted,
  type ThreadFilter,
  type ThreadPage,
  threadPage,
  unreadByThread,
} from './threads.ts';
import type { Comments } from './useComments.ts';
import './comments.css';
import { confirmAction } from '../ui/Confirm.tsx';

interface Props {
  boardId: string;
  comments: Comments;
  index: ShapeIndex;
  me: User;
  role: Role;
  /** The page shown, and the board's pages: a thread belongs to one page (docs/api.md §17). */
  pageId: string;
  pages: readonly PageEntry[];
  onMessage(s: string): void;
}

/** What a thread is marked with, in the list and on its card, when it has no pin on this page. */
function threadMark(place: ThreadPage, shapeGone: boolean): string | null {
  if (place.kind === 'other') return `On ${pageLabel(place.page)}`;
  if (place.kind === 'gone') return 'Page deleted';
  return shapeGone ? 'Shape deleted' : null;
}

const CARD_WIDTH = 320;

/** Pins, the open thread and the draft composer, over the canvas. */
export function CommentsLayer({ boardId, comments, index, me, role, pageId, pages, onMessage }: Props) {
  const shapes = useSyncExternalStore(index.subscribe, index.getSnapshot);
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  const draft = useEditor((s) => s.commentDraft);
  const openId = useEditor((s) => s.openThreadId);
  // The Comments or the History panel, at the right: an open card keeps clear of it (sidePanelReach).
  const commentsOpen = useEditor((s) => s.commentsPanel);
  const historyOpen = useHistoryPanel((s) => s.open);
  const reach = sidePanelReach(screen, commentsOpen || historyOpen);
  const unread = useMemo(() => unreadByThread(comments.mentions, boardId), [comments.mentions, boardId]);
  const mayComment = canComment(role);
  const colorOf = useColorOf();

  // A viewer who picks the Comment tool (C) is told why they cannot, and keeps the tool they had.
  const tool = useEditor((s) => s.tool);
  useEffect(() => {
    if (tool === 'comment' && !mayComment) {
      useEditor.getState().setTool('select');
      onMessage('You can read comments on this board, but only its editors and commenters can write them.');
    }
  }, [tool, mayComment, onMessage]);

  const place = (p: { x: number; y: number }) => toScreen(viewport, screen, p.x, p.y);
  // A thread open when its page was left stays closed here; one on a deleted page opens anywhere.
  const found = comments.threads.find((t) => t.id === openId) ?? null;
  const openPlace = found && threadPage(found, pageId, pages);
  const open = openPlace?.kind === 'other' ? null : found;
  useEffect(() => {
    if (open) comments.markRead(open.id);
  }, [open, comments.markRead]);

  // On a shape, the draft sits where the pin will; at a point, at the point.
  const draftAt = draft
    ? ((draft.shapeId && anchorPosition({ shapeId: draft.shapeId }, shapes.byId)) ?? draft)
    : null;

  const create = async (body: string): Promise<boolean> => {
    if (!draft) return false;
    try {
      const anchor = draft.shapeId ? { shapeId: draft.shapeId } : { x: draft.x, y: draft.y };
      const answer = await api.createThread(boardId, anchor, body, pageId);
      comments.changed(answer.thread);
      const st = useEditor.getState();
      if (!st.toolLocked) st.setTool('select');
      st.openThread(answer.thread.id);
      return true;
    } catch (error) {
      onMessage(errorSentence(error));
      return false;
    }
  };

  return (
    <div className="comments-layer">
      {comments.threads.map((thread) => {
        if (thread.resolved && thread.id !== openId) return null;
        // Pins of other pages' threads are on their pages (their shape ids mean nothing here).
        if (thread.pageId !== pageId) return null;
        const at = pinPosition(thread, shapes.byId);
        if (!at) return null;
        const p = place(at);
        if (p.x < -40 || p.y < -40 || p.x > screen.w + 40 || p.y > screen.h + 40) return null;
        const first = thread.comments[0];
        const count = thread.comments.length;
        return (
          <button
            key={thread.id}
            type="button"
            className={`comment-pin ${thread.id === openId ? 'open' : ''} ${unread.has(thread.id) ? 'unread' : ''} ${thread.resolved ? 'resolved' : ''}`}
            style={{
              transform: `translate(${p.x}px, ${p.y}px)`,
              borderColor: first && colorOf(first.author),
            }}
            data-thread-id={thread.id}
            aria-label={`Comment thread by ${first?.author.name ?? 'someone'}, ${count} ${count === 1 ? 'comment' : 'comments'}`}
            aria-expanded={thread.id === openId}
            onPointerDown={(e) => e.stopPropagation()}
            onClick={() => useEditor.getState().openThread(thread.id === openId ? null : thread.id)}
          >
            <Icon name="comment" size={14} />
            <span className="pin-count">{count}</span>
          </button>
        );
      })}
      {draft && draftAt && mayComment && (
        // Where the comment will be pinned, while it is written: the card alone sits beside it.
        <span
          className="comment-pin draft"
          aria-hidden="true"
          style={{ transform: `translate(${place(draftAt).x}px, ${place(draftAt).y}px)` }}
        >
          <Icon name="comment" size={14} />
        </span>
      )}
      {draft && draftAt && mayComment && (
        <div
          className="thread-card panel"
          style={cardStyle(place(draftAt), screen, reach)}
          role="dialog"
          aria-label="New comment"
        >
          <Composer
            members={comments.members}
            meId={me.id}
            label="Comment"
            placeholder={draft.shapeId ? 'Comment on this shape…' : 'Add a comment…'}
            submitLabel="Comment"
            autoFocus
            onSubmit={create}
            onCancel={() => {
              const st = useEditor.getState();
              st.setCommentDraft(null);
              // As after posting: the tool is done with unless it is locked (a comment begun from
              // the context menu left the Comment tool picked, so the next click began another).
              if (!st.toolLocked) st.setTool('select');
              // The field that had the caret is gone: back to the board the comment was placed
              // on (as Escape from a note's text does), not the top of the page.
              document
                .querySelector<SVGElement>('[role="application"][aria-label="Board canvas"]')
                ?.focus({ preventScroll: true });
            }}
          />
        </div>
      )}
      {open && (
        <ThreadCard
          boardId={boardId}
          thread={open}
          comments={comments}
          me={me}
          role={role}
          mark={threadMark(threadPage(open, pageId, pages), shapeDeleted(open, shapes.byId))}
          style={(() => {
            const at = open.pageId === pageId ? pinPosition(open, shapes.byId) : null;
            return at ? cardStyle(place(at), screen, reach) : pinlessCardStyle(screen, reach);
          })()}
          onMessage={onMessage}
        />
      )}
    </div>
  );
}

/** Width of a side panel at the right and its margins (editor.css `.side-panel`): 12 + 300 + 12. */
const PANEL_REACH = 324;

/**
 * How far from the right edge a card must end: past the side panel open there (Comments or
 * History) when the screen has room for the card beside it, else the screen's margin. On a phone
 * the panel covers the board, and the card, above it (comments.css), is laid out as without it.
 */
function sidePanelReach(screen: { w: number }, panelOpen: boolean): number {
  const width = Math.min(CARD_WIDTH, screen.w - 24);
  const beside = panelOpen && screen.w - PANEL_REACH - width >= 12 && !window.matchMedia(PHONE_QUERY).matches;
  return beside ? PANEL_REACH : 12;
}

/** A thread with no pin (its shape was deleted): at the top right, beside the panel when it is open. */
function pinlessCardStyle(screen: { w: number; h: number }, reach: number): React.CSSProperties {
  const width = Math.min(CARD_WIDTH, screen.w - 24);
  return { left: screen.w - reach - width, top: 130, width, maxHeight: Math.max(200, screen.h - 130 - 72) };
}

/** Room the pin takes to the right of its anchor (its tip), so the card never hides it. */
const PIN_REACH = 60;

/**
 * Beside the pin — to its right, or to its left when the right has no room — kept on screen below
 * the top bars and above the bottom ones, as wide as a phone allows; what does not fit scrolls.
 * It ends `reach` from the right edge: left of an open side panel, never over or under it (a pin
 * under the panel has its card just left of the panel).
 */
function cardStyle(
  p: { x: number; y: number },
  screen: { w: number; h: number },
  reach: number,
): React.CSSProperties {
  const width = Math.min(CARD_WIDTH, screen.w - 24);
  const edge = screen.w - reach;
  const right = p.x + PIN_REACH;
  const fitsRight = right + width <= edge;
  const fitsLeft = p.x - width - 12 >= 12;
  const beside = fitsRight || fitsLeft;
  const left = fitsRight ? right : Math.max(12, Math.min(p.x - width - 12, edge - width));
  // No room on either side (a phone): below the pin, or above it when the pin is low.
  const below = p.y + 12;
  const top = beside
    ? Math.max(116, Math.min(p.y - 8, screen.h - 440))
    : Math.max(116, below + 300 <= screen.h - 72 ? below : p.y - 40 - 300);
  return {
    left: beside ? left : Math.max(12, Math.min((screen.w - width) / 2, edge - width)),
    top,
    width,
    maxHeight: Math.max(200, screen.h - top - 72),
  };
}

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

/** One thread: its comments, resolve / reopen, reply, and edit or delete what one may. */
function ThreadCard({
  boardId,
  thread,
  comments,
  me,
  role,
  mark,
  style,
  onMessage,
}: {
  boardId: string;
  thread: ThreadWithComments;
  comments: Comments;
  me: User;
  role: Role;
  /** Why it has no pin here ("Shape deleted", "Page deleted"), if it has none. */
  mark: string | null;
  style: React.CSSProperties;
  onMessage(s: string): void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const mayComment = canComment(role);
  const colorOf = useColorOf();
  const list = useRef<HTMLOListElement>(null);
  const count = thread.comments.length;
  // Newest reply in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when a comment arrives
  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [count]);

  const run = async <T,>(call: () => Promise<T>): Promise<T | null> => {
    try {
      return await call();
    } catch (error) {
      onMessage(errorSentence(error));
      return null;
    }
  };
  const setResolved = async (resolved: boolean) => {
    const answer = await run(() => api.resolveThread(boardId, thread.id, resolved));
    if (answer) comments.changed(answer.thread);
    if (answer && resolved) useEditor.getState().openThread(null);
  };

  return (
    <section
      className="thread-card panel"
      style={style}
      aria-label="Comment thread"
      data-thread-id={thread.id}
      onPointerDown={(e) => e.stopPropagation()}
    >
      <header className="thread-head">
        <span className="thread-state">
          {resolvedText(thread, comments.members, me.id)}
          {mark && <span className="pill">{mark}</span>}
        </span>
        {mayComment && (
          <button
            type="button"
            className="btn small"
            onClick={() => void setResolved(!thread.resolved)}
            aria-label={thread.resolved ? 'Reopen thread' : 'Resolve thread'}
          >
            <Icon name="check" size={14} /> {thread.resolved ? 'Reopen' : 'Resolve'}
          </button>
        )}
        <button
          type="button"
          className="tool"
          aria-label="Close thread"
          onClick={() => useEditor.getState().openThread(null)}
        >
          <Icon name="close" size={16} />
        </button>
      </header>
      <ol className="thread-comments" ref={list}>
        {thread.comments.map((c) => (
          <li key={c.id} className="comment" data-comment-id={c.id}>
            <div className="comment-meta">
              <span className="comment-dot" style={{ background: colorOf(c.author) }} aria-hidden="true" />
              <strong>{c.author.name}</strong>
              <time dateTime={c.createdAt}>{when(c.createdAt)}</time>
              {c.editedAt && <span className="muted">(edited)</span>}
            </div>
            {editing === c.id ? (
              <Composer
                members={comments.members}
                meId={me.id}
                label="Edit comment"
                placeholder="Edit your comment…"
                initial={editableText(c.body)}
                submitLabel="Save"
                autoFocus
                onSubmit={async (body) => {
                  const done = await run(() => api.editComment(boardId, thread.id, c.id, body));
                  if (done) setEditing(null);
                  return done !== null;
                }}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <CommentText body={c.body} />
            )}
            {editing !== c.id && (
              <div className="comment-actions">
                {c.createdBy === me.id && mayComment && (
                  <button type="button" className="link-button" onClick={() => setEditing(c.id)}>
                    Edit
                  </button>
                )}
                {((c.createdBy === me.id && mayComment) || role === 'owner') && (
                  <button
                    type="button"
                    className="link-button danger"
                    onClick={async () => {
                      const ok = await confirmAction({
                        title: 'Delete comment?',
                        body: 'It is gone for everyone. This cannot be undone.',
                        confirmLabel: 'Delete comment',
                        danger: true,
                      });
                      if (!ok) return;
                      void run(() => api.deleteComment(boardId, thread.id, c.id)).then(() => {
                        if (count === 1) {
                          comments.removed(thread.id);
                          useEditor.getState().openThread(null);
                        }
                      });
                    }}
                  >
                    Delete
                  </button>
                )}
              </div>
            )}
          </li>
        ))}
      </ol>
      {mayComment ? (
        <Composer
          members={comments.members}
          meId={me.id}
          label="Reply"
          placeholder="Reply…"
          submitLabel="Reply"
          autoFocus={!thread.resolved}
          onSubmit={async (body) => (await run(() => api.reply(boardId, thread.id, body))) !== null}
        />
      ) : (
        <p className="hint">You can read comments; only editors and commenters can reply.</p>
      )}
    </section>
  );
}

/** The top bar's "Comments" button, with my unread mentions on this board. */
export function CommentsButton({ boardId, comments }: { boardId: string; comments: Comments }) {
  const open = useEditor((s) => s.commentsPanel);
  const unread = useMemo(
    () => [...unreadByThread(comments.mentions, boardId).values()].reduce((a, b) => a + b, 0),
    [comments.mentions, boardId],
  );
  return (
    <button
      type="button"
      className={`btn comments-button ${open ? 'active' : ''}`}
      id={panelButtonId.comments}
      // The count is in the name, as the dashboard's "Mentions, 3 unread": the badge is hidden
      // from screen readers (a button's content is not read), so the name says what it shows.
      aria-label={unread > 0 ? `Comments, ${unread} unread` : 'Comments'}
      aria-pressed={open}
      title="Comments"
      onClick={() => useEditor.getState().setCommentsPanel(!open)}
    >
      <Icon name="comment" size={18} />
      {unread > 0 && (
        <span className="badge" aria-hidden="true">
          {unread}
        </span>
      )}
    </button>
  );
}

/** The Comments panel: every thread of the board, by state, or those that mention me. */
export function CommentsPanel({
  boardId,
  comments,
  index,
  me,
  pageId,
  pages,
}: Omit<Props, 'role' | 'onMessage'>) {
  const shown = useEditor((s) => s.commentsPanel);
  const openId = useEditor((s) => s.openThreadId);
  const shapes = useSyncExternalStore(index.subscribe, index.getSnapshot);
  const [filter, setFilter] = useState<ThreadFilter>('open');
  const unread = useMemo(() => unreadByThread(comments.mentions, boardId), [comments.mentions, boardId]);
  const colorOf = useColorOf();
  if (!shown) return null;
  const hide = () => useEditor.getState().setCommentsPanel(false);
  const list = filterThreads(comments.threads, filter, me.id);
  const tabs: [ThreadFilter, string][] = [
    ['open', 'Open'],
    ['resolved', 'Resolved'],
    ['mentions', 'Mentions me'],
  ];
  const go = (thread: ThreadWithComments) => {
    // A thread of another page opens there: its page is shown, moved to its pin (openFromLink.ts).
    if (threadPage(thread, pageId, pages).kind === 'other') {
      if (window.matchMedia(PHONE_QUERY).matches) useEditor.getState().setCommentsPanel(false);
      navigate(`${pagePath(boardId, thread.pageId)}?thread=${encodeURIComponent(thread.id)}`);
      return;
    }
    const st = useEditor.getState();
    st.openThread(thread.id);
    // On a phone the panel covers the board: it steps aside for the thread.
    if (window.matchMedia(PHONE_QUERY).matches) st.setCommentsPanel(false);
    const at = pinPosition(thread, shapes.byId);
    if (at) st.setViewport({ ...st.viewport, x: at.x, y: at.y });
  };
  return (
    <SidePanel panel="comments" className="side-panel comments-panel" label="Comments panel" onClose={hide}>
      <div className="comments-tabs" role="tablist" aria-label="Which threads">
        {tabs.map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={filter === key}
            className={filter === key ? 'active' : ''}
            onClick={() => setFilter(key)}
          >
            {label}
          </button>
        ))}
      </div>
      {!comments.loaded ? (
        <p className="hint">Loading comments…</p>
      ) : list.length === 0 ? (
        <p className="hint">
          {filter === 'open'
            ? 'No open threads. Pick the Comment tool (C) and click a shape or the board to start one.'
            : filter === 'resolved'
              ? 'No resolved threads yet.'
              : 'Nobody has mentioned you here yet.'}
        </p>
      ) : (
        <ul className="thread-list" aria-label={`${tabs.find((t) => t[0] === filter)?.[1]} threads`}>
          {list.map((t) => {
            const first = t.comments[0];
            const replies = t.comments.length - 1;
            const place = threadPage(t, pageId, pages);
            const mark = threadMark(place, place.kind === 'here' && shapeDeleted(t, shapes.byId));
            return (
              <li key={t.id}>
                <button
                  type="button"
                  className={`thread-item ${t.id === openId ? 'selected' : ''}`}
                  data-thread-id={t.id}
                  onClick={() => go(t)}
                >
                  <span className="comment-meta">
                    <span
                      className="comment-dot"
                      style={{ background: first && colorOf(first.author) }}
                      aria-hidden="true"
                    />
                    <strong>{first?.author.name}</strong>
                    {unread.has(t.id) && <span className="badge small">@</span>}
                    {mark && <span className="pill">{mark}</span>}
                  </span>
                  <span className="thread-excerpt">{first ? bodyExcerpt(first.body) : ''}</span>
                  <span className="muted">
                    {replies === 0 ? 'No replies' : replies === 1 ? '1 reply' : `${replies} replies`}
                    {t.resolved && ` · ${resolvedText(t, comments.members, me.id)}`}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </SidePanel>
  );
}
