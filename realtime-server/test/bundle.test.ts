// The compiled server (`npm run build:server`, what `npm start` and the Docker image run): it starts
// with plain `node`, answers, stops cleanly on SIGTERM, and a deployment without DATABASE_URL or
// REDIS_URL never loads the PostgreSQL or Redis clients, nor sharp, nor a TypeScript loader, and
// nothing at start uses Intl.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startProcess } from '../../testing/process.ts';

const root = new URL('../..', import.meta.url).pathname;
// Inside the repository, so that the bundle's package imports resolve from its node_modules.
const outdir = mkdtempSync(join(root, 'realtime-server', '.bundle-test-'));
const work = mkdtempSync(join(tmpdir(), 'tandem-bundle-'));
after(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

// Records every npm package that gets loaded, whichever way: CommonJS files through Module._load
// (the ESM wrappers of pg load their CommonJS code), ES modules through a resolve hook (sharp is
// an ES module; a static import of it once slipped past a CommonJS-only recorder). Both append to
// LOADED_FILE, one package per line.
const cjsRecorder = `
const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const seen = new Set();
const load = Module._load;
Module._load = function (request) {
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(request);
  const name = m ? m[1]
    : /^(\\.|\\/|node:)/.test(request) ? null
    : request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.split('/')[0];
  if (name && !seen.has(name)) {
    seen.add(name);
    appendFileSync(process.env.LOADED_FILE, name + '\\n');
  }
  return load.apply(this, arguments);
};
// The first use of Intl reads ICU's locale data out of Node's binary: about 4 MB of resident
// memory. Each use at start is recorded as "Intl <what> <where>".
const used = (what) => appendFileSync(process.env.LOADED_FILE,
  'Intl ' + what + ' ' + (new Error().stack.split('\\n')[3] ?? '').trim() + '\\n');
for (const name of Object.getOwnPropertyNames(Intl)) {
  const real = Intl[name];
  if (typeof real !== 'function') continue;
  Intl[name] = new Proxy(real, {
    construct(target, args, newTarget) { used(name); return Reflect.construct(target, args, newTarget); },
    apply(target, self, args) { used(name); return Reflect.apply(target, self, args); },
  });
}
for (const [proto, method] of [[Number.prototype, 'toLocaleString'], [String.prototype, 'localeCompare'],
  [Date.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleDateString'], [Date.prototype, 'toLocaleTimeString'],
  [Array.prototype, 'toLocaleString']]) {
  const real = proto[method];
  proto[method] = function (...args) { used(method); return real.apply(this, args); };
}
`;
const esmHooks = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(resolved.url);
  if (m) appendFileSync(process.env.LOADED_FILE, m[1] + '\\n');
  return resolved;
}
`;

let built = false;
function build(): void {
  if (built) return;
  const result = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', outdir], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, `the build failed: ${result.stderr}`);
  built = true;
}

test('the compiled server starts with plain node and loads only what the deployment uses', async () => {
  build();
  const hook = join(work, 'recorder.cjs');
  writeFileSync(hook, cjsRecorder);
  const hooks = join(work, 'hooks.mjs');
  writeFileSync(hooks, esmHooks);
  const register = join(work, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hooks).href)});`,
  );
  const loadedFile = join(work, 'loaded.txt');
  const server = await startProcess(
    {
      DATA_DIR: join(work, 'data'),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOADED_FILE: loadedFile,
    },
    undefined,
    { args: ['--require', hook, '--import', register, join(outdir, 'main.js')], cwd: root },
  );
  try {
    const ready = await fetch(`${server.url}/readyz`);
    assert.equal(ready.status, 200, 'the store and the bus answer');
  } finally {
    assert.equal(await server.stop('SIGTERM'), 0, 'stopped cleanly on SIGTERM');
  }

  const loaded = new Set(readFileSync(loadedFile, 'utf8').split('\n'));
  // The recorder sees the packages that are used: the SQLite driver and the HTTP server.
  assert.ok(loaded.has('better-sqlite3'), `better-sqlite3 loaded (saw: ${[...loaded].join(', ')})`);
  assert.ok(loaded.has('fastify'), 'fastify loaded');
  const intl = [...loaded].filter((line) => line.startsWith('Intl '));
  assert.deepEqual(intl, [], 'nothing uses Intl at start (its locale data would cost ≈ 4 MB of memory)');
  for (const unused of [
    'pg',
    'redis',
    '@redis/client',
    '@socket.io/redis-adapter',
    'sharp',
    // fastify's JSON-schema compilers (routes check input with zod)
    'ajv',
    '@fastify/ajv-compiler',
    // the SVG renderer's libraries: only the history worker thread draws (history/render.ts)
    'roughjs',
    'perfect-freehand',
    'tsx',
    'esbuild',
    // inlined by the build (scripts/build-server.mjs, INLINED): never read from node_modules
    'yjs',
    'lib0',
    'y-protocols',
    'zod',
  ]) {
    assert.ok(!loaded.has(unused), `${unused} is not loaded by a SQLite, single-instance deployment`);
  }
});

/** The server's resident memory, in MiB. */
function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

// Each password hash (scrypt) takes 16 MiB on one of libuv's four threads. Without a fixed mmap
// threshold glibc served those blocks from the threads' arenas after the first one and never gave
// them back: six logins at once left about 64 MiB behind (docs/operations.md, "Memory and slow
// clients"). `npm run serve` sets the threshold; the server runs here with exactly its setting.
test('with the environment `npm run serve` sets, password hashing leaves no memory behind', async () => {
  build();
  const serve = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.serve as string;
  const setting = /\bMALLOC_MMAP_THRESHOLD_=(\d+)\b/.exec(serve)?.[1];
  assert.ok(setting, 'npm run serve sets MALLOC_MMAP_THRESHOLD_');
  const server = await startProcess(
    {
      DATA_DIR: join(work, 'data-memory'),
      DATABASE_URL: '',
      REDIS_URL: '',
      LOGIN_ATTEMPTS_PER_MINUTE: '10000',
      MALLOC_MMAP_THRESHOLD_: setting,
    },
    undefined,
    { args: [join(outdir, 'main.js')], cwd: root },
  );
  try {
    const pid = server.child.pid as number;
    const signup = (i: number) =>
      fetch(`${server.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ email: `memory-${i}@example.com`, name: 'M', password: 'correct horse 1' }),
      });
    // One first, so that what the first request loads is counted before the measure.
    assert.equal((await signup(0)).status, 201);
    const before = rssMiB(pid);
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map(signup));
    assert.deepEqual(
      answers.map((a) => a.status),
      [201, 201, 201, 201, 201, 201],
    );
    const grown = rssMiB(pid) - before;
    assert.ok(grown < 24, `RSS grew by ${grown.toFixed(1)} MiB over six concurrent signups`);
  } finally {
    assert.equal(await server.stop('SIGTERM'), 0, 'stopped cleanly on SIGTERM');
  }
});
