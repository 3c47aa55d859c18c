// The scenarios: each starts its server(s), drives real Yjs clients, stops by itself and returns flat metrics.

import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { encodeSavedMessage, mulberry32, SAVED_MESSAGE_TYPE } from '@tandem/shared';
import * as Y from 'yjs';
import { type ClientTarget, createClient } from './client.ts';
import { formatHeapDiff } from './heapdiff.ts';
import { Pool } from './pool.ts';
import { cpuBusyMicros, procCpuMicros, procCpuSplitMicros, procPeakRssBytes, procRssBytes } from './proc.ts';
import { type ClientSpec, type ConnectResult, nowMicros, type Report } from './protocol.ts';
import { SERVER_LABELS, type ServerHandle, type ServerKind, startServer } from './servers.ts';
import { percentileSorted, summarize } from './stats.ts';

/** One run's figures, flat so repeats can be reduced to medians metric by metric. */
export type Metrics = Record<string, number>;

export interface RunResult {
  scenario: string;
  server: ServerKind;
  params: Record<string, unknown>;
  metrics: Metrics;
  notes: string[];
  /** summaries of the server's CPU profiles, when run with --profile */
  profiles?: string[];
  /** the measured window on the monotonic clock, µs: what a profile summary looks at */
  window?: [number, number];
  /** individual measurements, in the order they were taken (to see where a tail comes from) */
  samples?: Record<string, number[]>;
}

export interface CommonParams {
  server: ServerKind;
  /** generator worker threads */
  workers: number;
  /** CPU list for the server(s); '' runs unpinned */
  serverCpu: string;
  /** directory for the servers' V8 CPU profiles; unset: no profiling */
  profileDir?: string;
  /** extra node flags for the server processes */
  serverNodeArgs?: string[];
  /** Tandem's environment for the run (`--tandem-env K=V,K=V`): its own settings, which the anchors have no counterpart of. */
  tandemEnv?: Record<string, string>;
}

/** Starts the server(s) of a scenario, with a CPU profile directory when asked. */
function start(
  p: CommonParams,
  instances: 1 | 2 = 1,
  tandemEnv?: Record<string, string>,
  ywebsocketPersistence = false,
): Promise<ServerHandle> {
  if (p.profileDir) mkdirSync(p.profileDir, { recursive: true });
  return startServer({
    kind: p.server,
    ywebsocketPersistence,
    instances,
    env: tandemEnv || p.tandemEnv ? { ...p.tandemEnv, ...tandemEnv } : undefined,
    cpu: p.serverCpu,
    profileDir: p.profileDir,
    nodeArgs: p.serverNodeArgs,
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** The servers' CPU time, in all and in the kernel (socket writes, mostly), in microseconds: one read of /proc each. */
function serverCpuSplit(server: ServerHandle): { total: number; system: number } {
  let total = 0;
  let system = 0;
  for (const i of server.instances) {
    const t = procCpuSplitMicros(i.pid);
    total += t.user + t.system;
    system += t.system;
  }
  return { total, system };
}

function serverCpu(server: ServerHandle): number {
  return serverCpuSplit(server).total;
}

function serverRss(server: ServerHandle): number {
  return server.instances.reduce((sum, i) => sum + procRssBytes(i.pid), 0);
}

function serverPeakRss(server: ServerHandle): number {
  return server.instances.reduce((sum, i) => sum + procPeakRssBytes(i.pid), 0);
}

export interface IdleParams extends CommonParams {
  /** how long after the server answers before its memory is read */
  settleMs: number;
}

/** A server as started, with nothing connected: its resident memory once it has settled. */
export async function idle(p: IdleParams): Promise<RunResult> {
  const server = await start(p);
  try {
    await sleep(p.settleMs);
    return {
      scenario: 'idle',
      server: p.server,
      params: { ...p },
      metrics: { idleRssMB: serverRss(server) / 2 ** 20 },
      notes: [],
    };
  } finally {
    await server.stop();
  }
}

/** Processes by command name (Redis, PostgreSQL's backends), so the cluster scenario can count what the bus and store cost. */
function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** CPU time of a set of processes, counting only those still alive. */
function cpuOf(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      out.set(pid, procCpuMicros(pid));
    } catch {
      // gone
    }
  }
  return out;
}

function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, t] of after) sum += t - (before.get(pid) ?? t);
  return sum;
}

function generatorCpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

// ---------------------------------------------------------------------------------------------
// traffic: the engine behind fanout, presence and cluster

export interface TrafficParams extends CommonParams {
  boards: number;
  clients: number;
  /** document writers per board */
  writers: number;
  /** document updates a second per writer */
  rate: number;
  /** cursor movers per board */
  movers: number;
  /** cursor moves a second per mover */
  cursorRate: number;
  /** seconds of traffic */
  duration: number;
  instances: 1 | 2;
  echoAwareness?: boolean;
  /**
   * Timed clients per board (full providers), spread evenly over its clients; the others are light
   * clients (client.ts) that load the server the same without decoding. Writers are always timed.
   * Unset: every client is timed.
   */
  probes?: number;
  /**
   * Tandem only: content-API writes a second into the first board during the traffic (one
   * integration's key, `POST /api/v1/boards/:id/shapes`), each of `restShapes` stickies.
   */
  restWrites?: number;
  restShapes?: number;
  /**
   * Tandem only: anonymous viewers of a `public-viewer` link on the first board (docs/api.md §16),
   * light clients that sync and receive every update, connected after the editors and before the
   * traffic; what each costs the server in memory is read once they have settled.
   */
  anonViewers?: number;
  /** The timed clients are lean (ClientSpec.lean): they time marks from the bytes, holding no board. */
  lean?: boolean;
  /** The REST writes go to a board nobody timed is on (`--rest-board apart`). */
  restBoardApart?: boolean;
}

