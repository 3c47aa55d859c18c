// Client benchmark for images: a board of 200 photos (1–2 MB JPEGs, all different),
// opened in Debian's headless Chromium against the real server.
//   1. first view at ~10 % zoom (the board fitted to the screen) on a fresh page: which image
//      URLs were fetched (renditions `?w=` vs full size) and how many bytes, cold (the server
//      makes each rendition) and warm (renditions kept);
//   2. frame intervals while panning at 100 %, and the bytes the pan downloads.
// `npm run bench:client:images [-- --images 200 --reps 2 --skip-build --json file]`
// Measures and reports; asserts nothing about timing. Bounded by a watchdog.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { type AssetAnswer, mulberry32 } from '@tandem/shared';
import { generateNKeysBetween } from 'fractional-indexing';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import * as Y from 'yjs';
import { launch, startApp } from '../e2e/helpers.ts';
import { ApiClient, connectDoc, waitSynced } from '../testing/clients.ts';
import { startFrameRecorder, stopFrameRecorder, viewState } from './probes.ts';
import { kb, ms, summarise } from './stats.ts';

const { values: args } = parseArgs({
  options: {
    images: { type: 'string', default: '200' },
    reps: { type: 'string', default: '2' },
    'skip-build': { type: 'boolean', default: false },
    json: { type: 'string' },
    'timeout-min': { type: 'string', default: '20' },
  },
});
const IMAGES = Number(args.images);
const REPS = Number(args.reps);
const VIEWPORT = { width: 1280, height: 800 };
const root = new URL('..', import.meta.url).pathname;
const log = (...a: unknown[]) => console.error('[bench:images]', ...a);
const watchdog = setTimeout(() => {
  console.error(`bench:client:images: gave up after ${args['timeout-min']} minutes`);
  process.exit(2);
}, Number(args['timeout-min']) * 60_000);

/** A photo-sized JPEG of seeded noise: it compresses like a detailed photo (1–2 MB). */
async function photo(seed: number): Promise<Buffer> {
  const width = 1600;
  const height = 1200;
  const random = mulberry32(seed);
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(random() * 256);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 70 + (seed % 4) * 5 })
    .toBuffer();
}

/** 25 columns, 440 units apart, of 400 × 300 images: fitted to a 1280 × 800 screen that is ~10 %. */
const COLUMNS = 25;
const SPACING = 440;

async function seed(server: { url: string; wsUrl: string; origin: string }, api: ApiClient, boardId: string) {
  const ids: string[] = [];
  let uploaded = 0;
  for (let i = 0; i < IMAGES; i++) {
    const body = await photo(i + 1);
    uploaded += body.byteLength;
    const response = await fetch(`${server.url}/api/boards/${boardId}/assets`, {
      method: 'POST',
      headers: { cookie: api.cookie, origin: server.origin, 'content-type': 'image/jpeg' },
      body: new Uint8Array(body),
    });
    if (response.status !== 201) throw new Error(`upload ${i}: ${response.status} ${await response.text()}`);
    ids.push(((await response.json()) as AssetAnswer).asset.id);
  }
  const client = connectDoc(server.wsUrl, boardId, { cookie: api.cookie, origin: server.origin });
  await waitSynced(client);
  const keys = generateNKeysBetween(null, null, IMAGES);
  client.doc.transact(() => {
    const shapes = client.doc.getMap<Y.Map<unknown>>('shapes');
    ids.forEach((assetId, i) => {
      const m = new Y.Map<unknown>();
      for (const [k, v] of Object.entries({
        type: 'image',
        x: (i % COLUMNS) * SPACING,
        y: Math.floor(i / COLUMNS) * SPACING,
        w: 400,
        h: 300,
        rotation: 0,
        color: 'grey',
        z: keys[i]!,
        createdBy: api.userId,
        assetId,
      }))
        m.set(k, v);
      shapes.set(`img-${i}`, m);
    });
  });
  // Stored once the server has it: wait until a fresh client sees every shape.
  const check = connectDoc(server.wsUrl, boardId, { cookie: api.cookie, origin: server.origin });
  await waitSynced(check);
  client.destroy();
  check.destroy();
  return { ids, uploaded };
}

interface Fetched {
  url: string;
  full: boolean;
  bytes: number;
}

