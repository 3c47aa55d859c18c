// The workspace socket (socket.io on /socket.io, docs/api.md §7): live events that are not board content. Each
// socket joins `user:<id>` and `board:<id>` for every board it is a member of, so an event is
// one emit to a socket.io room; with the Redis adapter that reaches every instance. Who is on
// which board is aggregated from every instance's summaries on the bus.
import type { Server as HttpServer } from 'node:http';
import {
  type Board,
  type BoardPresence,
  type ChangesUndone,
  type ClientToServerEvents,
  type MentionEvent,
  type PresenceUser,
  type Role,
  type ServerToClientEvents,
  type ThreadChanged,
  type ThreadRemoved,
  type VotesChanged,
  type WebhookHealth,
  WORKSPACE_PATH,
} from '@tandem/shared';
import type { Logger } from 'pino';
import { Server, type Socket } from 'socket.io';
import { readCookie, SESSION_COOKIE, type Sessions } from '../auth/sessions.ts';
import { hashSessionId } from '../auth/tokens.ts';
import type { Bus } from '../bus/bus.ts';
import {
  decodeJsonMessage,
  encodeJsonMessage,
  PRESENCE_CHANNEL,
  type PresenceMessage,
} from '../bus/protocol.ts';
import type { Config } from '../config.ts';
import type { ControlChannel } from '../documents/control.ts';
import type { DocumentGateway } from '../documents/gateway.ts';
import type { Rooms } from '../documents/rooms.ts';
import { originRule } from '../http/origin.ts';
import type { Store, UserRow } from '../store/store.ts';
import type { LiveEvents } from './live.ts';

/**
 * Presence summaries are re-sent this often. An instance's summary is dropped when its heartbeat
 * lapses (bus/instances.ts, the one place that knows who is alive).
 */
const SUMMARY_MS = 2000;
const PRESENCE_THROTTLE_MS = 100;

interface SocketData {
  user: UserRow;
  /** The hash of the session cookie the socket was opened with (logout ends the socket). */
  sessionHash: string;
}
type WorkspaceSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface WorkspaceDeps {
  config: Config;
  store: Store;
  sessions: Sessions;
  bus: Bus;
  rooms: Rooms;
  /** Where access changes, deletions and logouts go to reach document connections everywhere. */
  control: ControlChannel;
  log: Logger;
  instanceId: string;
}

export class Workspace implements LiveEvents {
  readonly io: Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
  private gateway: DocumentGateway | null = null;
  /** instance → board → users, for every other instance. */
  private readonly remote = new Map<string, { boards: Map<string, PresenceUser[]> }>();
  private readonly dirtyBoards = new Set<string>();
  private presenceTimer: NodeJS.Timeout | null = null;
  private readonly summaryTimer: NodeJS.Timeout;
  private readonly unsubscribers: (() => Promise<void>)[] = [];

  constructor(
    httpServer: HttpServer,
    private readonly deps: WorkspaceDeps,
  ) {
    const origins = originRule(deps.config);
    this.io = new Server(httpServer, {
      path: WORKSPACE_PATH,
      serveClient: false,
      // The document gateway shares this server's upgrades: socket.io must not close them.
      destroyUpgrade: false,
      maxHttpBufferSize: 64 * 1024,
      allowRequest: (request, callback) => {
        callback(null, origins.allows(request.headers.origin, request.headers.host));
      },
    });
    this.io.use((socket, next) => {
      const cookie = readCookie(socket.request.headers.cookie, SESSION_COOKIE);
      deps.sessions
        .resolve(cookie)
        .then((user) => {
          if (!user || !cookie) return next(new Error('AUTH_REQUIRED'));
          socket.data.user = user;
          socket.data.sessionHash = hashSessionId(cookie);
          next();
        })
        .catch((error: unknown) => {
          deps.log.error({ err: error }, 'workspace authentication failed');
          next(new Error('INTERNAL'));
        });
    });
    this.io.on('connection', (socket) => void this.onConnection(socket));
    this.summaryTimer = setInterval(() => this.publishSummary(), SUMMARY_MS);
    this.summaryTimer.unref();
  }