/** One number of Tandem's Prometheus text (`/metrics`), or NaN when it is not there. */
async function promValue(httpBase: string, name: string): Promise<number> {
  const text = await (await fetch(`${httpBase}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ').pop()) : Number.NaN;
}

/** What a REST writer did: writes answered 201, the others, and each answer's time. */
interface RestWriting {
  ok: number;
  failed: number;
  statuses: Record<number, number>;
  latencyMs: number[];
}

/**
 * Posts `rate` content-API writes a second of `shapes` stickies each for `durationMs`, on a fixed
 * schedule (not one after the other: a write is answered once stored, about PERSIST_DEBOUNCE_MS
 * later), at most 500 in flight; 127.0.0.1 only, like every client of the bench.
 */
async function restWriter(
  base: string,
  boardId: string,
  key: string,
  rate: number,
  shapes: number,
  durationMs: number,
): Promise<RestWriting> {
  const out: RestWriting = { ok: 0, failed: 0, statuses: {}, latencyMs: [] };
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  for (let n = 0; ; n++) {
    const due = started + (n * 1000) / rate;
    if (due - started >= durationMs) break;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    if (inFlight.size >= 500) {
      out.failed += 1;
      continue;
    }
    const body = JSON.stringify({
      shapes: Array.from({ length: shapes }, (_, i) => ({
        type: 'sticky',
        x: (n % 50) * 220,
        y: Math.floor(n / 50) * 220 + i * 10,
        text: `bench ${n}.${i}`,
      })),
    });
    const sent = performance.now();
    const write = fetch(`${base}/api/v1/boards/${boardId}/shapes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    })
      .then(async (res) => {
        await res.arrayBuffer();
        out.statuses[res.status] = (out.statuses[res.status] ?? 0) + 1;
        if (res.status === 201) {
          out.ok += 1;
          out.latencyMs.push(performance.now() - sent);
        } else out.failed += 1;
      })
      .catch(() => {
        out.failed += 1;
      })
      .finally(() => inFlight.delete(write));
    inFlight.add(write);
  }
  await Promise.all(inFlight);
  return out;
}

/** A timed client that only reads (loads the board, writes nothing). */
function reader(target: ClientTarget, id: number): ClientSpec {
  return { ...target, id, writer: false, mover: false, probe: true };
}

/** Whether client c of a board's n is timed: k of them, evenly spread, the first always. */
function isProbe(c: number, n: number, k: number | undefined): boolean {
  if (k === undefined || k >= n) return true;
  return c === 0 || Math.floor((c * k) / n) > Math.floor(((c - 1) * k) / n);
}

function concatLatencies(reports: Report[], pick: (r: Report) => Float64Array): Float64Array {
  const out = new Float64Array(reports.reduce((n, r) => n + pick(r).length, 0));
  let at = 0;
  for (const r of reports) {
    out.set(pick(r), at);
    at += pick(r).length;
  }
  return out;
}

/** p50 of the last quarter minus p50 of the first quarter of each worker's (time-ordered) samples: a growing backlog shows as a large drift. */
function latencyDrift(reports: Report[], pick: (r: Report) => Float64Array): number {
  let worst = 0;
  for (const r of reports) {
    const xs = pick(r);
    const q = Math.floor(xs.length / 4);
    if (q < 10) continue;
    const early = percentileSorted(xs.slice(0, q).sort(), 50);
    const late = percentileSorted(xs.slice(xs.length - q).sort(), 50);
    worst = Math.max(worst, late - early);
  }
  return worst;
}

