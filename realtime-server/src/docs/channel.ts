// The document channel: `/yjs/:boardId` over WebSockets. This is the thin adapter between the
// `ws` library and a Room: it authenticates the upgrade (session cookie or access token),
// checks the role and the limits, and turns a socket into a Peer.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { CloseCode, isBoardId, type PresenceUser, type Role, roleAtLeast } from '@tandem/shared';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import { TokenBucket } from '../auth/rateLimit.ts';
import { readCookie, SESSION_COOKIE, type Sessions } from '../auth/sessions.ts';
import { verifyAccessToken } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Metrics } from '../metrics.ts';
import type { Store } from '../store/store.ts';
import type { Peer, Room } from './room.ts';
import { type Rooms, ShuttingDownError } from './rooms.ts';

export const DOC_PATH_PREFIX = '/yjs/';
/** A send buffer over this, seen at SLOW_SWEEPS sweeps in a row, closes the connection (1013). */
const SLOW_BUFFER_BYTES = 4 * 1024 * 1024;
const SLOW_SWEEPS = 5;
const SWEEP_MS = 1000;
/** Connections that answer no ping for this long are dropped. */
const PING_MS = 30_000;
/** Messages that arrive before the room is loaded are kept up to this many bytes. */
const MAX_EARLY_BYTES = 8 * 1024 * 1024;

interface Identity {
  userId: string;
  /** The most the credential allows; null for a token issued for another board. */
  role: Role | null;
  /** When the access token used expires (ms since the epoch), or null for a session. */
  expiresAt: number | null;
}

class SocketPeer implements Peer {
  readonly clientIds = new Set<number>();
  slowSweeps = 0;
  alive = true;
  room: Room | null = null;
  private closed = false;

  readonly userId: string;

  constructor(
    readonly id: number,
    readonly user: PresenceUser,
    public role: Role,
    readonly ws: WebSocket,
    private readonly metrics: Metrics,
    /** A send buffer that would grow past this closes the connection (1013) at once. */
    private readonly maxBufferedBytes: number,
  ) {
    this.userId = user.id;
  }

