// The document gateway: `/yjs/:boardId` over WebSockets. This is the thin adapter between the
// `ws` library and a Room. An upgrade goes through three steps, each its own function:
//   authorize (admission.ts: credential, board, membership) → admit (admission.ts: the
//   per-instance limits) → attach (here: a Peer in its Room, messages flowing).
// Only the Origin is checked at the HTTP upgrade itself; the credential is checked once the socket is open.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { CloseCode, closeReason, DOCUMENT_PATH, limits, type PresenceUser, type Role } from '@tandem/shared';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import { connectionRole } from '../auth/access.ts';
import type { Sessions } from '../auth/sessions.ts';
import type { Config } from '../config.ts';
import type { Metrics } from '../metrics.ts';
import type { Store } from '../store/store.ts';
import { authorize, ConnectionLimits, type Grant, type Refusal } from './admission.ts';
import { Pacer } from './pacing.ts';
import type { Peer, Room } from './room.ts';
import { type Rooms, ShuttingDownError } from './rooms.ts';

const DOC_PATH_PREFIX = `${DOCUMENT_PATH}/`;
/** A send buffer over this, seen at SLOW_SWEEPS sweeps in a row, closes the connection (1013). */
const SLOW_BUFFER_BYTES = 4 * 1024 * 1024;
const SLOW_SWEEPS = 5;
const SWEEP_MS = 1000;
/** Connections that answer no ping for this long are dropped. */
const PING_MS = 30_000;
/**
 * Messages that arrive before the room is loaded are kept; past this many bytes the socket is not
 * read until the room is ready (a fast client is slowed, not closed).
 */
const MAX_EARLY_BYTES = 8 * 1024 * 1024;

/**
 * A connection with less than this queued is not counted against MAX_QUEUED_BYTES: it drains
 * within a turn or two, and its count could go stale (a socket emits 'drain' only once it has
 * been over its 16 KiB high-water mark).
 */
const UNCOUNTED_QUEUE_BYTES = 64 * 1024;

/**
 * The bytes queued for sending on every document connection of this process, held under
 * MAX_QUEUED_BYTES: past it, the connections with the most queued are cut off (1013), largest
 * first, until the total fits again (docs/security.md, "Memory").
 */
export class SendQueues {
  total = 0;
  constructor(
    readonly limit: number,
    private readonly metrics: Metrics,
    private readonly shed: () => void,
  ) {}

  /** A connection's queued bytes changed from `before` to `after`. */
  change(before: number, after: number): void {
    this.total += after - before;
    this.metrics.sendQueueBytes.set(this.total);
    if (this.total > this.limit) this.shed();
  }
}

class SocketPeer implements Peer {
  readonly clientIds = new Set<number>();
  slowSweeps = 0;
  alive = true;
  room: Room | null = null;
  /** Set once attached: paces what the connection sends to the message rate. */
  pacer: Pacer | null = null;
  private closed = false;

  readonly userId: string;
  role: Role;
  readonly credentialRole: Role;
  /** The board's access version this connection's role was last checked under. */
  accessVersion: number;

  /** This connection's queued bytes as last counted in `queues`. */
  counted = 0;
  /** A sync answer is queued on this side, not yet handed to the kernel. */
  private answering = false;
  /** The latest sync request that arrived meanwhile, answered once that one has left. */
  private nextAnswer: (() => Uint8Array | null) | null = null;

  constructor(
    readonly id: number,
    readonly boardId: string,
    readonly grant: Grant,
    readonly ws: WebSocket,
    private readonly metrics: Metrics,
    /** A send buffer that would grow past this closes the connection (1013) at once. */
    private readonly maxBufferedBytes: number,
    private readonly queues: SendQueues,
  ) {
    this.userId = grant.user.id;
    this.role = grant.role;
    this.credentialRole = grant.credentialRole;
    this.accessVersion = grant.accessVersion;
  }

