// `npm run backup` and `npm run restore`, run as an operator runs them (the real npm commands, as
// child processes) against a real server process: a backup taken while a y-websocket client keeps
// editing holds every edit the server had confirmed as saved before it started, the images, the
// versions, the sessions and the secret that signs access tokens; restore refuses a DATA_DIR
// that is not empty (unless --force) or that a running server holds.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { encodeSavedMessage, SAVED_MESSAGE_TYPE, type Version } from '@tandem/shared';
import * as decoding from 'lib0/decoding';
import sharp from 'sharp';
import { ApiClient, addShape, connectDoc, waitSynced } from '../../testing/clients.ts';
import { startProcess } from '../../testing/process.ts';
import { uploadAsset } from '../../testing/rest.ts';
import { waitUntil } from '../../testing/services.ts';
import { SqliteStore } from '../src/store/sqlite.ts';

const root = new URL('../..', import.meta.url).pathname;
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-backup-test-'));
  dirs.push(dir);
  return dir;
};

// An embedded deployment, whatever the developer's shell has set.
const embedded = { DATABASE_URL: '', REDIS_URL: '', SECRET: '' };

/** `npm run <script> -- ...args` from the repository root, as an operator types it. */
function npmRun(script: 'backup' | 'restore', args: string[], env: Record<string, string> = {}) {
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
    cwd: root,
    env: { ...process.env, ...embedded, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

async function getBytes(baseUrl: string, path: string, cookie: string) {
  const response = await fetch(baseUrl + path, { headers: { cookie } });
  return { status: response.status, data: Buffer.from(await response.arrayBuffer()) };
}

test('a backup taken while a client edits restores every confirmed edit, the image, the version, sessions and tokens', async () => {
  const dataDir = tempDir();
  const source = await startProcess({
    ...embedded,
    DATA_DIR: dataDir,
    PERSIST_DEBOUNCE_MS: '50',
    PERSIST_MAX_DELAY_MS: '200',
  });
  let restored: Awaited<ReturnType<typeof startProcess>> | null = null;
  const owner = await new ApiClient(source.url).signup('Owner');
  const boardId = await owner.createBoard('Backed up');
  const client = connectDoc(source.wsUrl, boardId, { cookie: owner.cookie, origin: source.url });
  let editor: ReturnType<typeof setInterval> | null = null;
  try {
    await waitSynced(client);
    // The "saved" confirmation (shared/src/savedProtocol.ts), as the browser client asks for it:
    // answer n means every edit sent before request n is in the Store.
    let confirmed = 0;
    client.provider.messageHandlers[SAVED_MESSAGE_TYPE] = (_encoder, decoder) => {
      confirmed = Math.max(confirmed, decoding.readVarUint(decoder));
    };
    let sent = 0;
    let shapes = 0;
    /** Request id → the last s<n> shape sent before it. */
    const shapesBefore = new Map<number, number>();
    const edit = (id: string) => {
      const ws = client.provider.ws;
      addShape(client.doc, id, { type: 'rect', x: shapes, y: 0 });
      if (client.provider.synced && ws && ws.readyState === ws.OPEN) {
        ws.send(encodeSavedMessage(++sent));
        shapesBefore.set(sent, shapes);
      }
      return sent;
    };

    // An image and a named version.
    const image = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#3080ff' } })
      .png()
      .toBuffer();
    const uploaded = await uploadAsset(owner, boardId, image, 'image/png');
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    const assetUrl = uploaded.body.asset.url;
    const imageBytes = await getBytes(source.url, assetUrl, owner.cookie);
    assert.equal(imageBytes.status, 200);
    addShape(client.doc, 'picture', { type: 'image', x: 0, y: 0, assetId: uploaded.body.asset.id });
    const beforeVersion = edit('before-version');
    await waitUntil('the first edits are saved', () => confirmed >= beforeVersion);
    const version = await owner.call<{ version: Version }>('POST', `/api/boards/${boardId}/versions`, {
      label: 'Before the backup',
    });
    assert.equal(version.status, 201, JSON.stringify(version.body));
    const versionExport = await owner.call(
      'GET',
      `/api/boards/${boardId}/versions/${version.body.version.id}/export.json`,
    );
    assert.equal(versionExport.status, 200);
    // An access token issued before the backup, as a non-browser client holds one.
    const token = await owner.token(boardId);

    // The client keeps editing, before, during and after the backup.
    editor = setInterval(() => edit(`s${++shapes}`), 20);
    await waitUntil('edits are being saved', () => confirmed >= beforeVersion + 20);
    const savedBeforeBackup = confirmed;
    const shapesSavedBeforeBackup = shapesBefore.get(savedBeforeBackup) ?? 0; // s1 … s<this> are stored
    const backupDir = join(tempDir(), 'nightly');
    const backup = npmRun('backup', [backupDir], { DATA_DIR: dataDir });
    const result = await backup.done;
    const savedWhileBackingUp = confirmed;
    clearInterval(editor);
    editor = null;
    assert.equal(result.code, 0, `npm run backup failed: ${result.stderr}`);
    assert.match(result.stdout, new RegExp(`Backed up DATA_DIR ${dataDir} into ${backupDir}`));
    assert.ok(savedWhileBackingUp > savedBeforeBackup, 'the server kept storing edits while the backup ran');
    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.secret, 'included');
    assert.equal(manifest.assets.images, 1);
    assert.equal(manifest.database.versions >= 1, true);

    // Restoring over the running server's DATA_DIR is refused, even with --force.
    const overRunning = await npmRun('restore', [backupDir, '--data-dir', dataDir, '--force']).done;
    assert.equal(overRunning.code, 1);
    assert.match(overRunning.stderr, /running Tandem server .* stop it before restoring/);

    // Into a fresh DATA_DIR (one that does not exist yet), with DATA_DIR from the environment.
    const freshDir = join(tempDir(), 'data');
    const restore = await npmRun('restore', [backupDir], { DATA_DIR: freshDir }).done;
    assert.equal(restore.code, 0, `npm run restore failed: ${restore.stderr}`);
    assert.match(restore.stdout, new RegExp(`into DATA_DIR ${freshDir}`));
    assert.equal(await source.stop('SIGTERM'), 0);

    restored = await startProcess({ ...embedded, DATA_DIR: freshDir });
    // The session cookie (sessions are rows in the database).
    const ownerAgain = new ApiClient(restored.url);
    ownerAgain.cookie = owner.cookie;
    const board = await ownerAgain.call<{ board: { title: string } }>('GET', `/api/boards/${boardId}`);
    assert.equal(board.status, 200, 'the session survives the restore');
    assert.equal(board.body.board.title, 'Backed up');
    // The access token (signed with the secret from the backup) opens the board; every edit
    // confirmed as saved before the backup started is there.
    const reader = connectDoc(restored.wsUrl, boardId, { token });
    try {
      await waitUntil(
        'the reader is synced or refused',
        () => reader.provider.synced || reader.closes.length > 0,
      );
      assert.deepEqual(reader.closes, [], 'the token from before the backup is accepted');
      const restoredShapes = reader.doc.getMap('shapes');
      assert.ok(restoredShapes.has('before-version'));
      assert.ok(restoredShapes.has('picture'));
      assert.ok(shapesSavedBeforeBackup >= 20);
      const lost = [];
      for (let n = 1; n <= shapesSavedBeforeBackup; n++) if (!restoredShapes.has(`s${n}`)) lost.push(n);
      assert.deepEqual(lost, [], 'edits confirmed as saved before the backup are missing');
    } finally {
      reader.destroy();
    }
    // The image's bytes.
    const imageAgain = await getBytes(restored.url, assetUrl, owner.cookie);
    assert.equal(imageAgain.status, 200);
    assert.ok(imageAgain.data.equals(imageBytes.data), 'the image bytes are the same');
    // The version, and the board as it was at that version.
    const versions = await ownerAgain.call<{ versions: Version[] }>('GET', `/api/boards/${boardId}/versions`);
    assert.equal(versions.status, 200);
    const named = versions.body.versions.find((v) => v.id === version.body.version.id);
    assert.equal(named?.label, 'Before the backup');
    const exportAgain = await ownerAgain.call(
      'GET',
      `/api/boards/${boardId}/versions/${version.body.version.id}/export.json`,
    );
    assert.equal(exportAgain.status, 200);
    assert.deepEqual(exportAgain.body, versionExport.body);
  } finally {
    if (editor) clearInterval(editor);
    client.destroy();
    await source.stop('SIGKILL');
    await restored?.stop('SIGTERM');
  }
});

test('restore refuses a DATA_DIR that is not empty unless --force, and --force keeps unrelated files', async () => {
  // A small deployment with no server running: a migrated database and its secret.
  const dataDir = tempDir();
  const store = new SqliteStore({ dataDir });
  await store.migrate();
  await store.close();
  writeFileSync(join(dataDir, 'secret'), 'a'.repeat(43));
  const backupDir = join(tempDir(), 'backup');
  const backup = await npmRun('backup', [backupDir], { DATA_DIR: dataDir }).done;
  assert.equal(backup.code, 0, backup.stderr);
  // A second backup under the same name is refused, the first one left as it was.
  const again = await npmRun('backup', [backupDir], { DATA_DIR: dataDir }).done;
  assert.equal(again.code, 1);
  assert.match(again.stderr, /already exists/);

  const target = tempDir();
  mkdirSync(join(target, 'assets'));
  writeFileSync(join(target, 'secret'), 'b'.repeat(43));
  writeFileSync(join(target, 'notes.txt'), 'the operator’s own file');
  const refused = await npmRun('restore', [backupDir, '--data-dir', target]).done;
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /is not empty .*--force/);
  assert.equal(existsSync(join(target, 'tandem.db')), false, 'nothing was restored');
  assert.equal(readFileSync(join(target, 'secret'), 'utf8'), 'b'.repeat(43), 'nothing was replaced');

  const forced = await npmRun('restore', [backupDir, '--data-dir', target, '--force']).done;
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal(readFileSync(join(target, 'secret'), 'utf8'), 'a'.repeat(43), 'the backup’s secret');
  assert.equal(readFileSync(join(target, 'notes.txt'), 'utf8'), 'the operator’s own file');
  assert.deepEqual(readdirSync(target).sort(), ['notes.txt', 'secret', 'tandem.db']);

  // Not a backup at all.
  const notBackup = await npmRun('restore', [target, '--data-dir', join(tempDir(), 'x')]).done;
  assert.equal(notBackup.code, 1);
  assert.match(notBackup.stderr, /is not a Tandem backup/);
});

