// `npm run restore -- BACKUP_DIR [--data-dir DIR] [--force]`: restores a backup made by
// `npm run backup` into DATA_DIR (read from the environment as the server reads it, or --data-dir).
// It refuses a DATA_DIR that is not empty unless --force (which replaces the database, its -wal
// and -shm, the secret and the images, and leaves anything else), and refuses always while a
// server has DATA_DIR's database open. Also built into realtime-server/dist/restore.js.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, restoreDataDir } from '../realtime-server/src/backup.ts';
import { ConfigError, dataDirFiles, loadStorageConfig } from '../realtime-server/src/config.ts';

const usage = 'usage: npm run restore -- BACKUP_DIR [--data-dir DIR] [--force]';

function fail(message: string): never {
  console.error(`npm run restore: ${message}`);
  process.exit(1);
}

const options = {
  'data-dir': { type: 'string' },
  force: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;
let parsed: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>;
try {
  parsed = parseArgs({ options, allowPositionals: true });
} catch (error) {
  fail(`${(error as Error).message}\n${usage}`);
}
if (parsed.values.help) {
  console.log(usage);
  process.exit(0);
}
if (parsed.positionals.length !== 1) fail(`name one backup directory.\n${usage}`);

try {
  const storage = loadStorageConfig();
  if (storage.databaseUrl) {
    fail(
      'DATABASE_URL is set, so the server keeps its data in PostgreSQL and would not use a restored DATA_DIR: restore PostgreSQL with pg_restore (docs/operations.md, "PostgreSQL backups and restore"), or unset DATABASE_URL to restore an SQLite backup.',
    );
  }
  // npm runs scripts in the package's root: paths typed on the command line are relative to
  // where they were typed (INIT_CWD). DATA_DIR is relative to the root, as for `npm start`.
  const here = process.env.INIT_CWD ?? '.';
  const backup = resolve(here, parsed.positionals[0]!);
  const dataDir = parsed.values['data-dir'] ? resolve(here, parsed.values['data-dir']) : storage.dataDir;
  const manifest = await restoreDataDir({ backup, dataDir, force: parsed.values.force ?? false });
  console.log(`Restored ${backup} (database as of ${manifest.databaseAt}) into DATA_DIR ${dataDir}`);
  console.log(
    `  ${manifest.database.boards} boards, ${manifest.database.users} users, ${manifest.database.versions} versions, ${manifest.assets.images} images`,
  );
  if (manifest.secret === 'included') {
    console.log(
      `  secret: restored to ${join(dataDir, dataDirFiles.secret)}; access tokens issued before the backup stay valid`,
    );
  } else if (manifest.secret === 'environment') {
    console.log(
      '  secret: the backed-up server had SECRET set: start this one with the same SECRET, or access tokens issued before are refused (sessions are unaffected)',
    );
  }
  console.log(`Start the server with DATA_DIR=${dataDir}.`);
} catch (error) {
  if (error instanceof BackupError || error instanceof ConfigError) fail(error.message);
  throw error;
}
