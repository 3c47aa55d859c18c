// Dots on the stickies while a vote runs, totals once it is closed.
import { api, errorSentence } from '../../api/client.ts';
import { toScreen, useEditor, visibleRect } from '../store.ts';
import { useResultsHidden } from './hiddenResults.ts';
import { useShapes } from './hooks.ts';
import type { FacilitationProps } from './props.ts';
import { type Votes, votesUsed } from './useVotes.ts';
import { votableStickies } from './votable.ts';

/**
 * While a vote is open, each sticky in view is a button: a click gives it one of my votes, a
 * right-click takes one back, and my dots show on it. Once closed, each sticky shows its total.
 * Votes go to the server only (never into the Yjs document).
 */
export function VoteOverlay(props: FacilitationProps & { canEdit: boolean; votes: Votes }) {
  const { votes, index, boardId, canEdit, onMessage } = props;
  const viewport = useEditor((s) => s.viewport);
  const screen = useEditor((s) => s.screen);
  const snap = useShapes(index);
  const cur = votes.current;
  const session = cur?.session;
  const hidden = useResultsHidden(session?.id);
  if (!cur || !session) return null;
  const open = session.open;
  const totals = new Map((cur.results ?? []).map((r) => [r.shapeId, r.votes]));
  if (!open && (totals.size === 0 || hidden)) return null;
  const view = visibleRect(viewport, screen);
  const stickies = votableStickies(
    snap.list.map((e) => e.rec),
    view,
  );
  const mine = cur.myVotes;
  const left = session.votesPerPerson - votesUsed(mine);
  const place = async (shapeId: string, delta: 1 | -1) => {
    const next = { ...mine, [shapeId]: Math.max(0, (mine[shapeId] ?? 0) + delta) };
    if (next[shapeId] === 0) delete next[shapeId];
    if (delta === 1 && left <= 0)
      return onMessage('You have used all your votes. Right-click a sticky to take one back.');
    votes.set({ ...cur, myVotes: next });
    try {
      await api.castBallot(boardId, session.id, next);
    } catch (error) {
      onMessage(errorSentence(error));
    }
    await votes.refresh();
  };
  return (
    <div className="vote-overlay">
      {stickies.map((s) => {
        const a = toScreen(viewport, screen, s.x, s.y);
        const style = { left: a.x, top: a.y, width: s.w * viewport.zoom, height: s.h * viewport.zoom };
        const label = (s.text || 'sticky').slice(0, 40);
        if (!open) {
          // Only the stickies that got votes carry a total: a note made after the vote has none.
          const n = totals.get(s.id);
          if (n === undefined) return null;
          return (
            <div key={s.id} className="vote-spot closed" style={style}>
              <span className="vote-total" data-shape-id={s.id} title={`${n} votes for ${label}`}>
                {n}
              </span>
            </div>
          );
        }
        const n = mine[s.id] ?? 0;
        const dots = (
          <span className="vote-dots" data-shape-id={s.id} data-my-votes={n} aria-hidden="true">
            {'●'.repeat(Math.min(n, 12))}
          </span>
        );
        if (!canEdit) return null;
        return (
          <button
            key={s.id}
            type="button"
            className="vote-spot"
            style={style}
            aria-label={`Vote for ${label} (${n} of my votes)`}
            onClick={() => void place(s.id, 1)}
            onContextMenu={(e) => {
              e.preventDefault();
              if (n > 0) void place(s.id, -1);
            }}
          >
            {dots}
          </button>
        );
      })}
    </div>
  );
}
