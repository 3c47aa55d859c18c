// What an operator sees when a variable is wrong: a sentence naming it (README, "Configuration"),
// and never a password from it: the sentence goes to the log.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
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
