// The document gateway: `/yjs/:boardId` over WebSockets, wiring the pieces a connection goes
// through. An upgrade goes through three steps:
//   authorize (admission.ts: credential, board, membership) → admit (admission.ts: the
//   per-instance limits) → attach (here: a SocketPeer in its Room, messages flowing).
// Only the Origin is checked at the HTTP upgrade itself (upgrade.ts); the credential is checked
// once the socket is open. The rest is each its own piece: what arrives before attach
// (earlyMessages.ts), the connection as a Room sees it (socketPeer.ts, writing frames built once:
// framing.ts), the process-wide bound on queued sends (sendQueues.ts), pacing (pacing.ts) and the
// periodic access re-check (accessCheck.ts). What stays here: the timers that sweep slow readers
// and dead connections, and the bookkeeping of which connections exist.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  CloseCode,
  closeReason,
  docKey,
  isPageId,
  limits,
  MAIN_PAGE_ID,
  type PresenceUser,
  pageOf,
} from '@tandem/shared';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Sessions } from '../auth/sessions.ts';
import type { Config } from '../config.ts';
import { type OriginRule, originRule } from '../http/origin.ts';
import type { Metrics } from '../metrics.ts';
import type { Store } from '../store/store.ts';
import { AccessCheck } from './accessCheck.ts';
import { authorize, ConnectionLimits, type Grant, type Refusal } from './admission.ts';
import { EarlyMessages } from './earlyMessages.ts';
import { closeSocket, onDrain } from './framing.ts';
import { Pacer, type PacerHooks, type PacerOptions } from './pacing.ts';
import type { Room } from './room.ts';
import { type Rooms, ShuttingDownError } from './rooms.ts';
import { SendQueues } from './sendQueues.ts';
import { SocketPeer } from './socketPeer.ts';
import { parseDocumentTarget, refuseUpgrade } from './upgrade.ts';

export { type DocumentTarget, parseDocumentTarget, refuseUpgrade } from './upgrade.ts';

/** A send buffer over this, seen at SLOW_SWEEPS sweeps in a row, closes the connection (1013). */
const SLOW_BUFFER_BYTES = 4 * 1024 * 1024;
const SLOW_SWEEPS = 5;
const SWEEP_MS = 1000;
/** Connections that answer no ping for this long are dropped. */
const PING_MS = 30_000;

export interface GatewayDeps {
  /** Called when the set of local users on a board changes (for the dashboard's live presence). */
  onBoardUsersChanged?: (boardId: string) => void;
  config: Config;
  store: Store;
  sessions: Sessions;
  rooms: Rooms;
  metrics: Metrics;
  log: Logger;
}

export class DocumentGateway {
  private readonly wss: WebSocketServer;
  private readonly peers = new Set<SocketPeer>();
  private readonly limits: ConnectionLimits;
  readonly queues: SendQueues;
  private readonly access: AccessCheck;
  private nextPeerId = 1;
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly pingTimer: NodeJS.Timeout;
  /** One listener for every socket's errors, rather than a closure per connection. */
  private readonly onSocketError = (error: Error) => this.deps.log.debug({ err: error }, 'websocket error');
  private readonly pacerOptions: PacerOptions;
  /** What every connection's pacer calls, with the connection: shared, not closures per connection. */
  private readonly pacing: PacerHooks<SocketPeer> = {
    handle: (peer, data) => {
      const room = peer.room;
      if (peer.isClosed || !room) return;
      try {
        room.receive(peer, data);
      } catch (error) {
        // A throw here would escape ws's 'message' event (or the pacer's timer) and stop the
        // whole process: whatever one connection's message trips over closes that connection only.
        this.deps.log.error(
          { err: error, boardId: peer.boardId, peer: peer.id },
          'handling a document message failed',
        );
        peer.close(CloseCode.INTERNAL, 'internal error');
      }
    },
    abuse: (peer) => {
      this.deps.log.warn(
        { boardId: peer.boardId, peer: peer.id, userId: peer.userId },
        'connection far over the message rate for long: closing it (4429)',
      );
      peer.close(CloseCode.TOO_MANY_MESSAGES, closeReason.TOO_MANY_MESSAGES);
    },
    paused: () => this.deps.metrics.throttled.inc(),
  };

  private readonly origins: OriginRule;

  constructor(private readonly deps: GatewayDeps) {
    const { config, log, metrics, store } = deps;
    this.origins = originRule(config);
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: config.maxMessageBytes,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.pacerOptions = {
      rate: config.messagesPerSecond,
      burst: config.messageBurst,
      abuseRateFactor: limits.abuseRateFactor,
      abuseWindowMs: limits.abuseWindowMs,
    };
    this.limits = new ConnectionLimits({
      connectionsPerBoard: config.maxConnectionsPerBoard,
      boardsOpenPerUser: config.maxBoardsOpenPerUser,
    });
    this.queues = new SendQueues(
      config.maxQueuedBytes,
      metrics,
      () => this.peers,
      (peer, total) => {
        const { boardId, id, counted } = peer as SocketPeer;
        log.warn(
          { boardId, peer: id, queued: counted, total },
          'queued sends over MAX_QUEUED_BYTES: cutting off the slowest connection',
        );
      },
    );
    this.access = new AccessCheck(
      store,
      log,
      () => [...this.peers].filter((peer) => peer.room !== null && !peer.isClosed),
      config.accessCheckMs,
    );
    this.sweepTimer = setInterval(() => this.sweepSlowPeers(), SWEEP_MS);
    this.sweepTimer.unref();
    this.pingTimer = setInterval(() => this.pingPeers(), PING_MS);
    this.pingTimer.unref();
  }

