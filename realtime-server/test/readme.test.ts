// Keeps the README's configuration table true: it names every variable config.ts reads, and
// only those (a variable added to the server without a row, or a row left for one removed, fails).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { configVariables } from '../src/config.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The backticked names in the first cell of each row of the section's table. */
function tableVariables(section: string): string[] {
  const start = readme.indexOf(`## ${section}\n`);
  assert.ok(start >= 0, `README has a "${section}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  const rows = readme
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) =>
    [...(row.split('|')[1] ?? '').matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1] as string),
  );
}

test('the README configuration table names exactly the variables config.ts reads, each once', () => {
  const named = tableVariables('Configuration');
  assert.deepEqual(
    named.filter((name, i) => named.indexOf(name) !== i),
    [],
    'named twice',
  );
  assert.deepEqual([...named].sort(), [...configVariables].sort());
});
