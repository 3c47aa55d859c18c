// The test files compiled to plain JavaScript in .test-build/, so that `npm test` runs them with
// `node` alone: through tsx, every test process boots tsx's loader thread and sends each of its
// imports there and back (0.5 core-seconds before a test runs, and 2.4-2.9 to import the server's
// sources against 0.9 compiled: docs/architecture.md, "Tests"), and the suite is CPU bound.
// One esbuild call, every test file an entry point, code splitting on, so what several import
// is written once and each test process still loads every module once. What a file does not
// compile:
// - packages stay imports, of the very file Node would have loaded for the importing source
//   (resolved from the source's own folder), so a workspace's own node_modules still serve it;
//   our workspace package (@tandem/shared, whose package points at TypeScript) is compiled in.
// - `import.meta.url`, `import.meta.dirname` and `import.meta.filename` keep naming the source
//   file, so paths a module resolves against itself (fixtures, client/dist, worker entries) do
//   not move with the compiled file.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const testBuildRoot = resolve(root, '.test-build');

/** Whether a process with this id is running. */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** The source of a module with what it says of its own location fixed to the source file. */
function sourceHere(path) {
  const text = readFileSync(path, 'utf8');
  if (!text.includes('import.meta.')) return text;
  return text
    .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href))
    .replaceAll('import.meta.dirname', JSON.stringify(dirname(path)))
    .replaceAll('import.meta.filename', JSON.stringify(path));
}

/**
 * Compiles `files` into a folder of this process's own (two `npm test` at once in one checkout do
 * not overwrite each other's files), after removing the folders of runs that have ended. Answers
 * where each file's compiled copy is, and a function that removes the folder.
 */
export async function buildTests(files) {
  for (const name of safeList(testBuildRoot)) {
    if (!running(Number(name))) rmSync(join(testBuildRoot, name), { recursive: true, force: true });
  }
  const outdir = join(testBuildRoot, String(process.pid));
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: files,
    outbase: root,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // What Node's own resolver would pick: no "module" condition or field.
    conditions: [],
    mainFields: ['main'],
    // As tsx compiles: a function's name is its name in the source.
    keepNames: true,
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
    plugins: [
      {
        name: 'tests-as-their-sources',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.path.startsWith('@tandem/') || args.pluginData === 'resolving') return undefined;
            if (args.path.startsWith('node:')) return { path: args.path, external: true };
            const found = await b.resolve(args.path, {
              kind: args.kind,
              importer: args.importer,
              resolveDir: args.resolveDir,
              pluginData: 'resolving',
            });
            // A builtin without its node: prefix (`fs`), or what esbuild cannot find: Node decides.
            if (found.errors.length > 0 || !found.path.startsWith('/'))
              return { path: args.path, external: true };
            return { path: pathToFileURL(found.path).href, external: true };
          });
          b.onLoad({ filter: /\.[mc]?[jt]sx?$/ }, (args) => {
            // Packages are external (above): what reaches here is ours.
            if (args.path.includes('/node_modules/')) return undefined;
            const loader = /\.[jt]sx$/.test(args.path)
              ? args.path.slice(-3)
              : /\.[mc]?ts$/.test(args.path)
                ? 'ts'
                : 'js';
            return { contents: sourceHere(args.path), loader, resolveDir: dirname(args.path) };
          });
        },
      },
    ],
  });
  return {
    /** The compiled copy of a test file (relative to the repo). */
    builtPath: (file) => join(outdir, file.replace(/\.ts$/, '.mjs')),
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

function safeList(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
