// Backups of an embedded (SQLite) deployment's DATA_DIR, for `npm run backup` and `npm run
// restore` (scripts/backup.ts, scripts/restore.ts; docs/operations.md, "Backups").
//
// A backup is a directory, so that it needs no archiver to read and an operator can inspect it:
//
//   manifest.json   what was copied, when, and the database's SHA-256 (checked on restore)
//   tandem.db       the database, copied by SQLite's online backup API: one consistent snapshot,
//                   including what is still in the WAL, taken while the server keeps writing
//   assets/         the images (disk AssetStore), copied after the database
//   secret          the generated secret that signs access tokens (absent when SECRET is set)
//
// It is written under a temporary name and renamed into place last, so a directory with the
// final name is always a complete backup. It holds password hashes and the secret: mode 0700.
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { DATA_DIR_MODE, dataDirFiles } from './config.ts';

export const MANIFEST_FILE = 'manifest.json';
const FORMAT = 'tandem-backup';
const VERSION = 1;

/** A refusal or failure with a sentence for the operator (the scripts print it and exit 1). */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export interface Manifest {
  format: typeof FORMAT;
  version: typeof VERSION;
  /** When the backup finished. */
  createdAt: string;
  /** When the database snapshot was taken: every edit stored before this is in it. */
  databaseAt: string;
  /** The DATA_DIR it was taken from. */
  dataDir: string;
  database: { file: string; bytes: number; sha256: string; boards: number; users: number; versions: number };
  assets: { dir: string; images: number; files: number; bytes: number };
  /** included: DATA_DIR/secret is in the backup; environment: the server had SECRET set. */
  secret: 'included' | 'environment' | 'none';
}

const missing = (error: unknown): boolean => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Copies a folder the server may be writing into. Temporary files (the disk AssetStore writes
 * `*.tmp` and renames them into place) are skipped; a file deleted between listing and copying
 * (an unreferenced image's cleanup) is skipped too. Answers the files and bytes copied.
 */
function copyTree(from: string, to: string): { files: number; bytes: number; images: number } {
  const total = { files: 0, bytes: 0, images: 0 };
  let names: string[];
  try {
    names = readdirSync(from);
  } catch (error) {
    if (missing(error)) return total;
    throw error;
  }
  mkdirSync(to, { recursive: true });
  for (const name of names) {
    if (name.endsWith('.tmp')) continue;
    const source = join(from, name);
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(source);
    } catch (error) {
      if (missing(error)) continue;
      throw error;
    }
    if (stat.isDirectory()) {
      const inner = copyTree(source, join(to, name));
      total.files += inner.files;
      total.bytes += inner.bytes;
      total.images += inner.images;
      continue;
    }
    try {
      copyFileSync(source, join(to, name));
    } catch (error) {
      if (missing(error)) continue;
      throw error;
    }
    total.files += 1;
    total.bytes += stat.size;
    // Each image is its bytes plus `<id>.json`; renditions are `<id>.w<width>.<ext>`.
    if (name.endsWith('.json')) total.images += 1;
  }
  return total;
}

function count(db: Database.Database, table: string): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

/** Checks a database file and answers its board, user and version counts. */
function checkDatabase(path: string): { boards: number; users: number; versions: number } {
  const db = new Database(path, { fileMustExist: true });
  try {
    const result = db.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new BackupError(`the database copy ${path} is damaged: ${String(result)}`);
    return {
      boards: count(db, 'boards WHERE deleted_at IS NULL'),
      users: count(db, 'users'),
      versions: count(db, 'doc_versions'),
    };
  } finally {
    db.close();
  }
}

/** `tandem-backup-20260126-021500Z` for a time. */
export function defaultBackupName(at = new Date()): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  return `tandem-backup-${stamp}`;
}

export interface BackupOptions {
  dataDir: string;
  /** The backup directory to create; it must not exist yet. */
  target: string;
  /** SECRET is set in the environment: DATA_DIR/secret is not what signs tokens. */
  secretFromEnv: boolean;
}

