// What a compaction of a big board costs the SQLite Store's event loop (store/sqliteMaintenance.ts):
// a board of N ten-field stickies (its snapshot), then a log of 1 MiB of ten-sticky writes, then
// one compaction, the merge in the history worker as the server does it. While it runs, a
// setImmediate loop measures the event loop's longest gap, and twenty small appends made meanwhile
// measure how long a write waits. Each round on a fresh database, with the compaction's write and
// the checkpoints in the SQLite worker (what the Store runs with) and on the calling thread (what
// it ran with before), alternately; and, as the harness's own floor, the same half second with
// no compaction at all (`none`: what the appends and this process's garbage collection cost).
//
//   node --import tsx scripts/sqlite-compaction-bench.ts [stickies] [rounds] [directory]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Y from 'yjs';
import { WorkerCompute } from '../realtime-server/src/history/compute.ts';
import { SqliteStore } from '../realtime-server/src/store/sqlite.ts';

const stickies = Number(process.argv[2] ?? 5000);
const rounds = Number(process.argv[3] ?? 3);
const parent = process.argv[4] ?? tmpdir();
const modes = ['worker', 'in process', 'none'] as const;

class Board {
  readonly doc = new Y.Doc();
  private made = 0;
  private updates: Uint8Array[] = [];
  constructor() {
    this.doc.on('update', (u: Uint8Array) => this.updates.push(u));
  }
  /** `count` new stickies in one transaction; the updates made since the last call. */
  add(count: number): Uint8Array[] {
    const shapes = this.doc.getMap<Y.Map<unknown>>('shapes');
    this.doc.transact(() => {
      for (let i = 0; i < count; i++, this.made++) {
        const shape = new Y.Map<unknown>();
        const n = this.made;
        const fields = { type: 'sticky', x: n * 3, y: n * 7, w: 200, h: 200, z: n, rotation: 0 };
        for (const [k, v] of Object.entries({ ...fields, color: '#ffd', text: `note ${n}`, author: 'a' }))
          shape.set(k, v);
        shapes.set(`s${n}`, shape);
      }
    });
    return this.updates.splice(0);
  }
}

const entries = (updates: Uint8Array[], userId: string) =>
  updates.map((update) => ({ update, userId, at: new Date() }));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function round(mode: (typeof modes)[number], compute: WorkerCompute) {
  const dir = mkdtempSync(join(parent, 'tandem-compaction-bench-'));
  const store = new SqliteStore({ dataDir: dir, offThread: mode !== 'in process' });
  try {
    await store.migrate();
    await store.createUser({
      id: 'a',
      name: 'A',
      email: null,
      passwordHash: null,
      color: '#000000',
      isGuest: false,
    });
    await store.createBoard({ id: 'b', title: 'B', ownerId: 'a' });
    const board = new Board();
    await store.append('b', entries(board.add(stickies), 'a'));
    await store.compact('b', (parts) => compute.merge(parts));
    let logBytes = 0;
    const log: Uint8Array[] = [];
    while (logBytes < 1024 * 1024)
      for (const u of board.add(10)) {
        log.push(u);
        logBytes += u.byteLength;
      }
    for (let i = 0; i < log.length; i += 50) await store.append('b', entries(log.slice(i, i + 50), 'a'));
    // Warm: the workers are started, as on a server that has compacted before.
    await new Promise((resolve) => setTimeout(resolve, 200));

    let longest = 0;
    let last = performance.now();
    let running = true;
    const tick = () => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const waits: number[] = [];
    const appending = (async () => {
      for (let i = 0; i < 20; i++) {
        const update = board.add(1);
        const started = performance.now();
        await store.append('b', entries(update, 'b'));
        waits.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const started = performance.now();
    if (mode === 'none') await new Promise((resolve) => setTimeout(resolve, 500));
    else await store.compact('b', (parts) => compute.merge(parts));
    const took = performance.now() - started;
    await appending;
    running = false;
    const stored = await store.loadDoc('b');
    const check = new Y.Doc();
    for (const part of [stored.snapshot!, ...stored.updates]) Y.applyUpdate(check, part);
    if (check.getMap('shapes').size !== board.doc.getMap('shapes').size) throw new Error('a sticky was lost');
    return { longest, took, appendWait: Math.max(...waits) };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const compute = new WorkerCompute();
const results = new Map<string, { longest: number[]; took: number[]; appendWait: number[] }>();
for (let r = 0; r < rounds; r++)
  for (const mode of modes) {
    const res = await round(mode, compute);
    const acc = results.get(mode) ?? { longest: [], took: [], appendWait: [] };
    acc.longest.push(res.longest);
    acc.took.push(res.took);
    acc.appendWait.push(res.appendWait);
    results.set(mode, acc);
  }
await compute.close();
console.log(`${stickies} stickies and a 1 MiB log, ${rounds} rounds each, medians (all rounds):`);
for (const [mode, r] of results)
  console.log(
    `${mode.padEnd(10)}  longest event-loop gap ${median(r.longest).toFixed(1)} ms (${r.longest.map((x) => x.toFixed(1)).join(', ')})` +
      `  compaction ${median(r.took).toFixed(0)} ms  longest append ${median(r.appendWait).toFixed(1)} ms`,
  );
