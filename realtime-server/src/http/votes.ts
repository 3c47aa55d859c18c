// Dot voting (docs/api.md §14): start a session, read my ballot (and the results once closed), place my
// votes, close. Votes are kept in the Store and announced on socket.io as counts of voters only;
// nobody reads anyone else's ballot before the close.
import { randomBytes } from 'node:crypto';
import {
  BallotBody,
  ballotTotal,
  ErrorCode,
  sortResults,
  type VoteResult,
  type VoteSession,
  VoteStartBody,
  type VotesCurrentAnswer,
} from '@tandem/shared';
import type { FastifyInstance } from 'fastify';
import { type Store, VoteSessionOpenError, type VoteSessionRow } from '../store/store.ts';
import type { Webhooks } from '../webhooks/webhooks.ts';
import type { LiveEvents } from '../workspace/live.ts';
import { requireRole } from './access.ts';
import { ApiError, forbidden, notFound } from './errors.ts';
import { parseBody, signedIn } from './request.ts';

export interface VotesDeps {
  store: Store;
  live: LiveEvents;
  webhooks?: Pick<Webhooks, 'emit'>;
}

/** 16 random bytes, base64url: the same alphabet as every other id, so a bad one is a plain 404. */
const newVoteSessionId = (): string => randomBytes(16).toString('base64url');
const voteSessionIdPattern = /^[A-Za-z0-9_-]{22}$/;

const toSession = (row: VoteSessionRow): VoteSession => ({
  id: row.id,
  votesPerPerson: row.votesPerPerson,
  startedBy: row.startedBy,
  open: row.closedAt === null,
});

type BoardParams = { Params: { id: string } };
type SessionParams = { Params: { id: string; sessionId: string } };

export async function votesRoutes(app: FastifyInstance, { store, live, webhooks }: VotesDeps): Promise<void> {
  /** The session, only when it belongs to this board: another board's session id is a 404. */
  async function sessionOf(boardId: string, sessionId: string): Promise<VoteSessionRow> {
    const session = voteSessionIdPattern.test(sessionId) ? await store.getVoteSession(sessionId) : null;
    if (!session || session.boardId !== boardId) throw notFound('vote session');
    return session;
  }

  const results = async (sessionId: string): Promise<VoteResult[]> =>
    sortResults(await store.voteTotals(sessionId));

  app.post<BoardParams>('/api/boards/:id/votes', async (request, reply) => {
    const user = signedIn(request);
    const { board } = await requireRole(store, request.params.id, user.id, 'editor');
    const body = parseBody(VoteStartBody, request.body);
    let row: VoteSessionRow;
    try {
      row = await store.createVoteSession({
        id: newVoteSessionId(),
        boardId: board.id,
        votesPerPerson: body.votesPerPerson,
        startedBy: user.id,
      });
    } catch (error) {
      if (error instanceof VoteSessionOpenError) {
        throw new ApiError(ErrorCode.CONFLICT, 'A vote is already running on this board. End it first.');
      }
      throw error;
    }
    live.votesChanged({ boardId: board.id, sessionId: row.id, open: true, voters: 0 });
    return reply.code(201).send({ session: toSession(row) });
  });

  app.get<BoardParams>('/api/boards/:id/votes/current', async (request): Promise<VotesCurrentAnswer> => {
    const user = signedIn(request);
    const { board } = await requireRole(store, request.params.id, user.id, 'viewer');
    const row = await store.currentVoteSession(board.id);
    if (!row) return { session: null, voters: 0, myVotes: {} };
    const [myVotes, voters] = await Promise.all([
      store.getBallot(row.id, user.id),
      store.countVoters(row.id),
    ]);
    const answer: VotesCurrentAnswer = { session: toSession(row), voters, myVotes };
    if (row.closedAt !== null) answer.results = await results(row.id);
    return answer;
  });

  app.put<SessionParams>('/api/boards/:id/votes/:sessionId/ballot', async (request) => {
    const user = signedIn(request);
    const { board } = await requireRole(store, request.params.id, user.id, 'editor');
    const session = await sessionOf(board.id, request.params.sessionId);
    const body = parseBody(BallotBody, request.body);
    const total = ballotTotal(body.votes);
    if (total > session.votesPerPerson) {
      throw new ApiError(ErrorCode.VALIDATION, 'That is more votes than you have.', {
        votes: `You have ${session.votesPerPerson} votes; this ballot places ${total}.`,
      });
    }
    if (session.closedAt !== null || !(await store.setBallot(session.id, user.id, body.votes))) {
      throw new ApiError(ErrorCode.CONFLICT, 'This vote has ended.');
    }
    const voters = await store.countVoters(session.id);
    live.votesChanged({ boardId: board.id, sessionId: session.id, open: true, voters });
    return { myVotes: await store.getBallot(session.id, user.id), voters };
  });

  app.post<SessionParams>('/api/boards/:id/votes/:sessionId/close', async (request) => {
    const user = signedIn(request);
    const { board, role } = await requireRole(store, request.params.id, user.id, 'viewer');
    const session = await sessionOf(board.id, request.params.sessionId);
    // The role now, not the one the starter had: a starter demoted to viewer no longer runs votes.
    const mayClose = role === 'owner' || (role === 'editor' && session.startedBy === user.id);
    if (!mayClose) {
      throw forbidden('Only the person who started this vote, or the board’s owner, can end it.');
    }
    // Closing twice (a double click, two tabs) answers the same results rather than an error.
    const closedNow = await store.closeVoteSession(session.id);
    const [sorted, voters] = await Promise.all([results(session.id), store.countVoters(session.id)]);
    if (closedNow) {
      live.votesChanged({ boardId: board.id, sessionId: session.id, open: false, voters, results: sorted });
      webhooks?.emit(board.id, 'vote.closed', {
        sessionId: session.id,
        closedBy: user.id,
        voters,
        results: sorted,
      });
    }
    return { results: sorted };
  });
}
