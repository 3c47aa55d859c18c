// `npm run lint` fails on an import cycle in realtime-server/src, shared/src and client/src,
// type-only imports included. Checked against the repository's own biome.json, copied into a
// scratch directory with one small cycle per folder (the real source tree is never touched).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const root = new URL('..', import.meta.url).pathname;
const biome = join(root, 'node_modules', '.bin', 'biome');
const scratch = mkdtempSync(join(tmpdir(), 'tandem-lint-cycles-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function lint(files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(scratch, 'case-'));
  // The repository's configuration as it is, less what only makes sense inside the repository
  // (the schema path, reading .gitignore from a git checkout).
  const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as Record<string, unknown>;
  delete config.$schema;
  delete config.vcs;
  writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const run = spawnSync(biome, ['lint', '--max-diagnostics=50', '.'], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Files whose lines Biome flags as part of a cycle. */
const flagged = (output: string): string[] =>
  [
    ...new Set([...output.matchAll(/^(\S+):\d+:\d+ lint\/suspicious\/noImportCycles/gm)].map((m) => m[1]!)),
  ].sort();

for (const folder of ['realtime-server/src', 'shared/src', 'client/src']) {
  test(`an import cycle in ${folder} fails the lint, type-only imports included`, () => {
    const value = lint({
      [`${folder}/a.ts`]: "import { b } from './b.ts';\n\nexport const a = (): number => b() + 1;\n",
      [`${folder}/b.ts`]: "import { c } from './c.ts';\n\nexport const b = (): number => c();\n",
      [`${folder}/c.ts`]: "import { a } from './a.ts';\n\nexport const c = (): number => (a ? 0 : 1);\n",
    });
    assert.equal(value.status, 1, value.output);
    assert.deepEqual(flagged(value.output), [`${folder}/a.ts`, `${folder}/b.ts`, `${folder}/c.ts`]);

    // The store's cycle ran partly through `import type`: that counts too.
    const typeOnly = lint({
      [`${folder}/rows.ts`]:
        "import type { Store } from './store.ts';\n\nexport type Row = { store: Store };\n",
      [`${folder}/store.ts`]:
        "import type { Row } from './rows.ts';\n\nexport type Store = { rows: Row[] };\n",
    });
    assert.equal(typeOnly.status, 1, typeOnly.output);
    assert.deepEqual(flagged(typeOnly.output), [`${folder}/rows.ts`, `${folder}/store.ts`]);
  });
}

test('the same files without the cycle lint clean', () => {
  const clean = lint({
    'realtime-server/src/a.ts': "import { b } from './b.ts';\n\nexport const a = (): number => b() + 1;\n",
    'realtime-server/src/b.ts':
      "import type { Row } from './rows.ts';\n\nexport const b = (): number => 0;\nexport type B = Row;\n",
    'realtime-server/src/rows.ts': 'export type Row = { id: string };\n',
  });
  assert.equal(clean.status, 0, clean.output);
});