  async start(gateway: DocumentGateway): Promise<void> {
    this.gateway = gateway;
    const { bus, rooms } = this.deps;
    rooms.instances.onLapse((instance) => {
      const summary = this.remote.get(instance);
      if (!summary) return;
      this.remote.delete(instance);
      this.emitPresence([...summary.boards.keys()]);
    });
    this.unsubscribers.push(await bus.subscribe(PRESENCE_CHANNEL, (data) => this.onPresence(data)));
    this.publish(PRESENCE_CHANNEL, { t: 'request', from: this.deps.instanceId });
  }

  private async onConnection(socket: WorkspaceSocket): Promise<void> {
    const user = socket.data.user;
    try {
      const boards = await this.deps.store.listBoards(user.id);
      await socket.join([
        `user:${user.id}`,
        `session:${socket.data.sessionHash}`,
        ...boards.map((b) => `board:${b.id}`),
      ]);
      socket.emit('presence:boards', this.presenceOf(boards.map((b) => b.id)));
    } catch (error) {
      this.deps.log.error({ err: error }, 'workspace connection setup failed');
      socket.disconnect(true);
      return;
    }
    socket.on('presence:refresh', () => {
      void this.deps.store
        .listBoards(user.id)
        .then((boards) => socket.emit('presence:boards', this.presenceOf(boards.map((b) => b.id))))
        .catch(() => undefined);
    });
  }

  // --- LiveEvents -----------------------------------------------------------------------------

  boardChanged(board: Board): void {
    this.io.to(`board:${board.id}`).emit('board:changed', { board });
  }

  boardRemoved(boardId: string, memberIds: string[]): void {
    this.io
      .to([`board:${boardId}`, ...memberIds.map((id) => `user:${id}`)])
      .emit('board:removed', { boardId });
    this.io.in(`board:${boardId}`).socketsLeave(`board:${boardId}`);
    this.deps.control.boardDeleted(boardId);
  }

  membersChanged(boardId: string): void {
    this.io.to(`board:${boardId}`).emit('members:changed', { boardId });
  }

  membershipAdded(boardId: string, userId: string): void {
    this.io.in(`user:${userId}`).socketsJoin(`board:${boardId}`);
  }

  votesChanged(payload: VotesChanged): void {
    // Through the adapter: members connected to any instance hear it once.
    this.io.to(`board:${payload.boardId}`).emit('votes:changed', payload);
  }

  threadChanged(payload: ThreadChanged): void {
    this.io.to(`board:${payload.boardId}`).emit('thread:changed', payload);
  }

  threadRemoved(payload: ThreadRemoved): void {
    this.io.to(`board:${payload.boardId}`).emit('thread:removed', payload);
  }

  mentioned(userId: string, payload: MentionEvent): void {
    this.io.to(`user:${userId}`).emit('mention', payload);
  }

  changesUndone(userId: string, payload: ChangesUndone): void {
    // Through the adapter, as a mention: the user hears it on whichever instance they are.
    this.io.to(`user:${userId}`).emit('changes:undone', payload);
  }

  webhookHealth(ownerId: string, payload: WebhookHealth): void {
    this.io.to(`user:${ownerId}`).emit('webhooks:health', payload);
  }

  accessChanged(boardId: string, userId: string, role: Role | null): void {
    if (role === null) {
      this.io.to(`user:${userId}`).emit('board:removed', { boardId });
      this.io.in(`user:${userId}`).socketsLeave(`board:${boardId}`);
    }
    this.deps.control.accessChanged(boardId, userId, role);
  }

  sessionEnded(sessionHash: string): void {
    this.deps.control.sessionEnded(sessionHash);
  }

  /** Disconnects this instance's sockets opened with a session that ended (the control channel's call). */
  disconnectSession(sessionHash: string): void {
    this.io.local.in(`session:${sessionHash}`).disconnectSockets(true);
  }

