// The Vote menu: start and end a vote, votes left, and the results (docs/api.md §14).
import type { VotesCurrentAnswer } from '@tandem/shared';
import { useState } from 'react';
import { api, errorSentence } from '../../api/client.ts';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { setResultsHidden, useResultsHidden } from './hiddenResults.ts';
import { useShapes } from './hooks.ts';
import type { FacilitationProps } from './props.ts';
import { type Votes, votesUsed } from './useVotes.ts';

export function VoteMenu(props: FacilitationProps & { canEdit: boolean; votes: Votes }) {
  const { canEdit, votes, boardId, user, role, onMessage, index } = props;
  const [perPerson, setPerPerson] = useState(3);
  const snap = useShapes(index);
  const cur = votes.current;
  const session = cur?.session ?? null;
  const open = session?.open === true;
  const start = async () => {
    try {
      await api.startVote(boardId, perPerson);
      await votes.refresh();
    } catch (error) {
      onMessage(errorSentence(error));
    }
  };
  const end = async () => {
    if (!session) return;
    try {
      await api.closeVote(boardId, session.id);
      await votes.refresh();
    } catch (error) {
      onMessage(errorSentence(error));
    }
  };
  const canEnd = open && session && (session.startedBy === user.id || role === 'owner');
  return (
    <section className="panel facilitation-menu" aria-label="Voting">
      <h2>Vote</h2>
      {!open && canEdit && (
        <div className="row">
          <label>
            Votes per person{' '}
            <input
              type="number"
              min={1}
              max={99}
              value={perPerson}
              onChange={(e) => setPerPerson(Math.max(1, Math.min(99, Number(e.target.value) || 1)))}
            />
          </label>
          <button type="button" className="btn small primary" onClick={() => void start()}>
            Start vote
          </button>
        </div>
      )}
      {open && session && (
        <>
          {canEdit ? (
            <p className="votes-left" aria-live="polite">
              {votesLeftText(session.votesPerPerson - votesUsed(cur?.myVotes ?? {}))}
            </p>
          ) : (
            <p className="hint">A vote is running. Viewers watch; owners and editors vote.</p>
          )}
          <p className="hint">
            {cur?.voters ?? 0} {cur?.voters === 1 ? 'person has' : 'people have'} voted. Click a sticky to
            give it a vote; right-click takes one back.
          </p>
          {canEnd && (
            <button type="button" className="btn small" onClick={() => void end()}>
              End vote
            </button>
          )}
        </>
      )}
      {!open && !canEdit && !cur?.results && <p className="hint">No vote is running.</p>}
      {!open && cur?.results && session && (
        <>
          <Results results={cur.results} snap={snap} />
          <ResultsOnBoard sessionId={session.id} />
        </>
      )}
    </section>
  );
}

/** Takes the totals off the stickies (for this person; the results stay listed here). */
function ResultsOnBoard({ sessionId }: { sessionId: string }) {
  const hidden = useResultsHidden(sessionId);
  return (
    <button type="button" className="btn small" onClick={() => setResultsHidden(sessionId, !hidden)}>
      {hidden ? 'Show results on the stickies' : 'Clear results from the stickies'}
    </button>
  );
}

export function Results({
  results,
  snap,
}: {
  results: NonNullable<VotesCurrentAnswer['results']>;
  snap: ReturnType<ShapeIndex['getSnapshot']>;
}) {
  return (
    <section aria-label="Vote results">
      <h3>Results, most-voted first</h3>
      {results.length === 0 && <p className="hint">Nobody voted.</p>}
      <ol className="vote-results">
        {results.map((r) => {
          const s = snap.byId.get(r.shapeId);
          return (
            <li key={r.shapeId}>
              <span className="result-votes">{r.votes}</span>{' '}
              <span className="result-text">{s ? s.text || '(empty sticky)' : '(deleted)'}</span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** "1 vote left", "3 votes left". */
export const votesLeftText = (left: number): string => (left === 1 ? '1 vote left' : `${left} votes left`);