  get user(): PresenceUser {
    return this.grant.user;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  answer(encode: () => Uint8Array | null): void {
    if (this.answering) {
      this.nextAnswer = encode;
      return;
    }
    const message = encode();
    if (message === null || this.closed) return;
    this.answering = true;
    this.send(message, () => {
      this.answering = false;
      const next = this.nextAnswer;
      this.nextAnswer = null;
      if (next && !this.closed) this.answer(next);
    });
  }

  /** Counts what is queued on this socket now into the process total (which may shed). */
  recount(): void {
    const buffered = this.closed ? this.counted : this.ws.bufferedAmount;
    const counted = buffered >= UNCOUNTED_QUEUE_BYTES ? buffered : 0;
    if (counted === this.counted) return;
    const before = this.counted;
    this.counted = counted;
    this.queues.change(before, counted);
  }

  /** Takes this connection out of the process total (it closed). */
  uncount(): void {
    const before = this.counted;
    this.counted = 0;
    if (before !== 0) this.queues.change(before, 0);
  }

  /**
   * Cut off to free memory: a connection with this much queued reads too little to see a close
   * frame behind it, so the socket is dropped at once and its queue freed with it.
   */
  shed(): void {
    this.close(CloseCode.TOO_SLOW, 'connection too slow to keep up');
    this.ws.terminate();
    this.uncount();
  }

  /** `written` is called once the message has been handed to the kernel (not if it is dropped). */
  send(message: Uint8Array | Uint8Array[], written?: () => void): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    const frame = frameOnce(message);
    // The sweep closes a slow reader only after seconds; meanwhile a client that never reads
    // could make the server queue without bound (a 4-byte sync step 1 is answered with the whole
    // board, every time). One whole board plus the slow threshold is all a connection can need.
    if (this.ws.bufferedAmount + frame.length > this.maxBufferedBytes) {
      this.close(CloseCode.TOO_SLOW, 'connection too slow to keep up');
      return;
    }
    this.metrics.traffic.messagesOut += Array.isArray(message) ? message.length : 1;
    this.metrics.traffic.bytesOut += frame.length;
    // A room sends one message to many sockets in a row: frame it once and write the same bytes
    // to each socket, instead of letting ws frame it again per socket (the broadcast hot path).
    // Safe because server frames are unmasked and we use no extension that transforms payloads
    // (perMessageDeflate is off), so ws never holds frames back that this could overtake.
    const socket = (this.ws as unknown as { _socket?: Socket })._socket;
    if (socket?.writable) socket.write(frame, written);
    else {
      const parts = Array.isArray(message) ? message : [message];
      for (const [i, part] of parts.entries())
        this.ws.send(part, { binary: true }, i === parts.length - 1 ? written : undefined);
    }
    this.recount();
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.metrics.closes.inc({ code: String(code) });
    closeSocket(this.ws, code, reason);
  }
}

/** A binary WebSocket frame as a server sends it (FIN, opcode 2, unmasked). */
export function frameBinary(payload: Uint8Array): Buffer {
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x82;
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  frame.set(payload, headerLength);
  return frame;
}

const frames = new WeakMap<Uint8Array | Uint8Array[], Buffer>();
/** The frame(s) of a message, built once however many sockets it is sent to. */
function frameOnce(message: Uint8Array | Uint8Array[]): Buffer {
  let frame = frames.get(message);
  if (!frame) {
    frame = Array.isArray(message) ? Buffer.concat(message.map(frameBinary)) : frameBinary(message);
    frames.set(message, frame);
  }
  return frame;
}

function closeSocket(ws: WebSocket, code: number, reason: string): void {
  if (ws.readyState === ws.CLOSED || ws.readyState === ws.CLOSING) return;
  ws.close(code, reason.slice(0, 120));
  // A client that stopped reading never completes the close handshake.
  setTimeout(() => ws.terminate(), 2000).unref();
}

