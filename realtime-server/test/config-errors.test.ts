// What an operator sees when a variable is wrong: a sentence naming it (README, "Configuration"),
// and never a password from it: the sentence goes to the log.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { serverCommand } from '../../testing/process.ts';
import { ConfigError, loadConfig } from '../src/config.ts';

test('a mistyped DATABASE_URL or REDIS_URL is named in the error without its password', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-config-'));
  try {
    for (const [name, value, kept] of [
      ['DATABASE_URL', 'postgress://tandem:hunter2@db:5432/tandem', 'postgress://tandem:***@db:5432/tandem'],
      ['DATABASE_URL', 'mysql://root:hunter2@db/tandem', 'mysql://root:***@db/tandem'],
      ['REDIS_URL', 'http://:hunter2@redis:6379', 'http://:***@redis:6379'],
    ] as const) {
      assert.throws(
        () => loadConfig({ DATA_DIR: dataDir, [name]: value, SECRET: 'x'.repeat(40) }),
        (error: Error) => {
          assert.ok(error instanceof ConfigError);
          assert.match(error.message, new RegExp(`^${name} must`));
          assert.ok(!error.message.includes('hunter2'), `no password in: ${error.message}`);
          assert.ok(error.message.includes(kept), `the rest of the URL is quoted: ${error.message}`);
          return true;
        },
      );
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a METRICS_TOKEN shorter than 16 characters stops start-up, and an empty one leaves /metrics open', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-config-'));
  try {
    assert.throws(
      () => loadConfig({ DATA_DIR: dataDir, METRICS_TOKEN: 'short' }),
      (error: Error) =>
        error instanceof ConfigError && /^METRICS_TOKEN must be at least 16/.test(error.message),
    );
    assert.equal(loadConfig({ DATA_DIR: dataDir, METRICS_TOKEN: '' }).metricsToken, null);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Runs the real server until it exits (it must: each case cannot start); its code and stderr. */
function startFails(env: Record<string, string>): { status: number | null; stderr: string } {
  const { SECRET: _s, DATABASE_URL: _d, REDIS_URL: _r, ...inherited } = process.env;
  const { args, cwd } = serverCommand();
  const run = spawnSync(process.execPath, args, {
    cwd,
    env: { ...inherited, HOST: '127.0.0.1', CLIENT_DIR: '', LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr };
}

test('a port in use, or a PostgreSQL that does not answer, stops start-up with a sentence naming the variable, not a stack trace', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-config-'));
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as { port: number }).port;
  try {
    const inUse = startFails({ DATA_DIR: dataDir, PORT: String(port) });
    assert.equal(inUse.status, 1);
    assert.match(
      inUse.stderr,
      new RegExp(`Tandem cannot start: port ${port} on 127.0.0.1 is already in use.*set PORT`),
    );
    assert.doesNotMatch(inUse.stderr, /\n\s+at /, 'no stack trace');

    const noDatabase = startFails({
      DATA_DIR: dataDir,
      PORT: '0',
      DATABASE_URL: 'postgres://tandem:hunter2@127.0.0.1:1/tandem',
      SECRET: 'x'.repeat(40),
    });
    assert.equal(noDatabase.status, 1);
    assert.match(
      noDatabase.stderr,
      /Tandem cannot start: PostgreSQL at postgres:\/\/tandem:\*\*\*@127\.0\.0\.1:1\/tandem \(DATABASE_URL\) cannot be used: .*ECONNREFUSED/,
    );
    assert.doesNotMatch(noDatabase.stderr, /\n\s+at |hunter2/, 'no stack trace, no password');
  } finally {
    taken.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
