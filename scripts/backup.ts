// `npm run backup -- [DIR]`: backs up an embedded (SQLite) deployment while its server runs —
// the database through SQLite's online backup API, the images and the generated secret — into
// the directory DIR (default ./tandem-backup-<UTC time>), which must not exist yet. DATA_DIR and
// DATABASE_URL are read from the environment exactly as the server reads them. With DATABASE_URL
// set, everything is in PostgreSQL: it says to use pg_dump and exits 1 (docs/operations.md).
// Also built into realtime-server/dist/backup.js for the container image (no TypeScript loader).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, backupDataDir, defaultBackupName } from '../realtime-server/src/backup.ts';
import { ConfigError, loadStorageConfig } from '../realtime-server/src/config.ts';

const usage = 'usage: npm run backup -- [BACKUP_DIR]   (default ./tandem-backup-<UTC time>)';

function fail(message: string): never {
  console.error(`npm run backup: ${message}`);
  process.exit(1);
}

let parsed: ReturnType<typeof parseArgs<{ options: { help: { type: 'boolean' } }; allowPositionals: true }>>;
try {
  parsed = parseArgs({ options: { help: { type: 'boolean' } }, allowPositionals: true });
} catch (error) {
  fail(`${(error as Error).message}\n${usage}`);
}
if (parsed.values.help) {
  console.log(usage);
  process.exit(0);
}
if (parsed.positionals.length > 1) fail(`one backup directory at most.\n${usage}`);

try {
  const storage = loadStorageConfig();
  if (storage.databaseUrl) {
    fail(
      'DATABASE_URL is set, so accounts, boards, edits, versions and images are all in PostgreSQL and nothing in DATA_DIR needs a backup: back the database up with pg_dump (docs/operations.md, "PostgreSQL backups and restore"), and keep SECRET with it.',
    );
  }
  // npm runs scripts in the package's root: paths typed on the command line are relative to
  // where they were typed (INIT_CWD). DATA_DIR is relative to the root, as for `npm start`.
  const target = resolve(process.env.INIT_CWD ?? '.', parsed.positionals[0] ?? defaultBackupName());
  const manifest = await backupDataDir({
    dataDir: storage.dataDir,
    target,
    secretFromEnv: storage.secretFromEnv,
  });
  const { database, assets } = manifest;
  console.log(`Backed up DATA_DIR ${storage.dataDir} into ${target}`);
  console.log(
    `  database: ${database.boards} boards, ${database.users} users, ${database.versions} versions (${database.bytes} bytes, as of ${manifest.databaseAt})`,
  );
  console.log(`  images:   ${assets.images} (${assets.files} files, ${assets.bytes} bytes)`);
  console.log(
    manifest.secret === 'included'
      ? '  secret:   included (the backup holds it and password hashes: keep it private)'
      : manifest.secret === 'environment'
        ? '  secret:   SECRET is set in the environment, so it is not in the backup: keep it with the backup'
        : '  secret:   none in DATA_DIR (the server generates one at its first start)',
  );
  console.log(`Restore it with: npm run restore -- ${target}`);
} catch (error) {
  if (error instanceof BackupError || error instanceof ConfigError) fail(error.message);
  throw error;
}
