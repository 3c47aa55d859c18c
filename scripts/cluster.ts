// `npm run cluster`: the topology of docker-compose.yml from local processes, without Docker.
// Two realtime-server instances on the machine's Redis and PostgreSQL (a schema and a channel
// prefix of their own), one shared SECRET, and a round-robin TCP balancer in front of them on
// :8080. Ctrl-C (or SIGTERM) stops the instances gracefully and exits once they have stopped.
//
//   CLUSTER_PORT             balancer port (8080)
//   CLUSTER_HOST             balancer interface (127.0.0.1)
//   CLUSTER_INSTANCE_PORTS   instance ports, comma-separated; their count is the instance count
//                            (8081,8082, or free ports when those are taken)
//   REDIS_URL, DATABASE_URL  the machine's services (redis://127.0.0.1:6379,
//                            postgres://postgres@127.0.0.1:5432/test)
//   DATABASE_SCHEMA          tandem_cluster      REDIS_PREFIX   tandem-cluster:
//   PUBLIC_ORIGIN            http://localhost:$CLUSTER_PORT (browsers talk to the balancer)
//   SECRET                   else generated once into $DATA_DIR/cluster/secret
//   DATA_DIR                 ./data (each instance gets $DATA_DIR/cluster/<name>)
//   CLIENT_DIR               when set (even empty) the client is not built
// Any other variable config.ts reads (LOG_LEVEL, limits …) passes through to every instance.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { type Backend, createBalancer } from './balancer.ts';

const root = new URL('..', import.meta.url).pathname;
const env = process.env;

function fail(message: string): never {
  console.error(`npm run cluster: ${message}`);
  process.exit(1);
}

function port(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) fail(`${name} must be a port; it is "${raw}".`);
  return value;
}

/** Resolves when something accepts a TCP connection on host:port. */
function reachable(host: string, portNumber: number, timeoutMs = 3000): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host, port: portNumber });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/** `wanted` when it can be bound on 127.0.0.1, else a free port. */
function portOr(wanted: number): Promise<number> {
  return new Promise((done) => {
    const server = createServer();
    const pick = (p: number) =>
      server.listen(p, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => done(typeof address === 'object' && address ? address.port : p));
      });
    server.once('error', () => {
      server.removeAllListeners('error');
      pick(0);
    });
    pick(wanted);
  });
}

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