/** Backs up DATA_DIR into `target` while a server may be running on it. */
export async function backupDataDir(options: BackupOptions): Promise<Manifest> {
  const { dataDir, target } = options;
  const dbPath = join(dataDir, dataDirFiles.database);
  if (!existsSync(dbPath)) {
    throw new BackupError(
      `there is no Tandem database in DATA_DIR ${dataDir} (no ${dataDirFiles.database}): set DATA_DIR as the server has it.`,
    );
  }
  if (existsSync(target)) throw new BackupError(`${target} already exists: name a new backup directory.`);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
  mkdirSync(partial, { mode: 0o700 });
  try {
    // 1. The database. The backup API restarts a step-wise copy whenever another connection (the
    // server) writes between steps, so under constant editing it might never finish: all pages
    // are copied in one step instead, inside one read transaction. That is a consistent snapshot,
    // and in WAL mode a reader does not hold up the server's writers.
    const copy = join(partial, dataDirFiles.database);
    const source = new Database(dbPath, { fileMustExist: true });
    let databaseAt: Date;
    try {
      source.pragma('busy_timeout = 5000');
      databaseAt = new Date();
      await source.backup(copy, { progress: () => 0x7fffffff });
    } finally {
      source.close();
    }
    // A self-contained file (no -wal beside it) that the sqlite3 shell can open read-only; the
    // server switches it back to WAL when it opens it.
    const db = new Database(copy, { fileMustExist: true });
    try {
      db.pragma('journal_mode = DELETE');
    } finally {
      db.close();
    }
    const counts = checkDatabase(copy);

    // 2. The images, after the database: every image the snapshot refers to was stored before it
    // (a client uploads an image before it places it), and images are deleted only after
    // HISTORY_DAYS unreferenced, so the copy has them all. Images uploaded since are extra, and
    // the cleanup removes them in time.
    const assets = copyTree(join(dataDir, dataDirFiles.assets), join(partial, dataDirFiles.assets));

    // 3. The secret: without it, the access tokens clients hold now are refused after a restore.
    let secret: Manifest['secret'] = 'none';
    if (options.secretFromEnv) {
      secret = 'environment';
    } else if (existsSync(join(dataDir, dataDirFiles.secret))) {
      copyFileSync(join(dataDir, dataDirFiles.secret), join(partial, dataDirFiles.secret));
      chmodSync(join(partial, dataDirFiles.secret), 0o600);
      secret = 'included';
    }

    const manifest: Manifest = {
      format: FORMAT,
      version: VERSION,
      createdAt: new Date().toISOString(),
      databaseAt: databaseAt.toISOString(),
      dataDir,
      database: {
        file: dataDirFiles.database,
        bytes: statSync(copy).size,
        sha256: await sha256(copy),
        ...counts,
      },
      assets: { dir: dataDirFiles.assets, ...assets },
      secret,
    };
    writeFileSync(join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(partial, target);
    return manifest;
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

/** Reads and checks a backup's manifest and database file. */
export async function readBackup(backup: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(backup, MANIFEST_FILE), 'utf8')) as Manifest;
  } catch (error) {
    if (missing(error))
      throw new BackupError(`${backup} is not a Tandem backup: it has no ${MANIFEST_FILE}.`);
    throw new BackupError(`${backup}/${MANIFEST_FILE} cannot be read: ${(error as Error).message}`);
  }
  if (manifest?.format !== FORMAT || manifest.version !== VERSION) {
    throw new BackupError(
      `${backup} is not a Tandem backup this version can restore (format ${String(manifest?.format)}, version ${String(manifest?.version)}).`,
    );
  }
  const db = join(backup, manifest.database.file);
  if (!existsSync(db))
    throw new BackupError(`${backup} is incomplete: ${manifest.database.file} is missing.`);
  if ((await sha256(db)) !== manifest.database.sha256) {
    throw new BackupError(
      `${backup} is damaged: ${manifest.database.file} does not match its SHA-256 in the manifest.`,
    );
  }
  return manifest;
}

/**
 * True when another process has DATA_DIR's database open (a running server). A connection that
 * asks for SQLite's exclusive locking mode cannot read a WAL database that another connection
 * has open, so the read fails at once (busy_timeout 0) with SQLITE_BUSY.
 */
export function databaseInUse(dataDir: string): boolean {
  const path = join(dataDir, dataDirFiles.database);
  if (!existsSync(path)) return false;
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    db.exec('COMMIT');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
    throw error;
  } finally {
    db.close();
  }
}

/** What a restore replaces in DATA_DIR with --force; anything else there is left alone. */
const replaced = [
  dataDirFiles.database,
  `${dataDirFiles.database}-wal`,
  `${dataDirFiles.database}-shm`,
  `${dataDirFiles.database}-journal`,
  dataDirFiles.secret,
  dataDirFiles.assets,
];

export interface RestoreOptions {
  backup: string;
  dataDir: string;
  /** Replace the Tandem data already in DATA_DIR. */
  force: boolean;
}

/** Restores a backup into DATA_DIR, which must be empty (or `force`) and not in use. */
export async function restoreDataDir(options: RestoreOptions): Promise<Manifest> {
  const { backup, dataDir } = options;
  const manifest = await readBackup(backup);
  if (databaseInUse(dataDir)) {
    throw new BackupError(
      `a running Tandem server (or another program) has ${join(dataDir, dataDirFiles.database)} open: stop it before restoring into its DATA_DIR.`,
    );
  }
  const present = existsSync(dataDir) ? readdirSync(dataDir) : [];
  if (present.length > 0) {
    if (!options.force) {
      const shown = present.slice(0, 5).join(', ') + (present.length > 5 ? ', …' : '');
      throw new BackupError(
        `DATA_DIR ${dataDir} is not empty (${shown}): restore into an empty directory, or pass --force to replace the Tandem data in it.`,
      );
    }
    // The old -wal and -shm must go with the old database: SQLite would apply them to the
    // restored file and damage it.
    for (const name of replaced) rmSync(join(dataDir, name), { recursive: true, force: true });
  }
  mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  copyTree(join(backup, manifest.assets.dir), join(dataDir, dataDirFiles.assets));
  if (manifest.secret === 'included') {
    copyFileSync(join(backup, dataDirFiles.secret), join(dataDir, dataDirFiles.secret));
    chmodSync(join(dataDir, dataDirFiles.secret), 0o600);
  }
  // The database last, under a temporary name until it is checked: a DATA_DIR with tandem.db in
  // it is a complete restore.
  const temp = join(dataDir, `${dataDirFiles.database}.restoring-${randomBytes(4).toString('hex')}`);
  try {
    copyFileSync(join(backup, manifest.database.file), temp);
    checkDatabase(temp);
    renameSync(temp, join(dataDir, dataDirFiles.database));
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return manifest;
}
