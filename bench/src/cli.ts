// `npm run bench [-- <scenario> --flag value …]`: runs scenarios against the servers, repeats them,
// writes every run and the medians to bench/results/, and prints a side-by-side table with ratios.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatHeapDiff } from './heapdiff.ts';
import { loadAverage } from './proc.ts';
import { formatProfiles } from './profile.ts';
import {
  coldload,
  connect,
  idle,
  ingest,
  type Metrics,
  type RunResult,
  type TrafficParams,
  traffic,
} from './scenarios.ts';
import { SERVER_KINDS, SERVER_LABELS, type ServerKind } from './servers.ts';
import { median } from './stats.ts';

const benchDir = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = join(benchDir, 'results');

type Flags = Record<string, string>;

/** Flags whose value is itself node flags, so it starts with `--` and is never a flag of ours. */
const TAKES_FLAGS = new Set(['server-node-args']);

function parseArgs(argv: string[]): { positional: string[]; flags: Flags } {
  const positional: string[] = [];
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1);
      else if (
        i + 1 < argv.length &&
        (TAKES_FLAGS.has(a.slice(2)) || !(argv[i + 1] as string).startsWith('--'))
      )
        flags[a.slice(2)] = argv[++i] as string;
      else flags[a.slice(2)] = 'true';
    } else positional.push(a);
  }
  return { positional, flags };
}

function num(flags: Flags, name: string, fallback: number): number {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < 0)
    throw new Error(`--${name} must be a non-negative number; it is "${raw}"`);
  return v;
}

/** What one table row shows: a metric, its label, and how to print it. */
interface Row {
  key: string;
  label: string;
  digits: number;
}

interface Case {
  /** name in tables and result files */
  name: string;
  servers: ServerKind[];
  rows: Row[];
  run(server: ServerKind, profileDir?: string): Promise<RunResult>;
}

const r = (key: string, label: string, digits = 1): Row => ({ key, label, digits });

const trafficRows = [
  r('docP50', 'update latency p50 ms', 2),
  r('docP95', 'update latency p95 ms', 2),
  r('docP99', 'update latency p99 ms', 2),
  r('docMax', 'update latency max ms', 1),
  r('awP50', 'cursor latency p50 ms', 2),
  r('awP99', 'cursor latency p99 ms', 2),
  r('docLost', 'updates not seen one by one (merged or lost)', 0),
  r('unconverged', 'receivers not on the last update (lost)', 0),
  r('awLost', 'cursor states coalesced or lost', 0),
  r('deliveriesPerS', 'deliveries/s', 0),
  r('serverCpuUsPerDelivery', 'server CPU µs/delivery', 2),
  r('serverSystemShare', 'of which in the kernel (socket writes) %', 0),
  r('serverCpuPct', 'server CPU %', 1),
  r('serverRssMB', 'server RSS MB', 1),
  r('serverPeakRssMB', 'server peak RSS MB', 1),
  r('disconnects', 'disconnects', 0),
  r('genCpuPct', 'generator CPU %', 1),
  r('genLagP99Ms', 'generator loop lag p99 ms', 1),
  r('serverLagP99Ms', 'server loop lag p99 ms (Tandem: its own /metrics)', 1),
  r('otherCpuPct', 'other processes CPU % (noise)', 0),
];

const presenceRows = [
  r('awP50', 'cursor latency p50 ms', 2),
  r('awP99', 'cursor latency p99 ms', 2),
  r('awMax', 'cursor latency max ms', 1),
  r('awDriftMs', 'p50 drift, last−first quarter ms', 1),
  r('awDelivered', 'cursor states delivered', 0),
  r('awExpected', 'cursor states sent × receivers', 0),
  r('serverCpuPct', 'server CPU %', 1),
  r('serverCpuUsPerDelivery', 'server CPU µs/(sent × receivers)', 2),
  r('disconnects', 'disconnects', 0),
  r('drainS', 'drain after stop s', 2),
  r('keepsUp', 'keeps up (1 yes, 0 no; median of runs)', 0),
  r('genCpuPct', 'generator CPU %', 1),
  r('genLagP99Ms', 'generator loop lag p99 ms', 1),
  r('otherCpuPct', 'other processes CPU % (noise)', 0),
];

