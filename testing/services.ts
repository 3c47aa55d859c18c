// Real services for tests: PostgreSQL and Redis from the environment (skipped loudly when absent,
// unless TANDEM_REQUIRE_SERVICES=1 makes their absence a failure), and private redis-server
// processes for tests that kill the broker.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { delimiter, join } from 'node:path';
import pg from 'pg';

export const postgresUrl = (): string =>
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const redisUrl = (): string => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export type Service = 'postgres' | 'redis';

/** Removes a test's PostgreSQL schema and everything in it (its tables, its rows). */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

const cache = new Map<Service, Promise<string | undefined>>();

/**
 * Resolves to a skip reason when the service cannot be reached, or undefined when it can.
 * Pass the result to `describe(name, { skip })`. Fails instead when TANDEM_REQUIRE_SERVICES=1.
 */
export function skipUnless(service: Service): Promise<string | undefined> {
  let pending = cache.get(service);
  if (!pending) {
    pending = probe(service).then((problem) => {
      if (problem === undefined) return undefined;
      const what = `${service} unreachable (${problem})`;
      if (process.env.TANDEM_REQUIRE_SERVICES === '1') {
        throw new Error(`${what}, and TANDEM_REQUIRE_SERVICES=1 makes that a failure`);
      }
      const variable = service === 'postgres' ? 'DATABASE_URL' : 'REDIS_URL';
      const line = `${what}: tests that need it are SKIPPED; set ${variable} or start it`;
      console.warn(`\n!!! ${line}\n`);
      return line;
    });
    cache.set(service, pending);
  }
  return pending;
}

async function probe(service: Service): Promise<string | undefined> {
  try {
    if (service === 'postgres') {
      const client = new pg.Client({ connectionString: postgresUrl(), connectionTimeoutMillis: 3000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
      } finally {
        await client.end().catch(() => {});
      }
    } else {
      const url = new URL(redisUrl());
      await redisPing(url.hostname, Number(url.port || 6379));
    }
    return undefined;
  } catch (err) {
    return `${service === 'postgres' ? postgresUrl() : redisUrl()}: ${(err as Error).message}`;
  }
}

/** Sends PING over a raw socket; resolves on +PONG. */
export function redisPing(host: string, port: number, timeoutMs = 3000): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    const timer = setTimeout(() => fail(new Error('timed out')), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    socket.once('error', fail);
    socket.connect(port, host, () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      clearTimeout(timer);
      socket.destroy();
      if (data.toString().startsWith('+PONG')) resolve();
      else reject(new Error(`unexpected answer ${JSON.stringify(data.toString())}`));
    });
  });
}

/**
 * A port nobody listens on right now. Only for what cannot bind port 0 and report back (a private
 * redis-server, a port meant to stay closed); Tandem servers in tests listen on port 0.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Polls `check` every `pollMs` until it returns true; fails with `what` after `timeoutMs`. The one
 * condition wait of the server, e2e and bench tests (e2e/helpers.ts `until` calls it).
 */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15000,
  pollMs = 20,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/**
 * The path of a program this test needs, from PATH (or the path itself when it has a slash); a
 * missing one fails the test with a sentence saying what to install, never a skip or a crash.
 */
export function requireProgram(program: string, install: string): string {
  const candidates = program.includes('/')
    ? [program]
    : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, program));
  const found = candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!found) throw new Error(`${program} is not installed, and this test needs it: ${install}`);
  return found;
}

/** A redis-server of the test's own, on a free port, that the test may kill and start again. */
export class PrivateRedis {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const child = spawn(
      requireProgram('redis-server', 'apt-get install -y redis-server'),
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.child = child;
    child.once('exit', () => {
      if (this.child === child) this.child = null;
    });
    await waitUntil(`private redis-server answers on port ${this.port}`, () =>
      redisPing('127.0.0.1', this.port, 500).then(
        () => true,
        () => false,
      ),
    );
  }

  /** SIGSTOP: the broker hangs, its connections open but silent (a stalled or partitioned Redis). */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  /** SIGCONT after pause(). */
  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** SIGKILL: the broker vanishes without closing its connections politely. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  stop(): Promise<void> {
    return this.kill();
  }
}
