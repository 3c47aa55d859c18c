// Version history benchmark: a board with 100,000 stored edits over 50 versions, on the
// real server (SQLite, or PostgreSQL with `--postgres`). Measures, over REST: listing versions,
// exporting a version, restoring a version, reverting one user's 10,000 edits; and, while the
// restore and the revert run, the update latency between two other live clients on the board
// (one writes every 10 ms, the other receives). Also the stored bytes per hour of editing.
//
//   npx tsx bench/src/history.ts [--postgres] [--edits 100000] [--versions 50]
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import * as Y from 'yjs';
import { Versions } from '../../realtime-server/src/history/versions.ts';
import { openStore } from '../../realtime-server/src/store/index.ts';
import type { Store } from '../../realtime-server/src/store/store.ts';
import { ApiClient, connectDoc, waitSynced } from '../../testing/clients.ts';
import { startServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const EDITS = arg('edits', 100_000);
const VERSIONS = arg('versions', 50);
const REVERTED = arg('reverted', 10_000);
const SHAPES = arg('shapes', 2_000);
const postgres = process.argv.includes('--postgres');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function timed<T>(what: string, fn: () => Promise<T>, runs = 5): Promise<T> {
  const times: number[] = [];
  let out: T | undefined;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    out = await fn();
    times.push(performance.now() - t);
  }
  console.log(`${what}: median ${ms(pct(times, 50))}, max ${ms(Math.max(...times))} (${runs} runs)`);
  return out as T;
}

/**
 * Writes the edits straight into the Store, attributed and timed one second apart, recording a
 * version every EDITS / VERSIONS edits, compacting the log every 500 entries as the server does: the last REVERTED edits are split between Ada and Ben, so
 * Ben has REVERTED edits since the time returned.
 */
async function populate(store: Store, boardId: string, ada: string, ben: string) {
  const doc = new Y.Doc();
  const shapes = doc.getMap<Y.Map<unknown>>('shapes');
  const start = Date.now() - EDITS * 1000 - 60_000;
  let clock = start;
  const versions = new Versions(store, { historyDays: 36_500, now: () => new Date(clock) });
  const benFrom = EDITS - 2 * REVERTED;
  let since = new Date(start);
  let batch: { update: Uint8Array; userId: string; at: Date }[] = [];
  let bytes = 0;
  const perVersion = Math.floor(EDITS / VERSIONS);
  for (let i = 0; i < EDITS; i++) {
    const userId = i >= benFrom && i % 2 === 1 ? ben : ada;
    if (i === benFrom) since = new Date(clock);
    let update: Uint8Array | null = null;
    const on = (u: Uint8Array) => {
      update = u;
    };
    doc.once('update', on);
    doc.transact(() => {
      const id = `s${i % SHAPES}`;
      const existing = shapes.get(id);
      if (!existing || i % 97 === 0) {
        const m = new Y.Map<unknown>();
        for (const [k, v] of Object.entries({
          type: 'sticky',
          x: i % 1000,
          y: Math.floor(i / 1000),
          w: 100,
          h: 100,
          rotation: 0,
          color: 'yellow',
          z: `a${i}`,
          createdBy: userId,
        }))
          m.set(k, v);
        m.set('text', new Y.Text(`note ${i}`));
        shapes.set(id, m);
      } else if (i % 3 === 0) {
        (existing.get('text') as Y.Text).insert(0, 'x');
      } else {
        existing.set('x', (existing.get('x') as number) + 1);
      }
    });
    if (!update) continue;
    bytes += (update as Uint8Array).length;
    batch.push({ update, userId, at: new Date(clock) });
    clock += 1000;
    if (batch.length === 500 || (i + 1) % perVersion === 0) {
      // As the persister does: the log is compacted past 500 entries, and history keeps them.
      const size = await store.append(boardId, batch);
      batch = [];
      if (size.entries >= 500) await store.compact(boardId, (parts) => Y.mergeUpdates(parts));
    }
    if ((i + 1) % perVersion === 0) await versions.record(boardId, 'auto');
  }
  if (batch.length > 0) await store.append(boardId, batch);
  return { since, logBytes: bytes, hours: (clock - start) / 3_600_000, doc };
}

