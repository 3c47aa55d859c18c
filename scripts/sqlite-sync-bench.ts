// What making a commit durable costs the SQLite Store (docs/operations.md, "Durability of SQLite"):
// the Store's own append (one transaction per call, as the persister writes a board's batch), with
// the Store's `synchronous = NORMAL` and its WAL flush off the event loop (what it runs with), and
// with `synchronous = FULL` (the fsync inside the commit, on the event loop: what it ran with
// before; its WAL flush then finds nothing left to write). Each round on a fresh database in a temp
// directory on the disk DATA_DIR would use. `held` is how long a call holds the event loop, `done`
// how long until it resolves (the write is on disk either way).
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
  heldP50: number;
  heldP99: number;
  doneP50: number;
  doneP99: number;
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
    const held: number[] = [];
    const done: number[] = [];
    const started = performance.now();
    for (let i = 0; i < appends; i++) {
      const t = performance.now();
      const appended = store.append(board.id, [{ update, userId: user.id, at: new Date() }]);
      held.push(performance.now() - t);
      await appended;
      done.push(performance.now() - t);
    }
    const elapsed = performance.now() - started;
    held.sort((a, b) => a - b);
    done.sort((a, b) => a - b);
    return {
      mode,
      perSecond: (appends / elapsed) * 1000,
      heldP50: quantile(held, 0.5),
      heldP99: quantile(held, 0.99),
      doneP50: quantile(done, 0.5),
      doneP99: quantile(done, 0.99),
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const results: Round[] = [];
for (let r = 0; r < rounds; r++) for (const mode of modes) results.push(await round(mode));
console.log(`${appends} appends per round, ${rounds} rounds, in ${parent}`);
console.log('mode    appends/s  held p50  held p99  done p50  done p99 (ms)');
const ms = (v: number) => v.toFixed(3).padStart(9);
for (const r of results) {
  console.log(
    `${r.mode.padEnd(6)} ${r.perSecond.toFixed(0).padStart(10)} ${ms(r.heldP50)} ${ms(r.heldP99)} ${ms(r.doneP50)} ${ms(r.doneP99)}`,
  );
}
for (const mode of modes) {
  const mine = results.filter((r) => r.mode === mode);
  const median = (pick: (r: Round) => number) =>
    mine.map(pick).sort((a, b) => a - b)[Math.floor(mine.length / 2)]!;
  console.log(
    `median ${mode}: ${median((r) => r.perSecond).toFixed(0)} appends/s; event loop held p50 ${median((r) => r.heldP50).toFixed(3)} ms, p99 ${median((r) => r.heldP99).toFixed(3)} ms; done p50 ${median((r) => r.doneP50).toFixed(3)} ms, p99 ${median((r) => r.doneP99).toFixed(3)} ms`,
  );
}
