// A fresh Store on each engine, for the contract suites that run one set of tests against both:
// SQLite in a temp directory, PostgreSQL in a schema of its own (skipped when PostgreSQL is down).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresStore } from '../realtime-server/src/store/postgres.ts';
import { SqliteStore } from '../realtime-server/src/store/sqlite.ts';
import type { Store } from '../realtime-server/src/store/store.ts';
import { dropSchema, postgresUrl, skipUnless } from './services.ts';

export interface StoreFixture {
  name: string;
  skip?: string | undefined;
  /** A migrated Store. */
  open(): Promise<Store>;
  /** Removes what open() made (the caller closes the Store first). */
  tearDown(): Promise<void>;
}

export function sqliteFixture(label: string): StoreFixture {
  const dir = mkdtempSync(join(tmpdir(), `tandem-${label}-`));
  return {
    name: 'SqliteStore',
    async open() {
      const store = new SqliteStore({ dataDir: dir });
      await store.migrate();
      return store;
    },
    async tearDown() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const pgSkip = await skipUnless('postgres');

export function postgresFixture(label: string): StoreFixture {
  const schema = `test_${label}_${randomBytes(6).toString('hex')}`;
  return {
    name: 'PostgresStore',
    skip: pgSkip,
    async open() {
      const store = new PostgresStore({ connectionString: postgresUrl(), schema, max: 4 });
      await store.migrate();
      return store;
    },
    async tearDown() {
      await dropSchema(schema);
    },
  };
}
