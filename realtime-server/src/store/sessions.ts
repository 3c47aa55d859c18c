// Login sessions, each query written once for both engines over their `sql` executor.
import { toSession } from './rows.ts';
import { inLists, type Sql, sql } from './sql.ts';
import type { SessionRow } from './types.ts';

export class SessionRepository {
  constructor(private readonly sql: Sql) {}

  async create(s: SessionRow): Promise<void> {
    await this.sql.run(
      sql`INSERT INTO sessions (id_hash, user_id, created_at, expires_at)
          VALUES (${s.idHash}, ${s.userId}, ${s.createdAt}, ${s.expiresAt})`,
    );
  }

  async get(idHash: string): Promise<SessionRow | null> {
    // An expired session is as good as none, so a caller can never accept one by mistake.
    const r = await this.sql.one(
      sql`SELECT * FROM sessions WHERE id_hash = ${idHash} AND expires_at > ${new Date()}`,
    );
    return r ? toSession(r) : null;
  }

  /** Slides a session's expiry. */
  async extend(idHash: string, expiresAt: Date): Promise<void> {
    await this.sql.run(sql`UPDATE sessions SET expires_at = ${expiresAt} WHERE id_hash = ${idHash}`);
  }

  async delete(idHash: string): Promise<void> {
    await this.sql.run(sql`DELETE FROM sessions WHERE id_hash = ${idHash}`);
  }

  /** Which of these id hashes belong to sessions that exist and have not expired. */
  async live(idHashes: string[]): Promise<Set<string>> {
    const live = new Set<string>();
    const now = new Date();
    for (const hashes of inLists(idHashes)) {
      const rows = await this.sql.all(
        sql`SELECT id_hash FROM sessions WHERE expires_at > ${now} AND id_hash IN (${hashes})`,
      );
      for (const r of rows) live.add(r.id_hash as string);
    }
    return live;
  }
}