function commonFlags(flags: Flags) {
  return {
    workers: num(flags, 'workers', 2),
    serverCpu: flags['server-cpu'] ?? '0',
    serverNodeArgs: flags['server-node-args']?.split(' ').filter(Boolean),
    tandemEnv: flags['tandem-env']
      ? Object.fromEntries(
          flags['tandem-env'].split(',').map((pair) => pair.split('=', 2) as [string, string]),
        )
      : undefined,
  };
}

function fanoutCase(
  name: string,
  flags: Flags,
  defaults: { boards: number; clients: number },
  instances: 1 | 2,
): Case {
  const writers = num(flags, 'writers', 2);
  const p = {
    boards: num(flags, 'boards', defaults.boards),
    clients: num(flags, 'clients', defaults.clients),
    writers,
    rate: num(flags, 'rate', 10),
    movers: num(flags, 'movers', writers),
    cursorRate: num(flags, 'cursor-rate', 30),
    duration: num(flags, 'duration', 10),
    instances,
    echoAwareness: flags['echo-awareness'] === 'true',
    restWrites: num(flags, 'rest-writes', 0),
    restShapes: num(flags, 'rest-shapes', 10),
    lean: flags.lean === 'true',
    restBoardApart: flags['rest-board'] === 'apart',
    ...commonFlags(flags),
  };
  const anonViewers = num(flags, 'anon-viewers', 0);
  if (anonViewers > 0) return anonViewersCase(name, p, anonViewers, instances);
  const restRows =
    p.restWrites > 0
      ? [
          r('restWritesPerS', 'REST writes answered 201 a second', 1),
          r('restFailed', 'REST writes not answered 201', 0),
          r('restP50', 'REST write answered (stored) p50 ms', 1),
          r('restP99', 'REST write answered (stored) p99 ms', 1),
        ]
      : [];
  const rows =
    instances > 1
      ? [
          ...trafficRows,
          r('redisCpuPct', 'Redis CPU %', 1),
          r('pgCpuPct', 'PostgreSQL CPU %', 1),
          r('totalCpuUsPerDelivery', 'servers+Redis CPU µs/delivery', 2),
          r('totalWithPgCpuUsPerDelivery', 'servers+Redis+PostgreSQL CPU µs/delivery', 2),
        ]
      : trafficRows;
  return {
    name: `${name}-${p.boards}x${p.clients}${p.restWrites > 0 ? `-rest${p.restWrites}x${p.restShapes}${p.restBoardApart ? '-apart' : ''}` : ''}${p.lean ? '-lean' : ''}`,
    servers: p.restWrites > 0 ? ['tandem'] : instances > 1 ? ['hocuspocus', 'tandem'] : [...SERVER_KINDS],
    rows: [...rows, ...restRows],
    run: (server, profileDir) => traffic(instances > 1 ? 'cluster' : 'fanout', { ...p, server, profileDir }),
  };
}

const anonRows = [
  r('baseDocP99', "editors' update p99 ms, without viewers", 2),
  r('docP99', "editors' update p99 ms, with viewers", 2),
  r('p99Ratio', 'with ÷ without (p99)', 2),
  r('baseDocP50', "editors' update p50 ms, without viewers", 2),
  r('docP50', "editors' update p50 ms, with viewers", 2),
  r('docMax', "editors' update max ms, with viewers", 1),
  r('anonSynced', 'anonymous viewers synced', 0),
  r('anonSyncP50', 'anonymous viewer sync p50 ms', 1),
  r('anonRssKBPerViewer', 'server RSS growth per anonymous viewer KB', 1),
  r('anonHeapKBPerViewer', 'server JS heap growth per anonymous viewer KB', 1),
  r('baseServerCpuPct', 'server CPU %, without viewers', 1),
  r('serverCpuPct', 'server CPU %, with viewers', 1),
  r('serverRssMB', 'server RSS MB, with viewers', 1),
  r('disconnects', 'disconnects, with viewers', 0),
  r('unconverged', 'receivers not on the last update (lost)', 0),
  r('genCpuPct', 'generator CPU %, with viewers', 1),
  r('otherCpuPct', 'other processes CPU % (noise), with viewers', 0),
];

/**
 * Issue 26: the same fanout twice on fresh servers, without and with `n` anonymous viewers of a
 * public link on the first board; one repeat is one pair, the order alternating from pair to pair
 * so a change in the machine's load falls on both alike. A profile (--profile) is of the run with
 * viewers.
 */
