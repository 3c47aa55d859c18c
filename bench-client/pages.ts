// Pages benchmark (docs/api.md §17): a board of 20 pages × N shapes against a one-page board of N
// shapes, both served by the real server (in this process) with the production client in Debian's
// headless Chromium.
//   1. first page usable: a fresh navigation (new context: empty cache and IndexedDB) until the
//      first page is live and fully drawn (bench-client/probes.ts firstRenderProbe), p50 of --runs;
//   2. the server's memory for the board with one page open: heap used (after a forced GC) with
//      the board open in one browser, minus the heap once it has unloaded, and the rooms loaded.
// `npm run bench:client:pages [-- --runs 5 --shapes 2000 --pages 20 --skip-build]`
// Measures and reports; asserts nothing about timing.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { docKey, MAIN_PAGE_ID, META_KEY, PAGES_KEY } from '@tandem/shared';
import type { Browser, Page } from 'playwright-core';
import * as Y from 'yjs';
import { launch, startApp } from '../e2e/helpers.ts';
import { ApiClient, connectDoc, waitSynced, whenStored } from '../testing/clients.ts';
import { waitUntil } from '../testing/services.ts';
import { fillBoard, seedBoard } from './board.ts';
import { firstRenderProbe } from './probes.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    shapes: { type: 'string', default: '2000' },
    pages: { type: 'string', default: '20' },
    'skip-build': { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const SHAPES = Number(args.shapes);
const PAGES = Number(args.pages);
const root = resolve(import.meta.dirname, '..');
const log = (...a: unknown[]) => console.error('[bench:pages]', ...a);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:client:pages does)');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
};

async function heapUsed(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc!();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

async function openBoard(browser: Browser, base: string, cookie: string, boardId: string) {
  // As a person's browser has it: the app-shell worker installed (e2e's launch blocks it by default).
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    baseURL: base,
    serviceWorkers: 'allow',
  });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: base }]);
  const page: Page = await context.newPage();
  page.on('pageerror', (e) => log('page error:', e.message));
  await page.addInitScript({ content: firstRenderProbe(SHAPES) });
  await page.goto(`/b/${boardId}`);
  await page.waitForFunction('window.__tandemBench && window.__tandemBench.nextFrame !== null', undefined, {
    timeout: 120_000,
    polling: 100,
  });
  const full = (await page.evaluate('window.__tandemBench.full')) as number;
  return { context, full };
}

if (!args['skip-build']) {
  const build = spawnSync('npm', ['run', 'build', '--workspace', 'client'], { stdio: 'inherit', cwd: root });
  if (build.status !== 0) throw new Error('client build failed');
}
const server = await startApp();
const browser = await launch();
try {
  const api = new ApiClient(server.url);
  await api.signup('Bench');
  const auth = { cookie: api.cookie, userId: api.userId };
  const single = await api.createBoard('One page');
  await seedBoard(server, auth, single, SHAPES);
  const many = await api.createBoard(`${PAGES} pages`);
  await seedBoard(server, auth, many, SHAPES);
  const first = connectDoc(server.wsUrl, many, { cookie: api.cookie, origin: server.origin });
  await waitSynced(first);
  first.doc.transact(() => {
    const list = new Y.Array<Y.Map<unknown>>();
    first.doc.getMap(META_KEY).set(PAGES_KEY, list);
    for (let i = 0; i < PAGES; i++)
      list.push([
        new Y.Map<unknown>(
          Object.entries({ id: i === 0 ? MAIN_PAGE_ID : `p${i + 1}`, name: `Page ${i + 1}` }),
        ),
      ]);
  });
  await whenStored(first);
  first.destroy();
  for (let i = 1; i < PAGES; i++) {
    const page = connectDoc(server.wsUrl, docKey(many, `p${i + 1}`), {
      cookie: api.cookie,
      origin: server.origin,
    });
    await waitSynced(page);
    fillBoard(page.doc, SHAPES, api.userId, i + 1);
    await whenStored(page, 60_000);
    page.destroy();
  }
  log(`seeded: a one-page board and a ${PAGES}-page board, ${SHAPES} shapes a page`);
  await waitUntil('every seeding room unloaded', () => server.app.rooms.size === 0, 60_000);

  const times: Record<'single' | 'many', number[]> = { single: [], many: [] };
  const memory: Record<'single' | 'many', { bytes: number; rooms: number }[]> = { single: [], many: [] };
  for (let run = 0; run < RUNS; run++) {
    // Alternating which goes first, so neither always follows the other's unload.
    const order = run % 2 === 0 ? (['single', 'many'] as const) : (['many', 'single'] as const);
    for (const which of order) {
      const { context, full } = await openBoard(
        browser,
        server.url,
        api.cookie,
        which === 'single' ? single : many,
      );
      times[which].push(full);
      const open = await heapUsed();
      const rooms = server.app.rooms.size;
      await context.close();
      await waitUntil('the board unloaded', () => server.app.rooms.size === 0, 60_000);
      // The board's share of the heap: with it open, minus the same process once it has unloaded
      // (measured after, not before: what the previous board left for the GC is gone by then).
      memory[which].push({ bytes: open - (await heapUsed()), rooms });
    }
    log(
      `run ${run + 1}: one page ${times.single.at(-1)!.toFixed(0)} ms, ${(memory.single.at(-1)!.bytes / 1048576).toFixed(1)} MB;`,
      `${PAGES} pages ${times.many.at(-1)!.toFixed(0)} ms, ${(memory.many.at(-1)!.bytes / 1048576).toFixed(1)} MB`,
    );
  }
  const t1 = median(times.single);
  const t20 = median(times.many);
  const m1 = median(memory.single.map((m) => m.bytes));
  const m20 = median(memory.many.map((m) => m.bytes));
  const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
  console.log(
    `first page usable, p50 of ${RUNS}: one page ${t1.toFixed(0)} ms; ${PAGES} pages ${t20.toFixed(0)} ms; ratio ${(t20 / t1).toFixed(2)} (target ≤ 1.2)`,
  );
  console.log(
    `server heap with the board open: one page ${mb(m1)}; ${PAGES} pages ${mb(m20)}; ratio ${(m20 / m1).toFixed(2)} (target ≤ 1.5); rooms loaded: ${memory.single[0]!.rooms} and ${memory.many[0]!.rooms}`,
  );
} finally {
  await browser.close();
  await server.close();
}
