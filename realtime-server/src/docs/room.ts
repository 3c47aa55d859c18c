// A Room is one open board on this instance: its Y.Doc, the connections (peers) editing it,
// their presence, its persistence, and its channel to the other instances. It knows nothing of
// WebSockets: a Peer is anything that can send bytes and be closed.
import { CloseCode, type PresenceUser, type Role } from '@tandem/shared';
import type { Logger } from 'pino';
import * as Y from 'yjs';
import type { Bus } from '../bus/bus.ts';
import type { Config } from '../config.ts';
import type { Metrics } from '../metrics.ts';
import type { Store } from '../store/store.ts';
import { BusMessageType, boardChannel, decodeBusMessage, encodeBusMessage } from './busProtocol.ts';
import { DocPersister } from './persister.ts';
import { RoomPresence } from './presence.ts';
import {
  encodeAwarenessMessage,
  encodeSyncStep1,
  encodeSyncStep2,
  encodeUpdate,
  ProtocolError,
  parseClientMessage,
} from './protocol.ts';
import { updateHasNewContent } from './updates.ts';

export interface Peer {
  readonly id: number;
  readonly userId: string;
  /** Who the connection authenticated as; presence states are stamped with it. */
  readonly user: PresenceUser;
  role: Role;
  /** Awareness client ids this connection introduced (it may only change those). */
  readonly clientIds: Set<number>;
  /** Sends one message, or several written together. */
  send(message: Uint8Array | Uint8Array[]): void;
  close(code: number, reason: string): void;
}

export interface RoomDeps {
  store: Store;
  bus: Bus;
  config: Config;
  log: Logger;
  metrics: Metrics;
  instanceId: string;
}

/** What a room learns from, and asks of, the instance-wide view of the other instances. */
export interface InstanceView {
  /** Whether any other instance is alive on the bus: alone, a room publishes nothing but sync requests. */
  othersAlive(): boolean;
  /** Any message from an instance proves it alive. */
  heard(instance: string): void;
}

/** Origins of changes that this instance must not store or publish again. */
const STORE_ORIGIN = Symbol('store');
const BUS_ORIGIN = Symbol('bus');
/**
 * A bus message applied while client updates wait for missing dependencies: the transaction may
 * integrate those waiting client structs too, and they reached no other instance and no store.
 * Such a transaction is stored and published like a client's (duplicates are harmless in Yjs).
 */
const MIXED_ORIGINS = Symbol('several origins');
const BUS_RESOLVING_ORIGIN = Symbol('bus, resolving pending client updates');

/** How long presence changes are merged before one message goes out. */
export const PRESENCE_TICK_MS = 25;
/** Bytes of updates waiting for missing dependencies before the sender is cut off. */
const MAX_PENDING_BYTES = 1024 * 1024;

export class Room {
  readonly doc = new Y.Doc();
  readonly peers = new Set<Peer>();
  readonly presence: RoomPresence;
  /** Approximate stored size: loaded bytes plus every update since. */
  sizeBytes = 0;
  private readonly persister: DocPersister;
  private unsubscribe: (() => Promise<void>) | null = null;
  private seq = 0;
  private readonly remoteSeq = new Map<string, number>();
  /** The whole board encoded, kept until the next change: most joins start from an empty client. */
  private fullState: Uint8Array | null = null;
  private presenceTimer: NodeJS.Timeout | null = null;
  /** Doc updates applied this turn, sent merged in one message when the turn ends. */
  private outgoing: Uint8Array[] = [];
  /** The one origin of this turn's updates (not sent back to it), or MIXED_ORIGINS. */
  private outgoingOrigin: unknown = null;
  private flushQueued = false;
  private presenceDue = false;
  private lastPresenceFlush = 0;
  private closed = false;

  private constructor(
    readonly boardId: string,
    private readonly deps: RoomDeps,
    private readonly instances: InstanceView,
  ) {
    this.presence = new RoomPresence(() => this.schedulePresence());
    this.persister = new DocPersister(
      boardId,
      deps.store,
      { debounceMs: deps.config.persistDebounceMs, maxDelayMs: deps.config.persistMaxDelayMs },
      deps.log,
      deps.metrics,
    );
    this.doc.on('update', (update: Uint8Array, origin: unknown) => this.onDocUpdate(update, origin));
  }

