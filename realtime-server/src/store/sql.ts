// One way to write a query for both stores. A query is written once with the `sql` tag; each
// backend's executor turns the interpolated values into its own placeholders (`?` for SQLite,
// `$n` for PostgreSQL) and its own value types (epoch milliseconds and 0/1 for SQLite, Date,
// boolean and Buffer for PostgreSQL). Reading rows back is rows.ts's job.
import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { Row } from './rows.ts';
import type { WriteGate } from './writeGate.ts';

/** A statement cut where its values go: `parts.length === values.length + 1`. */
export interface Query {
  readonly parts: readonly string[];
  readonly values: readonly unknown[];
}

/** Raw SQL spliced into a query as text, never as a value (column lists, ORDER BY clauses). */
export class Raw {
  constructor(readonly text: string) {}
}
export const raw = (text: string): Raw => new Raw(text);

/**
 * `sql\`SELECT * FROM users WHERE id = ${id}\``: values become placeholders; a `Raw` is spliced
 * in as text; a `Query` is spliced in with its own values.
 */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Query {
  return join(
    strings.map((text, i) => {
      if (i === strings.length - 1) return { parts: [text], values: [] };
      const v = values[i];
      if (v instanceof Raw) return { parts: [text + v.text], values: [] };
      if (isQuery(v)) return join([{ parts: [text], values: [] }, v], '');
      return { parts: [text, ''], values: [v] };
    }),
    '',
  );
}

/** Joins queries with a separator (e.g. the rows of one VALUES list). */
export function join(queries: Query[], separator: string): Query {
  const parts: string[] = [];
  const values: unknown[] = [];
  let text = '';
  queries.forEach((q, i) => {
    if (i > 0) text += separator;
    q.parts.forEach((part, j) => {
      if (j > 0) {
        parts.push(text);
        values.push(q.values[j - 1]);
        text = '';
      }
      text += part;
    });
  });
  parts.push(text);
  return { parts, values };
}

/** Values per IN list, well under both databases' parameter limits. */
export const IN_CHUNK = 500;

/** `values` cut into IN lists of at most IN_CHUNK values each: `WHERE id IN (${list})`. */
export function inLists(values: readonly unknown[]): Query[] {
  const lists: Query[] = [];
  for (let i = 0; i < values.length; i += IN_CHUNK) {
    lists.push(
      join(
        values.slice(i, i + IN_CHUNK).map((v) => sql`${v}`),
        ', ',
      ),
    );
  }
  return lists;
}

const isQuery = (v: unknown): v is Query =>
  typeof v === 'object' &&
  v !== null &&
  Array.isArray((v as Query).parts) &&
  Array.isArray((v as Query).values);

/** What the repositories need from a database; both engines provide one. */
export interface Sql {
  all(q: Query): Promise<Row[]>;
  one(q: Query): Promise<Row | null>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(q: Query): Promise<number>;
  /** Runs the statements in order in one transaction. */
  batch(qs: Query[]): Promise<void>;
  /** A unique constraint refused the row. */
  isUniqueViolation(err: unknown): boolean;
}

// ---------------------------------------------------------------------------------------------
// SQLite

const sqliteValue = (v: unknown): unknown => {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
};

export const sqliteText = (q: Query): string => q.parts.join('?');

const allOf = (s: Database.Statement, q: Query): Row[] => s.all(...q.values.map(sqliteValue)) as Row[];

function oneOf(s: Database.Statement, q: Query): Row | null {
  const values = q.values.map(sqliteValue);
  // A statement that returns nothing cannot be read with get(); RETURNING ones can.
  if (!s.reader) {
    s.run(...values);
    return null;
  }
  return (s.get(...values) as Row | undefined) ?? null;
}

