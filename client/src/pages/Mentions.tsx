// The dashboard's mentions (docs/api.md §18): a bell with my unread count, live from the workspace
// socket, and the list of who mentioned me where; choosing one opens the board at that thread.
import type { Mention } from '@tandem/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api/client.ts';
import { Icon } from '../board/ui/icons.tsx';
import { useMenuDismiss } from '../board/ui/useMenuDismiss.ts';
import { Link } from '../router.tsx';
import { useWorkspace } from '../workspace/socket.ts';
import { timeAgo } from './timeAgo.ts';

export const threadLink = (m: Pick<Mention, 'boardId' | 'threadId'>) =>
  `/b/${encodeURIComponent(m.boardId)}?thread=${encodeURIComponent(m.threadId)}`;

export function MentionsMenu() {
  const [mentions, setMentions] = useState<Mention[]>([]);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const load = useCallback(() => {
    api
      .mentions()
      .then((answer) => setMentions(answer.mentions))
      .catch(() => undefined);
  }, []);
  useEffect(load, [load]);
  useWorkspace({
    connect: load,
    mention: (p) =>
      setMentions((list) => (list.some((m) => m.commentId === p.commentId) ? list : [p.mention, ...list])),
  });
  useMenuDismiss(open, root, () => setOpen(false));
  const unread = mentions.filter((m) => !m.read).length;

  return (
    <div className="mentions" ref={root}>
      <button
        type="button"
        className="btn mentions-button"
        aria-label={unread > 0 ? `Mentions, ${unread} unread` : 'Mentions'}
        aria-expanded={open}
        aria-haspopup="menu"
        onClick={() => setOpen(!open)}
      >
        <Icon name="bell" size={18} />
        {unread > 0 && (
          <span className="badge" aria-hidden="true">
            {unread}
          </span>
        )}
      </button>
      {open && (
        <div className="mentions-menu panel" role="menu" aria-label="Mentions">
          {mentions.length === 0 ? (
            <p className="hint">When someone mentions you in a comment, it shows here.</p>
          ) : (
            mentions.map((m) => (
              <Link
                key={m.commentId}
                role="menuitem"
                href={threadLink(m)}
                className={`mention-item ${m.read ? '' : 'unread'}`}
                onClick={() => {
                  if (!m.read) void api.markMentionsRead(m.boardId, m.threadId).catch(() => undefined);
                }}
              >
                <span className="mention-who">
                  <strong>{m.by.name}</strong> mentioned you on <strong>{m.boardTitle}</strong>
                </span>
                <span className="mention-excerpt">{m.excerpt}</span>
                {/* When, as in Miro's notifications: a mention of last week is told from today's. */}
                <time className="mention-time" dateTime={m.at}>
                  {timeAgo(m.at)}
                </time>
              </Link>
            ))
          )}
        </div>
      )}
    </div>
  );
}
