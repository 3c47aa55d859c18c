// The control channel: the bus messages that tell every instance's open document connections
// that access changed (a member's role, a removal), that a board was deleted, or that a session
// ended (logout). The change is applied here first, then published; each other instance applies
// it to its own connections when the message arrives. A message lost with the bus is made up for
// by the gateway's periodic access re-check (the Store's access version), so this is the fast
// path, never the only one. Kept apart from the socket.io workspace, which only calls it.
import { CloseCode, type Role } from '@tandem/shared';
import type { Bus } from '../bus/bus.ts';
import {
  CONTROL_CHANNEL,
  type ControlMessage,
  decodeJsonMessage,
  encodeJsonMessage,
} from '../bus/protocol.ts';
import type { Rooms } from './rooms.ts';

export interface ControlDeps {
  bus: Bus;
  rooms: Rooms;
  instanceId: string;
}

export interface ControlTargets {
  /** Closes this instance's document connections opened with a session that ended. */
  closeSessionConnections(sessionHash: string): void;
  /** Disconnects this instance's dashboard (socket.io) sockets opened with that session. */
  disconnectSessionSockets(sessionHash: string): void;
}

export class ControlChannel {
  private targets: ControlTargets | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(private readonly deps: ControlDeps) {}

  async start(targets: ControlTargets): Promise<void> {
    this.targets = targets;
    this.unsubscribe = await this.deps.bus.subscribe(CONTROL_CHANNEL, (data) => this.receive(data));
  }

  /** A member's role changed (or, null, the member was removed). */
  accessChanged(boardId: string, userId: string, role: Role | null): void {
    this.send({ t: 'access', from: this.deps.instanceId, boardId, userId, role });
  }

  boardDeleted(boardId: string): void {
    this.send({ t: 'deleted', from: this.deps.instanceId, boardId });
  }

  sessionEnded(sessionHash: string): void {
    this.send({ t: 'session', from: this.deps.instanceId, sessionHash });
  }

  private send(message: ControlMessage): void {
    this.apply(message);
    this.deps.bus.publish(CONTROL_CHANNEL, encodeJsonMessage(message));
  }

  private receive(data: Uint8Array): void {
    const message = decodeJsonMessage<ControlMessage>(data);
    if (message && message.from !== this.deps.instanceId) this.apply(message);
  }

  private apply(message: ControlMessage): void {
    if (message.t === 'session') {
      // The session's document connections and its dashboard sockets both end: after logout
      // nothing opened with that cookie may keep receiving boards, votes or edits.
      this.targets?.closeSessionConnections(message.sessionHash);
      this.targets?.disconnectSessionSockets(message.sessionHash);
      return;
    }
    // Access is the board's: every open page of it hears the change at once.
    for (const room of this.deps.rooms.ofBoard(message.boardId)) {
      if (message.t === 'deleted') {
        room.closeAll(CloseCode.NO_SUCH_BOARD, 'board deleted');
        this.deps.rooms.endLinger(room.key);
      }
      // The membership as it now is; each connection's role follows by the one rule (auth/access.ts).
      else room.setRole(message.userId, message.role);
    }
  }

  async close(): Promise<void> {
    await this.unsubscribe?.().catch(() => undefined);
    this.unsubscribe = null;
  }
}