export async function traffic(name: string, p: TrafficParams): Promise<RunResult> {
  const notes: string[] = [];
  const anon = p.anonViewers ?? 0;
  const env: Record<string, string> = {};
  // The per-key write limit (60 a minute) is lifted for a run that writes through the content API.
  if (p.restWrites) env.CONTENT_WRITES_PER_MINUTE = String(1_000_000);
  // 500 viewers and 10 editors are more than the 500 connections a board may have by default.
  if (anon > 0) {
    env.MAX_CONNECTIONS_PER_BOARD = String(anon + p.clients + 10);
    notes.push(`MAX_CONNECTIONS_PER_BOARD lifted to ${env.MAX_CONNECTIONS_PER_BOARD}`);
  }
  const server = await start(p, p.instances, Object.keys(env).length ? env : undefined);
  // Anonymous viewers get a worker of their own: they are other people's machines, and in a
  // timed editor's thread their 500 sockets' reads would delay what the editor times.
  const pool = new Pool(p.workers + (anon > 0 ? 1 : 0));
  const editorWorkers = Array.from({ length: p.workers }, (_, i) => i);
  try {
    const made = await server.setupBoards(p.boards + (p.restBoardApart ? 1 : 0));
    // `--rest-board apart`: the writes go to a board of their own, which nobody timed is on, so a
    // run tells the server's cost of taking them from the cost of relaying them to the people.
    const boards = made.slice(0, p.boards);
    const restBoard = p.restBoardApart ? made[p.boards] : made[0];
    const specs: ClientSpec[] = [];
    let id = 0;
    for (const board of boards) {
      for (let c = 0; c < p.clients; c++) {
        const inst = server.instances[c % server.instances.length] ?? server.instances[0];
        if (!inst) throw new Error('no server instance');
        specs.push({
          id: ++id,
          kind: p.server,
          wsBase: inst.wsBase,
          origin: server.origin(inst),
          board: board.id,
          params: board.params,
          writer: c < p.writers,
          mover: c < p.movers,
          probe: c < p.writers || isProbe(c, p.clients, p.probes),
          lean: p.lean === true,
        });
      }
    }
    const conn = await pool.connect(
      specs,
      { concurrency: 50, timeoutMs: 60_000, echoAwareness: p.echoAwareness },
      editorWorkers,
    );
    if (conn.failed > 0) notes.push(`${conn.failed} of ${specs.length} clients did not sync`);
    await sleep(1000); // let the join-time presence exchange settle
    const anonMetrics = anon > 0 ? await connectAnonViewers(server, pool, boards[0], anon, id) : {};

    const redisPids = p.instances > 1 ? pidsNamed('redis-server') : [];
    const pgPids = p.instances > 1 ? pidsNamed('postgres') : [];
    const redisCpu0 = cpuOf(redisPids);
    const pgCpu0 = cpuOf(pgPids);
    const cpuAt0 = serverCpuSplit(server);
    const gen0 = generatorCpuMicros();
    const busy0 = cpuBusyMicros();
    const w0 = nowMicros();
    const restKey =
      p.restWrites && restBoard && server.integrationKey ? await server.integrationKey(restBoard.id) : null;
    if (p.restWrites && !restKey) notes.push('REST writes asked for, but this server has no content API');
    // Tandem's own event-loop delay over the window (prom-client resets its histogram on each
    // scrape): the server's share of a latency tail, apart from the generator's.
    const serverLag = server.kind === 'tandem' && server.instances[0] ? server.instances[0].httpBase : null;
    if (serverLag) await promValue(serverLag, 'nodejs_eventloop_lag_p99_seconds');
    const t0 = performance.now();
    const [sent, rest] = await Promise.all([
      pool.start({
        updateRate: p.writers > 0 ? p.rate : 0,
        awarenessRate: p.movers > 0 ? p.cursorRate : 0,
        durationMs: p.duration * 1000,
      }),
      restKey && restBoard && server.instances[0]
        ? restWriter(
            server.instances[0].httpBase,
            restBoard.id,
            restKey,
            p.restWrites ?? 0,
            p.restShapes ?? 10,
            p.duration * 1000,
          )
        : null,
    ]);
    const tSent = performance.now();
    const serverLagP99Ms = serverLag
      ? (await promValue(serverLag, 'nodejs_eventloop_lag_p99_seconds')) * 1000
      : Number.NaN;
    if (rest && rest.failed > 0) notes.push(`REST writes not answered 201: ${JSON.stringify(rest.statuses)}`);
    const sum = (r: Record<number, number>) => Object.values(r).reduce((a, b) => a + b, 0);
    const docSent = sum(sent.updates);
    const awSent = sum(sent.cursors);
    // What the timed clients should see: each sent message once per other probe on its board.
    const probesOn = new Map<string, number>();
    for (const s of specs) if (s.probe) probesOn.set(s.board, (probesOn.get(s.board) ?? 0) + 1);
    const timedReceivers = (s: ClientSpec) => (probesOn.get(s.board) ?? 0) - (s.probe ? 1 : 0);
    let docExpected = 0;
    let awExpected = 0;
    for (const s of specs) {
      docExpected += (sent.updates[s.id] ?? 0) * timedReceivers(s);
      awExpected += (sent.cursors[s.id] ?? 0) * timedReceivers(s);
    }
    // What the server delivers: to every other client on the board, timed or not (and every
    // update, never a cursor, to each anonymous viewer).
    const serverDeliveries = (docSent + awSent) * (p.clients - 1) + docSent * anon;
    // drain: until every expected delivery arrived, or nothing arrived for 500 ms (servers that
    // coalesce presence never deliver every state), and at most 5 s
    let counts = await pool.counts();
    const drainDeadline = performance.now() + 5000;
    let lastChange = performance.now();
    while (
      (counts.docDelivered < docExpected || counts.awDelivered < awExpected) &&
      performance.now() < drainDeadline &&
      performance.now() - lastChange < 500
    ) {
      await sleep(50);
      const next = await pool.counts();
      if (next.docDelivered !== counts.docDelivered || next.awDelivered !== counts.awDelivered) {
        lastChange = performance.now();
      }
      counts = next;
    }
    const t1 = performance.now();
    const w1 = nowMicros();
    const cpuAt1 = serverCpuSplit(server);
    const gen1 = generatorCpuMicros();
    const busy1 = cpuBusyMicros();
    const redisCpu1 = cpuOf(redisPids);
    const pgCpu1 = cpuOf(pgPids);
    const rss = serverRss(server);
    const reports = await pool.reports();

    const doc = summarize(concatLatencies(reports, (r) => r.docLatencyMs));
    const aw = summarize(concatLatencies(reports, (r) => r.awLatencyMs));
    const docDelivered = reports.reduce((n, r) => n + r.docDelivered, 0);
    const awDelivered = reports.reduce((n, r) => n + r.awDelivered, 0);
    const disconnects = reports.reduce((n, r) => n + r.disconnects, 0);
    const wallS = (t1 - t0) / 1000;
    const sendS = (tSent - t0) / 1000;
    const cpuMicros = cpuAt1.total - cpuAt0.total;
    const expected = serverDeliveries;
    // convergence: every receiver ends with each writer's last update
    let unconverged = 0;
    for (const r of reports) {
      for (const [w, seqs] of Object.entries(r.finalSeqs)) {
        const last = sent.updates[Number(w)] ?? 0;
        unconverged += seqs.filter((s) => s !== last).length;
      }
    }
    if (unconverged > 0)
      notes.push(`${unconverged} receiver×writer pairs did not end on the writer's last update`);
    const genCpuPct = ((gen1 - gen0) / 1e6 / wallS) * 100;
    // what else ran on the two CPUs meanwhile (other people's work, Redis, PostgreSQL): the noise floor
    const busyPct = (cpu: number) => (((busy1[cpu] ?? 0) - (busy0[cpu] ?? 0)) / 1e6 / wallS) * 100;
    const otherCpuPct = busyPct(0) + busyPct(1) - (cpuMicros / 1e6 / wallS) * 100 - genCpuPct;
    const lagP99 = Math.max(...reports.map((r) => r.lagP99));
    if (genCpuPct > 85)
      notes.push(`generator busy (${genCpuPct.toFixed(0)}% of a core): latencies are an upper bound`);
    const metrics: Metrics = {
      clients: specs.length,
      synced: conn.synced,
      docSent,
      docExpected,
      docDelivered,
      docLost: docExpected - docDelivered,
      docP50: doc.p50,
      docP95: doc.p95,
      docP99: doc.p99,
      docMax: doc.max,
      awSent,
      awExpected,
      awDelivered,
      awLost: awExpected - awDelivered,
      awP50: aw.p50,
      awP95: aw.p95,
      awP99: aw.p99,
      awMax: aw.max,
      awDriftMs: latencyDrift(reports, (r) => r.awLatencyMs),
      docDriftMs: latencyDrift(reports, (r) => r.docLatencyMs),
      deliveriesPerS: (docDelivered + awDelivered) / sendS,
      serverCpuPct: (cpuMicros / 1e6 / wallS) * 100,
      serverCpuUsPerDelivery: expected > 0 ? cpuMicros / expected : Number.NaN,
      serverSystemShare: cpuMicros > 0 ? ((cpuAt1.system - cpuAt0.system) / cpuMicros) * 100 : Number.NaN,
      serverRssMB: rss / 2 ** 20,
      serverPeakRssMB: serverPeakRss(server) / 2 ** 20,
      disconnects,
      drainS: (t1 - tSent) / 1000,
      genCpuPct,
      genLagP99Ms: lagP99,
      serverLagP99Ms,
      otherCpuPct,
      unconverged,
      ...anonMetrics,
    };
    if (rest) {
      const answered = summarize(Float64Array.from(rest.latencyMs));
      metrics.restWritesPerS = rest.ok / sendS;
      metrics.restFailed = rest.failed;
      metrics.restP50 = answered.p50;
      metrics.restP99 = answered.p99;
    }
    // keeps up: latency does not grow over the run, the backlog drains within 2 s, nobody was cut off
    const drift = Math.max(metrics.awDriftMs ?? 0, metrics.docDriftMs ?? 0);
    metrics.keepsUp = drift < 100 && (metrics.drainS ?? 0) < 2 && disconnects === 0 ? 1 : 0;
    if (p.instances > 1) {
      // PostgreSQL backends that started during the run are missed; the pool opens them at start-up
      const redisMicros = cpuDelta(redisCpu0, redisCpu1);
      const pgMicros = cpuDelta(pgCpu0, pgCpu1);
      metrics.redisCpuPct = (redisMicros / 1e6 / wallS) * 100;
      metrics.pgCpuPct = (pgMicros / 1e6 / wallS) * 100;
      metrics.totalCpuUsPerDelivery = expected > 0 ? (cpuMicros + redisMicros) / expected : Number.NaN;
      metrics.totalWithPgCpuUsPerDelivery =
        expected > 0 ? (cpuMicros + redisMicros + pgMicros) / expected : Number.NaN;
    }
    return { scenario: name, server: p.server, params: { ...p }, metrics, notes, window: [w0, w1] };
  } finally {
    await pool.close().catch(() => {});
    await server.stop();
  }
}