function anonViewersCase(name: string, p: Omit<TrafficParams, 'server'>, n: number, instances: 1 | 2): Case {
  let pair = 0;
  return {
    name: `${name}-${p.boards}x${p.clients}-anon${n}`,
    servers: ['tandem'],
    rows: anonRows,
    run: async (server, profileDir) => {
      const without = () => traffic(name, { ...p, server, instances });
      const withViewers = () => traffic(name, { ...p, server, instances, profileDir, anonViewers: n });
      const withFirst = pair++ % 2 === 1;
      const first = await (withFirst ? withViewers() : without());
      const second = await (withFirst ? without() : withViewers());
      const [base, res] = withFirst ? [second, first] : [first, second];
      for (const k of ['docP50', 'docP99', 'docMax', 'serverCpuPct', 'disconnects', 'unconverged'])
        res.metrics[`base${k[0]?.toUpperCase()}${k.slice(1)}`] = base.metrics[k] ?? Number.NaN;
      res.metrics.p99Ratio = (res.metrics.docP99 ?? Number.NaN) / (base.metrics.docP99 ?? Number.NaN);
      res.notes.push(
        `order: ${withFirst ? 'with viewers first' : 'without first'}`,
        ...base.notes.map((x) => `without viewers: ${x}`),
      );
      return res;
    },
  };
}

function presenceCase(flags: Flags, defaults: { clients: number; movers: number }): Case {
  const p = {
    boards: 1,
    clients: num(flags, 'clients', defaults.clients),
    writers: 0,
    rate: 0,
    movers: num(flags, 'movers', defaults.movers),
    cursorRate: num(flags, 'cursor-rate', 30),
    duration: num(flags, 'duration', 10),
    instances: 1 as const,
    echoAwareness: flags['echo-awareness'] === 'true',
    // 20 timed providers (a quarter of them movers at 200/50) give 30,000 cursor samples a second;
    // the other people are light clients, so the generator's one core is not what is measured.
    probes: flags.probes === 'all' ? undefined : num(flags, 'probes', 20),
    ...commonFlags(flags),
  };
  return {
    name: `presence-${p.clients}c-${p.movers}m`,
    servers: [...SERVER_KINDS],
    rows: presenceRows,
    run: (server, profileDir) => traffic('presence', { ...p, server, profileDir }),
  };
}

function connectCase(flags: Flags): Case {
  const p = {
    boards: num(flags, 'boards', 1000),
    clients: num(flags, 'clients', 10_000),
    concurrency: num(flags, 'concurrency', 100),
    heapSnapshots: flags['heap-snapshots'],
    ...commonFlags(flags),
  };
  return {
    name: `connect-${p.clients}c-${p.boards}b`,
    servers: [...SERVER_KINDS],
    rows: [
      r('allSyncedS', 'time until all synced s', 2),
      r('syncP50', 'sync p50 ms', 1),
      r('syncP99', 'sync p99 ms', 1),
      r('failed', 'failed to sync', 0),
      r('rssKBPerConn', 'server RSS KB/connection', 2),
      r('rssMB', 'server RSS MB', 1),
      r('serverCpuUsPerConn', 'server CPU µs/connection', 0),
    ],
    run: (server, profileDir) => connect({ ...p, server, profileDir }),
  };
}

function coldloadCase(flags: Flags): Case {
  const p = {
    edits: num(flags, 'edits', 20_000),
    loads: num(flags, 'loads', 20),
    cold: flags.cold === 'true',
    unloadWaitMs: num(flags, 'unload-wait', 3000),
    ...commonFlags(flags),
  };
  return {
    name: `coldload-${p.edits}${p.cold ? '-cold' : ''}`,
    servers: p.cold ? ['tandem'] : [...SERVER_KINDS],
    rows: [
      r('syncP50', 'sync p50 ms', 2),
      r('syncP95', 'sync p95 ms', 2),
      r('syncMax', 'sync max ms', 2),
      r('loadArrivedP50', 'of a load: the board arrived after, p50 ms', 2),
      r('serverCpuMsPerLoad', 'server CPU ms/load', 2),
      r('docKB', 'board size KB', 1),
    ],
    run: (server, profileDir) => coldload({ ...p, server, profileDir }),
  };
}

function idleCase(flags: Flags): Case {
  const p = { settleMs: num(flags, 'settle', 3000), ...commonFlags(flags) };
  return {
    name: 'idle',
    servers: [...SERVER_KINDS],
    rows: [r('idleRssMB', 'RSS after start, nothing connected, MB', 1)],
    run: (server, profileDir) => idle({ ...p, server, profileDir }),
  };
}

