// Saved templates (docs/api.md §19), each query written once for both engines over their `sql`
// executor. What a person may see is decided here in one place: their own, and those shared.
import { type Row, time } from './rows.ts';
import { type Sql, sql } from './sql.ts';
import type { TemplateRow } from './types.ts';

const toTemplate = (r: Row): TemplateRow => ({
  id: r.id as string,
  ownerId: r.owner_id as string,
  ownerName: r.owner_name as string,
  name: r.name as string,
  description: r.description as string,
  content: r.content as string,
  shapeCount: Number(r.shape_count),
  shared: r.shared === true || r.shared === 1,
  createdAt: time(r.created_at),
});

const columns = sql`t.id, t.owner_id, u.name AS owner_name, t.name, t.description, t.shape_count, t.shared,
  t.created_at`;

export class TemplateRepository {
  constructor(private readonly sql: Sql) {}

  async create(t: Omit<TemplateRow, 'createdAt' | 'ownerName'>): Promise<void> {
    await this.sql.run(
      sql`INSERT INTO templates (id, owner_id, name, description, content, shape_count, shared, created_at)
          VALUES (${t.id}, ${t.ownerId}, ${t.name}, ${t.description}, ${t.content}, ${t.shapeCount},
                  ${t.shared}, ${new Date()})`,
    );
  }

  /** The user's own templates and every shared one, newest first, without their content. */
  async listVisible(userId: string): Promise<Omit<TemplateRow, 'content'>[]> {
    const rows = await this.sql.all(
      sql`SELECT ${columns} FROM templates t JOIN users u ON u.id = t.owner_id
          WHERE t.owner_id = ${userId} OR t.shared = ${true}
          ORDER BY t.created_at DESC, t.id`,
    );
    return rows.map((r) => {
      const { content: _content, ...rest } = toTemplate({ ...r, content: '' });
      return rest;
    });
  }

  /** A template the user may see (their own or a shared one), with its content; else null. */
  async getVisible(id: string, userId: string): Promise<TemplateRow | null> {
    const r = await this.sql.one(
      sql`SELECT ${columns}, t.content FROM templates t JOIN users u ON u.id = t.owner_id
          WHERE t.id = ${id} AND (t.owner_id = ${userId} OR t.shared = ${true})`,
    );
    return r ? toTemplate(r) : null;
  }

  /** Changes the owner's template; false when `ownerId` owns no template of that id. */
  async update(
    id: string,
    ownerId: string,
    change: { name?: string | undefined; description?: string | undefined; shared?: boolean | undefined },
  ): Promise<boolean> {
    const current = await this.getVisible(id, ownerId);
    if (!current || current.ownerId !== ownerId) return false;
    const changed = await this.sql.run(
      sql`UPDATE templates SET name = ${change.name ?? current.name},
            description = ${change.description ?? current.description},
            shared = ${change.shared ?? current.shared}
          WHERE id = ${id} AND owner_id = ${ownerId}`,
    );
    return changed > 0;
  }

  /** Deletes the owner's template; false when `ownerId` owns no template of that id. */
  async delete(id: string, ownerId: string): Promise<boolean> {
    return (await this.sql.run(sql`DELETE FROM templates WHERE id = ${id} AND owner_id = ${ownerId}`)) > 0;
  }
}