/** Records every image response of a page (body bytes as transferred). */
function recordImages(page: Page): { list: Fetched[]; pending: Set<Promise<void>> } {
  const list: Fetched[] = [];
  const pending = new Set<Promise<void>>();
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (!/\/api\/boards\/[^/]+\/assets\//.test(url.pathname)) return;
    const job = request
      .sizes()
      .then((sizes) => {
        list.push({
          url: url.pathname + url.search,
          full: !url.searchParams.has('w'),
          bytes: sizes.responseBodySize,
        });
      })
      .catch(() => {})
      .finally(() => pending.delete(job));
    pending.add(job);
  });
  return { list, pending };
}

const summary = (list: Fetched[]) => ({
  requests: list.length,
  fullSize: list.filter((f) => f.full).length,
  renditions: [
    ...new Set(list.filter((f) => !f.full).map((f) => new URL(f.url, 'http://x').searchParams.get('w'))),
  ],
  bytes: list.reduce((s, f) => s + f.bytes, 0),
});

/** Number of image elements on screen whose picture has loaded. */
const loadedImages = `(() => [...document.querySelectorAll('[data-shape-type="image"] image')].filter((el) => {
  try { return el.getBBox().width > 0 && el.href.baseVal !== ''; } catch { return false; }
}).length)()`;

async function waitQuiet(
  page: Page,
  rec: ReturnType<typeof recordImages>,
  expected: number,
  timeoutMs: number,
) {
  const start = performance.now();
  let last = -1;
  let stableSince = performance.now();
  for (;;) {
    const n = rec.list.length;
    if (n !== last) {
      last = n;
      stableSince = performance.now();
    }
    if (n >= expected && rec.pending.size === 0) return performance.now() - start;
    // Nothing new for 3 s: whatever was going to load has loaded.
    if (performance.now() - stableSince > 3000 && rec.pending.size === 0) return performance.now() - start;
    if (performance.now() - start > timeoutMs) throw new Error(`images still loading after ${timeoutMs} ms`);
    await page.waitForTimeout(100);
  }
}

async function openBoard(browser: Browser, base: string, cookie: string, boardId: string) {
  // As a person's browser has it: the app-shell worker installed (e2e's launch blocks it by default).
  const context = await browser.newContext({ viewport: VIEWPORT, baseURL: base, serviceWorkers: 'allow' });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: base }]);
  const page = await context.newPage();
  page.on('pageerror', (e) => log('page error:', e.message));
  const rec = recordImages(page);
  const t0 = performance.now();
  await page.goto(`/b/${boardId}`);
  await page.waitForFunction(
    `document.querySelectorAll('[data-shape-type="image"]').length >= ${IMAGES}`,
    undefined,
    {
      timeout: 120_000,
    },
  );
  const shapesAt = performance.now() - t0;
  const settled = await waitQuiet(page, rec, IMAGES, 300_000);
  return { page, rec, shapesAt, settled, view: (await page.evaluate(viewState)) as { zoom: string } };
}

/** Calls `step(i)` n times, one every `interval` ms of wall clock, like a 60 Hz mouse. */
async function paced(n: number, interval: number, step: (i: number) => Promise<void>) {
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    await step(i);
    const wait = start + (i + 1) * interval - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}

/** The same hand-tool loop as the 5,000-shape benchmark (180 moves at 60 Hz). */
async function pan(page: Page) {
  const c = { x: VIEWPORT.width / 2, y: VIEWPORT.height / 2 };
  await page.getByRole('button', { name: 'Hand', exact: true }).click();
  await page.mouse.move(c.x, c.y);
  await page.mouse.down();
  const n = 180;
  await paced(n, 16, async (i) => {
    const t = ((i + 1) / n) * 2 * Math.PI;
    await page.mouse.move(c.x + 300 * Math.sin(t), c.y + 180 * Math.sin(2 * t));
  });
  await page.mouse.up();
}

interface PanFrames {
  deltas: number[];
  longFrames: unknown[];
  rendered: number;
  zoom: string;
}

async function recordPan(page: Page): Promise<PanFrames> {
  const twoFrames = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))';
  await page.evaluate(twoFrames);
  await page.evaluate(startFrameRecorder);
  await pan(page);
  await page.evaluate(twoFrames);
  return (await page.evaluate(stopFrameRecorder)) as PanFrames;
}

