// `npm run build:server`: the realtime server compiled to plain JavaScript in realtime-server/dist,
// so that `npm start` and the Docker image run it with `node` alone, without a TypeScript loader.
//   node scripts/build-server.mjs [--outdir DIR]
// One ESM bundle with esbuild: our own code (realtime-server/src and @tandem/shared, whose package
// points at TypeScript sources) is inlined; every npm package stays an import from node_modules.
// Code splitting keeps each dynamic import() in a chunk of its own, so what a deployment does not
// configure (the PostgreSQL store and pg, the Redis bus and its clients, sharp) is never loaded.
// Entry points: main.js (the server), history-worker.js and sqlite-worker.js (the history worker
// thread and the SQLite worker thread, which history/compute.ts and store/sqliteMaintenance.ts
// start from next to themselves), and backup.js and restore.js (the backup
// scripts, `node realtime-server/dist/backup.js` in the container). Chunks sit beside them in the same folder, so
// paths that the code resolves against its own URL (config.ts: ../../client/dist) are unchanged.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

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
  plugins: [
    {
      name: 'packages-stay-external',
      setup(b) {
        // A bare specifier is a package (or a node: builtin): left to Node, except our workspace's.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@tandem/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
console.log(`realtime server built in ${outdir}`);
