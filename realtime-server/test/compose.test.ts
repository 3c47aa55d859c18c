// Keeps the container topology honest without a Docker engine: docker-compose.yml, the nginx
// config and the Dockerfile are parsed and checked against what the server really reads and runs.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { type ConfigVariable, configVariables, loadConfig } from '../src/config.ts';

const root = new URL('../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface Service {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string | string[] };
  ports?: string[];
  expose?: (string | number)[];
  volumes?: string[];
  command?: string | string[];
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

// `merge: true` resolves the `<<: *anchor` keys the file uses, as Compose does.
const compose = parse(read('docker-compose.yml'), { merge: true }) as Compose;
const services = compose.services;
const names = Object.keys(services);
const instances = names.filter((name) => services[name]?.build !== undefined);
const byImage = (prefix: string) => names.filter((name) => services[name]?.image?.startsWith(prefix));

function environment(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((line) => {
        const at = line.indexOf('=');
        return at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, String(value ?? '')]));
}

/** Compose's interpolation for what this file uses: ${VAR}, ${VAR:-default}, ${VAR:?error}, $$. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g,
    (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
      if (whole === '$$') return '$';
      const set = name !== undefined ? vars[name] : undefined;
      if (op === ':-' || op === '-') return set || (arg ?? '');
      if (op === ':?' || op === '?') {
        if (!set) throw new Error(`${name} is required: ${arg}`);
        return set;
      }
      return set ?? '';
    },
  );
}

const dependsOn = (service: Service): Record<string, { condition?: string }> =>
  Array.isArray(service.depends_on)
    ? Object.fromEntries(service.depends_on.map((name) => [name, {}]))
    : (service.depends_on ?? {});

const healthTest = (service: Service): string => {
  const check = service.healthcheck?.test;
  return Array.isArray(check) ? check.join(' ') : (check ?? '');
};

// ---- nginx: a small parser for the directive/block syntax ----

interface Directive {
  name: string;
  args: string[];
  block?: Directive[];
}

function parseNginx(text: string): Directive[] {
  const tokens: string[] = [];
  const pattern = /#[^\n]*|'([^']*)'|"([^"]*)"|([{};])|([^\s{};#'"]+)/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0].startsWith('#')) continue;
    tokens.push(match[1] ?? match[2] ?? match[3] ?? match[4] ?? '');
  }
  let at = 0;
  const block = (): Directive[] => {
    const out: Directive[] = [];
    while (at < tokens.length) {
      if (tokens[at] === '}') {
        at++;
        return out;
      }
      const words: string[] = [];
      while (at < tokens.length && tokens[at] !== ';' && tokens[at] !== '{' && tokens[at] !== '}') {
        words.push(tokens[at++] as string);
      }
      const [name = '', ...args] = words;
      if (tokens[at] === '{') {
        at++;
        out.push({ name, args, block: block() });
      } else {
        if (tokens[at] !== ';') throw new Error(`nginx.conf: "${words.join(' ')}" lacks a semicolon`);
        at++;
        out.push({ name, args });
      }
    }
    return out;
  };
  return block();
}

const find = (list: Directive[] | undefined, name: string) => (list ?? []).filter((d) => d.name === name);
const one = (list: Directive[] | undefined, name: string, ...args: string[]): Directive => {
  const found = find(list, name).filter((d) => args.every((arg, i) => d.args[i] === arg));
  assert.equal(found.length, 1, `expected one "${[name, ...args].join(' ')}" in nginx.conf`);
  return found[0] as Directive;
};

/** "1h", "3600s", "90m", "3600" → seconds. */
function seconds(value: string | undefined): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value ?? '');
  assert.ok(match, `not an nginx time: ${value}`);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }[match[2] ?? 's'] ?? 1;
  return Number(match[1]) * unit;
}

// ---- Dockerfile: instructions, continuation lines joined ----

const dockerfile = read('Dockerfile')
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => {
    const space = line.indexOf(' ');
    return { op: line.slice(0, space).toUpperCase(), rest: line.slice(space + 1).trim() };
  });
const stages: (typeof dockerfile)[] = [];
for (const instruction of dockerfile) {
  if (instruction.op === 'FROM') stages.push([]);
  stages.at(-1)?.push(instruction);
}
const runtime = stages.at(-1) ?? [];
const lastOf = (op: string) => runtime.filter((i) => i.op === op).at(-1)?.rest;
// The default instance port: the Dockerfile's PORT, else config's default.
const dockerEnv = Object.fromEntries(
  runtime
    .filter((i) => i.op === 'ENV')
    .flatMap((i) => i.rest.split(/\s+/))
    .map((pair) => pair.split('=') as [string, string]),
);
// (SECRET given, so loadConfig writes no secret file into the temp dir.)
const instancePort = loadConfig({ PORT: dockerEnv.PORT, DATA_DIR: tmpdir(), SECRET: 'x'.repeat(32) }).port;