async function main() {
  const load = loadavg();
  log(
    `${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model} · load ${load.map((l) => l.toFixed(2)).join(' ')}`,
  );
  if (!args['skip-build']) {
    log('building the client…');
    const build = spawnSync('npm', ['run', 'build', '--workspace', 'client'], { cwd: root, stdio: 'ignore' });
    if (build.status !== 0) throw new Error('client build failed');
  }
  const server = await startApp({ MAX_BOARD_ASSET_BYTES: String(2 * 1024 ** 3) });
  let browser: Browser | undefined;
  try {
    const api = new ApiClient(server.url);
    await api.signup('Bench');
    const boardId = await api.createBoard('Bench images');
    const seedStart = performance.now();
    const { uploaded } = await seed(server, api, boardId);
    const stored = await server.app.assets.boardBytes(boardId);
    log(
      `seeded ${IMAGES} photos in ${ms(performance.now() - seedStart, 0)}: ${kb(uploaded)} uploaded (${kb(uploaded / IMAGES)} each), ${kb(stored)} stored`,
    );
    browser = await launch();

    const firstViews: Record<string, unknown>[] = [];
    for (const [label, runs] of [
      ['cold (renditions made on first request)', 1],
      ['warm (renditions kept)', REPS],
    ] as const) {
      for (let r = 0; r < runs; r++) {
        const { page, rec, shapesAt, settled, view } = await openBoard(
          browser,
          server.url,
          api.cookie,
          boardId,
        );
        const s = summary(rec.list);
        const loaded = (await page.evaluate(loadedImages)) as number;
        log(
          `first view ${label}: zoom ${view.zoom}, ${IMAGES} shapes after ${ms(shapesAt, 0)}, images settled after ${ms(settled, 0)}; ` +
            `${s.requests} image requests, ${s.fullSize} full size, widths ${s.renditions.join(',')}, ${kb(s.bytes)}; ${loaded} drawn`,
        );
        firstViews.push({ label, zoom: view.zoom, shapesAt, settled, loaded, ...s });
        await page.context().close();
      }
    }

    const pans: Record<string, unknown>[] = [];
    const deltas: number[] = [];
    const warmDeltas: number[] = [];
    for (let r = 0; r < REPS; r++) {
      const { page, rec } = await openBoard(browser, server.url, api.cookie, boardId);
      await page.getByRole('button', { name: 'Reset zoom' }).click();
      const before = rec.list.length;
      await waitQuiet(page, rec, before + 1, 120_000);
      const atStart = rec.list.length;
      // First loop: images entering the view are fetched and decoded while panning.
      const first = await recordPan(page);
      await waitQuiet(page, rec, atStart, 60_000);
      const during = summary(rec.list.slice(atStart));
      const view = summary(rec.list.slice(before, atStart));
      // Second loop, the same path: everything it shows is already loaded.
      const again = rec.list.length;
      const second = await recordPan(page);
      const secondFetched = summary(rec.list.slice(again));
      const f = summarise(first.deltas);
      const g = summarise(second.deltas);
      deltas.push(...first.deltas);
      warmDeltas.push(...second.deltas);
      log(
        `pan at ${first.zoom} rep ${r + 1}, first loop (loading): ${f.n} frames, p50 ${ms(f.p50)} p95 ${ms(f.p95)} max ${ms(f.max)}, ` +
          `${first.longFrames.length} long animation frames; ${first.rendered} shapes drawn at the end; ` +
          `100 % view ${view.requests} requests (${view.fullSize} full, widths ${view.renditions.join(',')}) ${kb(view.bytes)}; ` +
          `pan ${during.requests} requests (${during.fullSize} full) ${kb(during.bytes)}`,
      );
      log(
        `pan at ${second.zoom} rep ${r + 1}, second loop (loaded): ${g.n} frames, p50 ${ms(g.p50)} p95 ${ms(g.p95)} max ${ms(g.max)}, ` +
          `${second.longFrames.length} long animation frames; ${secondFetched.requests} requests`,
      );
      pans.push({
        rep: r + 1,
        zoom: first.zoom,
        loading: { ...f, longFrames: first.longFrames.length },
        loaded: { ...g, longFrames: second.longFrames.length },
        view,
        during,
      });
      await page.context().close();
    }
    const all = { loading: summarise(deltas), loaded: summarise(warmDeltas) };
    const result = {
      date: new Date().toISOString(),
      machine: { nproc: cpus().length, cpu: cpus()[0]?.model, loadBefore: load, loadAfter: loadavg() },
      images: IMAGES,
      uploadedBytes: uploaded,
      storedBytes: stored,
      firstViews,
      pans,
      panAll: all,
    };
    if (args.json) writeFileSync(args.json, `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify({ firstViews, panAll: all }, null, 2));
  } finally {
    await browser?.close();
    await server.close();
    clearTimeout(watchdog);
  }
}

await main();
