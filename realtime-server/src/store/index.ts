// Picks the Store for a deployment: PostgreSQL when DATABASE_URL names one, else the embedded
// SQLite file in DATA_DIR. Either way the schema is migrated before the store is handed out.
import type { Logger } from 'pino';
import { PostgresStore } from './postgres.ts';
import { SqliteStore } from './sqlite.ts';
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
  const store: Store = isPostgresUrl(options.databaseUrl)
    ? new PostgresStore({
        connectionString: options.databaseUrl,
        ...(options.schema ? { schema: options.schema } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      })
    : new SqliteStore({ dataDir: options.dataDir });
  try {
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  options.logger?.info({ store: store instanceof PostgresStore ? 'postgres' : 'sqlite' }, 'store ready');
  return store;
}

export type { Store } from './store.ts';
