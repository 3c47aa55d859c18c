// Hardening: exports, restores and versions of big boards against a
// real server process. What is measured is what other people notice: the time an edit takes to
// reach another client on another board (the main thread's stalls), the time until a writer's
// edit is confirmed saved, whether a board stays editable, and what an export holds.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodeSavedMessage, encodeSavedMessage } from '@tandem/shared';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { ApiClient, addShape, connectDoc, type DocClient, waitSynced } from '../../testing/clients.ts';
import { type RawDoc, rawDoc, sendAndProbe, syncMessage } from '../../testing/hardening.ts';
import { type ServerProcess, startProcess } from '../../testing/process.ts';
import { addRecord } from '../../testing/records.ts';
import type { TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';
import { exportJson } from '../src/history/board.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import { partsOf } from '../src/store/store.ts';

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};

/** A server process on its own SQLite file, and that file opened here to seed boards directly. */
async function startWith(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-history-hardening-'));
  // Stored within 50 ms of an edit (200 ms under constant editing), as the in-process tests do.
  const server = await startProcess({
    DATA_DIR: dataDir,
    PERSIST_DEBOUNCE_MS: '50',
    PERSIST_MAX_DELAY_MS: '200',
    ...env,
  });
  const store = new SqliteStore({ dataDir });
  return {
    server,
    store,
    async close() {
      await server.stop('SIGKILL');
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The content of a board of `shapes` sticky notes, as one update. */
function boardOf(shapes: number, createdBy: string, prefix = 's'): Uint8Array {
  const doc = new Y.Doc();
  for (let i = 0; i < shapes; i++) addRecord(doc, `${prefix}${i}`, i, createdBy);
  const update = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return update;
}

/**
 * What walking `board` once costs a main thread on this machine now: the median of three exports
 * (history/board.ts exportJson, the work the history worker does for export.json and, near
 * enough, for a restore's change) in this process. The stall bounds below are fractions of it,
 * not fixed milliseconds: the machine's load (other test files run beside this one on two cores)
 * stretches the server's stalls and this cost alike, while work done on the server's main thread
 * would stall another board for the whole of it on any machine. The figures in milliseconds are
 * printed, and measured on a quiet machine in docs/benchmarks.md.
 */
function mainThreadCost(board: Uint8Array): number {
  const took: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    exportJson([board]);
    took.push(performance.now() - start);
  }
  return percentile(took, 50);
}

/**
 * Work done on the server's main thread holds the edit in flight on another board for all of it:
 * `operations` such pieces of work would stall at least that many of the probe's edits (one edit
 * is in flight at a time). Fewer than half as many edits over `limit` means the work was not there.
 */
function assertFewStalls(samples: number[], limit: number, operations: number, what: string): void {
  const stalls = samples.filter((ms) => ms >= limit);
  assert.ok(
    stalls.length < operations / 2,
    `${stalls.length} edits on another board took ${limit.toFixed(1)} ms or more during ${operations} ${what}: ` +
      stalls.map((ms) => ms.toFixed(1)).join(', '),
  );
}

/**
 * Edits on one board, timed from one client to the other: each edit moves a shape and the time
 * until the other client sees it is one sample. Runs until stopped.
 */
class RelayProbe {
  readonly samples: number[] = [];
  private running = true;
  private done: Promise<void> = Promise.resolve();

  constructor(
    private readonly from: DocClient,
    private readonly to: DocClient,
  ) {}

  static async start(server: ServerProcess, owner: ApiClient): Promise<RelayProbe> {
    const boardId = await owner.createBoard('Bystander');
    const from = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    const to = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    await Promise.all([waitSynced(from), waitSynced(to)]);
    addShape(from.doc, 'probe', { type: 'sticky', x: 0, y: 0 });
    await waitUntil('the probe shape arrived', () => to.doc.getMap('shapes').has('probe'));
    const probe = new RelayProbe(from, to);
    probe.done = probe.loop();
    return probe;
  }

  private async loop(): Promise<void> {
    const shape = () => this.from.doc.getMap<Y.Map<unknown>>('shapes').get('probe')!;
    const seen = () => this.to.doc.getMap<Y.Map<unknown>>('shapes').get('probe')?.get('x');
    for (let i = 1; this.running; i++) {
      // Timed by the other client's own event, not by polling (whose period would be the sample).
      const arrived = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`probe edit ${i} did not arrive in 30 s`)), 30_000);
        const check = () => {
          if (seen() !== i) return;
          clearTimeout(timer);
          this.to.doc.off('update', check);
          resolve();
        };
        this.to.doc.on('update', check);
      });
      const sent = performance.now();
      shape().set('x', i);
      await arrived;
      this.samples.push(performance.now() - sent);
      // Paced, so the probe is a person moving a shape, not a load of its own.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Stops and returns the samples. */
  async stop(): Promise<number[]> {
    this.running = false;
    await this.done;
    this.from.destroy();
    this.to.destroy();
    return this.samples;
  }
}

