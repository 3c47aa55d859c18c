// Picks the Store for a deployment: PostgreSQL when DATABASE_URL names one, else the embedded
// SQLite file in DATA_DIR. Either way the schema is migrated before the store is handed out.
// Each store's module (and its driver: pg or better-sqlite3) is imported only when chosen, so
// a deployment does not load the driver it does not use.
import type { Logger } from 'pino';
import type { Store } from './store.ts';

export interface OpenStoreOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL only: a schema of its own, created when missing. */
  schema?: string | undefined;
  logger?: Logger | undefined;
  /** PostgreSQL only: how long a query may take before it fails and its connection is closed. */
  timeoutMs?: number | undefined;
}

export const isPostgresUrl = (url: string | undefined): url is string =>
  url !== undefined && /^postgres(ql)?:\/\//.test(url);

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const url = options.databaseUrl;
  const postgres = isPostgresUrl(url);
  let store: Store;
  if (isPostgresUrl(url)) {
    const { PostgresStore } = await import('./postgres.ts');
    store = new PostgresStore({
      connectionString: url,
      ...(options.schema ? { schema: options.schema } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
  } else {
    const { SqliteStore } = await import('./sqlite.ts');
    store = new SqliteStore({
      dataDir: options.dataDir,
      ...(options.logger ? { logger: options.logger } : {}),
    });
  }
  try {
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  options.logger?.info({ store: postgres ? 'postgres' : 'sqlite' }, 'store ready');
  return store;
}

export type { Store } from './store.ts';
