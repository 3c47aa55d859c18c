// `npm run build:server`: the realtime server compiled to plain JavaScript in realtime-server/dist,
// so that `npm start` and the Docker image run it with `node` alone, without a TypeScript loader.
//   node scripts/build-server.mjs [--outdir DIR]
// One ESM bundle with esbuild: our own code (realtime-server/src and @tandem/shared, whose package
// points at TypeScript sources) is inlined, and so are the pure ES-module libraries it is built on
// (INLINED); every other npm package stays an import from node_modules. Why those are inlined: V8
// keeps every loaded file's source text for lazy compilation, as two bytes a character when the
// file holds one character beyond Latin-1 (yjs's and zod's files do, in comments), and each of
// zod's ~100 files is a module of its own. Inlined, written in ASCII, they cost 3-5 MB less after
// start (docs/benchmarks.md, 29 November). The CommonJS packages (fastify, socket.io) bought
// nothing inlined and stay external.
// Code splitting keeps each dynamic import() in a chunk of its own, so what a deployment does not
// configure (the PostgreSQL store and pg, the Redis bus and its clients, sharp) is never loaded.
// Entry points: main.js (the server), history-worker.js and sqlite-worker.js (the history worker
// thread and the SQLite worker thread, which history/compute.ts and store/sqliteMaintenance.ts
// start from next to themselves), and backup.js and restore.js (the backup
// scripts, `node realtime-server/dist/backup.js` in the container). Chunks sit beside them in the same folder, so
// paths that the code resolves against its own URL (config.ts: ../../client/dist) are unchanged.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

/**
 * Inlined rather than imported (above); yjs with everything that imports it, so there is one copy.
 * The MCP SDK (external, loaded on the first MCP call) brings its own zod, which reads our schemas
 * as zod 4 allows across copies (its classes are recognised by their traits, not by identity).
 */
const INLINED = /^(yjs|lib0|y-protocols|zod)(\/|$)/;
const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
const outdir = resolve(values.outdir ?? `${root}/realtime-server/dist`);

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'realtime-server/src/main.ts',
    'history-worker': 'realtime-server/src/history/worker.ts',
    'sqlite-worker': 'realtime-server/src/store/sqliteWorker.ts',
    // `npm run backup` / `npm run restore` for the container image, which has no TypeScript loader.
    backup: 'scripts/backup.ts',
    restore: 'scripts/restore.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
  charset: 'ascii',
  plugins: [
    {
      name: 'packages-stay-external',
      setup(b) {
        // A bare specifier is a package (or a node: builtin): left to Node, except our workspace's
        // and INLINED.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@tandem/') || INLINED.test(args.path)
            ? undefined
            : { path: args.path, external: true },
        );
      },
    },
  ],
});
// charset 'ascii' escapes every non-ASCII character in code, but the comments esbuild keeps still
// hold a few (§, …, –); one is enough for V8 to keep the whole file's source as two bytes a character.
for (const name of readdirSync(outdir)) {
  if (!name.endsWith('.js')) continue;
  const file = join(outdir, name);
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(/[^\p{ASCII}]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  if (ascii !== text) writeFileSync(file, ascii);
}
console.log(`realtime server built in ${outdir}`);
