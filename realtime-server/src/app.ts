// Builds one Tandem instance: the HTTP server with the REST API, the built client, the
// document channel and the workspace channel, over a Store and a Bus it is given. main.ts
// and the tests both start instances through createApp.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { createAdapter } from '@socket.io/redis-adapter';
import { CloseCode, ErrorCode, limits } from '@tandem/shared';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  LogController,
} from 'fastify';
import { type Logger, pino } from 'pino';
import { createClient } from 'redis';
import { SESSION_COOKIE, Sessions } from './auth/sessions.ts';
import type { Bus } from './bus/bus.ts';
import { reconnectDelay } from './bus/redis.ts';
import type { Config } from './config.ts';
import { DocumentChannel } from './docs/channel.ts';
import { Rooms } from './docs/rooms.ts';
import { toErrorBody } from './http/errors.ts';
import { registerRoutes } from './http/routes.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import type { Store } from './store/store.ts';
import { Workspace } from './workspace/workspace.ts';

async function attachRedisAdapter(workspace: Workspace, config: Config, log: Logger) {
  const publisher = createClient({ url: config.redisUrl!, socket: { reconnectStrategy: reconnectDelay } });
  const subscriber = publisher.duplicate();
  for (const client of [publisher, subscriber]) {
    client.on('error', (error: Error) =>
      log.debug({ err: error }, 'socket.io redis adapter connection error'),
    );
  }
  await Promise.all([publisher.connect(), subscriber.connect()]);
  workspace.io.adapter(createAdapter(publisher, subscriber, { key: `${config.redisPrefix}socket.io` }));
  return [publisher, subscriber];
}

export interface AppOptions {
  config: Config;
  store: Store;
  bus: Bus;
  logger?: Logger;
}

