// Starts the servers under test as child processes pinned to one CPU, on free ports of 127.0.0.1, and
// prepares boards on them (for Tandem: one user, boards and access tokens through its REST API).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVER_KINDS = ['ywebsocket', 'hocuspocus', 'tandem'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

export const SERVER_LABELS: Record<ServerKind, string> = {
  ywebsocket: 'y-websocket',
  hocuspocus: 'Hocuspocus',
  tandem: 'Tandem',
};

export const HOST = '127.0.0.1';
export const REDIS_URL = 'redis://127.0.0.1:6379';
export const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

const benchDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(benchDir, '..');
const require = createRequire(import.meta.url);

export interface Instance {
  pid: number;
  port: number;
  /** ws://127.0.0.1:port */
  wsBase: string;
  /** http://127.0.0.1:port */
  httpBase: string;
}

/** What a client needs to open one board: its room name and URL parameters (Tandem's token). */
export interface BoardAccess {
  id: string;
  params: Record<string, string>;
}

export interface StartOptions {
  kind: ServerKind;
  instances?: 1 | 2;
  /** CPU list for taskset; '' runs unpinned */
  cpu?: string;
  /** extra environment for Tandem, e.g. limits */
  env?: Record<string, string>;
  /** write a V8 CPU profile of each instance here (`node --cpu-prof`), on a graceful stop */
  profileDir?: string;
  /** extra node flags for every server process, e.g. --max-semi-space-size=64 */
  nodeArgs?: string[];
  /** y-websocket's server stores every update in LevelDB (its `YPERSISTENCE`), in a fresh dir */
  ywebsocketPersistence?: boolean;
}

export interface ServerHandle {
  kind: ServerKind;
  instances: Instance[];
  /** the Origin header Tandem checks; harmless for the anchors */
  origin(instance: Instance): string;
  setupBoards(count: number): Promise<BoardAccess[]>;
  /** Tandem: an editor integration's key for a board made by setupBoards (docs/api.md §15). */
  integrationKey?(boardId: string): Promise<string>;
  /**
   * Tandem: a `public-viewer` link on a board made by setupBoards, and the anonymous viewer's access
   * token it gives with no cookie (docs/api.md §16).
   */
  publicViewerToken?(boardId: string): Promise<string>;
  /** a description of the process that is useful in results */
  describe: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function waitForHttp(url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms:\n${output()}`);
}

interface Spawned {
  child: ChildProcess;
  output: () => string;
}

function spawnPinned(cpu: string, args: string[], env: Record<string, string>, cwd: string): Spawned {
  const [cmd, ...rest] = cpu ? ['taskset', '-c', cpu, ...args] : args;
  const child = spawn(cmd as string, rest, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log += chunk.toString();
    if (log.length > 20_000) log = log.slice(-10_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => log };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Drops a run's PostgreSQL schema with psql, when psql is there; a leftover schema is harmless. */
function dropSchema(schema: string): void {
  spawnSync('psql', [DATABASE_URL, '-q', '-c', `DROP SCHEMA IF EXISTS "${schema}" CASCADE`], {
    stdio: 'ignore',
  });
}

function ywebsocketBin(): string {
  return join(dirname(require.resolve('@y/websocket-server/package.json')), 'src', 'server.js');
}

/** Plain board names for the anchors, which accept any room name and need no setup. */
function plainBoards(count: number): BoardAccess[] {
  const run = randomBytes(4).toString('hex');
  return Array.from({ length: count }, (_, i) => ({ id: `bench-${run}-${i}`, params: {} }));
}

export async function startServer(opts: StartOptions): Promise<ServerHandle> {
  const n = opts.instances ?? 1;
  const cpu = opts.cpu ?? '0';
  const spawned: Spawned[] = [];
  const instances: Instance[] = [];
  const cleanups: (() => void)[] = [];
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const secret = randomBytes(32).toString('hex');
  const node = [
    process.execPath,
    ...(opts.nodeArgs ?? []),
    ...(opts.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.profileDir}`] : []),
  ];

  try {
    for (let i = 0; i < n; i++) {
      const port = await freePort();
      let s: Spawned;
      let readyUrl = `http://${HOST}:${port}/`;
      if (opts.kind === 'ywebsocket') {
        if (n > 1) throw new Error("y-websocket's server has no way to share documents between instances");
        const env: Record<string, string> = { HOST, PORT: String(port) };
        if (opts.ywebsocketPersistence) {
          const dir = mkdtempSync(join(tmpdir(), 'ywebsocket-bench-'));
          cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
          env.YPERSISTENCE = dir;
        }
        s = spawnPinned(cpu, [...node, ywebsocketBin()], env, benchDir);
      } else if (opts.kind === 'hocuspocus') {
        const env: Record<string, string> = { HOST, PORT: String(port) };
        if (n > 1) {
          env.REDIS_URL = REDIS_URL;
          env.REDIS_PREFIX = prefix;
          env.INSTANCE_ID = `${prefix}-${i}`;
        }
        s = spawnPinned(cpu, [...node, join(benchDir, 'src', 'servers', 'hocuspocus.mjs')], env, benchDir);
      } else {
        const dataDir = mkdtempSync(join(tmpdir(), 'tandem-bench-'));
        cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
        const env: Record<string, string> = {
          HOST,
          PORT: String(port),
          DATA_DIR: dataDir,
          PUBLIC_ORIGIN: `http://${HOST}:${port}`,
          LOG_LEVEL: 'warn',
          INSTANCE_NAME: `${prefix}-${i}`,
          // one bench user opens every board; real boards are opened by many users
          MAX_BOARDS_OPEN_PER_USER: '1000000',
          // As `npm start` and the Docker image set it (docs/operations.md, "Memory and slow clients").
          MALLOC_MMAP_THRESHOLD_: '1048576',
          ...opts.env,
        };
        if (n > 1) {
          env.REDIS_URL = REDIS_URL;
          env.DATABASE_URL = DATABASE_URL;
          env.SECRET = secret;
          // isolation between runs sharing one Redis and one database
          env.REDIS_PREFIX = `${prefix}:`;
          env.DATABASE_SCHEMA = prefix.replace('-', '_');
          if (i === 0) cleanups.push(() => dropSchema(env.DATABASE_SCHEMA as string));
        }
        // As deployed (`npm start`, the Docker image): the compiled server, run by node alone.
        buildTandemOnce();
        s = spawnPinned(cpu, [...node, 'realtime-server/dist/main.js'], env, repoRoot);
        readyUrl = `http://${HOST}:${port}/healthz`;
      }
      spawned.push(s);
      await waitForHttp(readyUrl, s.child, s.output);
      if (s.child.pid === undefined) throw new Error('server has no pid');
      instances.push({
        pid: s.child.pid,
        port,
        wsBase: `ws://${HOST}:${port}`,
        httpBase: `http://${HOST}:${port}`,
      });
    }
  } catch (err) {
    await Promise.all(spawned.map((s) => stopChild(s.child)));
    for (const c of cleanups) c();
    throw err;
  }

  const first = instances[0] as Instance;
  return {
    kind: opts.kind,
    instances,
    describe: `${SERVER_LABELS[opts.kind]} ×${n}${cpu ? ` (taskset -c ${cpu})` : ''}`,
    origin: (inst) => inst.httpBase,
    setupBoards: (count) =>
      opts.kind === 'tandem' ? tandemBoards(first, count) : Promise.resolve(plainBoards(count)),
    ...(opts.kind === 'tandem'
      ? {
          integrationKey: (boardId: string) => tandemIntegrationKey(first, boardId),
          publicViewerToken: (boardId: string) => tandemPublicViewerToken(first, boardId),
        }
      : {}),
    stop: async () => {
      await Promise.all(spawned.map((s) => stopChild(s.child)));
      for (const c of cleanups) c();
    },
  };
}