async function main(): Promise<void> {
  const clusterHost = env.CLUSTER_HOST || '127.0.0.1';
  const clusterPort = port('CLUSTER_PORT', env.CLUSTER_PORT || '8080');
  const instancePorts = env.CLUSTER_INSTANCE_PORTS
    ? env.CLUSTER_INSTANCE_PORTS.split(',').map((p) => port('CLUSTER_INSTANCE_PORTS', p.trim()))
    : [await portOr(8081), await portOr(8082)];
  if (instancePorts.length === 0) fail('CLUSTER_INSTANCE_PORTS names no port.');
  const redisUrl = env.REDIS_URL || 'redis://127.0.0.1:6379';
  const databaseUrl = env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const databaseSchema = env.DATABASE_SCHEMA || 'tandem_cluster';
  const redisPrefix = env.REDIS_PREFIX || 'tandem-cluster:';
  const publicOrigin = env.PUBLIC_ORIGIN || `http://localhost:${clusterPort}`;
  const dataDir = join(resolve(root, env.DATA_DIR || 'data'), 'cluster');

  // The services first: an instance would otherwise wait for Redis forever, or die on PostgreSQL.
  for (const [name, url, defaultPort] of [
    ['REDIS_URL', redisUrl, 6379],
    ['DATABASE_URL', databaseUrl, 5432],
  ] as const) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      fail(`${name} is not a URL: "${url}".`);
    }
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (!(await reachable(host, Number(parsed.port || defaultPort)))) {
      fail(`nothing answers at ${redact(url)}. Start it, or point ${name} at one that runs.`);
    }
  }

  mkdirSync(dataDir, { recursive: true });
  // One secret for every instance: access tokens signed by one are checked by the others.
  let secret = env.SECRET;
  if (!secret) {
    const file = join(dataDir, 'secret');
    if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
    secret = readFileSync(file, 'utf8').trim();
  }

  if (env.CLIENT_DIR === undefined && !existsSync(join(root, 'client/dist/index.html'))) {
    console.log('Building the client (client/dist is missing) …');
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) fail('`npm run build` failed.');
  }

  const backends: Backend[] = instancePorts.map((p, i) => ({
    name: `tandem-${i + 1}`,
    host: '127.0.0.1',
    port: p,
  }));
  const balancer = createBalancer({
    backends,
    onConnection: (backend) => {
      if (backend === null) console.error('balancer: no instance accepted a connection (502)');
    },
  });
  try {
    await balancer.listen(clusterPort, clusterHost);
  } catch (error) {
    fail(`the balancer cannot listen on ${clusterHost}:${clusterPort} (${(error as Error).message}).`);
  }

  const children = new Map<string, ChildProcess>();
  const exits = new Map<string, Promise<number>>();
  let stopping = false;
  let ready = false;
  // An instance that exited on its own, or never became ready: the exit code says so.
  let failed = false;

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl-C: no more waiting.
      for (const child of children.values()) child.kill('SIGKILL');
      return;
    }
    stopping = true;
    console.log(`\n${signal}: stopping the instances (they store pending edits first) …`);
    void balancer.close();
    for (const child of children.values()) child.kill('SIGTERM');
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  for (const backend of backends) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'realtime-server/src/main.ts'], {
      cwd: root,
      env: {
        ...env,
        PORT: String(backend.port),
        HOST: '127.0.0.1',
        DATA_DIR: join(dataDir, backend.name),
        DATABASE_URL: databaseUrl,
        DATABASE_SCHEMA: databaseSchema,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: redisPrefix,
        SECRET: secret,
        PUBLIC_ORIGIN: publicOrigin,
        INSTANCE_NAME: backend.name,
        // The balancer pipes bytes and adds no X-Forwarded-For.
        TRUST_PROXY: 'false',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.set(backend.name, child);
    exits.set(
      backend.name,
      new Promise((done) => {
        child.once('exit', (code, signal) => {
          children.delete(backend.name);
          const status = code ?? (signal ? 1 : 0);
          if (!stopping) {
            failed = true;
            console.error(
              ready
                ? `${backend.name} (pid ${child.pid}) exited (${signal ?? `code ${code}`}); the balancer skips it.`
                : `${backend.name} exited (${signal ?? `code ${code}`}) before it was ready.`,
            );
            if (!ready || children.size === 0) stop('SIGTERM');
          }
          done(status);
        });
      }),
    );
  }

  const allStopped = Promise.all(exits.values()).then(async (codes) => {
    balancer.destroyConnections();
    await balancer.close().catch(() => {});
    const clean = !failed && codes.every((code) => code === 0);
    if (ready) console.log(clean ? 'Every instance has stopped.' : 'The cluster stopped with errors.');
    process.exit(clean ? 0 : 1);
  });

  // Ready when every instance answers /readyz (its store and bus are reachable).
  const deadline = Date.now() + 120_000;
  for (const backend of backends) {
    for (;;) {
      if (stopping) return void (await allStopped);
      const ok = await fetch(`http://127.0.0.1:${backend.port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) {
        console.error(`${backend.name} is not ready after 120 s.`);
        failed = true;
        stop('SIGTERM');
        return void (await allStopped);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  ready = true;
  const width = Math.max(...backends.map((b) => b.name.length), 'balancer'.length);
  console.log(
    [
      '',
      `Tandem cluster is ready: ${publicOrigin}`,
      `  ${'balancer'.padEnd(width)}  ${clusterHost}:${clusterPort}, round robin per connection`,
      ...backends.map(
        (b) =>
          `  ${b.name.padEnd(width)}  http://127.0.0.1:${b.port}  (pid ${children.get(b.name)?.pid ?? '?'})`,
      ),
      `  ${'store'.padEnd(width)}  ${redact(databaseUrl)}, schema ${databaseSchema}`,
      `  ${'bus'.padEnd(width)}  ${redact(redisUrl)}, prefix ${redisPrefix}`,
      'Ctrl-C stops every instance gracefully. Kill one instance (by its pid) to watch clients move.',
      '',
    ].join('\n'),
  );
  await allStopped;
}

main().catch((error: unknown) => {
  console.error('npm run cluster failed:', error);
  process.exit(1);
});