export class SqliteSql implements Sql {
  private readonly cache = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    /**
     * Resolves once what was committed is on disk (store/walFlush.ts); every call that wrote
     * awaits it. None for a database that is not a file.
     */
    readonly durable: () => Promise<void> = () => Promise.resolve(),
    /** Where writes wait while another connection of this process writes (store/writeGate.ts). */
    private readonly gate: WriteGate | null = null,
  ) {}

  /** A statement prepared once per text (the document path runs the same few on every write). */
  prepare(text: string): Database.Statement {
    let s = this.cache.get(text);
    if (!s) {
      s = this.db.prepare(text);
      this.cache.set(text, s);
    }
    return s;
  }

  private statement(q: Query): Database.Statement {
    return this.prepare(sqliteText(q));
  }

  allSync(q: Query): Row[] {
    return allOf(this.statement(q), q);
  }

  oneSync(q: Query): Row | null {
    return oneOf(this.statement(q), q);
  }

  runSync(q: Query): number {
    return this.statement(q).run(...q.values.map(sqliteValue)).changes;
  }

  // A read that writes (an UPDATE … RETURNING read with one()) waits for the flush like any write.
  async all(q: Query): Promise<Row[]> {
    const s = this.statement(q);
    if (!s.readonly && this.gate?.held) await this.gate.open();
    const rows = allOf(s, q);
    if (!s.readonly) await this.durable();
    return rows;
  }

  async one(q: Query): Promise<Row | null> {
    const s = this.statement(q);
    if (!s.readonly && this.gate?.held) await this.gate.open();
    const row = oneOf(s, q);
    if (!s.readonly) await this.durable();
    return row;
  }

  async run(q: Query): Promise<number> {
    if (this.gate?.held) await this.gate.open();
    const changed = this.runSync(q);
    await this.durable();
    return changed;
  }

  async batch(qs: Query[]): Promise<void> {
    if (this.gate?.held) await this.gate.open();
    this.db.transaction(() => {
      for (const q of qs) this.runSync(q);
    })();
    await this.durable();
  }

  isUniqueViolation(err: unknown): boolean {
    // A composite primary key's clash has its own code; it is a unique violation all the same.
    const code = (err as { code?: string }).code;
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

const pgValue = (v: unknown): unknown =>
  v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v;

export const postgresText = (q: Query): string =>
  q.parts.reduce((text, part, i) => (i === 0 ? part : `${text}$${i}${part}`), '');

/** The error pg raises when a query outlives query_timeout. */
export const isQueryTimeout = (error: unknown): boolean =>
  error instanceof Error && error.message === 'Query read timeout';

type PgQueryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

export class PostgresSql implements Sql {
  constructor(
    private readonly db: PgQueryable,
    /** A client for one transaction; released with an error when it could not even roll back. */
    private readonly connect: () => Promise<pg.PoolClient>,
  ) {}

  async all(q: Query): Promise<Row[]> {
    return (await this.db.query(postgresText(q), q.values.map(pgValue))).rows as Row[];
  }

  async one(q: Query): Promise<Row | null> {
    return ((await this.all(q))[0] as Row | undefined) ?? null;
  }

  async run(q: Query): Promise<number> {
    return (await this.db.query(postgresText(q), q.values.map(pgValue))).rowCount ?? 0;
  }

  async batch(qs: Query[]): Promise<void> {
    await this.transaction(async (tx) => {
      for (const q of qs) await tx.run(q);
    });
  }

  /** Runs `fn` in one transaction on one pooled connection. */
  async transaction<T>(fn: (tx: PostgresSql) => Promise<T>): Promise<T> {
    const client = await this.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await fn(new PostgresSql(client, this.connect));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      // A connection that cannot even roll back is not given back to the pool; one whose query
      // timed out is not asked to (its ROLLBACK would only wait behind the lost query).
      broken = isQueryTimeout(err)
        ? (err as Error)
        : await client.query('ROLLBACK').then(
            () => undefined,
            (rollbackErr: Error) => rollbackErr,
          );
      throw err;
    } finally {
      client.release(broken);
    }
  }

  isUniqueViolation(err: unknown): boolean {
    return (err as { code?: string }).code === '23505';
  }
}