export interface TandemApp {
  http: FastifyInstance;
  rooms: Rooms;
  channel: DocumentChannel;
  workspace: Workspace;
  metrics: Metrics;
  instanceId: string;
  /** Listens on config.port (0 picks a free one); resolves to the base URL. */
  listen(): Promise<string>;
  /** Graceful stop: connections closed with 1001, pending edits stored, then everything closed. */
  close(): Promise<void>;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function createApp({ config, store, bus, logger }: AppOptions): Promise<TandemApp> {
  const log = logger ?? pino({ level: config.logLevel, base: { instance: config.instanceName } });
  const instanceId = `${config.instanceName}:${randomBytes(4).toString('hex')}`;
  const metrics = createMetrics();
  const sessions = new Sessions(store);

  const http = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    // One line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: limits.maxJsonBodyBytes,
    trustProxy: config.trustProxy,
    genReqId: () => randomBytes(8).toString('hex'),
    // A client that trickles its request (or never finishes an upgrade) is cut off.
    requestTimeout: Math.max(30_000, config.firstMessageDeadlineMs + 1000),
    // Node checks these timeouts only this often (30 s by default), which let a connection that
    // never finished its request (an upgrade, say) live up to 30 s past the deadline.
    http: { connectionsCheckingInterval: Math.min(1000, config.firstMessageDeadlineMs) },
    // A path fastify cannot route (bad percent-encoding, a parameter over maxParamLength) names no
    // board, link or member: 404 in the catalogue's shape (SPEC §5, §8), not fastify's own 400/414.
    frameworkErrors: (error, request, frameworkReply) => {
      const reply = frameworkReply as FastifyReply;
      const notFound = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const { status, body } = notFound
        ? {
            status: 404,
            body: { error: { code: ErrorCode.NOT_FOUND, message: 'No such page or API call.' } },
          }
        : toErrorBody(error, request.id);
      if (status >= 500) request.log.error({ err: error, requestId: request.id }, 'request failed');
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Cache-Control', 'no-store');
      return reply.code(status).send(body);
    },
  });
  http.server.headersTimeout = config.firstMessageDeadlineMs;
  // A call with no body (DELETE, logout…) may still say it is JSON; only a non-empty body is parsed.
  http.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('malformed JSON'), { statusCode: 400 }), undefined);
    }
  });
  await http.register(fastifyCookie);

  const rooms = new Rooms({ store, bus, config, log, metrics, instanceId });
  const workspace = new Workspace(http.server, { config, store, sessions, bus, rooms, log, instanceId });
  const channel = new DocumentChannel({
    config,
    store,
    sessions,
    rooms,
    metrics,
    log,
    onBoardUsersChanged: (boardId) => workspace.boardUsersChanged(boardId),
  });

  http.decorateRequest('user', null);
  http.addHook('onRequest', async (request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'same-origin');
    if (!request.url.startsWith('/api/')) return;
    reply.header('Cache-Control', 'no-store');
    const origin = request.headers.origin;
    if (STATE_CHANGING.has(request.method) && origin !== undefined && origin !== config.publicOrigin) {
      return reply.code(403).send({
        error: { code: ErrorCode.FORBIDDEN, message: 'Requests from another site are not allowed.' },
      });
    }
    request.user = await sessions.resolve(request.cookies[SESSION_COOKIE]);
  });
  http.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url.split('?')[0],
        status: reply.statusCode,
        ms: reply.elapsedTime,
      },
      'request',
    );
  });
  http.setErrorHandler((error, request, reply) => {
    const { status, body } = toErrorBody(error, request.id);
    if (status >= 500) request.log.error({ err: error, requestId: request.id }, 'request failed');
    if (status === 429 && reply.getHeader('Retry-After') === undefined) reply.header('Retry-After', '60');
    return reply.code(status).send(body);
  });

  // `instance` names the process that answered, so an operator (or a test) can see which
  // instance behind a load balancer a connection reached.
  http.get('/healthz', async () => ({ status: 'ok', instance: config.instanceName }));
  http.get('/readyz', async (_request, reply) => {
    const storeOk = await store.ping().then(
      () => true,
      () => false,
    );
    const busOk = bus.isHealthy();
    // A stopping instance tells the balancer at once, so new clients go elsewhere.
    const ready = storeOk && busOk && !rooms.stopping;
    return reply.code(ready ? 200 : 503).send({
      status: rooms.stopping ? 'stopping' : ready ? 'ready' : 'unavailable',
      store: storeOk ? 'ok' : 'unreachable',
      bus: busOk ? 'ok' : 'unreachable',
    });
  });
  http.get('/metrics', async (_request, reply) => {
    reply.header('Content-Type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });

  registerRoutes(http, { config, store, sessions, rooms, live: workspace });

  const clientDir = config.clientDir;
  const hasClient = clientDir !== null && existsSync(join(clientDir, 'index.html'));
  if (hasClient) {
    await http.register(fastifyStatic, { root: clientDir, wildcard: false, index: 'index.html' });
  }
  http.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || request.method !== 'GET') {
      return reply.code(404).send({ error: { code: ErrorCode.NOT_FOUND, message: 'No such API call.' } });
    }
    if (!hasClient) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The Tandem client is not built. Run `npm run build` (or `npm start`, which builds it).');
    }
    // Client routes (/boards, /b/:id, /join/:token …) are the single-page app's to render.
    reply.header('Cache-Control', 'no-cache');
    return reply.sendFile('index.html');
  });

  http.server.on('upgrade', (request, socket, head) => {
    if (channel.handleUpgrade(request, socket, head)) return;
    if (request.url?.startsWith('/socket.io/')) return;
    socket.destroy();
  });

  // With Redis, socket.io events reach a user on whichever instance holds their socket.
  const adapterClients = config.redisUrl ? await attachRedisAdapter(workspace, config, log) : [];

  await rooms.start();
  await workspace.start(channel);

  let closing: Promise<void> | null = null;
  return {
    http,
    rooms,
    channel,
    workspace,
    metrics,
    instanceId,
    async listen() {
      await http.listen({ port: config.port, host: config.host });
      const address = http.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      return `http://127.0.0.1:${port}`;
    },
    close() {
      closing ??= (async () => {
        await rooms.closeAll(CloseCode.GOING_AWAY, 'server going away');
        channel.close();
        await workspace.close();
        await Promise.allSettled(adapterClients.map((client) => client.quit()));
        await http.close();
        await bus.close();
        await store.close();
      })();
      return closing;
    },
  };
}
