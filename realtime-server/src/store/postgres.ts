// The PostgreSQL Store, for several instances sharing one database. Anything two instances could
// do at once (migrating, compacting one board) runs under an advisory lock. The repositories
// (facade.ts) run on its `sql` executor; this file holds what PostgreSQL does its own way.
import pg from 'pg';
import type { Logger } from 'pino';
import * as doc from './doclog.ts';
import { type Engine, SqlStore } from './facade.ts';
import { migrations, PROBE_WRITE, postgresDialect } from './migrations.ts';
import { isQueryTimeout, PostgresSql, sql } from './sql.ts';
import { BoardGoneError, type DocEntry, type LogSize, type MergeParts, type StoredDoc } from './types.ts';

export interface PostgresStoreOptions {
  connectionString: string;
  /** A schema of its own (created when missing); tests use one per run. Default: the server's search_path. */
  schema?: string;
  logger?: Logger;
  /** Pool size; the default suits one instance of a small deployment. */
  max?: number;
  /**
   * How long any query (and any wait for a connection) may take before it fails. A query that
   * times out also closes its connection: on a silent network (a firewall dropping packets, a
   * failover) the connection would otherwise stay busy for ever and the pool run dry.
   */
  timeoutMs?: number;
}

export const DEFAULT_DATABASE_TIMEOUT_MS = 5000;

