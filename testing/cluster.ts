// Several real instances in one test process, sharing a real PostgreSQL schema and a real Redis
// prefix of their own (both removed afterwards).
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import { pino } from 'pino';
import { openBus } from '../realtime-server/src/bus/index.ts';
import { openStore } from '../realtime-server/src/store/index.ts';
import { startServer, type TestServer } from './server.ts';
import { dropSchema, postgresUrl, redisUrl } from './services.ts';
import type { Client } from './workspace.ts';

export interface ClusterOptions {
  /** Redis to use (a private one for fault tests). */
  redis?: string;
  /** PostgreSQL to use (a proxy for fault tests). */
  database?: string;
  env?: Record<string, string>;
}

export class TestCluster {
  readonly schema = `test_cluster_${randomBytes(5).toString('hex')}`;
  readonly prefix = `test:${randomBytes(5).toString('hex')}:`;
  readonly secret = randomBytes(32).toString('base64url');
  readonly instances: TestServer[] = [];

  constructor(readonly options: ClusterOptions = {}) {}

  /** Starts one more instance (or restarts one on a given port). */
  async start(
    options: { port?: number; database?: string; env?: Record<string, string> } = {},
  ): Promise<TestServer> {
    const redis = this.options.redis ?? redisUrl();
    const store = await openStore({
      databaseUrl: options.database ?? this.options.database ?? postgresUrl(),
      dataDir: '/nonexistent',
      schema: this.schema,
    });
    const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
    const bus = await openBus({ redisUrl: redis, prefix: this.prefix, logger });
    const server = await startServer({
      store,
      bus,
      ...(options.port ? { port: options.port } : {}),
      env: {
        REDIS_URL: redis,
        REDIS_PREFIX: this.prefix,
        SECRET: this.secret,
        ...this.options.env,
        ...options.env,
      },
    });
    this.instances.push(server);
    return server;
  }

  async stop(server: TestServer): Promise<void> {
    await server.close();
    this.instances.splice(this.instances.indexOf(server), 1);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.instances.map((server) => server.close()));
    this.instances.length = 0;
    await dropSchema(this.schema);
  }
}

/**
 * Two instances on the shared PostgreSQL and Redis for the tests of one describe block (call it in
 * the block's body), and a list for the workspace sockets those tests open: all closed after the
 * block's last test. `env` adds to both instances' settings.
 */
export function withTwoInstances(env?: Record<string, string>): { cluster: TestCluster; sockets: Client[] } {
  const cluster = new TestCluster(env ? { env } : {});
  const sockets: Client[] = [];
  before(async () => {
    await cluster.start();
    await cluster.start();
  });
  after(async () => {
    for (const socket of sockets) socket.disconnect();
    await cluster.close();
  });
  return { cluster, sockets };
}