  get connectionCount(): number {
    return this.peers.size;
  }

  /** Handles an HTTP upgrade for `/yjs/…`; returns false when the path is not ours. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const target = parseDocumentTarget(request.url);
    if (target === 'not-ours') return false;
    if (target === 'malformed') {
      // Bad percent-encoding or an unparsable absolute-form target names no board: refused
      // before the handshake, never thrown (a throw here would stop the whole process).
      refuseUpgrade(socket, 400, 'Bad Request');
      return true;
    }
    const origin = request.headers.origin;
    if (!this.origins.allows(origin, request.headers.host)) {
      // Refused before anything is loaded: a page on another site must not use the visitor's cookie.
      refuseUpgrade(socket, 403, 'Forbidden');
      this.deps.log.info({ origin }, 'websocket upgrade refused: foreign origin');
      return true;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      void this.accept(ws, request, target.boardId, target.pageId, target.token);
    });
    return true;
  }

  /** authorize → admit → attach; whatever fails closes the socket with the code for it. */
  private async accept(
    ws: WebSocket,
    request: IncomingMessage,
    boardId: string,
    pageId: string,
    token: string | null,
  ) {
    const { config, log, metrics, store, sessions } = this.deps;
    ws.on('error', this.onSocketError);
    const early = new EarlyMessages(ws);
    const refuse = ({ code, reason }: Refusal) => {
      metrics.closes.inc({ code: String(code) });
      log.info({ boardId, code, reason }, 'document connection refused');
      closeSocket(ws, code, reason);
    };

    // Access is the board's, whichever page is asked for (docs/api.md §17).
    if (!isPageId(pageId)) return refuse({ code: CloseCode.NO_SUCH_BOARD, reason: 'no such page' });
    let grant: Grant;
    try {
      const authorization = await authorize({ secret: config.secret, store, sessions }, boardId, {
        cookieHeader: request.headers.cookie,
        token,
      });
      if (!authorization.ok) return refuse(authorization.refusal);
      grant = authorization.grant;
    } catch (error) {
      log.error({ err: error, boardId }, 'authenticating a document connection failed');
      return refuse({ code: CloseCode.INTERNAL, reason: 'internal error' });
    }
    if (early.closed) return;

    const refusal = this.limits.check(boardId, grant.user.id);
    if (refusal) return refuse(refusal);

    // A page id the board does not list names no page (docs/api.md §17): refused like a board that
    // does not exist, before its Room loads, so no stored document is ever made for it.
    if (pageId !== MAIN_PAGE_ID) {
      let listed: boolean;
      try {
        listed = await this.deps.rooms.pageListed(boardId, pageId);
      } catch (error) {
        if (error instanceof ShuttingDownError)
          return refuse({ code: CloseCode.GOING_AWAY, reason: 'server going away' });
        log.error({ err: error, boardId }, 'reading the page list failed');
        return refuse({ code: CloseCode.INTERNAL, reason: 'internal error' });
      }
      if (early.closed) return;
      if (!listed) return refuse({ code: CloseCode.NO_SUCH_BOARD, reason: 'no such page' });
    }

    await this.attach(ws, docKey(boardId, pageId), grant, early);
  }

  /** Step 3: a Peer counted against the limits, in its Room, with the messages it sent so far. */
  private async attach(ws: WebSocket, key: string, grant: Grant, early: EarlyMessages): Promise<void> {
    const { config, metrics } = this.deps;
    const { boardId } = pageOf(key);
    const peer = new SocketPeer(
      this.nextPeerId++,
      key,
      grant,
      ws,
      metrics,
      config.maxDocBytes + 2 * SLOW_BUFFER_BYTES,
      this.queues,
    );
    // A socket that drained is counted again at once (it may have been holding the total up).
    onDrain(ws, () => peer.recount());
    this.peers.add(peer);
    this.limits.add(boardId, peer.userId);
    metrics.connections.set(this.peers.size);
    // The one 'close' listener of an attached connection (ws emits 'close' once): everything the
    // connection holds (its count, its room, its pacer, its expiry timer) ends in detach. One
    // handler instead of one per piece: each `once` costs a wrapper, a bound function and a
    // closure for as long as the connection lives (docs/benchmarks.md, memory per idle connection).
    ws.on('close', () => this.detach(peer, boardId));

    const room = await this.joinRoom(peer, early);
    if (!room) return;
    this.deps.onBoardUsersChanged?.(boardId);
    this.flow(peer, early.drain());
    if (grant.expiresAt !== null) {
      peer.expiry = setTimeout(
        () => peer.close(CloseCode.NOT_AUTHENTICATED, 'access token expired'),
        Math.max(0, grant.expiresAt - Date.now()),
      );
      peer.expiry.unref();
    }
  }

