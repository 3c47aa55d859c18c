// Accounts (users), each query written once for both engines over their `sql` executor.
import { toUser } from './rows.ts';
import { inLists, type Sql, sql } from './sql.ts';
import { EmailTakenError, type UserBadge, type UserRow } from './types.ts';

export class UserRepository {
  constructor(private readonly sql: Sql) {}

  async create(user: Omit<UserRow, 'createdAt'>): Promise<UserRow> {
    const createdAt = new Date();
    try {
      await this.sql.run(
        sql`INSERT INTO users (id, name, email, password_hash, color, is_guest, created_at)
            VALUES (${user.id}, ${user.name}, ${user.email}, ${user.passwordHash}, ${user.color},
                    ${user.isGuest}, ${createdAt})`,
      );
    } catch (err) {
      // The id is random, so a unique violation with the email in use is the email's.
      if (this.sql.isUniqueViolation(err) && user.email !== null && (await this.getByEmail(user.email))) {
        throw new EmailTakenError();
      }
      throw err;
    }
    return { ...user, createdAt };
  }

  /** Same id, so every membership and board is kept; null when `id` is not a guest. */
  async upgradeGuest(
    id: string,
    account: { name: string; email: string; passwordHash: string },
  ): Promise<UserRow | null> {
    try {
      await this.sql.run(
        sql`UPDATE users SET name = ${account.name}, email = ${account.email},
              password_hash = ${account.passwordHash}, is_guest = ${false}
            WHERE id = ${id} AND is_guest = ${true}`,
      );
    } catch (err) {
      if (this.sql.isUniqueViolation(err) && (await this.getByEmail(account.email))) {
        throw new EmailTakenError();
      }
      throw err;
    }
    const after = await this.get(id);
    return after && !after.isGuest && after.email === account.email ? after : null;
  }

  async setColor(id: string, color: string): Promise<UserRow | null> {
    await this.sql.run(sql`UPDATE users SET color = ${color} WHERE id = ${id}`);
    return this.get(id);
  }

  async get(id: string): Promise<UserRow | null> {
    const r = await this.sql.one(sql`SELECT * FROM users WHERE id = ${id}`);
    return r ? toUser(r) : null;
  }

  async getByEmail(email: string): Promise<UserRow | null> {
    const r = await this.sql.one(sql`SELECT * FROM users WHERE lower(email) = lower(${email})`);
    return r ? toUser(r) : null;
  }

  /** Name and colour of each user that exists (version history's authors). */
  async badges(ids: string[]): Promise<UserBadge[]> {
    const badges: UserBadge[] = [];
    for (const list of inLists(ids)) {
      const rows = await this.sql.all(sql`SELECT id, name, color FROM users WHERE id IN (${list})`);
      for (const r of rows)
        badges.push({ id: r.id as string, name: r.name as string, color: r.color as string });
    }
    return badges;
  }
}
