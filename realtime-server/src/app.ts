// Builds one Tandem instance over a Store and a Bus it is given: the HTTP server (http/server.ts)
// with one fastify plugin per REST resource, the built client, the document gateway (/yjs, Yjs
// over ws) and the workspace (/socket.io, live events). main.ts and the tests both start
// instances through createApp.
import { randomBytes } from 'node:crypto';
import { CloseCode, limits as sharedLimits, WORKSPACE_PATH } from '@tandem/shared';
import type { FastifyInstance } from 'fastify';
import { type Logger, pino } from 'pino';
import { AssetCleanup } from './assets/cleanup.ts';
import { openAssetStore } from './assets/index.ts';
import type { AssetStore } from './assets/store.ts';
import { httpLimits, limitBudgets } from './auth/rateLimit.ts';
import { Sessions } from './auth/sessions.ts';
import type { Bus } from './bus/bus.ts';
import { CommentEvents } from './comments/events.ts';
import type { Config } from './config.ts';
import { ControlChannel } from './documents/control.ts';
import { DocumentGateway, refuseUpgrade } from './documents/gateway.ts';
import { Rooms } from './documents/rooms.ts';
import { WorkerCompute } from './history/compute.ts';
import { LiveHistory } from './history/live.ts';
import { HistoryRecorder } from './history/recorder.ts';
import { Versions } from './history/versions.ts';
import { assetRoutes } from './http/assets.ts';
import { authRoutes } from './http/auth.ts';
import { boardRoutes } from './http/boards.ts';
import { serveClient } from './http/client.ts';
import { commentRoutes } from './http/comments.ts';
import { contentRoutes } from './http/content.ts';
import type { HttpDeps, ResourcePlugin } from './http/deps.ts';
import { exportRoutes } from './http/export.ts';
import { healthRoutes } from './http/health.ts';
import { historyRoutes } from './http/history.ts';
import { integrationRoutes } from './http/integrations.ts';
import { linkRoutes } from './http/links.ts';
import { mcpRoutes } from './http/mcp.ts';
import { memberRoutes } from './http/members.ts';
import { publicRoutes } from './http/public.ts';
import { searchRoutes } from './http/search.ts';
import { createHttpServer } from './http/server.ts';
import { templateRoutes } from './http/templates.ts';
import { thumbnailRoutes } from './http/thumbnails.ts';
import { timeRoutes } from './http/time.ts';
import { votesRoutes } from './http/votes.ts';
import { webhookRoutes } from './http/webhooks.ts';
import { BoardEvents } from './integrations/events.ts';
import { Integrations } from './integrations/integrations.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import type { Store } from './store/store.ts';
import { Webhooks } from './webhooks/webhooks.ts';
import { Workspace } from './workspace/workspace.ts';

/** The REST API, one plugin per resource (docs/api.md §7). A new resource is a new entry here. */
const resources: ResourcePlugin[] = [
  healthRoutes,
  authRoutes,
  boardRoutes,
  memberRoutes,
  linkRoutes,
  publicRoutes,
  exportRoutes,
  searchRoutes,
  assetRoutes,
  votesRoutes,
  commentRoutes,
  timeRoutes,
  historyRoutes,
  thumbnailRoutes,
  integrationRoutes,
  contentRoutes,
  mcpRoutes,
  templateRoutes,
  webhookRoutes,
];

/** A graceful stop ended with edits of these boards only in memory (now lost). */
export class UnstoredEditsError extends Error {
  constructor(readonly boardIds: string[]) {
    super(`edits of ${boardIds.length} board(s) could not be stored before stopping`);
    this.name = 'UnstoredEditsError';
  }
}

export interface AppOptions {
  config: Config;
  store: Store;
  bus: Bus;
  /** Where images live; by default the one that follows the Store (assets/index.ts). */
  assets?: AssetStore;
  logger?: Logger;
}

