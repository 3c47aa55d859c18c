// Keeps the README and docs/api.md true to the server and shared/: the configuration table names
// every variable config.ts reads, the API reference every route the server answers, the error
// catalogue every REST code with its status and every close code, and the workspace channel
// every event; each only those (one added without its line, or a line left for one removed,
// fails here).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CloseCode, clientEventNames, errorStatus, serverEventNames } from '@tandem/shared';
import { pino } from 'pino';
import { createApp } from '../src/app.ts';
import { openBus } from '../src/bus/index.ts';
import { configVariables, loadConfig } from '../src/config.ts';
import { createMetrics } from '../src/metrics.ts';
import { openStore } from '../src/store/index.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The backticked names in the first cell of each row of a README section's table. */
function tableVariables(readme: string, section: string): string[] {
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

test('the README configuration table and docs/api.md §9 name exactly the variables config.ts reads, each once', () => {
  const named = tableVariables(read('README.md'), 'Configuration');
  assert.deepEqual(
    named.filter((name, i) => named.indexOf(name) !== i),
    [],
    'named twice',
  );
  assert.deepEqual([...named].sort(), [...configVariables].sort());
  // docs/api.md §9 has the same table, with what each value bounds.
  const limits = tableAfter(read('docs/api.md'), '| environment variable | default |').flatMap(([first]) =>
    [...(first ?? '').matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1] as string),
  );
  assert.deepEqual([...limits].sort(), [...configVariables].sort(), 'docs/api.md §9');
});

/**
 * What a default cell says, where it says it plainly: a number (with a KiB/MiB unit, or a
 * gloss in brackets after it), true/false, or one backticked word; undefined for prose ("unset
 * → SQLite", "pid + random"), which is not checked.
 */