/**
 * Connects `n` anonymous viewers to a Tandem board through a public link, as light clients (one
 * access token, asked for once: the socket is the same whoever asked), and reads what they cost
 * the server once settled: RSS, and the V8 heap in use (prom-client's gauge, after whatever GC
 * ran; noisier than RSS).
 */
async function connectAnonViewers(
  server: ServerHandle,
  pool: Pool,
  board: { id: string } | undefined,
  n: number,
  lastId: number,
): Promise<Metrics> {
  const inst = server.instances[0];
  if (!board || !inst || !server.publicViewerToken) throw new Error('anonymous viewers need Tandem');
  const token = await server.publicViewerToken(board.id);
  const heap = () => promValue(inst.httpBase, 'nodejs_heap_size_used_bytes');
  const rss0 = serverRss(server);
  const heap0 = await heap();
  const specs: ClientSpec[] = Array.from({ length: n }, (_, i) => ({
    id: lastId + 1 + i,
    kind: server.kind,
    wsBase: inst.wsBase,
    origin: server.origin(inst),
    board: board.id,
    params: { token },
    writer: false,
    mover: false,
    probe: false,
  }));
  // the last worker, the viewers' own (traffic)
  const conn = await pool.connect(specs, { concurrency: 50, timeoutMs: 60_000 }, [pool.size - 1]);
  await sleep(3000); // let allocations settle before reading memory
  const rss1 = serverRss(server);
  const heap1 = await heap();
  return {
    anonViewers: n,
    anonSynced: conn.synced,
    anonSyncP50: summarize(conn.syncMs).p50,
    anonRssKBPerViewer: (rss1 - rss0) / 1024 / n,
    anonHeapKBPerViewer: (heap1 - heap0) / 1024 / n,
  };
}