test('with DATABASE_URL set, backup says to use pg_dump', async () => {
  const answer = await npmRun('backup', [join(tempDir(), 'pg')], {
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
  }).done;
  assert.equal(answer.code, 1);
  assert.match(answer.stderr, /DATABASE_URL is set.*pg_dump/);
});

test('the compiled scripts run with plain node, as in the container image', async () => {
  // Inside the repository, so that the bundle's package imports resolve from its node_modules.
  const outdir = mkdtempSync(join(root, 'realtime-server', '.backup-bundle-test-'));
  dirs.push(outdir);
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', outdir], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(built.status, 0, `the build failed: ${built.stderr}`);
  const dataDir = tempDir();
  const store = new SqliteStore({ dataDir });
  await store.migrate();
  await store.close();
  const node = (script: string, args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, [join(outdir, script), ...args], {
      cwd: tempDir(),
      env: { ...process.env, ...embedded, ...env },
      encoding: 'utf8',
    });
  const backupDir = join(tempDir(), 'backup');
  const backup = node('backup.js', [backupDir], { DATA_DIR: dataDir });
  assert.equal(backup.status, 0, backup.stderr);
  assert.ok(existsSync(join(backupDir, 'manifest.json')));
  const restoredDir = join(tempDir(), 'restored');
  const restore = node('restore.js', [backupDir], { DATA_DIR: restoredDir });
  assert.equal(restore.status, 0, restore.stderr);
  assert.ok(existsSync(join(restoredDir, 'tandem.db')));
});