/** GETs a path with the client's cookie: status, and the body's length and JSON. */
async function get(server: ServerProcess, client: ApiClient, path: string) {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie: client.cookie } });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body, bytes: text.length };
}

/**
 * A writer on a board of its own who edits and asks "saved?" after each edit, as the editor does
 * (docs/api.md §4): the time from each edit to its "saved" answer is one sample.
 */
class SavedProbe {
  readonly samples: number[] = [];
  private readonly asked = new Map<number, number>();
  private readonly doc = new Y.Doc();
  private next = 1;

  private constructor(private readonly socket: RawDoc) {
    void socket.closed.then(({ code, reason }) => {
      this.closed = `closed ${code} ${reason}`;
    });
    socket.ws.on('message', (data: Buffer) => {
      const id = decodeSavedMessage(new Uint8Array(data));
      if (id === null) return;
      // The server answers the newest request a peer made while one waited (docs/api.md §4): an answer
      // covers every edit before it.
      const now = performance.now();
      for (const [asked, at] of this.asked) {
        if (asked > id) continue;
        this.asked.delete(asked);
        this.samples.push(now - at);
      }
    });
  }

  static async start(server: ServerProcess, owner: ApiClient, boardId: string): Promise<SavedProbe> {
    return new SavedProbe(
      await rawDoc({ wsUrl: server.wsUrl } as TestServer, boardId, { cookie: owner.cookie }),
    );
  }

  /** One edit and its "saved?" request. */
  edit(): void {
    const id = this.next++;
    const vector = Y.encodeStateVector(this.doc);
    addShape(this.doc, `w${id}`, { type: 'rect', x: id, y: 0 });
    this.asked.set(id, performance.now());
    this.socket.ws.send(syncMessage(2, Y.encodeStateAsUpdate(this.doc, vector)));
    this.socket.ws.send(encodeSavedMessage(id));
  }

  /** How the server closed the socket, if it did. */
  closed = 'open';

  get unanswered(): number {
    return this.asked.size;
  }

  close(): void {
    this.socket.ws.terminate();
    this.doc.destroy();
  }
}