function ingestCase(flags: Flags): Case {
  const p = {
    edits: num(flags, 'edits', 20_000),
    loads: num(flags, 'loads', 20),
    perTurn: num(flags, 'per-turn', 0),
    ywebsocketPersistence: flags['ywebsocket-persistence'] === 'true',
    ...commonFlags(flags),
  };
  return {
    name: `ingest-${p.edits}${p.perTurn > 0 ? `-per-turn-${p.perTurn}` : ''}${p.ywebsocketPersistence ? '-ywspersist' : ''}`,
    servers: [...SERVER_KINDS],
    rows: [
      r('ingestMs', 'ingest: all updates taken in, ms', 1),
      r('ingestServerCpuMs', 'ingest: server CPU ms', 1),
      r('storedMs', 'ingest: all stored (Tandem says so), ms', 1),
      r('loadP50', 'fresh load p50 ms', 2),
      r('loadMax', 'fresh load max ms', 2),
      r('maxOverMedian', 'slowest ÷ median', 2),
      r('serverCpuMsPerLoad', 'server CPU ms/load', 2),
      r('loadArrivedP50', 'of a load: the board arrived after, p50 ms', 2),
      r('clientApplyP50', 'of a load: the client applying the board alone, p50 ms', 2),
      r('busyLoadP50', 'fresh load p50 ms, during 20,000 more edits', 2),
      r('busyLoadMax', 'fresh load max ms, during them', 2),
      r('busyMaxOverMedian', 'slowest ÷ median, during them', 2),
      r('compactions', 'compactions meanwhile (Tandem)', 0),
      r('sentKB', 'sent KB', 1),
    ],
    run: (server, profileDir) => ingest({ ...p, server, profileDir }),
  };
}

function casesFor(scenario: string, flags: Flags): Case[] {
  switch (scenario) {
    case 'fanout':
      return [fanoutCase('fanout', flags, { boards: 10, clients: 10 }, 1)];
    case 'cluster':
      return [fanoutCase('cluster', flags, { boards: 10, clients: 10 }, 2)];
    case 'presence':
      return [presenceCase(flags, { clients: 50, movers: 50 })];
    case 'connect':
      return [connectCase(flags)];
    case 'coldload':
      return [coldloadCase(flags)];
    case 'ingest':
      return [ingestCase(flags)];
    case 'idle':
      return [idleCase(flags)];
    case 'all':
      return [
        idleCase(flags),
        fanoutCase('fanout', flags, { boards: 10, clients: 10 }, 1),
        fanoutCase('fanout', flags, { boards: 1, clients: 100 }, 1),
        connectCase(flags),
        ingestCase(flags),
        fanoutCase('cluster', flags, { boards: 10, clients: 10 }, 2),
        presenceCase(flags, { clients: 50, movers: 50 }),
        presenceCase(flags, { clients: 200, movers: 50 }),
      ];
    default:
      throw new Error(
        `unknown scenario "${scenario}": idle, fanout, cluster, presence, connect, coldload, ingest or all`,
      );
  }
}

function tandemAvailable(): boolean {
  return existsSync(join(benchDir, '..', 'realtime-server', 'src', 'main.ts'));
}

