// The HTTP server every REST plugin runs in: fastify with its limits and timeouts, the security
// headers, the cross-site write check, the session lookup for /api/, one log line per request,
// and the one error mapper (errors.ts) for everything thrown anywhere, framework errors included.
import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import { CONTENT_API_PREFIX, ErrorCode, limits } from '@tandem/shared';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Logger } from 'pino';
import { SESSION_COOKIE, type Sessions } from '../auth/sessions.ts';
import type { Config } from '../config.ts';
import type { KeyCaller } from '../integrations/integrations.ts';
import { ApiError, toErrorBody } from './errors.ts';
import { originRule } from './origin.ts';

/** Resolves an integration's key (docs/api.md §15) to its caller; null for a wrong or revoked key. */
export type ResolveKey = (key: string) => Promise<KeyCaller | null>;

/** `/embed/:token` (with any query): the one page that may be shown in another site's frame. */
export const isEmbedPage = (url: string): boolean => /^\/embed\/[^/?#]+(?:[?#]|$)/.test(url);

/** The key of `Authorization: Bearer <key>`, or undefined when the header is absent or another scheme. */
export function bearerKey(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Where an integration's key is accepted: the content API, and the access token for a document
 * connection (a script with WebsocketProvider). Anywhere else a key is no credential: a bot cannot
 * rename the board or list its members with it.
 */
const acceptsKey = (path: string): boolean =>
  path.startsWith(`${CONTENT_API_PREFIX}/`) || /^\/api\/boards\/[^/]+\/token$/.test(path);

export const badKey = (): ApiError =>
  new ApiError(ErrorCode.AUTH_REQUIRED, 'This key is not valid, or it was revoked.');

/** What balancers and Prometheus poll: logged at debug while they answer well. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A request refused while its body is still arriving (413 over bodyLimit, a bad Content-Type…)
 * is answered only once the rest of the body has been read and dropped, up to this many bytes
 * and this long. Answering at once and closing (fastify's way: `Connection: close`) resets a
 * connection the client is still writing to, and a client that writes before it reads (Node's
 * fetch) sees EPIPE instead of the answer. Past either bound the answer goes out and the
 * connection is closed: nobody is owed an unbounded drain.
 */
export const REFUSED_BODY_DRAIN_BYTES = 16 * 1024 * 1024;
export const REFUSED_BODY_DRAIN_MS = 10_000;

/** Reads and drops what is left of a request body, within the bounds; true when it all arrived. */
function drainUnread(request: FastifyRequest): Promise<boolean> {
  const raw = request.raw;
  if (raw.complete) return Promise.resolve(true);
  if (raw.destroyed) return Promise.resolve(false);
  // A declared length past the bound is not worth waiting for.
  if (Number(request.headers['content-length']) > REFUSED_BODY_DRAIN_BYTES) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      raw.off('error', onClose);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > REFUSED_BODY_DRAIN_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(raw.complete);
    const timer = setTimeout(() => finish(false), REFUSED_BODY_DRAIN_MS);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('close', onClose);
    raw.once('error', onClose);
    raw.resume();
  });
}

/**
 * Routes check their input with the shared zod schemas (request.ts) and answer with JSON.stringify,
 * so fastify's JSON-schema compilers are never used. Given these instead, fastify does not load
 * its defaults (ajv with its formats, fast-json-stringify and their resolvers) at start; a route
 * declaring a JSON schema fails loudly when registered instead of being compiled silently.
 */
const noSchemaCompilers = {
  buildValidator: () => () => {
    throw new Error('JSON-schema validation is not used here: check input with the shared zod schemas');
  },
  buildSerializer: () => () => {
    throw new Error('JSON-schema serialization is not used here: answer with plain objects');
  },
};

/** Answers any thrown value in the catalogue's shape (docs/api.md §8); a 5xx is logged with its request id. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const { status, body } = toErrorBody(error, request.id);
  if (status >= 500) request.log.error({ err: error, requestId: request.id }, 'request failed');
  if (status === 429 && reply.getHeader('Retry-After') === undefined) reply.header('Retry-After', '60');
  return reply.code(status).send(body);
}

export async function createHttpServer(
  config: Config,
  log: Logger,
  sessions: Sessions,
  resolveKey: ResolveKey = async () => null,
): Promise<FastifyInstance> {
  const origins = originRule(config);
  const http = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    schemaController: { compilersFactory: noSchemaCompilers },
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
    // board, link or member: 404 in the catalogue's shape (docs/api.md §5, §8), not fastify's own 400/414.
    frameworkErrors: (error, request, frameworkReply) => {
      const reply = frameworkReply as FastifyReply;
      const unroutable = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      // These run before the onRequest hook that sets the headers of every answer.
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Cache-Control', 'no-store');
      return sendError(
        request,
        reply,
        unroutable ? new ApiError(ErrorCode.NOT_FOUND, 'No such page or API call.') : error,
      );
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

  http.decorateRequest('user', null);
  http.decorateRequest('integration', null);
  http.addHook('onRequest', async (request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    // Only the embed page may be framed, and only by EMBED_ORIGINS (docs/api.md §16).
    if (isEmbedPage(request.url))
      reply.header('Content-Security-Policy', `frame-ancestors ${config.embedOrigins}`);
    else reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'same-origin');
    if (!request.url.startsWith('/api/')) return;
    reply.header('Cache-Control', 'no-store');
    const key = bearerKey(request.headers.authorization);
    if (key !== undefined && acceptsKey(request.url.split('?')[0] ?? '')) {
      // A key is sent by a script, never attached by a browser on its own: no cross-site write is
      // possible with it, so neither the Origin check nor the cookie applies.
      const caller = await resolveKey(key);
      if (!caller) throw badKey();
      request.user = caller.user;
      request.integration = caller.integration;
      return;
    }
    if (STATE_CHANGING.has(request.method) && !origins.allows(request.headers.origin, request.headers.host)) {
      throw new ApiError(ErrorCode.FORBIDDEN, origins.refusal);
    }
    request.user = await sessions.resolve(request.cookies[SESSION_COOKIE]);
  });
  http.addHook('onResponse', async (request, reply) => {
    // Balancers poll /healthz and /readyz every few seconds on every instance, and Prometheus
    // scrapes /metrics: at info they buried everything else. A probe that fails stays at info.
    const url = request.url.split('?')[0] ?? '';
    const level = reply.statusCode < 400 && PROBES.has(url) ? 'debug' : 'info';
    request.log[level](
      {
        method: request.method,
        url,
        status: reply.statusCode,
        ms: reply.elapsedTime,
      },
      'request',
    );
  });
  http.setErrorHandler(async (error, request, reply) => {
    // Bodies refused unread (or half read) are drained first, so the answer reaches the client.
    if (!(await drainUnread(request))) reply.header('Connection', 'close');
    return sendError(request, reply, error);
  });
  return http;
}