  /** Loads the board, checks access once more, and joins; null (the peer closed) if any fails. */
  private async joinRoom(peer: SocketPeer, early: EarlyMessages): Promise<Room | null> {
    const { log } = this.deps;
    const { boardId, key } = peer;
    let room: Room;
    // Held open from the load to the join (or to giving up): it cannot unload in between.
    let release: () => void;
    try {
      ({ room, release } = await this.deps.rooms.acquire(key));
    } catch (error) {
      if (error instanceof ShuttingDownError) {
        peer.close(CloseCode.GOING_AWAY, 'server going away');
        return null;
      }
      log.error({ err: error, boardId }, 'board failed to load');
      peer.close(CloseCode.INTERNAL, 'board failed to load');
      return null;
    }
    // Access is checked again now that the connection is admitted: a revocation that committed
    // while it was being authorized, or while the board loaded, is seen here (or by the next
    // periodic check, which compares versions), never missed.
    try {
      await this.access.check([peer]);
    } catch (error) {
      log.error({ err: error, boardId }, 'checking access at admission failed');
      peer.close(CloseCode.INTERNAL, 'internal error');
    }
    if (early.closed || peer.isClosed) {
      release();
      return null;
    }
    peer.room = room;
    room.join(peer);
    release();
    return room;
  }

  /** Messages flow from the socket to the room, paced; the ones kept before attach first. */
  private flow(peer: SocketPeer, kept: Buffer[]): void {
    const { metrics } = this.deps;
    const { ws } = peer;
    // Over the message rate a connection is slowed down (pacing.ts); 4429 only for abuse.
    const pacer = new Pacer(ws, this.pacerOptions, this.pacing, peer);
    peer.pacer = pacer;
    const onMessage = (data: Buffer, isBinary: boolean) => {
      metrics.traffic.messagesIn += 1;
      metrics.traffic.bytesIn += data.length;
      if (!isBinary) return peer.close(CloseCode.UNDECODABLE, 'text frames are not accepted');
      pacer.receive(data);
    };
    ws.on('message', onMessage);
    ws.on('pong', () => {
      peer.alive = true;
    });
    for (const data of kept) onMessage(data, true);
  }

  private detach(peer: SocketPeer, boardId: string): void {
    peer.pacer?.stop();
    if (peer.expiry) clearTimeout(peer.expiry);
    peer.expiry = null;
    this.peers.delete(peer);
    peer.uncount();
    this.limits.remove(boardId, peer.userId);
    this.deps.metrics.connections.set(this.peers.size);
    const room = peer.room;
    if (!room) return;
    peer.room = null;
    room.leave(peer);
    this.deps.rooms.release(room);
    this.deps.onBoardUsersChanged?.(boardId);
  }

  /** Distinct users connected to a board on this instance. */
  localUsers(boardId: string): PresenceUser[] {
    const room = this.deps.rooms.get(boardId);
    if (!room) return [];
    const users = new Map<string, PresenceUser>();
    for (const peer of room.peers)
      if (peer instanceof SocketPeer && !peer.anonymous) users.set(peer.user.id, peer.user);
    return [...users.values()];
  }

  /** Boards with at least one connection on this instance. */
  localBoards(): string[] {
    const boards = new Set<string>();
    for (const peer of this.peers) if (peer.room) boards.add(peer.room.boardId);
    return [...boards];
  }

  /**
   * Compares every connection's access with the Store now (accessCheck.ts); `force` reads every
   * membership again (after a bus outage). Also runs every ACCESS_CHECK_MS by itself.
   */
  checkAccess(force = false): Promise<void> {
    return this.access.run(force);
  }

  /** Closes the document connections opened with a session that has just ended (logout). */
  closeSession(sessionHash: string): void {
    for (const peer of this.peers)
      if (peer.sessionHash === sessionHash) peer.close(CloseCode.NOT_AUTHENTICATED, 'signed out');
  }

  private sweepSlowPeers(): void {
    for (const peer of this.peers) {
      peer.recount();
      if (peer.ws.bufferedAmount > SLOW_BUFFER_BYTES) peer.slowSweeps += 1;
      else peer.slowSweeps = 0;
      if (peer.slowSweeps >= SLOW_SWEEPS) peer.close(CloseCode.TOO_SLOW, 'connection too slow to keep up');
    }
  }

  private pingPeers(): void {
    for (const peer of this.peers) {
      // A connection we stopped reading cannot show us its pong: it is slow on our account.
      if (peer.pacer?.throttled) {
        peer.alive = true;
        continue;
      }
      if (!peer.alive) {
        peer.ws.terminate();
        continue;
      }
      peer.alive = false;
      peer.ws.ping();
    }
  }

  close(): void {
    clearInterval(this.sweepTimer);
    clearInterval(this.pingTimer);
    this.access.close();
    this.wss.close();
  }
}