function plainDefault(cell: string): number | boolean | string | undefined {
  const text = cell.replace(/\s*\(.*\)$/, '').trim();
  const units: Record<string, number> = { KiB: 1024, MiB: 1024 ** 2 };
  const number = /^`?(\d+)(?: (KiB|MiB))?`?$/.exec(text);
  if (number) return Number(number[1]) * (units[number[2] ?? ''] ?? 1);
  if (/^`?(true|false)`?$/.test(text)) return text.includes('true');
  const word = /^`([^`/ ]+)`$/.exec(text);
  return word ? word[1] : undefined;
}

/** The config field a variable sets: its name in camelCase (HISTORY_DAYS → historyDays). */
const fieldOf = (variable: string) =>
  variable.toLowerCase().replace(/_([a-z0-9])/g, (_match, ch: string) => ch.toUpperCase());

test('the defaults the README and docs/api.md §9 state are the ones config.ts applies', () => {
  const defaults = loadConfig({ DATA_DIR: tmpdir() }) as unknown as Record<string, unknown>;
  let checked = 0;
  for (const [doc, rows] of [
    ['README', tableAfter(read('README.md'), '## Configuration')],
    ['docs/api.md §9', tableAfter(read('docs/api.md'), '| environment variable | default |')],
  ] as const) {
    for (const [first = '', cell = ''] of rows) {
      const variables = [...first.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1] as string);
      const values = cell.split(' / ');
      if (values.length !== variables.length) continue;
      variables.forEach((variable, i) => {
        const stated = plainDefault(values[i] as string);
        if (stated === undefined || !(fieldOf(variable) in defaults)) return;
        assert.equal(defaults[fieldOf(variable)], stated, `${doc}: ${variable}`);
        checked++;
      });
    }
  }
  // Most rows state a plain default: a parser that silently matched none would prove nothing.
  assert.ok(checked >= 60, `${checked} defaults checked`);
});

/** `METHOD /path` with every parameter written `:` (the docs and the code name them differently). */
const routeKey = (method: string, path: string) => `${method} ${path.replace(/:\w+/g, ':')}`;

/** The routes of fastify's printRoutes tree: each line a path segment under its parent's. */
function servedRoutes(tree: string): Set<string> {
  const paths: string[] = [];
  const routes = new Set<string>();
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (\S+) \(([^)]*)\)$/.exec(line);
    if (!m) continue;
    const depth = (m[1] as string).length / 4;
    const path = (paths[depth - 1] ?? '') + m[2];
    paths[depth] = path;
    // fastify answers HEAD for every GET by itself.
    for (const method of (m[3] as string).split(', '))
      if (method !== 'HEAD') routes.add(routeKey(method, path));
  }
  return routes;
}

test('docs/api.md names exactly the routes the server answers', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-routes-'));
  const logger = pino({ level: 'silent' });
  const store = await openStore({ dataDir, timeoutMs: 5000, logger });
  const bus = await openBus({ prefix: 'routes:', logger });
  const app = await createApp({
    config: loadConfig({ DATA_DIR: dataDir, CLIENT_DIR: '' }),
    store,
    bus,
    logger,
  });
  try {
    await app.http.ready();
    const served = servedRoutes(app.http.printRoutes({ commonPrefix: false }));
    assert.ok(
      served.has('POST /api/boards') && served.has('GET /api/boards/:/export.json'),
      'the tree was read',
    );
    const documented = new Set(
      [...read('docs/api.md').matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^\s`?[]*)/g)].map((m) =>
        routeKey(m[1] as string, m[2] as string),
      ),
    );
    assert.deepEqual(
      [...served].filter((r) => !documented.has(r)).sort(),
      [],
      'served but not in docs/api.md',
    );
    assert.deepEqual(
      [...documented].filter((r) => !served.has(r)).sort(),
      [],
      'in docs/api.md but not served',
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** The rows of the table in a docs/api.md section that follows `after`, split into cells. */
function tableAfter(doc: string, after: string): string[][] {
  const start = doc.indexOf(after);
  assert.ok(start >= 0, `docs/api.md has "${after}"`);
  const lines = doc.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

test('docs/api.md §8 lists every REST error code with its status, and every close code, as shared/ defines them', () => {
  const doc = read('docs/api.md');
  const errors = tableAfter(doc, 'REST errors (`shared/src/errors.ts`');
  assert.deepEqual(
    Object.fromEntries(errors.map(([status, code]) => [(code ?? '').replaceAll('`', ''), Number(status)])),
    errorStatus,
  );
  const closes = tableAfter(doc, 'Document socket close codes');
  assert.deepEqual(
    closes.map(([code]) => Number(code)).sort(),
    [...new Set(Object.values(CloseCode))].sort(),
  );
});

test('docs/api.md §7 lists every workspace event, each in its direction, as shared/ defines them', () => {
  const rows = tableAfter(read('docs/api.md'), 'Typed in `shared/src/events.ts`');
  const named = (direction: string) =>
    rows.filter(([dir]) => dir === direction).map(([, event]) => (event ?? '').replaceAll('`', ''));
  assert.deepEqual(named('server → client').sort(), [...serverEventNames].sort());
  assert.deepEqual(named('client → server').sort(), [...clientEventNames].sort());
});

test("docs/operations.md's metrics table names exactly the tandem_* metrics the server registers", async () => {
  const operations = read('docs/operations.md');
  const documented = [
    ...operations.matchAll(/^\| `(tandem_[a-z_]+)(?:\{[^}]*\})?`(?: \/ `(tandem_[a-z_]+)`)?/gm),
  ]
    .flatMap((m) => [m[1], m[2]])
    .filter((name): name is string => name !== undefined);
  const registered = (await createMetrics().registry.getMetricsAsJSON())
    .map((metric) => metric.name)
    .filter((name) => name.startsWith('tandem_'));
  assert.deepEqual([...documented].sort(), [...new Set(documented)].sort(), 'each metric once');
  assert.deepEqual([...documented].sort(), [...registered].sort());
});
