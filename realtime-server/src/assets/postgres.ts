// The PostgreSQL AssetStore: images as rows next to the boards (migration 4), so every instance
// behind a load balancer serves every image. It shares the PostgresStore's pool, and so its
// schema. "Check the board's total, then insert" runs under a per-board advisory lock, so two
// instances uploading at once cannot together pass MAX_BOARD_ASSET_BYTES.
import type { AssetMime } from '@tandem/shared';
import type pg from 'pg';
import type { AssetMeta, AssetStore, PutResult, Rendition, StoredAsset } from './store.ts';

const ASSET_LOCK = 0x61737374; // 'asst'

type Row = Record<string, unknown>;

const toMeta = (row: Row): AssetMeta => ({
  boardId: row.board_id as string,
  id: row.id as string,
  mime: row.mime as AssetMime,
  width: Number(row.width),
  height: Number(row.height),
  bytes: Number(row.bytes),
  createdAt: new Date(row.created_at as Date),
  unreferencedSince: row.unreferenced_since ? new Date(row.unreferenced_since as Date) : null,
});

const buffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

const META = 'board_id, id, mime, width, height, bytes, created_at, unreferenced_since';

export class PostgresAssetStore implements AssetStore {
  constructor(private readonly pool: pg.Pool) {}

  async put(
    meta: Omit<AssetMeta, 'createdAt' | 'unreferencedSince'>,
    data: Uint8Array,
    maxBoardBytes: number,
  ): Promise<PutResult> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ASSET_LOCK, meta.boardId]);
      const existing = await client.query(`SELECT ${META} FROM assets WHERE board_id = $1 AND id = $2`, [
        meta.boardId,
        meta.id,
      ]);
      let result: PutResult;
      if (existing.rows[0]) {
        await client.query('UPDATE assets SET unreferenced_since = NULL WHERE board_id = $1 AND id = $2', [
          meta.boardId,
          meta.id,
        ]);
        result = {
          ok: true,
          meta: { ...toMeta(existing.rows[0] as Row), unreferencedSince: null },
          created: false,
        };
      } else {
        const total = await client.query(
          'SELECT COALESCE(SUM(bytes), 0) AS total FROM assets WHERE board_id = $1',
          [meta.boardId],
        );
        if (Number((total.rows[0] as Row).total) + data.byteLength > maxBoardBytes) {
          result = { ok: false, reason: 'board-full' };
        } else {
          const inserted = await client.query(
            `INSERT INTO assets (board_id, id, mime, width, height, bytes, data, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, now()) RETURNING ${META}`,
            [meta.boardId, meta.id, meta.mime, meta.width, meta.height, data.byteLength, buffer(data)],
          );
          result = { ok: true, meta: toMeta(inserted.rows[0] as Row), created: true };
        }
      }
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = await client.query('ROLLBACK').then(
        () => undefined,
        (rollbackError: Error) => rollbackError,
      );
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async head(boardId: string, id: string): Promise<AssetMeta | null> {
    const res = await this.pool.query(`SELECT ${META} FROM assets WHERE board_id = $1 AND id = $2`, [
      boardId,
      id,
    ]);
    return res.rows[0] ? toMeta(res.rows[0] as Row) : null;
  }

  async get(boardId: string, id: string): Promise<StoredAsset | null> {
    const res = await this.pool.query(`SELECT ${META}, data FROM assets WHERE board_id = $1 AND id = $2`, [
      boardId,
      id,
    ]);
    const row = res.rows[0] as Row | undefined;
    return row ? { meta: toMeta(row), data: row.data as Buffer } : null;
  }

  async getRendition(boardId: string, id: string, width: number): Promise<Rendition | null> {
    const res = await this.pool.query(
      'SELECT mime, data FROM asset_renditions WHERE board_id = $1 AND asset_id = $2 AND width = $3',
      [boardId, id, width],
    );
    const row = res.rows[0] as Row | undefined;
    return row ? { mime: row.mime as AssetMime, data: row.data as Buffer } : null;
  }

  async putRendition(boardId: string, id: string, width: number, rendition: Rendition): Promise<void> {
    // Two instances may make the same rendition at once; the first one kept wins. An asset
    // deleted meanwhile inserts nothing.
    await this.pool.query(
      `INSERT INTO asset_renditions (board_id, asset_id, width, mime, data)
       SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM assets WHERE board_id = $1 AND id = $2)
       ON CONFLICT DO NOTHING`,
      [boardId, id, width, rendition.mime, buffer(rendition.data)],
    );
  }

  async list(boardId: string): Promise<AssetMeta[]> {
    const res = await this.pool.query(
      `SELECT ${META} FROM assets WHERE board_id = $1 ORDER BY created_at, id`,
      [boardId],
    );
    return res.rows.map((row) => toMeta(row as Row));
  }

  async boards(): Promise<string[]> {
    const res = await this.pool.query('SELECT DISTINCT board_id FROM assets ORDER BY board_id');
    return res.rows.map((row) => (row as Row).board_id as string);
  }

  async boardBytes(boardId: string): Promise<number> {
    const res = await this.pool.query(
      'SELECT COALESCE(SUM(bytes), 0) AS total FROM assets WHERE board_id = $1',
      [boardId],
    );
    return Number((res.rows[0] as Row).total);
  }

  async delete(boardId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.pool.query('DELETE FROM assets WHERE board_id = $1 AND id = ANY($2::text[])', [boardId, ids]);
  }

  async markUnreferenced(boardId: string, ids: string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.pool.query(
      `UPDATE assets SET unreferenced_since = $3
       WHERE board_id = $1 AND id = ANY($2::text[]) AND unreferenced_since IS NULL`,
      [boardId, ids, at],
    );
  }

  async markReferenced(boardId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.pool.query(
      `UPDATE assets SET unreferenced_since = NULL
       WHERE board_id = $1 AND id = ANY($2::text[]) AND unreferenced_since IS NOT NULL`,
      [boardId, ids],
    );
  }

  async deleteUnreferenced(boardId: string, before: Date): Promise<string[]> {
    const res = await this.pool.query(
      `DELETE FROM assets WHERE board_id = $1 AND unreferenced_since IS NOT NULL AND unreferenced_since <= $2
       RETURNING id`,
      [boardId, before],
    );
    return res.rows.map((row) => (row as Row).id as string).sort();
  }

  /** The pool belongs to the PostgresStore, which closes it. */
  async close(): Promise<void> {}
}