  /**
   * Loads the board from the Store, subscribes to its bus channel and asks the other instances
   * for what the Store does not have yet. Rejects (leaving the stored board untouched) when the
   * stored content cannot be read or applied.
   */
  static async load(boardId: string, deps: RoomDeps, instances: InstanceView): Promise<Room> {
    const room = new Room(boardId, deps, instances);
    const started = performance.now();
    const stored = await deps.store.loadDoc(boardId);
    deps.metrics.storeLatency.observe({ op: 'load' }, (performance.now() - started) / 1000);
    const parts = stored.snapshot ? [stored.snapshot, ...stored.updates] : stored.updates;
    for (const part of parts) {
      // A stored update that does not decode means the stored board is damaged: refuse to open
      // it rather than serve (and later overwrite) a partial board.
      Y.decodeUpdate(part);
      Y.applyUpdate(room.doc, part, STORE_ORIGIN);
      room.sizeBytes += part.length;
    }
    if (room.hasPending) {
      // Served anyway: a client that holds the missing part sends it on sync. Refusing would
      // make the board unusable forever.
      deps.log.warn({ boardId }, 'stored board has updates whose dependencies are missing');
    }
    room.unsubscribe = await deps.bus.subscribe(boardChannel(boardId), (data) => room.onBusMessage(data));
    room.requestSync('open');
    return room;
  }

  private get hasPending(): boolean {
    return this.doc.store.pendingStructs !== null || this.doc.store.pendingDs !== null;
  }

  /** The origin for applying an update that came over the bus. */
  private get busOrigin(): symbol {
    return this.hasPending ? BUS_RESOLVING_ORIGIN : BUS_ORIGIN;
  }

  get isEmpty(): boolean {
    return this.peers.size === 0;
  }

  join(peer: Peer): void {
    this.peers.add(peer);
    peer.send(encodeSyncStep1(Y.encodeStateVector(this.doc)));
    const everyone = this.presence.encodeAll();
    if (everyone) peer.send(encodeAwarenessMessage(everyone));
  }

  leave(peer: Peer): void {
    if (!this.peers.delete(peer)) return;
    this.presence.removeOwner(peer);
  }

  /** One message from a peer. Malformed input closes only that peer; the doc is never touched. */
  receive(peer: Peer, data: Uint8Array): void {
    let message: ReturnType<typeof parseClientMessage>;
    try {
      message = parseClientMessage(data);
    } catch (error) {
      this.reject(peer, CloseCode.UNDECODABLE, (error as Error).message);
      return;
    }
    switch (message.kind) {
      case 'step1': {
        let answer: Uint8Array;
        try {
          answer = this.encodeStateFor(message.stateVector);
        } catch (error) {
          this.reject(peer, CloseCode.UNDECODABLE, (error as Error).message);
          return;
        }
        peer.send(encodeSyncStep2(answer));
        return;
      }
      case 'step2':
      case 'update':
        this.applyFromPeer(peer, message.update);
        return;
      case 'awareness':
        try {
          this.presence.applyFromPeer(peer, message.update);
        } catch (error) {
          this.reject(peer, CloseCode.UNDECODABLE, (error as Error).message);
        }
        return;
      case 'queryAwareness': {
        const everyone = this.presence.encodeAll();
        if (everyone) peer.send(encodeAwarenessMessage(everyone));
        return;
      }
    }
  }

  private encodeStateFor(stateVector: Uint8Array): Uint8Array {
    // An empty state vector (a fresh client) is one byte, 0: answer from the cache.
    if (stateVector.length === 1 && stateVector[0] === 0) {
      this.fullState ??= Y.encodeStateAsUpdate(this.doc);
      return this.fullState;
    }
    try {
      return Y.encodeStateAsUpdate(this.doc, stateVector);
    } catch {
      throw new ProtocolError('malformed state vector');
    }
  }

