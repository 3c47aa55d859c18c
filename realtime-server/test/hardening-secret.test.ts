// Hardening: the signing secret in DATA_DIR/secret (embedded mode). An empty or short file — what a
// filesystem error and fsck can leave — must stop start-up with a sentence naming the file, not sign
// access tokens with a key anyone can guess. A missing file is created whole, with mode 0600.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { serverCommand, startProcess } from '../../testing/process.ts';
import { waitUntil } from '../../testing/services.ts';
import { loadConfig } from '../src/config.ts';
import { SqliteStore } from '../src/store/sqlite.ts';

const dirs: string[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-secret-'));
  dirs.push(dir);
  return dir;
}

/** Starts the real server on `dir` and reports whether it exited (and what it said) or started. */
async function start(dir: string): Promise<{ exitCode: number | null; stderr: string; started: boolean }> {
  const { SECRET: _ignored, DATABASE_URL: _alsoIgnored, ...env } = process.env;
  const { args, cwd } = serverCommand();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...env, PORT: '0', HOST: '127.0.0.1', CLIENT_DIR: '', DATA_DIR: dir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  let started = false;
  child.on('message', (message: { type?: string }) => {
    if (message.type === 'listening') started = true;
  });
  let exitCode: number | null = null;
  let exited = false;
  child.on('exit', (code) => {
    exitCode = code;
    exited = true;
  });
  try {
    await waitUntil('the server exits or starts', () => exited || started, 60_000);
  } finally {
    if (!exited) child.kill('SIGKILL');
  }
  return { exitCode, stderr, started };
}

describe('hardening: the secret file', () => {
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  for (const content of ['', '\n', 'x']) {
    test(`a secret file holding ${JSON.stringify(content)} stops start-up with a sentence naming the file`, async () => {
      const dir = dataDir();
      writeFileSync(join(dir, 'secret'), content);
      const outcome = await start(dir);
      assert.equal(outcome.started, false, `the server must not start; it said: ${outcome.stderr}`);
      assert.equal(outcome.exitCode, 1);
      assert.ok(
        outcome.stderr.includes(`The secret file ${join(dir, 'secret')} holds`),
        `stderr names the file: ${outcome.stderr}`,
      );
      assert.match(outcome.stderr, /at least 32/);
      // The file is left as it was, for the operator to restore: never silently replaced.
      assert.equal(readFileSync(join(dir, 'secret'), 'utf8'), content);
    });
  }

  test('a missing secret file is created whole, mode 0600, no temporary file left, and reused', async () => {
    const dir = dataDir();
    const first = await startProcess({ DATA_DIR: dir });
    const secret = readFileSync(join(dir, 'secret'), 'utf8');
    assert.ok(secret.length >= 32, `secret of ${secret.length} characters`);
    assert.equal(statSync(join(dir, 'secret')).mode & 0o777, 0o600);
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.startsWith('secret')),
      ['secret'],
    );
    assert.equal(await first.stop(), 0);
    const second = await startProcess({ DATA_DIR: dir });
    assert.equal(readFileSync(join(dir, 'secret'), 'utf8'), secret, 'the restart keeps the secret');
    assert.equal(await second.stop(), 0);
  });
});

test('a DATA_DIR the server creates is mode 0700: tandem.db (password and session hashes) is not for other local users', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'tandem-mode-'));
  const previous = process.umask(0o022);
  try {
    // The server's own path (config creates it), and the Store's when given a directory alone.
    const viaConfig = join(parent, 'config', 'data');
    loadConfig({ DATA_DIR: viaConfig });
    assert.equal((statSync(viaConfig).mode & 0o777).toString(8), '700');
    const viaStore = join(parent, 'store');
    const store = new SqliteStore({ dataDir: viaStore });
    await store.close();
    assert.equal((statSync(viaStore).mode & 0o777).toString(8), '700');
  } finally {
    process.umask(previous);
    rmSync(parent, { recursive: true, force: true });
  }
});
