// The rooms of this instance: a board is loaded once even when several clients arrive at the
// same moment (they share one pending load), and unloaded after its edits are stored when the
// last connection leaves. Also the instance heartbeat, so the presences of an instance that
// died vanish from the others within seconds.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { type InstanceView, Room, type RoomDeps } from './room.ts';

const INSTANCES_CHANNEL = 'instances';

/** Thrown by open() once the instance is shutting down; the client reconnects elsewhere (1001). */
export class ShuttingDownError extends Error {
  constructor() {
    super('instance shutting down');
    this.name = 'ShuttingDownError';
  }
}
export const HEARTBEAT_MS = 1000;
/** An instance silent this long is presumed dead. */
export const HEARTBEAT_LAPSE_MS = 3500;
const RESYNC_AFTER_RECONNECT_MS = [0, 1000, 5000];

export class Rooms {
  private readonly rooms = new Map<string, Room>();
  private readonly loading = new Map<string, Promise<Room>>();
  private readonly unloading = new Map<string, Promise<void>>();
  private readonly lastHeard = new Map<string, number>();
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private unsubscribeInstances: (() => Promise<void>) | null = null;

  private readonly instanceView: InstanceView = {
    othersAlive: () => this.lastHeard.size > 0,
    heard: (instance) => {
      this.lastHeard.set(instance, Date.now());
    },
  };

  constructor(private readonly deps: RoomDeps) {}

  async start(): Promise<void> {
    this.unsubscribeInstances = await this.deps.bus.subscribe(INSTANCES_CHANNEL, (data) =>
      this.onHeartbeat(data),
    );
    this.deps.bus.onReconnect(() => {
      // Messages may have been lost while the bus was down: every open board resyncs. Once now,
      // and again shortly after, since the other instances may not have resubscribed yet and
      // would miss this first request.
      for (const delay of RESYNC_AFTER_RECONNECT_MS) {
        const timer = setTimeout(() => {
          for (const room of this.rooms.values()) room.requestSync('reconnect');
        }, delay);
        timer.unref();
      }
    });
    this.heartbeat();
    this.heartbeatTimer = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    this.heartbeatTimer.unref();
  }

  get size(): number {
    return this.rooms.size;
  }

  get(boardId: string): Room | undefined {
    return this.rooms.get(boardId);
  }

  values(): IterableIterator<Room> {
    return this.rooms.values();
  }

  /** The open room of a board, loading it first if needed (one load for concurrent callers). */
  async open(boardId: string): Promise<Room> {
    if (this.stopping) throw new ShuttingDownError();
    const open = this.rooms.get(boardId);
    if (open) return open;
    const pending = this.loading.get(boardId);
    if (pending) return pending;
    const load = (async () => {
      // A room still storing its last edits must finish before the board is read again.
      await this.unloading.get(boardId);
      const room = await Room.load(boardId, this.deps, this.instanceView);
      this.rooms.set(boardId, room);
      this.deps.metrics.rooms.set(this.rooms.size);
      return room;
    })();
    this.loading.set(boardId, load);
    try {
      return await load;
    } finally {
      this.loading.delete(boardId);
    }
  }

  /** Unloads a room whose last connection left. */
  release(room: Room): void {
    if (!room.isEmpty || this.rooms.get(room.boardId) !== room || this.unloading.has(room.boardId)) return;
    const unload = this.unload(room);
    this.unloading.set(room.boardId, unload);
    void unload.finally(() => this.unloading.delete(room.boardId));
  }

  private async unload(room: Room): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await room.flush();
        break;
      } catch {
        // The store is down: keep the room (and its edits) and try again; a client that comes
        // back meanwhile finds the room still open.
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(30_000, 500 * 2 ** Math.min(attempt, 6))),
        );
        if (!room.isEmpty) return;
      }
    }
    if (!room.isEmpty) return;
    this.rooms.delete(room.boardId);
    this.deps.metrics.rooms.set(this.rooms.size);
    await room.close();
  }

  private heartbeat(): void {
    const encoder = encoding.createEncoder();
    encoding.writeVarString(encoder, this.deps.instanceId);
    this.deps.bus.publish(INSTANCES_CHANNEL, encoding.toUint8Array(encoder));
    const now = Date.now();
    for (const [instance, heard] of this.lastHeard) {
      if (now - heard < HEARTBEAT_LAPSE_MS) continue;
      this.lastHeard.delete(instance);
      this.deps.log.warn({ instance }, 'instance heartbeat lapsed; removing its presences');
      for (const room of this.rooms.values()) room.forgetInstance(instance);
    }
  }

  private onHeartbeat(data: Uint8Array): void {
    try {
      const instance = decoding.readVarString(decoding.createDecoder(data));
      if (instance !== this.deps.instanceId) this.lastHeard.set(instance, Date.now());
    } catch {
      // not a heartbeat of ours; ignore
    }
  }

  /** Closes every connection with `code` and stores every room; for shutdown. */
  /** Set once shutdown begins: no board is opened any more. */
  stopping = false;

  async closeAll(code: number, reason: string): Promise<void> {
    this.stopping = true;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    await Promise.allSettled([...this.loading.values()]);
    const rooms = [...this.rooms.values()];
    for (const room of rooms) room.closeAll(code, reason);
    await Promise.allSettled([...this.unloading.values()]);
    const results = await Promise.allSettled(rooms.map((room) => room.close()));
    for (const result of results) {
      if (result.status === 'rejected')
        this.deps.log.error({ err: result.reason }, 'edits could not be stored at shutdown');
    }
    this.rooms.clear();
    await this.unsubscribeInstances?.().catch(() => undefined);
  }
}