describe('exports of a big board', () => {
  let ctx: Awaited<ReturnType<typeof startWith>>;
  let owner: ApiClient;
  before(async () => {
    ctx = await startWith({});
    owner = await new ApiClient(ctx.server.url).signup('Owner');
  });
  after(async () => ctx?.close());

  test('nine export.json of a 4,000-shape board nobody has open: fewer than half of them hold an edit on another board for half of what one export costs a main thread', async () => {
    const boardId = await owner.createBoard('Big');
    const board = boardOf(4000, owner.userId);
    await ctx.store.append(boardId, [{ update: board, userId: owner.userId, at: new Date() }]);
    const costBefore = mainThreadCost(board);
    const probe = await RelayProbe.start(ctx.server, owner);
    await waitUntil('a few quiet samples', () => probe.samples.length >= 20);
    const quiet = [...probe.samples];
    const baseline = probe.samples.length;
    let exports = 0;
    const exporting = async () => {
      for (let round = 0; round < 3; round++) {
        // Only the status and size here: parsing megabytes would stall this process's clients.
        const response = await fetch(`${ctx.server.url}/api/boards/${boardId}/export.json`, {
          headers: { cookie: owner.cookie },
        });
        assert.equal(response.status, 200);
        assert.ok((await response.arrayBuffer()).byteLength > 4000 * 100);
        exports += 1;
      }
    };
    await Promise.all([exporting(), exporting(), exporting()]);
    const samples = (await probe.stop()).slice(baseline);
    const cost = Math.max(costBefore, mainThreadCost(board));
    const p99 = percentile(samples, 99);
    console.log(
      `one export on a main thread here: ${cost.toFixed(1)} ms; quiet: p50 ${percentile(quiet, 50).toFixed(1)} ms, ` +
        `p99 ${percentile(quiet, 99).toFixed(1)} ms; ${exports} exports of 4,000 shapes: ${samples.length} ` +
        `relayed edits on another board, p50 ${percentile(samples, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, ` +
        `max ${percentile(samples, 100).toFixed(1)} ms`,
    );
    assert.equal(exports, 9);
    assertFewStalls(samples, cost / 2, exports, 'exports');
    assert.ok(samples.length >= 10, `only ${samples.length} edits timed`);
  });

  test('restores of a 4,000-shape board, nobody on it (the Store is written, no room opened) and then someone on it (slices, one per turn): fewer than half of them hold an edit on another board for three quarters / all of what walking the board costs a main thread, and the Store ends as restored', async () => {
    const boardId = await owner.createBoard('Big, restored');
    const empty = await saveVersion(owner, boardId, 'Empty');
    const board = boardOf(4000, owner.userId);
    await ctx.store.append(boardId, [{ update: board, userId: owner.userId, at: new Date() }]);
    const full = await saveVersion(owner, boardId, 'Full');
    const storedShapes = async () => {
      const doc = new Y.Doc();
      for (const part of partsOf(await ctx.store.loadDoc(boardId))) Y.applyUpdate(doc, part);
      const size = doc.getMap('shapes').size;
      doc.destroy();
      return size;
    };
    const timed = async (restores: number, what: string, share: number, run: () => Promise<void>) => {
      const costBefore = mainThreadCost(board);
      const probe = await RelayProbe.start(ctx.server, owner);
      await waitUntil('a few quiet samples', () => probe.samples.length >= 10);
      const baseline = probe.samples.length;
      await run();
      const samples = (await probe.stop()).slice(baseline);
      const cost = Math.max(costBefore, mainThreadCost(board));
      console.log(
        `${restores} restores of a 4,000-shape board ${what} (walking it on a main thread here: ${cost.toFixed(1)} ms): ` +
          `${samples.length} relayed edits on another board, p50 ${percentile(samples, 50).toFixed(1)} ms, ` +
          `p99 ${percentile(samples, 99).toFixed(1)} ms, max ${percentile(samples, 100).toFixed(1)} ms`,
      );
      assertFewStalls(samples, cost * share, restores, `restores of a board ${what}`);
      assert.ok(samples.length >= 5, `only ${samples.length} edits timed`);
    };

    // Nobody has the board open: the change is computed from the Store and appended to it.
    const loads = () => metric(ctx.server, 'tandem_store_seconds_count{op="load"}');
    const loadsBefore = await loads();
    // Three quarters: the restore's own main-thread part (its Store append and the compaction's
    // hand-off) and the collector held one edit 72 ms against a 114 ms walk in a CI run; computed
    // on the main thread, each of the four restores would hold one for a whole walk.
    await timed(4, 'nobody has open', 3 / 4, async () => {
      for (const version of [empty, full, empty, full]) await restore(owner, boardId, version);
    });
    assert.equal(await storedShapes(), 4000, 'restored to Full, in the Store');
    const parts = partsOf(await ctx.store.loadDoc(boardId)).length;
    assert.ok(parts < 10, `the log was compacted after the restores (${parts} parts)`);
    assert.equal(
      await loads(),
      loadsBefore + 1,
      'one board opened meanwhile: the probe’s, not the restored one',
    );

    // Someone has it open: the change reaches them in slices, one per turn of the server's loop.
    // A raw socket, whose messages are applied after the timing: a Yjs client in this process
    // would stall the probe with its own work.
    const seen = new Y.Doc();
    for (const part of partsOf(await ctx.store.loadDoc(boardId))) Y.applyUpdate(seen, part);
    assert.equal(seen.getMap('shapes').size, 4000);
    const viewer = await rawDoc({ wsUrl: ctx.server.wsUrl } as TestServer, boardId, { cookie: owner.cookie });
    const received: Uint8Array[] = [];
    viewer.ws.on('message', (data: Buffer) => received.push(new Uint8Array(data)));
    try {
      // The slices are applied on the main thread, a few milliseconds per turn; what is left is
      // garbage collection of the replaced board (p99 15–25 ms on a quiet machine, 50–70 with the
      // machine's two cores four times oversubscribed; 420 ms and more in one transaction).
      await timed(2, 'someone has open', 1, async () => {
        await restore(owner, boardId, empty);
        await restore(owner, boardId, full);
      });
      const sizes: number[] = [];
      await waitUntil('the viewer got both restores', () => {
        for (const message of received.splice(0)) {
          const decoder = decoding.createDecoder(message);
          if (decoding.readVarUint(decoder) !== 0 || decoding.readVarUint(decoder) !== 2) continue;
          Y.applyUpdate(seen, decoding.readVarUint8Array(decoder));
          sizes.push(seen.getMap('shapes').size);
        }
        return sizes.includes(0) && sizes.at(-1) === 4000;
      });
      assert.ok(sizes.length > 4, `the change came in slices (${sizes.length} updates)`);
      assert.equal(viewer.ws.readyState, viewer.ws.OPEN, 'the viewer stayed connected');
    } finally {
      viewer.ws.terminate();
      seen.destroy();
    }
    await waitUntil('the board unloaded', async () => (await metric(ctx.server, 'tandem_rooms')) === 0);
    assert.equal(await storedShapes(), 4000, 'after everyone left, the Store holds the restored board');
  });

  test('a flood of version exports: a writer on another board is told "saved" within 1 s, or five exports\' main-thread cost on a loaded machine, compaction included', async () => {
    const big = await owner.createBoard('Big, versioned');
    const bigBoard = boardOf(4000, owner.userId);
    await ctx.store.append(big, [{ update: bigBoard, userId: owner.userId, at: new Date() }]);
    const costBefore = mainThreadCost(bigBoard);
    const version = await saveVersion(owner, big, 'Everything');
    // The writer's board: big enough that its compaction merges in a worker (over 256 KB), and a
    // log one entry short of compaction, so the writer's first stored edit starts one.
    const writes = await owner.createBoard('Writer');
    const entries = [
      { update: boardOf(1500, owner.userId, 'w-base-'), userId: owner.userId, at: new Date() },
    ];
    const filler = new Y.Doc();
    for (let i = 0; entries.length < 500; i++) {
      const vector = Y.encodeStateVector(filler);
      filler.getMap('meta').set('n', i);
      entries.push({ update: Y.encodeStateAsUpdate(filler, vector), userId: owner.userId, at: new Date() });
    }
    await ctx.store.append(writes, entries);
    const writer = await SavedProbe.start(ctx.server, owner, writes);
    try {
      let exporting = true;
      const flood = Promise.all(
        Array.from({ length: 20 }, async () => {
          const answer = await fetch(`${ctx.server.url}/api/boards/${big}/versions/${version}/export.json`, {
            headers: { cookie: owner.cookie },
          });
          assert.equal(answer.status, 200);
          await answer.arrayBuffer();
        }),
      ).finally(() => {
        exporting = false;
      });
      while (exporting) {
        writer.edit();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await flood;
      await waitUntil('every edit was answered', () => writer.unanswered === 0, 30_000).catch(
        (error: unknown) => {
          throw new Error(
            `${(error as Error).message}: ${writer.unanswered} of ${writer.samples.length + writer.unanswered} unanswered, ${writer.closed}`,
          );
        },
      );
      const worst = percentile(writer.samples, 100);
      // Twenty exports on the server's main thread would hold an edit made meanwhile for most of
      // twenty exports' cost; in the worker it waits for none of it. One second on a quiet
      // machine; the bound grows with what an export costs here when the machine is loaded.
      const cost = Math.max(costBefore, mainThreadCost(bigBoard));
      const bound = Math.max(1000, 5 * cost);
      console.log(
        `${writer.samples.length} edits during 20 version exports: saved after p50 ` +
          `${percentile(writer.samples, 50).toFixed(0)} ms, max ${worst.toFixed(0)} ms ` +
          `(one export on a main thread here: ${cost.toFixed(0)} ms; bound ${bound.toFixed(0)} ms)`,
      );
      assert.ok(writer.samples.length >= 5, `only ${writer.samples.length} edits`);
      assert.ok(worst < bound, `an edit was confirmed saved after ${worst.toFixed(0)} ms`);
      const stored = await ctx.store.loadDoc(writes);
      assert.ok(stored.snapshot, "the writer's board was compacted meanwhile");
    } finally {
      writer.close();
    }
  });

  test('export.json keeps a shape whose text is over the schema limit (1.5 MB), as it is', async () => {
    const boardId = await owner.createBoard('Long note');
    const doc = new Y.Doc();
    addRecord(doc, 'short', 0, owner.userId);
    addRecord(doc, 'long', 1, owner.userId);
    const text = doc.getMap<Y.Map<unknown>>('shapes').get('long')!.get('text') as Y.Text;
    text.insert(text.length, 'x'.repeat(1_500_000));
    await ctx.store.append(boardId, [
      { update: Y.encodeStateAsUpdate(doc), userId: owner.userId, at: new Date() },
    ]);
    doc.destroy();
    const answer = await get(ctx.server, owner, `/api/boards/${boardId}/export.json`);
    assert.equal(answer.status, 200);
    const shapes = (answer.body as { shapes: { id: string; text?: string }[] }).shapes;
    assert.deepEqual(shapes.map((s) => s.id).sort(), ['long', 'short'], 'no shape left out');
    assert.equal(shapes.find((s) => s.id === 'long')?.text?.length, 'imported row 1'.length + 1_500_000);
  });
});

/** A gauge or counter of a server process's /metrics. */
async function metric(server: ServerProcess, name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

/** Saves a named version of the board as it is now. */
async function saveVersion(owner: ApiClient, boardId: string, label: string): Promise<string> {
  const answer = await owner.call<{ version: { id: string } }>('POST', `/api/boards/${boardId}/versions`, {
    label,
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.version.id;
}

async function restore(owner: ApiClient, boardId: string, versionId: string): Promise<void> {
  const answer = await owner.call('POST', `/api/boards/${boardId}/versions/${versionId}/restore`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

describe('restores against MAX_DOC_BYTES, and named versions', () => {
  const LIMIT = 256 * 1024;
  let ctx: Awaited<ReturnType<typeof startWith>>;
  let owner: ApiClient;
  before(async () => {
    ctx = await startWith({ MAX_DOC_BYTES: String(LIMIT) });
    owner = await new ApiClient(ctx.server.url).signup('Owner');
  });
  after(async () => ctx?.close());

  /** A new shape from a client reaches another one, and neither was closed. */
  async function stillEditable(clients: DocClient[], id: string): Promise<void> {
    addShape(clients[0]!.doc, id, { type: 'sticky', x: 1, y: 1 }, id);
    await waitUntil(`${id} reached the other client`, () => {
      for (const client of clients) assert.deepEqual(client.closes, [], 'a client was closed');
      return clients[1]!.doc.getMap('shapes').has(id);
    });
  }

  test('20 restores alternating a full and an empty version: the board stays editable, also reopened', async () => {
    const boardId = await owner.createBoard('Restored often');
    const everyone: DocClient[] = [];
    const connect = () => {
      const list = [0, 1].map(() => connectDoc(ctx.server.wsUrl, boardId, { cookie: owner.cookie }));
      everyone.push(...list);
      return list;
    };
    let clients = connect();
    try {
      await Promise.all(clients.map((c) => waitSynced(c)));
      // About 65 KB encoded: a quarter of the limit.
      clients[0]!.doc.transact(() => {
        for (let i = 0; i < 300; i++) addRecord(clients[0]!.doc, `s${i}`, i, owner.userId);
      });
      const encoded = Y.encodeStateAsUpdate(clients[0]!.doc).length;
      assert.ok(encoded > LIMIT / 5 && encoded < LIMIT / 3, `${encoded} bytes`);
      await waitUntil(
        'the shapes reached the other client',
        () => clients[1]!.doc.getMap('shapes').size === 300,
      );
      const full = await saveVersion(owner, boardId, 'Full');
      clients[0]!.doc.transact(() => {
        for (const id of [...clients[0]!.doc.getMap('shapes').keys()])
          clients[0]!.doc.getMap('shapes').delete(id);
      });
      await waitUntil('the board emptied', () => clients[1]!.doc.getMap('shapes').size === 0);
      const empty = await saveVersion(owner, boardId, 'Empty');
      for (let i = 0; i < 20; i++) {
        await restore(owner, boardId, i % 2 === 0 ? full : empty);
        const shapes = i % 2 === 0 ? 300 : 0;
        await waitUntil(`restore ${i + 1} reached the clients`, () =>
          clients.every((c) => c.doc.getMap('shapes').size === shapes),
        );
      }
      await stillEditable(clients, 'after-restores');

      // Everyone leaves; the board unloads and opens again from the Store.
      for (const client of clients) client.destroy();
      await waitUntil('the board unloaded', async () => (await metric(ctx.server, 'tandem_rooms')) === 0);
      clients = connect();
      await Promise.all(clients.map((c) => waitSynced(c)));
      assert.equal(clients[1]!.doc.getMap('shapes').size, 1);
      await stillEditable(clients, 'after-reopen');
    } finally {
      // A provider closed with 4413 would otherwise keep reconnecting after the test.
      for (const client of everyone) client.destroy();
    }
  });
  test('100 named versions of one board state saved in a row by one person collapse into one; after an edit, or another person’s, are kept', async () => {
    const boardId = await owner.createBoard('Saved often');
    const ben = await new ApiClient(ctx.server.url).signup('Ben');
    await owner.share(boardId, ben, 'editor');
    const client = connectDoc(ctx.server.wsUrl, boardId, { cookie: owner.cookie });
    const observer = connectDoc(ctx.server.wsUrl, boardId, { cookie: ben.cookie });
    try {
      await Promise.all([waitSynced(client), waitSynced(observer)]);
      const edit = async (id: string) => {
        addShape(client.doc, id, { type: 'sticky', x: 0, y: 0 }, id);
        // The save stores what the room holds first: the edit must have reached it.
        await waitUntil(`edit ${id} relayed`, () => observer.doc.getMap('shapes').has(id));
      };
      await edit('first');
      for (let i = 1; i <= 100; i++) await saveVersion(owner, boardId, `Save ${i}`);
      // After an edit, however soon, a named version is a checkpoint of its own; so is another
      // person's.
      await edit('second');
      await saveVersion(owner, boardId, 'After an edit');
      await saveVersion(ben, boardId, 'Ben’s');
      const answer = await owner.call<{ versions: { label?: string; stats: { added: number } }[] }>(
        'GET',
        `/api/boards/${boardId}/versions`,
      );
      assert.deepEqual(
        answer.body.versions.map((v) => v.label),
        ['Ben’s', 'After an edit', 'Save 100'],
        'one named version of the owner’s 100 saves in a row',
      );
      assert.equal(answer.body.versions[2]?.stats.added, 1, 'the kept one covers the edit before it');
    } finally {
      client.destroy();
      observer.destroy();
    }
  });
  test('an update with a value nested 3,000 deep is refused (1007) and stored nowhere; the version export answers 200', async () => {
    const boardId = await owner.createBoard('Deep');
    const socket = await rawDoc({ wsUrl: ctx.server.wsUrl } as TestServer, boardId, { cookie: owner.cookie });
    try {
      const doc = new Y.Doc();
      let deep: unknown = 1;
      for (let i = 0; i < 3000; i++) deep = [deep];
      addShape(doc, 'deep', { type: 'sticky', x: 0, y: 0, points: deep });
      assert.equal(await sendAndProbe(socket, syncMessage(2, Y.encodeStateAsUpdate(doc))), 1007);
      doc.destroy();
    } finally {
      socket.ws.terminate();
    }
    const version = await saveVersion(owner, boardId, 'After');
    const exported = await get(ctx.server, owner, `/api/boards/${boardId}/versions/${version}/export.json`);
    assert.equal(exported.status, 200);
    assert.deepEqual((exported.body as { shapes: unknown[] }).shapes, []);
  });
});

describe('automatic versions', () => {
  let ctx: Awaited<ReturnType<typeof startWith>>;
  let owner: ApiClient;
  before(async () => {
    // A version's timer (1 s) fires well before the edit that started it is stored (3 s).
    ctx = await startWith({
      HISTORY_INTERVAL_S: '1',
      PERSIST_DEBOUNCE_MS: '3000',
      PERSIST_MAX_DELAY_MS: '3000',
    });
    owner = await new ApiClient(ctx.server.url).signup('Owner');
  });
  after(async () => ctx?.close());

  test('an edit stored after its version timer fired still gets a version, the board open and nobody editing again', async () => {
    const boardId = await owner.createBoard('Slow store');
    const client = connectDoc(ctx.server.wsUrl, boardId, { cookie: owner.cookie });
    try {
      await waitSynced(client);
      addShape(client.doc, 'one', { type: 'sticky', x: 0, y: 0 }, 'one');
      await waitUntil(
        'a version of the edit',
        async () => {
          const answer = await owner.call<{ versions: { stats: { added: number } }[] }>(
            'GET',
            `/api/boards/${boardId}/versions`,
          );
          return answer.body.versions.some((v) => v.stats.added === 1);
        },
        10_000,
      );
    } finally {
      client.destroy();
    }
  });
});
