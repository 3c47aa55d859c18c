// `npm test`: every *.test.ts in the repo (outside node_modules), compiled to .test-build/
// (scripts/build-tests.mjs) and run there by Node's own test runner. Pass paths or substrings to
// run a subset: `npm test -- room store`. TANDEM_TESTS_FROM_SOURCES=1 runs the sources through
// tsx instead, as `node --import tsx --test FILE` does for one file.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { buildTests } from './build-tests.mjs';

const root = new URL('..', import.meta.url).pathname;
const skip = new Set(['node_modules', 'dist', '.git', 'data', 'test-artifacts', '.test-build']);

function find(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...find(path));
    else if (entry.name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out;
}

const filters = process.argv.slice(2);
const files = find(root)
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Browser tests drive the built client, so build it first when any of them runs (unless the
// caller has just built it: .ci/run builds everything before it tests).
const clientBuilt = process.env.TANDEM_CLIENT_BUILT === '1';
if (!clientBuilt && files.some((f) => f.startsWith('e2e/') || f.startsWith(`e2e${sep}`))) {
  const build = spawnSync('npm', ['run', 'build', '--workspace', 'client'], { stdio: 'inherit', cwd: root });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// Tests that start the server as a process of its own run the compiled bundle (testing/process.ts
// serverCommand), as `npm start` does: built here in about a second unless the caller just built it.
if (process.env.TANDEM_SERVER_BUILT !== '1') {
  const build = spawnSync('npm', ['run', 'build:server'], { stdio: 'inherit', cwd: root });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const fromSources = process.env.TANDEM_TESTS_FROM_SOURCES === '1';
const built = fromSources ? null : await buildTests(files);
const result = spawnSync(
  process.execPath,
  [
    ...(fromSources ? ['--import', 'tsx'] : ['--enable-source-maps']),
    '--test',
    `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 2}`,
    ...(built ? files.map(built.builtPath) : files),
  ],
  { stdio: 'inherit', cwd: root, env: { ...process.env, TANDEM_SERVER_BUILT: '1' } },
);
built?.remove();
process.exit(result.status ?? 1);
