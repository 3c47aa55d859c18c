// What `PRAGMA synchronous = FULL` costs the SQLite Store (docs/operations.md, "Durability"): the
// Store's own append (one transaction per call, as the persister writes a board's batch), timed
// with synchronous NORMAL and FULL in turn, each round on a fresh database in a temp directory on
// the disk DATA_DIR would use. better-sqlite3 is synchronous, so an append's time is also how long
// it holds up the event loop.
//
//   node --import tsx scripts/sqlite-sync-bench.ts [appends per round] [rounds] [directory]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../realtime-server/src/store/sqlite.ts';

const appends = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 3);
const parent = process.argv[4] ?? tmpdir();
const modes = ['NORMAL', 'FULL'] as const;

interface Round {
  mode: (typeof modes)[number];
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function round(mode: (typeof modes)[number]): Promise<Round> {
  const dir = mkdtempSync(join(parent, 'tandem-sync-bench-'));
  const store = new SqliteStore({ dataDir: dir });
  try {
    store.db.pragma(`synchronous = ${mode}`);
    await store.migrate();
    const user = await store.createUser({
      id: randomBytes(8).toString('hex'),
      name: 'Bench',
      email: null,
      passwordHash: null,
      color: '#000000',
      isGuest: true,
    });
    const board = await store.createBoard({
      id: randomBytes(8).toString('hex'),
      title: 'Bench',
      ownerId: user.id,
    });
    // A typical batch: one author's merged edits, a couple of hundred bytes.
    const update = randomBytes(200);
    const times: number[] = [];
    const started = performance.now();
    for (let i = 0; i < appends; i++) {
      const t = performance.now();
      await store.append(board.id, [{ update, userId: user.id, at: new Date() }]);
      times.push(performance.now() - t);
    }
    const elapsed = performance.now() - started;
    times.sort((a, b) => a - b);
    return {
      mode,
      perSecond: (appends / elapsed) * 1000,
      p50: quantile(times, 0.5),
      p99: quantile(times, 0.99),
      max: times[times.length - 1]!,
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const results: Round[] = [];
for (let r = 0; r < rounds; r++) for (const mode of modes) results.push(await round(mode));
console.log(`${appends} appends per round, ${rounds} rounds, in ${parent}`);
console.log('mode    appends/s   p50 ms   p99 ms   max ms');
for (const r of results) {
  console.log(
    `${r.mode.padEnd(6)} ${r.perSecond.toFixed(0).padStart(10)} ${r.p50.toFixed(3).padStart(8)} ${r.p99.toFixed(3).padStart(8)} ${r.max.toFixed(1).padStart(8)}`,
  );
}
for (const mode of modes) {
  const mine = results.filter((r) => r.mode === mode);
  const median = (pick: (r: Round) => number) =>
    mine.map(pick).sort((a, b) => a - b)[Math.floor(mine.length / 2)]!;
  console.log(
    `median ${mode}: ${median((r) => r.perSecond).toFixed(0)} appends/s, p50 ${median((r) => r.p50).toFixed(3)} ms, p99 ${median((r) => r.p99).toFixed(3)} ms`,
  );
}
