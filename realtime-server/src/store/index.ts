// Chooses the Store from the configuration: PostgreSQL when a URL is given, else SQLite.
import type { Logger } from 'pino';
import { SqliteStore } from './sqlite.ts';
import type { Store } from './store.ts';

export interface OpenStoreOptions {
  databaseUrl?: string;
  dataDir: string;
  schema?: string;
  logger?: Logger;
}

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.databaseUrl) throw new Error('PostgreSQL store not available yet');
  const store = new SqliteStore({ dataDir: options.dataDir });
  await store.migrate();
  return store;
}