/** Closes a pooled client's socket at once (pool.release only sends Terminate, which a silent peer never answers). */
function destroyConnection(client: pg.PoolClient | pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

// Advisory lock keys are (class, object) pairs; the classes keep ours apart from anyone else's.
const MIGRATE_LOCK = 0x74616e64; // 'tand'
const COMPACT_LOCK = 0x636d7074; // 'cmpt'

const schemaPattern = /^[a-z_][a-z0-9_]{0,62}$/;

/** The Store on PostgreSQL: the repositories and the PostgreSQL engine over one pool. */
export class PostgresStore extends SqlStore {
  readonly pool: pg.Pool;

  constructor(options: PostgresStoreOptions) {
    const pool = openPool(options);
    const sql = new PostgresSql(pool, () => pool.connect());
    super(
      sql,
      new PostgresEngine(pool, sql, options.schema, options.timeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS),
    );
    this.pool = pool;
  }
}

function openPool(options: PostgresStoreOptions): pg.Pool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS;
  if (options.schema !== undefined && !schemaPattern.test(options.schema)) {
    throw new Error(`schema must match ${schemaPattern}: ${JSON.stringify(options.schema)}`);
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: timeoutMs,
    // Client side: the query fails after this long whatever the network does.
    query_timeout: timeoutMs,
    // Server side: a query stuck on a lock or a slow plan is cancelled too, freeing its locks.
    statement_timeout: timeoutMs,
    // A peer that vanished (host down, NAT entry dropped) is noticed by the kernel.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // Set at connection start-up, so no query can ever run with another search_path.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const logger = options.logger;
  // An idle client whose server went away emits 'error' on the pool; unhandled, it would
  // crash the process. The next query reconnects (or fails and says so).
  pool.on('error', (err) => logger?.warn({ err }, 'idle postgres connection failed'));
  // A client checked out of the pool (a transaction, an advisory lock, an asset upload) has no
  // listener of the pool's: if its server goes away between two queries it emits 'error', and
  // unhandled that ends the process. Its next query fails and says so; here it is only logged.
  const checkedOutFailed = (err: Error) =>
    logger?.warn({ err }, 'postgres connection failed while checked out');
  pool.on('acquire', (client) => {
    client.on('error', checkedOutFailed);
  });
  // A client released after a timed-out query is dropped by the pool (release with an error);
  // its socket is closed here, since the query it still waits for may never be answered.
  pool.on('release', (err, client) => {
    // A client released with an error is thrown away, and may still emit 'error' while it
    // closes: it keeps the listener. A healthy one goes back to the pool without it.
    if (!err) client.off('error', checkedOutFailed);
    if (isQueryTimeout(err)) destroyConnection(client);
  });
  return pool;
}

class PostgresEngine implements Engine {
  readonly dialect = postgresDialect;

  constructor(
    private readonly pool: pg.Pool,
    private readonly sql: PostgresSql,
    private readonly schema: string | undefined,
    private readonly timeoutMs: number,
  ) {}

  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [MIGRATE_LOCK, this.schema ?? '']);
      try {
        if (this.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
        await client.query(
          'CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)',
        );
        const done = new Set(
          (await client.query('SELECT id FROM migrations')).rows.map((r) => r.id as number),
        );
        for (const m of migrations) {
          if (done.has(m.id)) continue;
          await client.query('BEGIN');
          try {
            for (const sql of m.statements(postgresDialect)) await client.query(sql);
            await client.query('INSERT INTO migrations (id, name, applied_at) VALUES ($1, $2, now())', [
              m.id,
              m.name,
            ]);
            await client.query('COMMIT');
          } catch (err) {
            await client.query('ROLLBACK');
            throw err;
          }
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [MIGRATE_LOCK, this.schema ?? '']);
      }
    } finally {
      // Closing this connection rather than pooling it ends its session, so the lock can never
      // outlive a failed migration or unlock.
      client.release(true);
    }
  }

  async ping(): Promise<void> {
    await this.promptly('SELECT 1');
  }

  async probeWrite(): Promise<void> {
    // A new row version and a WAL record, committed: it fails as any write would (disk full,
    // default_transaction_read_only, a standby after a failover).
    await this.promptly(PROBE_WRITE);
  }

  /** One statement for /readyz, which must answer promptly during an outage, not after a whole query timeout. */
  private async promptly(statement: string): Promise<void> {
    const limit = Math.min(2000, this.timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.pool.query(statement),
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('database did not answer in time')), limit);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async loadDoc(key: string): Promise<StoredDoc> {
    return doc.toStoredDoc(await this.sql.all(doc.loadDoc(key)));
  }

  logHeads(keys: readonly string[]): Promise<Map<string, number>> {
    return doc.readLogHeads(keys, (query) => this.sql.all(query));
  }

  async append(key: string, entries: DocEntry[]): Promise<LogSize> {
    if (entries.length > 0) {
      await this.sql.transaction(async (tx) => {
        // A lock on the board row: a deletion (which updates that row) waits for this append and
        // then deletes what it wrote, or this append waits for the deletion and then finds the
        // board deleted. Either way no content outlives a deleted board. Not FOR SHARE: the insert
        // below updates the row too (updatedAt), and two appends each holding a share lock and
        // then asking to update would deadlock; this lock makes them take turns instead.
        if (!(await tx.one(doc.liveBoard(key, 'FOR NO KEY UPDATE')))) throw new BoardGoneError(key);
        for (const q of doc.appendEntries(key, entries, true)) await tx.run(q);
      });
    }
    return doc.toLogSize(await this.sql.one(doc.logSize(key)));
  }

  async compact(key: string, merge: MergeParts): Promise<void> {
    await this.sql.transaction(async (tx) => {
      // Held to the end of the transaction: a second compactor waits, then reads our result.
      await tx.run(sql`SELECT pg_advisory_xact_lock(${COMPACT_LOCK}, hashtext(${key}))`);
      if (!(await tx.one(doc.liveBoard(key, 'FOR SHARE')))) return;
      const snapshot = await tx.one(doc.readSnapshot(key));
      const log = await tx.all(doc.readLog(key));
      if (log.length === 0) return;
      const parts = log.map((r) => r.data as Uint8Array);
      if (snapshot) parts.unshift(snapshot.data as Uint8Array);
      const merged = await merge(parts);
      await tx.run(doc.putSnapshot(key, merged));
      // Exactly the entries merged above: anything appended since stays in the log.
      const { keep, remove } = doc.retireEntries(log.map((r) => r.seq));
      for (const q of [...keep, ...remove]) await tx.run(q);
    });
  }
}
