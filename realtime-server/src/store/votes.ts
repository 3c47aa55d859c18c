// Dot-voting rows (docs/api.md §14), each query written once for both engines over their `sql` executor.
import { toVoteSession } from './rows.ts';
import { type Query, type Sql, sql } from './sql.ts';
import { VoteSessionOpenError, type VoteSessionRow } from './types.ts';

/**
 * Ballots that count: those of people who are still members of the session's board. A removed
 * member's ballot stays stored (they may be added back before the close) but weighs nothing.
 */
const countedBallot = (sessionId: string): Query =>
  sql`session_id = ${sessionId} AND user_id IN (
        SELECT m.user_id FROM memberships m JOIN vote_sessions s ON s.board_id = m.board_id
        WHERE s.id = ${sessionId})`;

const isOpen = (sessionId: string): Query =>
  sql`EXISTS (SELECT 1 FROM vote_sessions WHERE id = ${sessionId} AND closed_at IS NULL)`;

export class VoteRepository {
  constructor(private readonly sql: Sql) {}

  async createSession(session: Omit<VoteSessionRow, 'createdAt' | 'closedAt'>): Promise<VoteSessionRow> {
    const createdAt = new Date();
    try {
      await this.sql.run(
        sql`INSERT INTO vote_sessions (id, board_id, votes_per_person, started_by, created_at)
            VALUES (${session.id}, ${session.boardId}, ${session.votesPerPerson}, ${session.startedBy},
                    ${createdAt})`,
      );
    } catch (err) {
      // The id is random, so a unique violation is the one-open-session-per-board index.
      if (this.sql.isUniqueViolation(err)) throw new VoteSessionOpenError();
      throw err;
    }
    return { ...session, createdAt, closedAt: null };
  }

  async currentSession(boardId: string): Promise<VoteSessionRow | null> {
    const r = await this.sql.one(
      sql`SELECT * FROM vote_sessions WHERE board_id = ${boardId}
          ORDER BY CASE WHEN closed_at IS NULL THEN 0 ELSE 1 END, closed_at DESC, created_at DESC
          LIMIT 1`,
    );
    return r ? toVoteSession(r) : null;
  }

  async getSession(sessionId: string): Promise<VoteSessionRow | null> {
    const r = await this.sql.one(sql`SELECT * FROM vote_sessions WHERE id = ${sessionId}`);
    return r ? toVoteSession(r) : null;
  }

  async setBallot(sessionId: string, userId: string, votes: Record<string, number>): Promise<boolean> {
    const entries = Object.entries(votes).filter(([, n]) => n > 0);
    await this.sql.batch([
      // A no-op write on the open session row first: on PostgreSQL it holds the row lock, so a
      // concurrent close waits for this ballot and the steps below see one state, all or nothing.
      // (SQLite runs the whole transaction under its one write lock.)
      sql`UPDATE vote_sessions SET votes_per_person = votes_per_person
          WHERE id = ${sessionId} AND closed_at IS NULL`,
      sql`DELETE FROM vote_ballots WHERE session_id = ${sessionId} AND user_id = ${userId} AND ${isOpen(sessionId)}`,
      ...entries.map(
        ([shapeId, n]) =>
          sql`INSERT INTO vote_ballots (session_id, user_id, shape_id, votes)
              SELECT ${sessionId}, ${userId}, ${shapeId}, CAST(${n} AS INTEGER) WHERE ${isOpen(sessionId)}`,
      ),
    ]);
    // Whether it went in: a session closed meanwhile left the previous ballot as it was.
    const stored = await this.getBallot(sessionId, userId);
    return entries.length === Object.keys(stored).length && entries.every(([id, n]) => stored[id] === n);
  }

  async getBallot(sessionId: string, userId: string): Promise<Record<string, number>> {
    const rows = await this.sql.all(
      sql`SELECT shape_id, votes FROM vote_ballots WHERE session_id = ${sessionId} AND user_id = ${userId}`,
    );
    return Object.fromEntries(rows.map((r) => [r.shape_id as string, Number(r.votes)]));
  }

  async countVoters(sessionId: string): Promise<number> {
    const r = await this.sql.one(
      sql`SELECT COUNT(DISTINCT user_id) AS n FROM vote_ballots WHERE ${countedBallot(sessionId)}`,
    );
    return Number(r?.n ?? 0);
  }

  async closeSession(sessionId: string): Promise<boolean> {
    const changed = await this.sql.run(
      sql`UPDATE vote_sessions SET closed_at = ${new Date()} WHERE id = ${sessionId} AND closed_at IS NULL`,
    );
    return changed > 0;
  }

  async totals(sessionId: string): Promise<{ shapeId: string; votes: number }[]> {
    const rows = await this.sql.all(
      sql`SELECT shape_id, SUM(votes) AS votes FROM vote_ballots WHERE ${countedBallot(sessionId)}
          GROUP BY shape_id`,
    );
    return rows.map((r) => ({ shapeId: r.shape_id as string, votes: Number(r.votes) }));
  }
}