function fmt(v: number | undefined, digits: number): string {
  if (v === undefined || !Number.isFinite(v)) return '—';
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function ratio(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return '—';
  return `${(a / b).toFixed(2)}×`;
}

export function table(c: Case, medians: Partial<Record<ServerKind, Metrics>>): string {
  const cols = c.servers;
  const header = ['', ...cols.map((s) => SERVER_LABELS[s])];
  const showRatios = cols.includes('tandem');
  const anchors = cols.filter((s) => s !== 'tandem');
  if (showRatios) header.push(...anchors.map((a) => `Tandem ÷ ${SERVER_LABELS[a]}`));
  const lines = [header];
  for (const row of c.rows) {
    const line = [row.label, ...cols.map((s) => fmt(medians[s]?.[row.key], row.digits))];
    if (showRatios) line.push(...anchors.map((a) => ratio(medians.tandem?.[row.key], medians[a]?.[row.key])));
    lines.push(line);
  }
  const widths = header.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? '').length)));
  const out = lines.map(
    (l) =>
      `| ${l.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(' | ')} |`,
  );
  out.splice(
    1,
    0,
    `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
  );
  return out.join('\n');
}

/** One of the performance targets: a figure of a case, Tandem's against y-websocket's or on its own. */
interface Target {
  what: string;
  case: string;
  key: string;
  /** Tandem ÷ y-websocket at most this, or (absolute) Tandem's figure at most this */
  atMost: number;
  absolute?: boolean;
}

const TARGETS: Target[] = [
  {
    what: 'fanout 10×10: server CPU per delivery',
    case: 'fanout-10x10',
    key: 'serverCpuUsPerDelivery',
    atMost: 0.6,
  },
  { what: 'fanout 10×10: update p50', case: 'fanout-10x10', key: 'docP50', atMost: 1 },
  {
    what: 'fanout 1×100: server CPU per delivery',
    case: 'fanout-1x100',
    key: 'serverCpuUsPerDelivery',
    atMost: 0.6,
  },
  { what: 'fanout 1×100: update p50', case: 'fanout-1x100', key: 'docP50', atMost: 1 },
  { what: 'ingest of 20,000 one-edit updates: time', case: 'ingest-20000', key: 'ingestMs', atMost: 0.5 },
  { what: 'fresh load of that board: p50', case: 'ingest-20000', key: 'loadP50', atMost: 0.7 },
  {
    what: 'slowest of 20 fresh loads ÷ median',
    case: 'ingest-20000',
    key: 'maxOverMedian',
    atMost: 3,
    absolute: true,
  },
  {
    what: 'the same during 20,000 more edits (Tandem compacting)',
    case: 'ingest-20000',
    key: 'busyMaxOverMedian',
    atMost: 3,
    absolute: true,
  },
  { what: 'RSS after start', case: 'idle', key: 'idleRssMB', atMost: 1.3 },
  { what: 'peak RSS in fanout 10×10', case: 'fanout-10x10', key: 'serverPeakRssMB', atMost: 1.3 },
  {
    what: 'presence 200 people, 50 moving: cursor p99 ms',
    case: 'presence-200c-50m',
    key: 'awP99',
    atMost: 100,
    absolute: true,
  },
];

/** The performance targets, each met or missed, from the cases this run measured. */
function targetsTable(byCase: Map<string, Partial<Record<ServerKind, Metrics>>>): string | null {
  const lines: string[] = [];
  for (const t of TARGETS) {
    const medians = byCase.get(t.case);
    const tandem = medians?.tandem?.[t.key];
    if (tandem === undefined || !Number.isFinite(tandem)) continue;
    const anchor = medians?.ywebsocket?.[t.key];
    if (!t.absolute && (anchor === undefined || !Number.isFinite(anchor))) continue;
    const figure = t.absolute ? tandem : tandem / (anchor as number);
    const shown = t.absolute
      ? fmt(tandem, 2)
      : `${fmt(tandem, 2)} ÷ ${fmt(anchor, 2)} = ${figure.toFixed(2)}×`;
    const target = t.absolute ? `≤ ${t.atMost}` : `≤ ${t.atMost}×`;
    lines.push(`| ${t.what} | ${shown} | ${target} | ${figure <= t.atMost ? 'met' : '**missed**'} |`);
  }
  if (lines.length === 0) return null;
  return [
    '### Targets, Tandem against y-websocket in this run',
    '',
    '| target | Tandem (÷ y-websocket) | aim | |',
    '|---|---:|---|---|',
    ...lines,
  ].join('\n');
}

function medianMetrics(runs: RunResult[]): Metrics {
  const keys = new Set(runs.flatMap((r) => Object.keys(r.metrics)));
  const out: Metrics = {};
  for (const k of keys) out[k] = median(runs.map((r) => r.metrics[k] ?? Number.NaN));
  return out;
}

async function main(): Promise<void> {
  const { positional, flags } = parseArgs(process.argv.slice(2));
  // The generator runs on CPU 1 and the servers on CPU 0, so neither steals the other's core.
  if (flags.pin !== 'false' && process.env.BENCH_PINNED !== '1' && availableParallelism() > 1) {
    const res = spawnSync(
      'taskset',
      ['-c', flags['generator-cpu'] ?? '1', process.execPath, ...process.execArgv, ...process.argv.slice(1)],
      {
        stdio: 'inherit',
        env: { ...process.env, BENCH_PINNED: '1' },
      },
    );
    if (!res.error) process.exit(res.status ?? 1);
    console.warn(`could not pin the generator (${res.error.message}); running unpinned`);
  }
  const scenario = positional[0] ?? 'all';
  if (scenario === 'profile') {
    // `npm run bench -- profile <file.cpuprofile>…`: summarise profiles written by --profile or --cpu-prof
    console.log(formatProfiles(positional.slice(1).map((f) => resolve(process.env.INIT_CWD ?? '.', f))));
    return;
  }
  if (scenario === 'heapdiff') {
    // `npm run bench -- heapdiff <before.heapsnapshot> <after.heapsnapshot> <connections> [rows]`
    const [before, after, connections, rows] = positional.slice(1);
    if (!before || !after || !connections) throw new Error('heapdiff <before> <after> <connections> [rows]');
    const at = (f: string) => resolve(process.env.INIT_CWD ?? '.', f);
    console.log(formatHeapDiff(at(before), at(after), Number(connections), rows ? Number(rows) : undefined));
    return;
  }
  const repeats = num(flags, 'repeats', scenario === 'all' ? 3 : 1);
  const wanted = flags.servers ? (flags.servers.split(',') as ServerKind[]) : [...SERVER_KINDS];
  for (const s of wanted) if (!SERVER_KINDS.includes(s)) throw new Error(`unknown server "${s}"`);
  const cases = casesFor(scenario, flags);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  mkdirSync(resultsDir, { recursive: true });
  const summary: Record<string, unknown>[] = [];
  const tables: string[] = [];
  const byCase = new Map<string, Partial<Record<ServerKind, Metrics>>>();
  for (const c of cases) {
    c.servers = c.servers.filter((s) => wanted.includes(s) && (s !== 'tandem' || tandemAvailable()));
    const byServer: Partial<Record<ServerKind, RunResult[]>> = {};
    // interleave servers within each repeat, so a change in machine load hits all of them alike
    for (let rep = 0; rep < repeats; rep++) {
      for (const s of c.servers) {
        const load = loadAverage();
        process.stdout.write(`${c.name} · ${SERVER_LABELS[s]} · run ${rep + 1}/${repeats} (load ${load}) … `);
        try {
          const profileDir =
            flags.profile === 'true'
              ? join(resultsDir, 'profiles', `${stamp}-${c.name}-${s}-${rep + 1}`)
              : undefined;
          const res = await c.run(s, profileDir);
          res.params.loadAverage = load;
          if (profileDir) {
            const files = readdirSync(profileDir)
              .filter((f) => f.endsWith('.cpuprofile'))
              .map((f) => join(profileDir, f));
            res.profiles = [formatProfiles(files, res.window)];
          }
          const runs = byServer[s] ?? [];
          runs.push(res);
          byServer[s] = runs;
          writeFileSync(
            join(resultsDir, `${stamp}-${c.name}-${s}-${rep + 1}.json`),
            `${JSON.stringify(res, null, 2)}\n`,
          );
          const head = c.rows.slice(0, 3).map((row) => `${row.key}=${fmt(res.metrics[row.key], row.digits)}`);
          console.log(head.join(' '), res.notes.length ? `[${res.notes.join('; ')}]` : '');
          for (const prof of res.profiles ?? []) console.log(`\n${prof}\n`);
        } catch (err) {
          console.log(`failed: ${(err as Error).message}`);
        }
      }
    }
    const medians: Partial<Record<ServerKind, Metrics>> = {};
    for (const s of c.servers) {
      const runs = byServer[s];
      if (runs?.length) medians[s] = medianMetrics(runs);
    }
    const t = table(c, medians);
    const loads = c.servers.flatMap((s) => (byServer[s] ?? []).map((run) => String(run.params.loadAverage)));
    const heading = `### ${c.name} (median of ${repeats}; load average at each run's start: ${loads.join(' · ')})`;
    tables.push(`${heading}\n\n${t}`);
    console.log(`\n${heading}\n\n${t}\n`);
    byCase.set(c.name, medians);
    summary.push({
      case: c.name,
      repeats,
      medians,
      notes: Object.fromEntries(
        Object.entries(byServer).map(([s, runs]) => [s, runs.flatMap((x) => x.notes)]),
      ),
    });
  }
  const verdicts = targetsTable(byCase);
  if (verdicts) {
    tables.push(verdicts);
    console.log(`\n${verdicts}\n`);
  }
  const file = join(resultsDir, `${stamp}-${scenario}-summary.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), argv: process.argv.slice(2), summary }, null, 2)}\n`,
  );
  writeFileSync(file.replace(/\.json$/, '.md'), `${tables.join('\n\n')}\n`);
  console.log(`results: ${file}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