describe('docker-compose.yml', () => {
  test('runs redis, postgres, two Tandem instances and a load balancer, and nothing else', () => {
    assert.equal(instances.length, 2, `instances (services built from the Dockerfile): ${instances}`);
    assert.equal(byImage('redis:').length, 1, 'one redis service');
    assert.equal(byImage('postgres:').length, 1, 'one postgres service');
    assert.equal(byImage('nginx:').length, 1, 'one nginx balancer');
    assert.equal(names.length, 5, `services: ${names.join(', ')}`);
    for (const name of instances) {
      const build = services[name]?.build;
      const context = typeof build === 'string' ? build : (build?.context ?? '.');
      const file = typeof build === 'object' ? (build.dockerfile ?? 'Dockerfile') : 'Dockerfile';
      assert.ok(existsSync(join(root, context, file)), `${name} builds from ${context}/${file}`);
    }
    const postgres = byImage('postgres:')[0] as string;
    const volume = services[postgres]?.volumes?.find((v) => v.endsWith(':/var/lib/postgresql/data'));
    assert.ok(volume, 'postgres keeps its data in a volume');
    assert.ok(compose.volumes && (volume.split(':')[0] as string) in compose.volumes, 'a named volume');
  });

  test('instances set only variables that config.ts reads, and everything several instances need', () => {
    const known = new Set<string>(configVariables);
    const shared: string[] = ['DATABASE_URL', 'REDIS_URL', 'SECRET', 'PUBLIC_ORIGIN'];
    const envs = instances.map((name) => environment(services[name] as Service));
    for (const [i, env] of envs.entries()) {
      const unknown = Object.keys(env).filter((key) => !known.has(key));
      assert.deepEqual(unknown, [], `${instances[i]} sets variables config.ts never reads`);
      for (const key of [...shared, 'INSTANCE_NAME']) assert.ok(env[key], `${instances[i]} sets ${key}`);
    }
    const [first, second] = envs as [Record<string, string>, Record<string, string>];
    assert.notEqual(first.INSTANCE_NAME, second.INSTANCE_NAME, 'instances have their own names');
    const { INSTANCE_NAME: _a, ...firstRest } = first;
    const { INSTANCE_NAME: _b, ...secondRest } = second;
    assert.deepEqual(firstRest, secondRest, 'apart from INSTANCE_NAME, both instances are configured alike');
    assert.match(
      first.SECRET ?? '',
      /^\$\{\w+:\?/,
      'SECRET comes from the operator (a required compose variable), never a literal',
    );
  });

  test('with the defaults filled in, config.ts accepts each instance, and its URLs name compose services', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tandem-compose-'));
    try {
      const vars = { TANDEM_SECRET: 'x'.repeat(48) };
      const postgres = byImage('postgres:')[0] as string;
      const pgEnv = environment(services[postgres] as Service);
      for (const name of instances) {
        const env = Object.fromEntries(
          Object.entries(environment(services[name] as Service)).map(([k, v]) => [k, interpolate(v, vars)]),
        ) as Partial<Record<ConfigVariable, string>>;
        const config = loadConfig({ ...dockerEnv, ...env, DATA_DIR: dataDir });
        assert.equal(config.secret, vars.TANDEM_SECRET);

        const database = new URL(config.databaseUrl ?? '');
        assert.equal(database.hostname, postgres, 'DATABASE_URL points at the postgres service');
        assert.equal(database.port || '5432', '5432');
        assert.equal(decodeURIComponent(database.username), interpolate(pgEnv.POSTGRES_USER ?? '', vars));
        assert.equal(decodeURIComponent(database.password), interpolate(pgEnv.POSTGRES_PASSWORD ?? '', vars));
        assert.equal(database.pathname.slice(1), interpolate(pgEnv.POSTGRES_DB ?? '', vars));

        const redis = new URL(config.redisUrl ?? '');
        assert.equal(redis.hostname, byImage('redis:')[0], 'REDIS_URL points at the redis service');
        assert.equal(redis.port || '6379', '6379');

        // Browsers talk to the balancer, so the origin they send is the balancer's published port.
        const balancer = services[byImage('nginx:')[0] as string] as Service;
        const published = (balancer.ports ?? []).map((p) => interpolate(p, vars).split(':')[0]);
        assert.ok(
          published.includes(new URL(config.publicOrigin).port || '80'),
          `PUBLIC_ORIGIN ${config.publicOrigin} is the balancer's published port (${published})`,
        );
        assert.equal(config.port, instancePort);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('every service has a healthcheck, and start-up waits for the services each one needs', () => {
    for (const name of names) assert.ok(healthTest(services[name] as Service), `${name} has a healthcheck`);
    for (const name of instances) {
      const service = services[name] as Service;
      assert.match(healthTest(service), new RegExp(`127\\.0\\.0\\.1:${instancePort}/(readyz|healthz)`));
      const deps = dependsOn(service);
      for (const needed of [...byImage('redis:'), ...byImage('postgres:')]) {
        assert.equal(deps[needed]?.condition, 'service_healthy', `${name} waits for ${needed} to be healthy`);
      }
      assert.ok(
        (service.expose ?? []).map(String).includes(String(instancePort)),
        `${name} exposes ${instancePort}`,
      );
      assert.equal(service.ports, undefined, `${name} is reached through the balancer only`);
    }
    const balancer = services[byImage('nginx:')[0] as string] as Service;
    assert.deepEqual(Object.keys(dependsOn(balancer)).sort(), [...instances].sort());
  });
});

describe('deploy/nginx.conf', () => {
  const balancer = services[byImage('nginx:')[0] as string] as Service;
  const mount = (balancer.volumes ?? []).find((v) => v.includes(':/etc/nginx/'));

  test('is the file the balancer mounts', () => {
    assert.ok(mount, 'the balancer mounts an nginx config');
    assert.equal(mount.split(':')[0], './deploy/nginx.conf');
    assert.ok(existsSync(join(root, 'deploy/nginx.conf')));
  });

  const conf = parseNginx(read('deploy/nginx.conf'));
  const http = one(conf, 'http').block;
  const server = one(http, 'server').block;
  const upstreams = new Map(find(http, 'upstream').map((u) => [u.args[0] as string, u.block ?? []]));
  const maps = find(http, 'map');

  test('listens on the port the compose file publishes', () => {
    const targets = (balancer.ports ?? []).map((p) => p.split(':').at(-1));
    assert.deepEqual(
      find(server, 'listen').map((l) => l.args[0]),
      targets,
    );
  });

  for (const path of ['/yjs/', '/socket.io/']) {
    test(`proxies ${path} to both instances with websocket upgrade headers and long timeouts`, () => {
      const location = one(server, 'location', path).block;
      const target = one(location, 'proxy_pass').args[0] ?? '';
      const upstream = upstreams.get(target.replace(/^http:\/\//, ''));
      assert.ok(upstream, `${path} proxies to an upstream block (${target})`);
      const members = find(upstream, 'server')
        .map((s) => s.args[0])
        .sort();
      assert.deepEqual(
        members,
        instances.map((name) => `${name}:${instancePort}`).sort(),
        'the upstream is both instances, by compose service name and instance port',
      );
      const headers = new Map(find(location, 'proxy_set_header').map((h) => [h.args[0], h.args[1]]));
      assert.equal(headers.get('Upgrade'), '$http_upgrade');
      const connection = headers.get('Connection') ?? '';
      if (connection !== 'upgrade') {
        // A map from $http_upgrade that yields "upgrade" for handshakes.
        const variable = connection.replace(/^\$/, '');
        const map = maps.find((m) => m.args[0] === '$http_upgrade' && m.args[1] === `$${variable}`);
        assert.ok(map, `Connection is "upgrade" or mapped from $http_upgrade (${connection})`);
        assert.equal(one(map.block, 'default').args[0], 'upgrade');
      }
      // proxy_set_header in a location replaces the server's list: these must be repeated here.
      assert.ok(headers.has('Host'), 'Host is passed on');
      assert.ok(headers.has('X-Forwarded-For'), 'X-Forwarded-For is set (TRUST_PROXY)');
      assert.ok(seconds(one(location, 'proxy_read_timeout').args[0]) >= 600, 'read timeout ≥ 10 min');
      const version = find(location, 'proxy_http_version')[0] ?? find(server, 'proxy_http_version')[0];
      assert.equal(version?.args[0], '1.1', 'HTTP/1.1 to the upstream (upgrades need it)');
    });
  }

  test('socket.io reaches the same instance from one client address (safe for long-polling too)', () => {
    const target = one(one(server, 'location', '/socket.io/').block, 'proxy_pass').args[0] ?? '';
    const upstream = upstreams.get(target.replace(/^http:\/\//, '')) ?? [];
    const sticky = find(upstream, 'ip_hash').length > 0 || find(upstream, 'hash').length > 0;
    assert.ok(sticky, 'the socket.io upstream uses ip_hash or hash');
  });

  test('the instance set everywhere matches compose', () => {
    for (const [name, upstream] of upstreams) {
      for (const member of find(upstream, 'server')) {
        const host = (member.args[0] ?? '').split(':')[0] ?? '';
        assert.ok(
          instances.includes(host),
          `upstream ${name} member ${member.args[0]} is a compose instance`,
        );
      }
    }
  });
});

/** glibc's malloc setting that returns big freed blocks to the system (docs/operations.md, "Memory and slow clients"). */
const MALLOC_SETTING = 'MALLOC_MMAP_THRESHOLD_';

describe('Dockerfile', () => {
  test('is multi-stage: installs with npm ci and builds the client before the runtime stage', () => {
    assert.ok(stages.length >= 2, 'at least a build and a runtime stage');
    const earlier = stages.slice(0, -1).flat();
    const runs = earlier.filter((i) => i.op === 'RUN').map((i) => i.rest);
    assert.ok(
      runs.some((r) => /\bnpm ci\b/.test(r)),
      'npm ci',
    );
    assert.ok(
      runs.some((r) => /\bnpm run build\b/.test(r)),
      'npm run build',
    );
    const copies = runtime.filter((i) => i.op === 'COPY').map((i) => i.rest);
    for (const needed of ['node_modules', 'realtime-server/dist', 'client/dist']) {
      assert.ok(
        copies.some((c) => c.includes(`/app/${needed} `)),
        `the runtime stage copies ${needed}`,
      );
    }
  });

  test("CMD runs the server's real entry point, as a non-root user, with health, port and stop signal", () => {
    const cmd = JSON.parse(lastOf('CMD') ?? '[]') as string[];
    const entry = cmd.at(-1) ?? '';
    assert.deepEqual(cmd.slice(0, -1), ['node'], 'exec form, plain node: no TypeScript loader');
    // The entry is the compiled server, which `npm run build` writes (scripts/build-server.mjs).
    assert.equal(entry, 'realtime-server/dist/main.js');
    assert.match(read('scripts/build-server.mjs'), /main: 'realtime-server\/src\/main\.ts'/);
    assert.ok(existsSync(join(root, 'realtime-server/src/main.ts')), 'its source exists');
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    assert.match(scripts.start ?? '', /&& npm run serve$/, '`npm start` builds, then runs `npm run serve`');
    const serve = (scripts.serve ?? '').split(' ');
    assert.equal(serve.slice(-2).join(' '), `node ${entry}`, 'the same entry as `npm run serve`');
    // The allocator setting is the environment's (glibc reads it before node starts): the same in
    // `npm run serve`, the image and the bench, which measures the server as these run it.
    const mallocSetting = serve.find((word) => word.startsWith(`${MALLOC_SETTING}=`));
    assert.ok(mallocSetting, `npm run serve sets ${MALLOC_SETTING}`);
    assert.equal(`${MALLOC_SETTING}=${dockerEnv[MALLOC_SETTING]}`, mallocSetting, 'the image sets the same');
    assert.ok(
      read('bench/src/servers.ts').includes(`${MALLOC_SETTING}: '${mallocSetting.split('=')[1]}'`),
      'the bench sets the same',
    );
    const user = lastOf('USER') ?? 'root';
    assert.ok(!['root', '0', '0:0'].includes(user), `runs as ${user}`);
    assert.equal(lastOf('EXPOSE'), String(instancePort));
    assert.equal(lastOf('STOPSIGNAL'), 'SIGTERM');
    assert.match(lastOf('HEALTHCHECK') ?? '', /\/healthz/);
    const known = new Set<string>(configVariables);
    for (const key of Object.keys(dockerEnv)) {
      if (key === MALLOC_SETTING) continue;
      assert.ok(known.has(key), `ENV ${key} is read by config.ts`);
    }
  });

  test('.dockerignore keeps secrets, local installs and history out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    for (const pattern of ['.git', '.env', '**/node_modules', '**/data']) {
      assert.ok(ignored.includes(pattern), `.dockerignore has ${pattern}`);
    }
    for (const needed of ['package-lock.json', 'realtime-server', 'shared', 'client', 'src']) {
      assert.ok(!ignored.includes(needed), `.dockerignore keeps ${needed}`);
    }
  });
});
