// Picks the AssetStore for a deployment, following the Store: PostgreSQL's tables when the
// Store is PostgreSQL (every instance serves every image), else files under DATA_DIR.
import { join } from 'node:path';
import { PostgresStore } from '../store/postgres.ts';
import type { Store } from '../store/store.ts';
import { DiskAssetStore } from './disk.ts';
import { PostgresAssetStore } from './postgres.ts';
import type { AssetStore } from './store.ts';

export function openAssetStore(store: Store, dataDir: string): AssetStore {
  if (store instanceof PostgresStore) return new PostgresAssetStore(store.pool);
  return new DiskAssetStore(join(dataDir, 'assets'));
}

export type { AssetStore } from './store.ts';