/** Answers an upgrade request with a bodiless HTTP error and closes the socket. */
export function refuseUpgrade(socket: Duplex, status: number, statusText: string): void {
  socket.on('error', () => undefined);
  if (socket.writable) {
    socket.end(`HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  } else socket.destroy();
}

export type DocumentTarget = { boardId: string; token: string | null } | 'not-ours' | 'malformed';

/**
 * What an upgrade's request target asks for. Never throws: a target that `URL` or percent-decoding
 * cannot read is 'malformed' (a 400), whatever bytes a client sent.
 */
export function parseDocumentTarget(rawUrl: string | undefined): DocumentTarget {
  let url: URL;
  try {
    url = new URL(rawUrl ?? '/', 'http://localhost');
  } catch {
    return rawUrl?.includes(DOC_PATH_PREFIX) ? 'malformed' : 'not-ours';
  }
  if (!url.pathname.startsWith(DOC_PATH_PREFIX)) return 'not-ours';
  try {
    const boardId = decodeURIComponent(url.pathname.slice(DOC_PATH_PREFIX.length));
    return { boardId, token: url.searchParams.get('token') };
  } catch {
    return 'malformed';
  }
}

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

/**
 * Keeps what a socket sends between the handshake and attach (the client speaks first: sync
 * step 1 arrives while the board may still be loading), binary only. Past MAX_EARLY_BYTES the
 * socket is not read until attach (a bot that writes at once is slowed down, not closed).
 */
class EarlyMessages {
  readonly messages: Buffer[] = [];
  private bytes = 0;
  /** Whether reading stopped because too much arrived before attach. */
  private paused = false;
  /** True once the socket closed (or was closed for what it sent) before attach. */
  closed = false;
  private readonly onMessage = (data: Buffer, isBinary: boolean) => {
    if (!isBinary) {
      this.closed = true;
      closeSocket(this.ws, CloseCode.UNDECODABLE, 'text frames are not accepted');
      return;
    }
    this.bytes += data.length;
    this.messages.push(data);
    if (this.bytes > MAX_EARLY_BYTES && !this.paused) {
      this.paused = true;
      this.ws.pause();
    }
  };

  constructor(private readonly ws: WebSocket) {
    ws.on('message', this.onMessage);
    ws.once('close', () => {
      this.closed = true;
    });
  }

  /** Stops keeping messages and hands over the ones kept; reading resumes if it had stopped. */
  drain(): Buffer[] {
    this.ws.off('message', this.onMessage);
    if (this.paused) {
      this.paused = false;
      this.ws.resume();
    }
    return this.messages.splice(0);
  }
}

export class DocumentGateway {
  private readonly wss: WebSocketServer;
  private readonly peers = new Set<SocketPeer>();
  private readonly limits: ConnectionLimits;
  readonly queues: SendQueues;
  private nextPeerId = 1;
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly pingTimer: NodeJS.Timeout;

  constructor(private readonly deps: GatewayDeps) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: deps.config.maxMessageBytes,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.limits = new ConnectionLimits({
      connectionsPerBoard: deps.config.maxConnectionsPerBoard,
      boardsOpenPerUser: deps.config.maxBoardsOpenPerUser,
    });
    this.queues = new SendQueues(deps.config.maxQueuedBytes, deps.metrics, () => this.shed());
    this.sweepTimer = setInterval(() => this.sweepSlowPeers(), SWEEP_MS);
    this.sweepTimer.unref();
    this.pingTimer = setInterval(() => this.pingPeers(), PING_MS);
    this.pingTimer.unref();
    this.accessTimer = setInterval(() => void this.checkAccess(), deps.config.accessCheckMs);
    this.accessTimer.unref();
  }

  private readonly accessTimer: NodeJS.Timeout;

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
    if (origin !== undefined && origin !== this.deps.config.publicOrigin) {
      // Refused before anything is loaded: a page on another site must not use the visitor's cookie.
      refuseUpgrade(socket, 403, 'Forbidden');
      this.deps.log.info({ origin }, 'websocket upgrade refused: foreign origin');
      return true;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      void this.accept(ws, request, target.boardId, target.token);
    });
    return true;
  }

  /** authorize → admit → attach; whatever fails closes the socket with the code for it. */
  private async accept(ws: WebSocket, request: IncomingMessage, boardId: string, token: string | null) {
    const { config, log, metrics, store, sessions } = this.deps;
    ws.on('error', (error) => log.debug({ err: error }, 'websocket error'));
    const early = new EarlyMessages(ws);
    const refuse = ({ code, reason }: Refusal) => {
      metrics.closes.inc({ code: String(code) });
      log.info({ boardId, code, reason }, 'document connection refused');
      closeSocket(ws, code, reason);
    };

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

    await this.attach(ws, boardId, grant, early);
  }

  /** Step 3: a Peer counted against the limits, in its Room, with the messages it sent so far. */
  private async attach(ws: WebSocket, boardId: string, grant: Grant, early: EarlyMessages): Promise<void> {
    const { config, log, metrics } = this.deps;
    const peer = new SocketPeer(
      this.nextPeerId++,
      boardId,
      grant,
      ws,
      metrics,
      config.maxDocBytes + 2 * SLOW_BUFFER_BYTES,
      this.queues,
    );
    // A socket that drained is counted again at once (it may have been holding the total up).
    (ws as unknown as { _socket?: Socket })._socket?.on('drain', () => peer.recount());
    this.peers.add(peer);
    this.limits.add(boardId, peer.userId);
    metrics.connections.set(this.peers.size);
    ws.once('close', () => this.detach(peer, boardId));

    let room: Room;
    // Held open from the load to the join (or to giving up): it cannot unload in between.
    let release: () => void;
    try {
      ({ room, release } = await this.deps.rooms.acquire(boardId));
    } catch (error) {
      if (error instanceof ShuttingDownError) {
        peer.close(CloseCode.GOING_AWAY, 'server going away');
        return;
      }
      log.error({ err: error, boardId }, 'board failed to load');
      peer.close(CloseCode.INTERNAL, 'board failed to load');
      return;
    }
    // Access is checked again now that the connection is admitted: a revocation that committed
    // while it was being authorized, or while the board loaded, is seen here (or by the next
    // periodic check, which compares versions), never missed.
    try {
      await this.recheck([peer]);
    } catch (error) {
      log.error({ err: error, boardId }, 'checking access at admission failed');
      peer.close(CloseCode.INTERNAL, 'internal error');
    }
    if (early.closed || peer.isClosed) {
      release();
      return;
    }
    peer.room = room;
    room.join(peer);
    release();
    this.deps.onBoardUsersChanged?.(boardId);

    const handle = (data: Buffer) => {
      if (peer.isClosed) return;
      try {
        room.receive(peer, data);
      } catch (error) {
        // A throw here would escape ws's 'message' event (or the pacer's timer) and stop the
        // whole process: whatever one connection's message trips over closes that connection only.
        log.error({ err: error, boardId, peer: peer.id }, 'handling a document message failed');
        peer.close(CloseCode.INTERNAL, 'internal error');
      }
    };
    // Over the message rate a connection is slowed down (pacing.ts); 4429 only for abuse.
    const pacer = new Pacer(
      ws,
      {
        rate: config.messagesPerSecond,
        burst: config.messageBurst,
        abuseRateFactor: limits.abuseRateFactor,
        abuseWindowMs: limits.abuseWindowMs,
      },
      handle,
      () => {
        log.warn(
          { boardId, peer: peer.id, userId: peer.userId },
          'connection far over the message rate for long: closing it (4429)',
        );
        peer.close(CloseCode.TOO_MANY_MESSAGES, closeReason.TOO_MANY_MESSAGES);
      },
      () => metrics.throttled.inc(),
    );
    peer.pacer = pacer;
    ws.once('close', () => pacer.stop());
    const onMessage = (data: Buffer, isBinary: boolean) => {
      metrics.traffic.messagesIn += 1;
      metrics.traffic.bytesIn += data.length;
      if (!isBinary) return peer.close(CloseCode.UNDECODABLE, 'text frames are not accepted');
      pacer.receive(data);
    };
    const kept = early.drain();
    ws.on('message', onMessage);
    ws.on('pong', () => {
      peer.alive = true;
    });
    for (const data of kept) onMessage(data, true);
    if (grant.expiresAt !== null) {
      const timer = setTimeout(
        () => peer.close(CloseCode.NOT_AUTHENTICATED, 'access token expired'),
        Math.max(0, grant.expiresAt - Date.now()),
      );
      timer.unref();
      ws.once('close', () => clearTimeout(timer));
    }
  }

  private detach(peer: SocketPeer, boardId: string): void {
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
    for (const peer of room.peers) if (peer instanceof SocketPeer) users.set(peer.user.id, peer.user);
    return [...users.values()];
  }

  /** Boards with at least one connection on this instance. */
  localBoards(): string[] {
    const boards = new Set<string>();
    for (const peer of this.peers) if (peer.room) boards.add(peer.room.boardId);
    return [...boards];
  }

  /**
   * Compares every connection's access with the Store: a deleted board closes its connections
   * (4404); a connection whose board's access version moved since its role was checked (or every
   * one, when `force`: after a bus outage) has its membership read again and follows it; a
   * connection whose session ended (logout, expiry) closes (4401). Runs every ACCESS_CHECK_MS, so
   * a revocation whose bus message was lost (Redis down) takes effect within that time anyway.
   */
  async checkAccess(force = false): Promise<void> {
    if (this.checking) {
      this.checkAgain ||= force ? 'force' : 'yes';
      return;
    }
    this.checking = true;
    try {
      const peers = [...this.peers].filter((peer) => peer.room !== null && !peer.isClosed);
      if (peers.length > 0) await this.recheck(peers, force);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'checking document access failed; retrying shortly');
    } finally {
      this.checking = false;
      const again = this.checkAgain;
      this.checkAgain = null;
      if (again) void this.checkAccess(again === 'force');
    }
  }

  private checking = false;
  private checkAgain: 'yes' | 'force' | null = null;

  /** Checks these connections' board, membership and session against the Store now. */
  private async recheck(peers: SocketPeer[], force = false): Promise<void> {
    const { store } = this.deps;
    const boardIds = [...new Set(peers.map((peer) => peer.boardId))];
    const sessionHashes = [
      ...new Set(peers.map((peer) => peer.grant.sessionHash).filter((hash) => hash !== null)),
    ];
    const [versions, liveSessions] = await Promise.all([
      store.accessVersions(boardIds),
      sessionHashes.length > 0 ? store.liveSessions(sessionHashes) : new Set<string>(),
    ]);
    const stale: SocketPeer[] = [];
    for (const peer of peers) {
      const version = versions.get(peer.boardId);
      if (version === undefined) peer.close(CloseCode.NO_SUCH_BOARD, 'board deleted');
      else if (peer.grant.sessionHash !== null && !liveSessions.has(peer.grant.sessionHash))
        peer.close(CloseCode.NOT_AUTHENTICATED, 'signed out');
      else if (force || version !== peer.accessVersion) stale.push(peer);
    }
    // One membership read per user and board, whatever the number of their connections.
    const roles = new Map<string, Promise<Role | null>>();
    await Promise.all(
      stale.map(async (peer) => {
        const key = `${peer.boardId} ${peer.userId}`;
        let role = roles.get(key);
        if (!role) {
          role = store.getRole(peer.boardId, peer.userId);
          roles.set(key, role);
        }
        const next = connectionRole(await role, peer.credentialRole);
        if (next === null) {
          peer.close(CloseCode.NO_ACCESS, 'access removed');
          return;
        }
        peer.role = next;
        // The version read before this membership read: a change since shows up next time.
        peer.accessVersion = versions.get(peer.boardId)!;
      }),
    );
  }

  /** Closes the document connections opened with a session that has just ended (logout). */
  closeSession(sessionHash: string): void {
    for (const peer of this.peers)
      if (peer.grant.sessionHash === sessionHash) peer.close(CloseCode.NOT_AUTHENTICATED, 'signed out');
  }

  /** Over MAX_QUEUED_BYTES: cuts off the connections with the most queued until the total fits. */
  private shed(): void {
    if (this.shedding) return;
    this.shedding = true;
    try {
      const slowest = [...this.peers]
        .filter((peer) => peer.counted > 0)
        .sort((a, b) => b.counted - a.counted);
      for (const peer of slowest) {
        if (this.queues.total <= this.queues.limit) break;
        this.deps.log.warn(
          { boardId: peer.boardId, peer: peer.id, queued: peer.counted, total: this.queues.total },
          'queued sends over MAX_QUEUED_BYTES: cutting off the slowest connection',
        );
        peer.shed();
      }
    } finally {
      this.shedding = false;
    }
  }

  private shedding = false;

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
    clearInterval(this.accessTimer);
    this.wss.close();
  }
}