  /**
   * Ends the local sockets whose session is over (logged out or expired): run when the bus comes
   * back, since a logout published while it was down never reached this instance.
   */
  async checkSessions(): Promise<void> {
    const sockets = await this.io.local.fetchSockets();
    const hashes = new Set(sockets.map((socket) => socket.data.sessionHash));
    const now = new Date();
    for (const hash of hashes) {
      const session = await this.deps.store.getSession(hash).catch(() => undefined);
      // A Store failure proves nothing: keep the sockets, the next check decides.
      if (session === undefined) continue;
      if (!session || session.expiresAt <= now) {
        this.io.local.in(`session:${hash}`).disconnectSockets(true);
      }
    }
  }

  // --- who is on which board ------------------------------------------------------------------

  /** Called by the document gateway when a board's local users change. */
  boardUsersChanged(boardId: string): void {
    this.dirtyBoards.add(boardId);
    if (this.presenceTimer) return;
    this.presenceTimer = setTimeout(() => {
      this.presenceTimer = null;
      const boards = [...this.dirtyBoards];
      this.dirtyBoards.clear();
      const local: Record<string, PresenceUser[]> = {};
      for (const id of boards) local[id] = this.gateway?.localUsers(id) ?? [];
      this.publish(PRESENCE_CHANNEL, { t: 'boards', from: this.deps.instanceId, boards: local, full: false });
      this.emitPresence(boards);
    }, PRESENCE_THROTTLE_MS);
  }

  private publishSummary(): void {
    const boards: Record<string, PresenceUser[]> = {};
    for (const id of this.gateway?.localBoards() ?? []) boards[id] = this.gateway?.localUsers(id) ?? [];
    this.publish(PRESENCE_CHANNEL, { t: 'boards', from: this.deps.instanceId, boards, full: true });
  }

  private onPresence(data: Uint8Array): void {
    const message = decodeJsonMessage<PresenceMessage>(data);
    if (!message || message.from === this.deps.instanceId) return;
    this.deps.rooms.instances.heard(message.from);
    if (message.t === 'request') {
      this.publishSummary();
      return;
    }
    let summary = this.remote.get(message.from);
    if (!summary) {
      summary = { boards: new Map() };
      this.remote.set(message.from, summary);
    }
    const changed = new Set<string>(Object.keys(message.boards));
    if (message.full) {
      for (const id of summary.boards.keys()) if (!(id in message.boards)) changed.add(id);
      summary.boards.clear();
    }
    for (const [id, users] of Object.entries(message.boards)) {
      const before = summary.boards.get(id);
      if (users.length > 0) summary.boards.set(id, users);
      else summary.boards.delete(id);
      if (message.full && JSON.stringify(before ?? []) === JSON.stringify(users)) changed.delete(id);
    }
    if (changed.size > 0) this.emitPresence([...changed]);
  }

  /** Everyone on each board, across instances, one entry per user. */
  presenceOf(boardIds: string[]): BoardPresence {
    const result: BoardPresence = {};
    for (const id of boardIds) {
      const users = new Map<string, PresenceUser>();
      for (const user of this.gateway?.localUsers(id) ?? []) users.set(user.id, user);
      for (const summary of this.remote.values()) {
        for (const user of summary.boards.get(id) ?? []) users.set(user.id, user);
      }
      result[id] = [...users.values()];
    }
    return result;
  }

  /** Each instance tells its own sockets, so no event is sent twice across the adapter. */
  private emitPresence(boardIds: string[]): void {
    for (const [id, users] of Object.entries(this.presenceOf(boardIds))) {
      this.io.local.to(`board:${id}`).emit('presence:boards', { [id]: users });
    }
  }

  private publish(channel: string, message: PresenceMessage): void {
    this.deps.bus.publish(channel, encodeJsonMessage(message));
  }

  async close(): Promise<void> {
    clearInterval(this.summaryTimer);
    if (this.presenceTimer) clearTimeout(this.presenceTimer);
    for (const unsubscribe of this.unsubscribers) await unsubscribe().catch(() => undefined);
    this.io.disconnectSockets(true);
    await new Promise<void>((resolve) => {
      // io.close() also closes the HTTP server, which the app closes itself.
      this.io.engine.close();
      resolve();
    });
  }
}