// ---------------------------------------------------------------------------------------------
// connect: many idle clients; time until all synced, and what each costs the server in memory

export interface ConnectParams extends CommonParams {
  boards: number;
  clients: number;
  /** handshakes in flight per generator worker */
  concurrency: number;
  /**
   * A directory: write a V8 heap snapshot of the server before and after connecting, and print what
   * the new objects cost per connection (heapdiff.ts). The snapshots grow the process, so the RSS
   * figures of such a run are not comparable with others.
   */
  heapSnapshots?: string;
}

/** Asks a server started with --heapsnapshot-signal=SIGUSR2 for a heap snapshot; its path once written. */
async function heapSnapshot(pid: number, dir: string): Promise<string> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  for (;;) {
    await sleep(1000);
    const name = readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
    if (!name) continue;
    const path = join(dir, name);
    const size = statSync(path).size;
    await sleep(1000);
    if (size > 0 && statSync(path).size === size) return path;
  }
}

export async function connect(p: ConnectParams): Promise<RunResult> {
  const notes: string[] = [];
  const snapDir = p.heapSnapshots ? join(p.heapSnapshots, `${p.server}-${Date.now()}`) : null;
  if (snapDir) mkdirSync(snapDir, { recursive: true });
  const server = await start(
    snapDir
      ? {
          ...p,
          serverNodeArgs: [
            ...(p.serverNodeArgs ?? []),
            '--heapsnapshot-signal=SIGUSR2',
            `--diagnostic-dir=${snapDir}`,
          ],
        }
      : p,
  );
  const pool = new Pool(p.workers);
  try {
    const boards = await server.setupBoards(p.boards);
    const inst = server.instances[0];
    if (!inst) throw new Error('no server instance');
    const specs: ClientSpec[] = Array.from({ length: p.clients }, (_, i) => {
      const board = boards[i % boards.length] ?? boards[0];
      if (!board) throw new Error('no boards');
      return {
        id: i + 1,
        kind: p.server,
        wsBase: inst.wsBase,
        origin: server.origin(inst),
        board: board.id,
        params: board.params,
        writer: false,
        mover: false,
        probe: true,
      };
    });
    await sleep(500);
    const snap0 = snapDir ? await heapSnapshot(inst.pid, snapDir) : null;
    const rss0 = serverRss(server);
    const cpu0 = serverCpu(server);
    const w0 = nowMicros();
    const t0 = performance.now();
    const conn = await pool.connect(specs, { concurrency: p.concurrency, timeoutMs: 120_000 });
    const t1 = performance.now();
    const w1 = nowMicros();
    const cpu1 = serverCpu(server);
    await sleep(3000); // let presence renewals and allocations settle before reading memory
    const rss1 = serverRss(server);
    if (snapDir && snap0) {
      const snap1 = await heapSnapshot(inst.pid, snapDir);
      console.log(`${SERVER_LABELS[p.server]}: ${formatHeapDiff(snap0, snap1, p.clients)}`);
    }
    if (conn.failed > 0) notes.push(`${conn.failed} of ${p.clients} clients did not sync`);
    const sync = summarize(conn.syncMs);
    return {
      scenario: 'connect',
      server: p.server,
      params: { ...p },
      metrics: {
        clients: p.clients,
        synced: conn.synced,
        failed: conn.failed,
        allSyncedS: (t1 - t0) / 1000,
        syncP50: sync.p50,
        syncP99: sync.p99,
        serverCpuUsPerConn: (cpu1 - cpu0) / p.clients,
        rssBaseMB: rss0 / 2 ** 20,
        rssMB: rss1 / 2 ** 20,
        rssKBPerConn: (rss1 - rss0) / 1024 / p.clients,
      },
      notes,
      window: [w0, w1],
    };
  } finally {
    await pool.close().catch(() => {});
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// coldload: a board built from many small edits, then fresh clients timing their sync

export interface ColdloadParams extends CommonParams {
  edits: number;
  /** fresh clients, one after another */
  loads: number;
  /**
   * Tandem only: the uploader leaves and every fresh client is alone on the board, so each load
   * reads the board from the store (the anchors keep documents only while someone is connected).
   */
  cold?: boolean;
  /** --cold: ms to wait after the board empties, so the server stores and unloads it */
  unloadWaitMs?: number;
}

const COLORS = ['yellow', 'orange', 'red', 'pink', 'purple', 'blue', 'green', 'gray'];

/**
 * A whiteboard document made of `edits` small transactions, the way people make one: a tenth of
 * the edits create shapes (sticky notes with text), the rest move, resize, recolour and type.
 */
export function buildBoard(
  edits: number,
  seed = 1,
  doc = new Y.Doc(),
  /** edits of the same kinds after the first `edits`, creating no new shapes */
  moreEdits = 0,
): { doc: Y.Doc; shapes: number } {
  const rand = mulberry32(seed);
  const shapes = doc.getMap<Y.Map<unknown>>('shapes');
  const ids: string[] = [];
  const creations = Math.max(1, Math.floor(edits / 10));
  for (let e = 0; e < edits + moreEdits; e++) {
    doc.transact(() => {
      if (e < creations) {
        const m = new Y.Map<unknown>();
        const id = `s${e}`;
        shapes.set(id, m);
        m.set('type', 'sticky');
        m.set('x', Math.floor(rand() * 5000));
        m.set('y', Math.floor(rand() * 5000));
        m.set('w', 200);
        m.set('h', 200);
        m.set('rotation', 0);
        m.set('color', COLORS[e % COLORS.length]);
        m.set('z', `a${e.toString(36)}`);
        m.set('createdBy', 'bench');
        m.set('text', new Y.Text());
        ids.push(id);
        return;
      }
      const m = shapes.get(ids[Math.floor(rand() * ids.length)] as string);
      if (!m) return;
      const r = rand();
      if (r < 0.5) {
        m.set('x', Math.floor(rand() * 5000));
        m.set('y', Math.floor(rand() * 5000));
      } else if (r < 0.8) {
        const text = m.get('text') as Y.Text;
        text.insert(text.length, String.fromCharCode(97 + Math.floor(rand() * 26)));
      } else if (r < 0.9) {
        m.set('w', 100 + Math.floor(rand() * 300));
        m.set('h', 100 + Math.floor(rand() * 300));
      } else {
        m.set('color', COLORS[Math.floor(rand() * COLORS.length)]);
      }
    });
  }
  return { doc, shapes: ids.length };
}

/** One board on the server's first instance, as a client target. */
async function oneBoard(server: ServerHandle, kind: ServerKind) {
  const [board] = await server.setupBoards(1);
  const inst = server.instances[0];
  if (!board || !inst) throw new Error('no board');
  const target = {
    kind,
    wsBase: inst.wsBase,
    origin: server.origin(inst),
    board: board.id,
    params: board.params,
  };
  return { inst, target };
}

/** Resolves once the client's provider has synced with the server. */
function untilSynced(
  client: ReturnType<typeof createClient>,
  what: string,
  timeoutMs: number,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not sync`)), timeoutMs);
    const done = () => {
      if (!client.provider.synced) return;
      clearTimeout(timer);
      resolve();
    };
    client.provider.on('sync', done);
    done();
  });
}

export async function coldload(p: ColdloadParams): Promise<RunResult> {
  const notes: string[] = [];
  const server = await start(p);
  let pool = new Pool(1);
  let builder: ReturnType<typeof createClient> | null = null;
  try {
    const { target } = await oneBoard(server, p.server);
    const built = buildBoard(p.edits);
    const docBytes = Y.encodeStateAsUpdate(built.doc).byteLength;
    // the builder uploads the whole board in its first sync and stays connected, so every server
    // (including the anchors, which keep documents only in memory) still holds it while we measure
    const b = createClient(target, { doc: built.doc });
    builder = b;
    await untilSynced(b, 'the builder', 60_000);
    // a first reader proves the server has the whole board before timing starts
    const warm = await pool.connect([reader(target, 1)], {
      concurrency: 1,
      timeoutMs: 60_000,
      expectShapes: built.shapes,
    });
    if (warm.failed) throw new Error('the server never served the whole board');
    const specs: ClientSpec[] = Array.from({ length: p.loads }, (_, i) => reader(target, i + 2));
    let conn: ConnectResult;
    let cpuMicros = 0;
    let w0 = nowMicros();
    let w1 = w0;
    if (p.cold) {
      if (p.server !== 'tandem') throw new Error('--cold needs a server that stores boards (Tandem)');
      await pool.close();
      pool = new Pool(1);
      b.destroy();
      builder = null;
      // every load starts with the board stored and unloaded; only the load itself is counted
      const wait = p.unloadWaitMs ?? 3000;
      const syncMs: number[] = [];
      const arrivedMs: number[] = [];
      let failed = 0;
      w0 = nowMicros();
      for (const spec of specs) {
        await sleep(wait);
        const c0 = serverCpu(server);
        const one = await pool.connect([spec], {
          concurrency: 1,
          timeoutMs: 60_000,
          expectShapes: built.shapes,
          closeAfterSync: true,
        });
        cpuMicros += serverCpu(server) - c0;
        syncMs.push(...one.syncMs);
        arrivedMs.push(...one.arrivedMs);
        failed += one.failed;
      }
      w1 = nowMicros();
      conn = {
        synced: syncMs.length,
        failed,
        syncMs: Float64Array.from(syncMs),
        arrivedMs: Float64Array.from(arrivedMs),
      };
    } else {
      const cpu0 = serverCpu(server);
      w0 = nowMicros();
      conn = await pool.connect(specs, { concurrency: 1, timeoutMs: 60_000, expectShapes: built.shapes });
      cpuMicros = serverCpu(server) - cpu0;
      w1 = nowMicros();
    }
    if (conn.failed) notes.push(`${conn.failed} of ${p.loads} loads did not complete`);
    const s = summarize(conn.syncMs);
    return {
      scenario: 'coldload',
      server: p.server,
      params: { ...p },
      metrics: {
        edits: p.edits,
        shapes: built.shapes,
        docKB: docBytes / 1024,
        loads: conn.synced,
        syncP50: s.p50,
        syncP95: s.p95,
        syncMax: s.max,
        loadArrivedP50: summarize(conn.arrivedMs).p50,
        serverCpuMsPerLoad: cpuMicros / 1000 / Math.max(1, conn.synced),
        serverRssMB: serverRss(server) / 2 ** 20,
      },
      notes,
      window: [w0, w1],
    };
  } finally {
    builder?.destroy();
    await pool.close().catch(() => {});
    await server.stop();
  }
}

export interface IngestParams extends CommonParams {
  edits: number;
  /** fresh clients, one after another, in each of the two load phases */
  loads: number;
  /**
   * Updates the sender writes per event-loop turn (0: all of them in one turn, the default). A
   * sender that yields between them (a live document's edits, a harness awaiting each send)
   * reaches the server as many small reads instead of a few large ones.
   */
  perTurn?: number;
  /** y-websocket's server with its LevelDB persistence on (`YPERSISTENCE`); off by default */
  ywebsocketPersistence?: boolean;
}

/**
 * The board of buildBoard as the one-edit updates that made it, each a y-websocket sync update
 * message; then as many more edits to its shapes, for the second round.
 */
function boardAsUpdateMessages(edits: number): {
  first: Uint8Array[];
  second: Uint8Array[];
  shapes: number;
  stateVectors: [Uint8Array, Uint8Array];
  /** the board after the first round, as one update (what a server's sync step 2 carries) */
  firstState: Uint8Array;
} {
  const updates: Uint8Array[] = [];
  const doc = new Y.Doc();
  let firstVector: Uint8Array | null = null;
  let firstState: Uint8Array | null = null;
  doc.on('update', (update: Uint8Array) => {
    updates.push(update);
    if (updates.length !== edits) return;
    firstVector = Y.encodeStateVector(doc);
    firstState = Y.encodeStateAsUpdate(doc);
  });
  const built = buildBoard(edits, 1, doc, edits);
  if (!firstVector || !firstState || updates.length !== 2 * edits)
    throw new Error('every edit must make one update');
  const messages = updates.map((update) => syncMessage(2, update));
  return {
    first: messages.slice(0, edits),
    second: messages.slice(edits),
    shapes: built.shapes,
    stateVectors: [firstVector, Y.encodeStateVector(doc)],
    firstState,
  };
}

/** [messageSync, syncType, varUint8Array payload], as y-protocols writes it. */
function syncMessage(syncType: number, payload: Uint8Array): Uint8Array {
  const head: number[] = [0, syncType];
  let n = payload.length;
  while (n > 0x7f) {
    head.push(0x80 | (n & 0x7f));
    n = Math.floor(n / 128);
  }
  head.push(n);
  const out = new Uint8Array(head.length + payload.length);
  out.set(head, 0);
  out.set(payload, head.length);
  return out;
}

/**
 * Ingest: one client sends a board as the 20,000 one-edit updates that made it, as fast as its
 * socket takes them, then a sync step 1; every server answers a client's messages in order, so
 * its answer (step 2) arrives once all of them are taken in. Once the board has settled (Tandem:
 * stored), fresh clients load it one after another. Then the client sends 20,000 more edits at
 * once and fresh clients load the board meanwhile: Tandem is taking them in, storing them and
 * compacting its log then. The echo of each update that y-websocket's server sends back to its
 * sender is dropped unread, so the anchors are not charged for the client applying them.
 */
export async function ingest(p: IngestParams): Promise<RunResult> {
  const notes: string[] = [];
  const server = await start(
    p,
    1,
    {
      // Tandem paces a connection to 200 messages a second (the anchors have no such limit): lifted
      // for this scenario, or it would measure the pacing.
      MESSAGES_PER_SECOND: '1000000',
      MESSAGE_BURST: '10000000',
    },
    p.ywebsocketPersistence,
  );
  const pool = new Pool(1);
  let sender: ReturnType<typeof createClient> | null = null;
  try {
    const { inst, target } = await oneBoard(server, p.server);
    const { first, second, shapes, stateVectors, firstState } = boardAsUpdateMessages(p.edits);
    const s = createClient(target);
    sender = s;
    await untilSynced(s, 'the sender', 30_000);
    const socket = s.provider.ws as unknown as {
      send(data: Uint8Array): void;
      onmessage: ((event: { data: ArrayBuffer | Uint8Array }) => void) | null;
    };
    const providerOnMessage = socket.onmessage;
    let onAnswer: (() => void) | null = null;
    let onSaved: (() => void) | null = null;
    socket.onmessage = (event) => {
      const data = new Uint8Array(event.data as ArrayBuffer);
      if (data[0] === 0 && data[1] === 2) return; // an echo of one of our own updates
      if (data[0] === 0 && data[1] === 1) onAnswer?.();
      if (data[0] === SAVED_MESSAGE_TYPE) {
        onSaved?.();
        return; // Tandem's own message type: a stock provider does not know it
      }
      providerOnMessage?.(event);
    };
    /** Sends a round of updates and a sync step 1; resolves (µs) once answered, and once stored. */
    let savedId = 0;
    const sendRound = (messages: Uint8Array[], stateVector: Uint8Array) => {
      const t0 = nowMicros();
      const answered = new Promise<number>((resolve) => {
        onAnswer = () => resolve(nowMicros());
      });
      let stored: Promise<number> | null = null;
      if (p.server === 'tandem')
        stored = new Promise<number>((resolve) => {
          onSaved = () => resolve(nowMicros());
        });
      const finish = () => {
        socket.send(syncMessage(0, stateVector));
        if (p.server === 'tandem') socket.send(encodeSavedMessage(++savedId));
      };
      const perTurn = p.perTurn ?? 0;
      if (perTurn <= 0) {
        for (const message of messages) socket.send(message);
        finish();
      } else
        void (async () => {
          for (let i = 0; i < messages.length; i += perTurn) {
            for (const message of messages.slice(i, i + perTurn)) socket.send(message);
            await new Promise((resolve) => setImmediate(resolve));
          }
          finish();
        })();
      return {
        t0,
        answered: withTimeout(answered, 300_000, 'the server never answered after the updates'),
        stored,
      };
    };
    // Each timed phase starts with one untimed load: the first load of a phase was the slowest for
    // every server alike (2.5–4× the median: the generator's worker, not the server), as coldload's
    // warm reader found before.
    let nextId = 2;
    const options = { concurrency: 1, timeoutMs: 60_000, expectShapes: shapes, closeAfterSync: true };
    const warmUp = async () => {
      const warm = await pool.connect([reader(target, nextId++)], options);
      if (warm.failed) throw new Error('the server never served the whole board');
    };
    const load = (count: number) =>
      pool.connect(
        Array.from({ length: count }, () => reader(target, nextId++)),
        options,
      );

    const cpu0 = serverCpu(server);
    const round1 = sendRound(first, stateVectors[0]);
    const t1 = await round1.answered;
    const ingestCpu = serverCpu(server) - cpu0;
    const storedMs = round1.stored
      ? ((await withTimeout(round1.stored, 120_000, 'Tandem never said the edits were stored')) - round1.t0) /
        1000
      : Number.NaN;
    await sleep(2000);
    await warmUp();
    const cpu1 = serverCpu(server);
    const quiet = await load(p.loads);
    const loadCpu = serverCpu(server) - cpu1;
    // The same board applied by the same worker with no server at all: the floor of a fresh load.
    const decodeFloor = summarize(await pool.decode(firstState, p.loads));

    // Round 2: the loads start as the next 20,000 edits are sent.
    await warmUp();
    const compactions0 = p.server === 'tandem' ? await compactions(inst.httpBase) : 0;
    const round2 = sendRound(second, stateVectors[1]);
    const busy = await load(p.loads);
    await round2.answered;
    if (round2.stored) await withTimeout(round2.stored, 120_000, 'Tandem never said the edits were stored');
    const compactedDuring = p.server === 'tandem' ? (await compactions(inst.httpBase)) - compactions0 : 0;
    for (const [phase, result] of [
      ['settled', quiet],
      ['during the second round', busy],
    ] as const)
      if (result.failed) notes.push(`${phase}: ${result.failed} of ${p.loads} loads did not complete`);
    if (p.server === 'tandem') notes.push(`${compactedDuring} compaction(s) in the second round`);
    const b = summarize(busy.syncMs);
    const q = summarize(quiet.syncMs);
    return {
      scenario: 'ingest',
      server: p.server,
      params: { ...p },
      metrics: {
        edits: p.edits,
        sentKB: first.reduce((n, m) => n + m.length, 0) / 1024,
        ingestMs: (t1 - round1.t0) / 1000,
        ingestServerCpuMs: ingestCpu / 1000,
        storedMs,
        loadP50: q.p50,
        loadMax: q.max,
        maxOverMedian: q.max / q.p50,
        serverCpuMsPerLoad: loadCpu / 1000 / Math.max(1, quiet.synced),
        clientApplyP50: decodeFloor.p50,
        loadArrivedP50: summarize(quiet.arrivedMs).p50,
        busyLoadP50: b.p50,
        busyLoadMax: b.max,
        busyMaxOverMedian: b.max / b.p50,
        compactions: compactedDuring,
        serverRssMB: serverRss(server) / 2 ** 20,
      },
      notes,
      window: [round1.t0, t1],
      samples: { settledLoadsMs: [...quiet.syncMs], loadsDuringEditsMs: [...busy.syncMs] },
    };
  } finally {
    sender?.destroy();
    await pool.close().catch(() => {});
    await server.stop();
  }
}

/** How many compactions Tandem's Store has done (its Prometheus histogram's count). */
async function compactions(httpBase: string): Promise<number> {
  const text = await (await fetch(`${httpBase}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('tandem_store_seconds_count{op="compact"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]);
}