export interface TandemApp {
  http: FastifyInstance;
  rooms: Rooms;
  gateway: DocumentGateway;
  workspace: Workspace;
  /** Every comment written on this instance (the seam for webhooks' comment.created). */
  comments: CommentEvents;
  assets: AssetStore;
  assetCleanup: AssetCleanup;
  metrics: Metrics;
  /** Webhooks: events queued as deliveries in the Store, sent from whichever instance is alive. */
  webhooks: Webhooks;
  instanceId: string;
  /** Listens on config.port (0 picks a free one); resolves to the base URL. */
  listen(): Promise<string>;
  /**
   * Graceful stop: connections closed with 1001, pending edits stored (retried for up to
   * SHUTDOWN_TIMEOUT_MS), then everything closed. Rejects with UnstoredEditsError when some
   * board's edits could not be stored in that time.
   */
  close(): Promise<void>;
}

export async function createApp({
  config,
  store,
  bus,
  assets: givenAssets,
  logger,
}: AppOptions): Promise<TandemApp> {
  const log = logger ?? pino({ level: config.logLevel, base: { instance: config.instanceName } });
  const instanceId = `${config.instanceName}:${randomBytes(4).toString('hex')}`;
  const metrics = createMetrics();
  const sessions = new Sessions(store);
  const assets = givenAssets ?? openAssetStore(store, config.dataDir);

  // `integrations` is defined below, once the rooms and the workspace exist; keys are resolved
  // only once requests arrive.
  const http = await createHttpServer(config, log, sessions, (key) => integrations.resolve(key));
  const webhooks = new Webhooks({
    store,
    config,
    log,
    instanceId,
    // The owner's dashboards show a board with a webhook turned off; told live, not on reload.
    // `workspace` is defined below; this runs only once a webhook changes.
    onHealthChanged: (ownerId, health) => workspace.webhookHealth(ownerId, health),
  });
  const versions = new Versions(store, {
    historyDays: config.historyDays,
    onRecorded: (version) =>
      webhooks.emit(version.boardId, 'version.created', {
        versionId: version.id,
        kind: version.kind,
        label: version.label,
        createdAt: version.createdAt.toISOString(),
        createdBy: version.createdBy,
        authors: version.authors,
      }),
  });
  const recorder: HistoryRecorder = new HistoryRecorder(
    versions,
    config.historyIntervalMs,
    log,
    (boardId): Promise<void> =>
      // `rooms` is defined below; this runs only once an edit's timer fires.
      rooms.get(boardId)?.whenStored() ?? Promise.resolve(),
  );
  // Compaction merges get a worker of their own: behind a queue of exports and version
  // computations (any viewer can ask for those), a merge would hold up the board's next writes
  // and so everyone's "All changes saved".
  const merges = new WorkerCompute();
  const rooms: Rooms = new Rooms({
    store,
    bus,
    config,
    log,
    metrics,
    instanceId,
    history: recorder,
    mergeOffThread: (parts) => merges.merge(parts),
    changes: (boardId, pageId, userId, shapeIds) => webhooks.changed(boardId, pageId, userId, shapeIds),
  });
  const history = new LiveHistory(rooms, versions);
  const control = new ControlChannel({ bus, rooms, instanceId });
  const workspace = new Workspace(http.server, {
    config,
    store,
    sessions,
    bus,
    rooms,
    control,
    log,
    instanceId,
  });
  const gateway = new DocumentGateway({
    config,
    store,
    sessions,
    rooms,
    metrics,
    log,
    onBoardUsersChanged: (boardId) => workspace.boardUsersChanged(boardId),
  });
  const integrations: Integrations = new Integrations({
    store,
    rooms,
    live: workspace,
    maxDocBytes: config.maxDocBytes,
    roomLingerMs: config.apiRoomLingerMs,
  });
  // Revocations and logouts published while the bus was down were lost: check every connection
  // and every dashboard socket now.
  bus.onReconnect(() => {
    void gateway.checkAccess(true);
    void workspace
      .checkSessions()
      .catch((error: unknown) => log.warn({ err: error }, 'checking dashboard sessions failed'));
  });

  const events = new BoardEvents({ store, rooms });
  const comments = new CommentEvents(log);
  comments.onCreated(({ boardId, thread, comment }) =>
    webhooks.emit(boardId, 'comment.created', {
      threadId: thread.id,
      anchor: thread.anchor,
      comment: {
        id: comment.id,
        body: comment.body,
        createdBy: comment.createdBy,
        createdAt: comment.createdAt,
      },
    }),
  );
  const deps: HttpDeps = {
    config,
    store,
    sessions,
    rooms,
    bus,
    assets,
    metrics,
    live: workspace,
    history,
    integrations,
    events,
    comments,
    webhooks,
    // Every limit one count across the cluster (in Redis when there is one), content writes one
    // count for both doors (REST and MCP, SPEC §15).
    limits: httpLimits(
      limitBudgets({ ...config, boardSearchesPerMinute: sharedLimits.boardSearchesPerMinute }),
      bus.counter?.bind(bus) ?? null,
      (error, limit) =>
        log.warn(
          { err: error, limit },
          'rate limits: redis unreachable; counting on this instance alone until it answers',
        ),
    ),
  };
  for (const resource of resources) await http.register(resource, deps);
  await serveClient(http, config.clientDir);

  http.server.on('upgrade', (request, socket, head) => {
    try {
      if (gateway.handleUpgrade(request, socket, head)) return;
      if (request.url?.startsWith(`${WORKSPACE_PATH}/`)) return;
      refuseUpgrade(socket, 404, 'Not Found');
    } catch (error) {
      // Whatever an upgrade trips over is that request's problem: a throw escaping this event
      // would stop the process and every board on it.
      log.warn({ err: error }, 'upgrade request failed');
      refuseUpgrade(socket, 400, 'Bad Request');
    }
  });

  // With Redis, socket.io events reach a user on whichever instance holds their socket: the Bus
  // implementation provides the adapter (none for the in-process bus).
  const adapter = await bus.socketIoAdapter?.();
  if (adapter) workspace.io.adapter(adapter.factory);

  await rooms.start();
  const assetCleanup = new AssetCleanup({
    assets,
    store,
    rooms,
    historyDays: config.historyDays,
    log,
    // Images that a kept version shows stay: restoring that version must bring them back.
    keptReferences: (boardId) => store.versionAssets(boardId),
  });
  assetCleanup.start();
  await control.start({
    closeSessionConnections: (sessionHash) => gateway.closeSession(sessionHash),
    disconnectSessionSockets: (sessionHash) => workspace.disconnectSession(sessionHash),
  });
  await workspace.start(gateway);
  webhooks.start();

  let closing: Promise<void> | null = null;
  return {
    http,
    rooms,
    gateway,
    workspace,
    comments,
    assets,
    assetCleanup,
    metrics,
    webhooks,
    instanceId,
    async listen() {
      await http.listen({ port: config.port, host: config.host });
      const address = http.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      if (config.publicOriginFromListen) config.publicOrigin = listenOrigin(config.host, port);
      return `http://127.0.0.1:${port}`;
    },
    close() {
      closing ??= (async () => {
        // Waiting long-polls answer now rather than hold the HTTP server open for up to 25 s.
        events.close();
        await assetCleanup.stop();
        const unstored = await rooms.closeAll(
          CloseCode.GOING_AWAY,
          'server going away',
          config.shutdownTimeoutMs,
        );
        gateway.close();
        // After the rooms: the changes their last edits noted are written for board.updated.
        await webhooks.stop();
        await control.close();
        await workspace.close();
        await adapter?.close();
        await http.close();
        await bus.close();
        recorder.stop();
        await versions.close();
        await merges.close();
        await assets.close();
        await store.close().catch((error: unknown) => log.warn({ err: error }, 'closing the store failed'));
        if (unstored.length > 0) throw new UnstoredEditsError(unstored);
      })();
      return closing;
    },
  };
}

/** The origin of a server bound to `host`:`port`, as a browser on this machine would write it. */
function listenOrigin(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::') return `http://localhost:${port}`;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}