  send(message: Uint8Array | Uint8Array[]): void {
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
    if (socket?.writable) socket.write(frame);
    else
      for (const part of Array.isArray(message) ? message : [message]) this.ws.send(part, { binary: true });
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

export interface ChannelDeps {
  /** Called when the set of local users on a board changes (for the dashboard's live presence). */
  onBoardUsersChanged?: (boardId: string) => void;
  config: Config;
  store: Store;
  sessions: Sessions;
  rooms: Rooms;
  metrics: Metrics;
  log: Logger;
}

export class DocumentChannel {
  private readonly wss: WebSocketServer;
  private readonly peers = new Set<SocketPeer>();
  private readonly openBoardsByUser = new Map<string, Map<string, number>>();
  /** Connections per board, counted from acceptance on, while the room may still be loading. */
  private readonly connectionsByBoard = new Map<string, number>();
  private nextPeerId = 1;
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly pingTimer: NodeJS.Timeout;

  constructor(private readonly deps: ChannelDeps) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: deps.config.maxMessageBytes,
      perMessageDeflate: false,
      clientTracking: false,
    });
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
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith(DOC_PATH_PREFIX)) return false;
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== this.deps.config.publicOrigin) {
      // Refused before anything is loaded: a page on another site must not use the visitor's cookie.
      socket.on('error', () => undefined);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      this.deps.log.info({ origin }, 'websocket upgrade refused: foreign origin');
      return true;
    }
    const boardId = decodeURIComponent(url.pathname.slice(DOC_PATH_PREFIX.length));
    const token = url.searchParams.get('token');
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      void this.accept(ws, request, boardId, token);
    });
    return true;
  }

  private async accept(ws: WebSocket, request: IncomingMessage, boardId: string, token: string | null) {
    const { config, log, metrics } = this.deps;
    ws.on('error', (error) => log.debug({ err: error }, 'websocket error'));
    const early: Buffer[] = [];
    let earlyBytes = 0;
    let peer: SocketPeer | null = null;
    let closedEarly = false;
    const onEarly = (data: Buffer, isBinary: boolean) => {
      earlyBytes += data.length;
      if (!isBinary || earlyBytes > MAX_EARLY_BYTES) {
        closedEarly = true;
        closeSocket(
          ws,
          CloseCode.UNDECODABLE,
          isBinary ? 'too much data before sync' : 'text frames are not accepted',
        );
        return;
      }
      early.push(data);
    };
    ws.on('message', onEarly);
    ws.once('close', () => {
      closedEarly = true;
    });

    const refuse = (code: number, reason: string) => {
      metrics.closes.inc({ code: String(code) });
      log.info({ boardId, code, reason }, 'document connection refused');
      closeSocket(ws, code, reason);
    };

    let identity: Identity | null;
    let role: Role;
    let user: PresenceUser;
    try {
      if (!isBoardId(boardId)) return refuse(CloseCode.NO_SUCH_BOARD, 'no such board');
      identity = await this.authenticate(request, boardId, token);
      if (!identity) return refuse(CloseCode.NOT_AUTHENTICATED, 'not authenticated');
      if (identity.role === null) return refuse(CloseCode.NO_ACCESS, 'no access');
      const board = await this.deps.store.getBoard(boardId);
      if (!board) return refuse(CloseCode.NO_SUCH_BOARD, 'no such board');
      const [memberRole, userRow] = await Promise.all([
        this.deps.store.getRole(boardId, identity.userId),
        this.deps.store.getUser(identity.userId),
      ]);
      if (!memberRole || !userRow) return refuse(CloseCode.NO_ACCESS, 'no access');
      // A token never grants more than the user's current role.
      role = roleAtLeast(memberRole, identity.role) ? identity.role : memberRole;
      user = { id: userRow.id, name: userRow.name, color: userRow.color };
    } catch (error) {
      log.error({ err: error, boardId }, 'authenticating a document connection failed');
      return refuse(CloseCode.INTERNAL, 'internal error');
    }
    if (closedEarly) return;
    if (this.countOnBoard(boardId) >= config.maxConnectionsPerBoard) {
      return refuse(CloseCode.TOO_MANY_MESSAGES, 'too many connections on this board');
    }
    const userBoards = this.openBoardsByUser.get(identity.userId);
    if (userBoards && !userBoards.has(boardId) && userBoards.size >= config.maxBoardsOpenPerUser) {
      return refuse(CloseCode.TOO_MANY_MESSAGES, 'too many boards open at once');
    }

    peer = new SocketPeer(
      this.nextPeerId++,
      user,
      role,
      ws,
      metrics,
      config.maxDocBytes + 2 * SLOW_BUFFER_BYTES,
    );
    this.track(peer, boardId, +1);
    const current = peer;
    ws.once('close', () => this.detach(current, boardId));

    let room: Room;
    try {
      room = await this.deps.rooms.open(boardId);
    } catch (error) {
      if (error instanceof ShuttingDownError) {
        peer.close(CloseCode.GOING_AWAY, 'server going away');
        return;
      }
      log.error({ err: error, boardId }, 'board failed to load');
      peer.close(CloseCode.INTERNAL, 'board failed to load');
      return;
    }
    if (closedEarly) {
      this.deps.rooms.release(room);
      return;
    }
    peer.room = room;
    room.join(peer);
    metrics.connections.set(this.peers.size);
    this.deps.onBoardUsersChanged?.(boardId);

    const bucket = new TokenBucket(config.messagesPerSecond, config.messageBurst);
    const onMessage = (data: Buffer, isBinary: boolean) => {
      metrics.traffic.messagesIn += 1;
      metrics.traffic.bytesIn += data.length;
      if (!isBinary) return current.close(CloseCode.UNDECODABLE, 'text frames are not accepted');
      if (!bucket.take()) return current.close(CloseCode.TOO_MANY_MESSAGES, 'too many messages');
      try {
        room.receive(current, data);
      } catch (error) {
        // A throw here would escape ws's 'message' event and stop the whole process: whatever
        // one connection's message trips over closes that connection only.
        log.error({ err: error, boardId, peer: current.id }, 'handling a document message failed');
        current.close(CloseCode.INTERNAL, 'internal error');
      }
    };
    ws.off('message', onEarly);
    ws.on('message', onMessage);
    ws.on('pong', () => {
      current.alive = true;
    });
    for (const data of early) onMessage(data, true);
    early.length = 0;
    if (identity.expiresAt !== null) {
      const timer = setTimeout(
        () => current.close(CloseCode.NOT_AUTHENTICATED, 'access token expired'),
        Math.max(0, identity.expiresAt - Date.now()),
      );
      timer.unref();
      ws.once('close', () => clearTimeout(timer));
    }
  }

  private async authenticate(
    request: IncomingMessage,
    boardId: string,
    token: string | null,
  ): Promise<Identity | null> {
    if (token !== null) {
      const check = verifyAccessToken(this.deps.config.secret, token);
      if (!check.ok) return null;
      if (check.claims.boardId !== boardId) {
        // A token for another board is a valid identity with no access to this one.
        return { userId: check.claims.userId, role: null, expiresAt: check.claims.expiresAt };
      }
      return { userId: check.claims.userId, role: check.claims.role, expiresAt: check.claims.expiresAt };
    }
    const user = await this.deps.sessions.resolve(readCookie(request.headers.cookie, SESSION_COOKIE));
    return user ? { userId: user.id, role: 'owner', expiresAt: null } : null;
  }

  private countOnBoard(boardId: string): number {
    return this.connectionsByBoard.get(boardId) ?? 0;
  }

  private track(peer: SocketPeer, boardId: string, delta: 1 | -1): void {
    if (delta > 0) this.peers.add(peer);
    else this.peers.delete(peer);
    const onBoard = (this.connectionsByBoard.get(boardId) ?? 0) + delta;
    if (onBoard > 0) this.connectionsByBoard.set(boardId, onBoard);
    else this.connectionsByBoard.delete(boardId);
    let boards = this.openBoardsByUser.get(peer.userId);
    if (!boards) {
      boards = new Map();
      this.openBoardsByUser.set(peer.userId, boards);
    }
    const count = (boards.get(boardId) ?? 0) + delta;
    if (count > 0) boards.set(boardId, count);
    else boards.delete(boardId);
    if (boards.size === 0) this.openBoardsByUser.delete(peer.userId);
    this.deps.metrics.connections.set(this.peers.size);
  }

  private detach(peer: SocketPeer, boardId: string): void {
    this.track(peer, boardId, -1);
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

  private sweepSlowPeers(): void {
    for (const peer of this.peers) {
      if (peer.ws.bufferedAmount > SLOW_BUFFER_BYTES) peer.slowSweeps += 1;
      else peer.slowSweeps = 0;
      if (peer.slowSweeps >= SLOW_SWEEPS) peer.close(CloseCode.TOO_SLOW, 'connection too slow to keep up');
    }
  }

  private pingPeers(): void {
    for (const peer of this.peers) {
      if (!peer.alive) {
        peer.ws.terminate();
        continue;
      }
      peer.alive = false;
      peer.ws.ping();
    }
  }

  /** Closes every connection of a user on a board (membership removed) or everyone (board deleted). */
  closeBoard(boardId: string, userId: string | null, code: number): void {
    const room = this.deps.rooms.get(boardId);
    if (!room) return;
    if (userId === null)
      room.closeAll(code, code === CloseCode.NO_SUCH_BOARD ? 'board deleted' : 'access removed');
    else room.setRole(userId, null, code);
  }

  close(): void {
    clearInterval(this.sweepTimer);
    clearInterval(this.pingTimer);
    this.wss.close();
  }
}