  private applyFromPeer(peer: Peer, update: Uint8Array): void {
    try {
      // Decode fully before applying: a malformed update must not leave half of itself behind.
      Y.decodeUpdate(update);
    } catch (error) {
      this.reject(peer, CloseCode.UNDECODABLE, `undecodable update: ${(error as Error).message}`);
      return;
    }
    if (peer.role === 'viewer') {
      // A stock client answers the server's sync step 1 even when it has nothing to add.
      if (updateHasNewContent(this.doc, update))
        this.reject(peer, CloseCode.NO_ACCESS, 'viewers cannot edit');
      return;
    }
    const limit = this.deps.config.maxDocBytes;
    if (this.sizeBytes + update.length > limit && updateHasNewContent(this.doc, update)) {
      this.reject(peer, CloseCode.BOARD_TOO_LARGE, 'board over its size limit');
      return;
    }
    try {
      Y.applyUpdate(this.doc, update, peer);
    } catch (error) {
      this.deps.log.warn({ err: error, boardId: this.boardId, peer: peer.id }, 'update failed to apply');
      this.reject(peer, CloseCode.UNDECODABLE, 'update failed to apply');
      return;
    }
    this.checkPending(peer);
  }

  /**
   * An update whose dependencies have not arrived waits in the doc. Ask the sender (and the other
   * instances) for what is missing; drop the waiting data and cut the sender off when it grows.
   */
  private checkPending(peer: Peer): void {
    const { pendingStructs, pendingDs } = this.doc.store;
    if (!pendingStructs && !pendingDs) return;
    const pendingBytes = (pendingStructs?.update.length ?? 0) + (pendingDs?.length ?? 0);
    if (pendingBytes > MAX_PENDING_BYTES) {
      this.doc.store.pendingStructs = null;
      this.doc.store.pendingDs = null;
      this.reject(peer, CloseCode.UNDECODABLE, 'too many updates with missing dependencies');
      return;
    }
    peer.send(encodeSyncStep1(Y.encodeStateVector(this.doc)));
    this.requestSync('pending');
  }

  private reject(peer: Peer, code: number, reason: string): void {
    this.deps.log.info({ boardId: this.boardId, peer: peer.id, code, reason }, 'closing connection');
    peer.close(code, reason);
  }

  private onDocUpdate(update: Uint8Array, origin: unknown): void {
    this.fullState = null;
    if (origin === STORE_ORIGIN) return;
    this.sizeBytes += update.length;
    this.outgoing.push(update);
    this.outgoingOrigin =
      this.outgoing.length === 1 || this.outgoingOrigin === origin ? origin : MIXED_ORIGINS;
    this.queueFlush();
    if (origin === BUS_ORIGIN) return;
    // The instance that received an edit from a client stores it and tells the others (when
    // there are any: an instance that appears later asks for what it lacks when it opens the board).
    this.persister.enqueue(update);
    if (!this.instances.othersAlive()) return;
    this.seq += 1;
    this.publish(BusMessageType.update, update, this.seq);
  }

  private publish(type: BusMessageType, payload: Uint8Array, seq = 0, target = ''): void {
    this.deps.metrics.busMessagesOut.inc();
    this.deps.bus.publish(
      boardChannel(this.boardId),
      encodeBusMessage({ type, instance: this.deps.instanceId, seq, target, payload }),
    );
  }

  /** Asks every other instance with this board open for the updates this one lacks. */
  requestSync(reason: string): void {
    if (this.closed) return;
    this.deps.metrics.busResyncs.inc({ reason });
    this.publish(BusMessageType.syncRequest, Y.encodeStateVector(this.doc));
  }

  private onBusMessage(data: Uint8Array): void {
    if (this.closed) return;
    let message: ReturnType<typeof decodeBusMessage>;
    try {
      message = decodeBusMessage(data);
    } catch (error) {
      this.deps.log.warn({ err: error, boardId: this.boardId }, 'undecodable bus message');
      return;
    }
    if (message.instance === this.deps.instanceId) return;
    this.instances.heard(message.instance);
    this.deps.metrics.busMessagesIn.inc();
    try {
      switch (message.type) {
        case BusMessageType.update: {
          const last = this.remoteSeq.get(message.instance);
          this.remoteSeq.set(message.instance, message.seq);
          Y.applyUpdate(this.doc, message.payload, this.busOrigin);
          // A gap means a message was lost on the way: repair in one round trip. So does an
          // update that waits on something this instance never received.
          if (last !== undefined && message.seq !== last + 1 && message.seq !== 1) this.requestSync('gap');
          else if (this.hasPending) this.requestSync('pending');
          return;
        }
        case BusMessageType.awareness:
          this.presence.applyRemote(message.instance, message.payload);
          return;
        case BusMessageType.syncRequest: {
          const diff = Y.encodeStateAsUpdate(this.doc, message.payload);
          this.publish(BusMessageType.syncReply, diff, 0, message.instance);
          // The newcomer also needs our presences, and we may lack what it has.
          const local = this.presence.encodeAll(true);
          if (local) this.publish(BusMessageType.awareness, local);
          return;
        }
        case BusMessageType.syncReply:
          if (message.target === this.deps.instanceId)
            Y.applyUpdate(this.doc, message.payload, this.busOrigin);
          return;
      }
    } catch (error) {
      this.deps.log.warn(
        { err: error, boardId: this.boardId, from: message.instance },
        'bus message failed to apply',
      );
    }
  }

