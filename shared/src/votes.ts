// Dot voting (docs/api.md §14): the REST bodies and answers, and the socket.io payload. Votes live on
// the server only, never in the board's Yjs document, where every member could read them.
import { z } from 'zod';

export const VOTES_PER_PERSON_MAX = 99;

export const VoteStartBody = z.object({
  votesPerPerson: z
    .number({ error: 'Choose how many votes each person has.' })
    .int({ error: 'Choose a whole number of votes.' })
    .min(1, { error: 'Each person has at least 1 vote.' })
    .max(VOTES_PER_PERSON_MAX, { error: `Each person has at most ${VOTES_PER_PERSON_MAX} votes.` }),
});
export type VoteStartBody = z.infer<typeof VoteStartBody>;

/** A shape id as the board document spells it (docs/api.md §10: at most 64 characters). */
export const voteShapeId = z.string().min(1).max(64);

/** One person's whole ballot: shape → how many of their votes it holds (0 removes it). */
export const BallotBody = z.object({
  votes: z.record(
    voteShapeId,
    z
      .number({ error: 'A vote count is a number.' })
      .int({ error: 'A vote count is a whole number.' })
      .min(0, { error: 'A vote count cannot be negative.' })
      .max(VOTES_PER_PERSON_MAX, { error: `At most ${VOTES_PER_PERSON_MAX} votes on one shape.` }),
  ),
});
export type BallotBody = z.infer<typeof BallotBody>;

export interface VoteSession {
  id: string;
  votesPerPerson: number;
  startedBy: string;
  open: boolean;
}
export interface VoteResult {
  shapeId: string;
  votes: number;
}
export type Ballot = Record<string, number>;

export interface VoteSessionAnswer {
  session: VoteSession;
}
/** `GET …/votes/current`: the latest session (null when the board never had one). */
export interface VotesCurrentAnswer {
  session: VoteSession | null;
  /** How many people have placed at least one vote. */
  voters: number;
  myVotes: Ballot;
  /** Only once the session is closed. */
  results?: VoteResult[];
}
export interface VoteResultsAnswer {
  results: VoteResult[];
}

/** socket.io `votes:changed`: how many have voted, never for what; the results once closed. */
export interface VotesChanged {
  boardId: string;
  sessionId: string;
  open: boolean;
  voters: number;
  results?: VoteResult[];
}

/** Sum of a ballot's votes. */
export const ballotTotal = (ballot: Ballot): number => Object.values(ballot).reduce((sum, n) => sum + n, 0);

/** Most-voted first; ties in a stable order (by shape id), so every viewer sees the same list. */
export function sortResults(results: VoteResult[]): VoteResult[] {
  return [...results].sort(
    (a, b) => b.votes - a.votes || (a.shapeId < b.shapeId ? -1 : a.shapeId > b.shapeId ? 1 : 0),
  );
}