let tandemBuilt = false;
/** `npm run build:server` once per bench process, so every run measures the current sources. */
function buildTandemOnce(): void {
  if (tandemBuilt) return;
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`building the Tandem server failed: ${built.stderr}`);
  tandemBuilt = true;
}

// ---- Tandem's REST API: one user, many boards, one access token per board ----

async function api(
  inst: Instance,
  method: string,
  path: string,
  body: unknown,
  cookie: string,
): Promise<{ status: number; json: unknown; setCookie: string[] }> {
  const res = await fetch(`${inst.httpBase}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      origin: inst.httpBase,
      ...(cookie ? { cookie } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 300)}`);
  return { status: res.status, json, setCookie: res.headers.getSetCookie() };
}

/** The bench user's session per instance, once setupBoards has signed it up. */
const benchSessions = new Map<Instance, string>();

async function tandemIntegrationKey(inst: Instance, boardId: string): Promise<string> {
  const session = benchSessions.get(inst);
  if (!session) throw new Error('set up the boards first');
  const created = await api(
    inst,
    'POST',
    `/api/boards/${boardId}/integrations`,
    { name: 'Bench bot', role: 'editor' },
    session,
  );
  return (created.json as { key: string }).key;
}

async function tandemPublicViewerToken(inst: Instance, boardId: string): Promise<string> {
  const session = benchSessions.get(inst);
  if (!session) throw new Error('set up the boards first');
  const created = await api(inst, 'POST', `/api/boards/${boardId}/links`, { role: 'public-viewer' }, session);
  const link = (created.json as { link: { token: string } }).link.token;
  // asked for with no cookie, as a visitor with no account does
  const answer = await api(inst, 'POST', `/api/public/${link}/token`, {}, '');
  return (answer.json as { token: string }).token;
}

async function tandemBoards(inst: Instance, count: number): Promise<BoardAccess[]> {
  const email = `bench-${randomBytes(6).toString('hex')}@example.com`;
  const signup = await api(
    inst,
    'POST',
    '/api/auth/signup',
    { email, name: 'Bench', password: randomBytes(12).toString('hex') },
    '',
  );
  const session = signup.setCookie.map((c) => c.split(';')[0]).find((c) => c?.startsWith('tandem_session='));
  if (!session) throw new Error('signup returned no tandem_session cookie');
  benchSessions.set(inst, session);
  const boards: BoardAccess[] = [];
  // a few at a time: creating thousands of boards one by one would dominate short runs
  const parallel = 8;
  for (let start = 0; start < count; start += parallel) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(parallel, count - start) }, async (_, k) => {
        const created = await api(inst, 'POST', '/api/boards', { title: `bench ${start + k}` }, session);
        const id = (created.json as { board: { id: string } }).board.id;
        const tok = await api(inst, 'POST', `/api/boards/${id}/token`, {}, session);
        return { id, params: { token: (tok.json as { token: string }).token } };
      }),
    );
    boards.push(...batch);
  }
  return boards;
}