  /** Forgets the presences of an instance whose heartbeat lapsed. */
  forgetInstance(instance: string): void {
    this.presence.removeInstance(instance);
    this.remoteSeq.delete(instance);
  }

  private queueFlush(): void {
    if (this.flushQueued || this.closed) return;
    this.flushQueued = true;
    setImmediate(() => this.flushOutgoing());
  }

  /**
   * Presence is sent at most once per tick, leading edge: a change in a room quiet for a tick
   * goes out this turn; changes that follow within the tick are merged and sent when it ends.
   */
  private schedulePresence(): void {
    if (this.presenceTimer || this.presenceDue || this.closed) return;
    const wait = this.lastPresenceFlush + PRESENCE_TICK_MS - performance.now();
    if (wait <= 0) {
      this.presenceDue = true;
      this.queueFlush();
      return;
    }
    this.presenceTimer = setTimeout(() => {
      this.presenceTimer = null;
      this.presenceDue = true;
      this.flushOutgoing();
    }, wait);
  }

  /**
   * Sends what this turn produced as one write per peer: the doc updates merged into one message
   * (several arrive in one turn under load) and, when due, the presence changes. Each message is
   * encoded once and the same bytes go to every peer.
   */
  private flushOutgoing(): void {
    this.flushQueued = false;
    let update: Uint8Array | null = null;
    let except: unknown = null;
    if (this.outgoing.length > 0) {
      const merged = this.outgoing.length === 1 ? this.outgoing[0]! : Y.mergeUpdates(this.outgoing);
      update = encodeUpdate(merged);
      // Updates from several peers in one turn go to everyone: Yjs ignores what a client has.
      except = this.outgoingOrigin === MIXED_ORIGINS ? null : this.outgoingOrigin;
      this.outgoing = [];
      this.outgoingOrigin = null;
    }
    let awareness: Uint8Array | null = null;
    if (this.presenceDue) {
      this.presenceDue = false;
      this.lastPresenceFlush = performance.now();
      const change = this.presence.takeChanges();
      if (change) {
        awareness = encodeAwarenessMessage(change.all);
        if (change.local && this.instances.othersAlive())
          this.publish(BusMessageType.awareness, change.local);
      }
    }
    if (!update && !awareness) return;
    const forEveryone: Uint8Array | Uint8Array[] =
      update && awareness ? [update, awareness] : (update ?? awareness)!;
    for (const peer of this.peers) {
      if (peer !== except) peer.send(forEveryone);
      else if (awareness) peer.send(awareness);
    }
  }

  /** Changes the role of a user's live connections (a viewer stops editing at once). */
  setRole(userId: string, role: Role | null, closeCode: number = CloseCode.NO_ACCESS): void {
    for (const peer of this.peers) {
      if (peer.userId !== userId) continue;
      if (role === null) peer.close(closeCode, 'access removed');
      else peer.role = role;
    }
  }

  closeAll(code: number, reason: string): void {
    for (const peer of [...this.peers]) peer.close(code, reason);
  }

  /** Stores what is pending; rejects if the store is down (the edits stay queued). */
  flush(): Promise<void> {
    return this.persister.flush();
  }

  get pendingWrites(): number {
    return this.persister.pending;
  }

  private closing: Promise<void> | null = null;

  /** Stores pending edits, leaves the bus and frees the doc. Safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= this.doClose().catch((error: unknown) => {
      this.closing = null;
      throw error;
    });
    return this.closing;
  }

  private async doClose(): Promise<void> {
    await this.flush();
    this.closed = true;
    if (this.presenceTimer) clearTimeout(this.presenceTimer);
    this.presenceDue = true;
    this.flushOutgoing();
    this.persister.close();
    await this.unsubscribe?.().catch(() => undefined);
    this.doc.destroy();
  }
}
