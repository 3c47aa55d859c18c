// Picks the AssetStore for a deployment, following the Store: PostgreSQL's tables when the
// Store is PostgreSQL (every instance serves every image), else files under DATA_DIR.
import { join } from 'node:path';
import type pg from 'pg';
import { dataDirFiles } from '../config.ts';
import type { Store } from '../store/store.ts';
import { DiskAssetStore } from './disk.ts';
import { PostgresAssetStore } from './postgres.ts';
import type { AssetStore } from './store.ts';

export function openAssetStore(store: Store, dataDir: string): AssetStore {
  // Told apart by shape (PostgresStore's pool), so that a SQLite deployment never loads pg.
  const pool = (store as { pool?: pg.Pool }).pool;
  if (pool) return new PostgresAssetStore(pool);
  return new DiskAssetStore(join(dataDir, dataDirFiles.assets));
}

export type { AssetStore } from './store.ts';