async function main() {
  const schema = `bench_history_${randomBytes(4).toString('hex')}`;
  const store = postgres
    ? await openStore({
        databaseUrl: 'postgres://postgres@127.0.0.1:5432/test',
        dataDir: '/nonexistent',
        schema,
      })
    : undefined;
  const server = await startServer(store ? { store } : {});
  try {
    const ada = await new ApiClient(server.url).signup('Ada');
    const ben = await new ApiClient(server.url).signup('Ben');
    const boardId = await ada.createBoard('History bench');
    await ada.share(boardId, ben, 'editor');
    console.log(
      `store: ${postgres ? 'PostgreSQL' : 'SQLite'}; ${EDITS} edits, ${VERSIONS} versions, Ben ${REVERTED} edits`,
    );
    const t0 = performance.now();
    const { since, logBytes } = await populate(server.store, boardId, ada.userId, ben.userId);
    console.log(`populate: ${ms(performance.now() - t0)}; log ${(logBytes / 1e6).toFixed(2)} MB`);
    if (!postgres) {
      // What history costs on disk: versions, the kept log, and the board itself.
      const db = (server.store as unknown as { db: import('better-sqlite3').Database }).db;
      const size = (table: string) =>
        Number(
          (db.prepare(`SELECT coalesce(sum(length(data)), 0) AS b FROM ${table}`).get() as { b: number }).b,
        );
      const hours = (EDITS * 1000) / 3_600_000;
      const versionsBytes = size('doc_versions');
      const historyBytes = size('doc_history') + size('doc_updates');
      console.log(
        `stored over ${hours.toFixed(2)} h of editing (1 edit/s): versions ${(versionsBytes / 1e6).toFixed(2)} MB, ` +
          `attributed log ${(historyBytes / 1e6).toFixed(2)} MB, snapshot ${(size('doc_snapshots') / 1e6).toFixed(2)} MB; ` +
          `history per hour ${((versionsBytes + historyBytes) / hours / 1e6).toFixed(2)} MB`,
      );
    }
    if (process.argv.includes('--storage-only')) return;

    const list = await timed('GET versions (50)', () =>
      ada.call<{ versions: { id: string }[] }>('GET', `/api/boards/${boardId}/versions`),
    );
    const versionIds = list.body.versions.map((v) => v.id);
    console.log(`versions listed: ${versionIds.length}`);
    const middle = versionIds[Math.floor(versionIds.length / 2)]!;
    await timed('GET version export.json', () =>
      ada.call('GET', `/api/boards/${boardId}/versions/${middle}/export.json`),
    );

    // Two other people on the board: one writes every 10 ms, the other measures arrival.
    const writer = connectDoc(server.wsUrl, boardId, { token: await ada.token(boardId) });
    const reader = connectDoc(server.wsUrl, boardId, { token: await ben.token(boardId) });
    await Promise.all([waitSynced(writer, 60_000), waitSynced(reader, 60_000)]);
    const sent = new Map<number, number>();
    const latencies: number[] = [];
    let n = 0;
    const probe = reader.doc.getMap<number>('probe');
    // Only a key's first arrival counts: the restore deletes the probe keys (the version has
    // none) and the revert of the restorer brings them back, and neither is a delivery.
    const arrived = new Set<string>();
    probe.observe((e) => {
      for (const key of e.keysChanged) {
        if (arrived.has(key) || !probe.has(key)) continue;
        arrived.add(key);
        const at = sent.get(Number(key));
        if (at !== undefined) latencies.push(performance.now() - at);
      }
    });
    const tick = setInterval(() => {
      n += 1;
      sent.set(n, performance.now());
      writer.doc.getMap('probe').set(String(n), n);
    }, 10);
    const during = async (what: string, fn: () => Promise<unknown>) => {
      await new Promise((r) => setTimeout(r, 500));
      latencies.length = 0;
      // The server, the two clients and this script share one event loop: its longest stall says
      // whether a slow update waited for the CPU (a blocked loop) or for something else.
      const lag = monitorEventLoopDelay({ resolution: 5 });
      lag.enable();
      const t = performance.now();
      await fn();
      const took = performance.now() - t;
      lag.disable();
      await new Promise((r) => setTimeout(r, 300));
      console.log(
        `${what}: ${ms(took)}; others' update latency meanwhile p50 ${ms(pct(latencies, 50))}, p99 ${ms(pct(latencies, 99))}, max ${ms(Math.max(...latencies))} (${latencies.length} updates); longest event-loop stall ${ms(lag.max / 1e6)}`,
      );
    };
    await during('POST restore (to the middle version)', async () => {
      const r = await ben.call('POST', `/api/boards/${boardId}/versions/${middle}/restore`);
      if (r.status !== 200) throw new Error(`restore: ${r.status} ${JSON.stringify(r.body)}`);
    });
    await during(`POST revert (Ben's ${REVERTED} edits)`, async () => {
      const r = await ada.call('POST', `/api/boards/${boardId}/revert`, {
        userId: ben.userId,
        since: since.toISOString(),
      });
      if (r.status !== 200) throw new Error(`revert: ${r.status} ${JSON.stringify(r.body)}`);
    });
    clearInterval(tick);
    await waitUntil('clients settle', () => true);
    writer.destroy();
    reader.destroy();
  } finally {
    await server.close();
    if (store && postgres) {
      const pg = (await import('pg')).default;
      const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.end();
    }
  }
}

await main();
