// A Room is one open board on this instance: its Y.Doc, the connections (peers) editing it,
// their presence, its persistence, and its channel to the other instances. It knows nothing of
// WebSockets: a Peer is anything that can send bytes and be closed.
import { CloseCode, canEditBoard, encodeSavedMessage, type PresenceUser, type Role } from '@tandem/shared';
import type { Logger } from 'pino';
import * as Y from 'yjs';
import { connectionRole } from '../auth/access.ts';
import type { Bus } from '../bus/bus.ts';
import { BusMessageType, boardChannel, decodeBusMessage, encodeBusMessage } from '../bus/protocol.ts';
import type { Config } from '../config.ts';
import type { HistoryHooks } from '../history/recorder.ts';
import type { Metrics } from '../metrics.ts';
import { type DocStore, partsOf } from '../store/store.ts';
import { DocPersister, type QueuedUpdate, RETRY_MAX_MS } from './persister.ts';
import { RoomPresence } from './presence.ts';
import {
  encodeAwarenessMessage,
  encodeSyncStep1,
  encodeSyncStep2,
  encodeUpdate,
  ProtocolError,
  parseClientMessage,
} from './protocol.ts';
import {
  addedSince,
  appliedStructs,
  appliedWhole,
  checkUpdate,
  continuesDoc,
  hasPendingUpdates,
  joinUpdates,
  mergeInBulk,
  type UpdateClocks,
  type UpdateLayout,
  updateHasNewContent,
} from './updates.ts';

export interface Peer {
  readonly id: number;
  readonly userId: string;
  /** Who the connection authenticated as; presence states are stamped with it. */
  readonly user: PresenceUser;
  role: Role;
  /** The most this connection's credential allows (a token's role; 'owner' for a session). */
  readonly credentialRole: Role;
  /** Awareness client ids this connection introduced (it may only change those). */
  readonly clientIds: Set<number>;
  /** Sends one message, or several written together. */
  send(message: Uint8Array | Uint8Array[]): void;
  /**
   * Sends the answer to a sync request: now, or, while the previous answer is still queued on this
   * side (the client has not read it), once it has left, and then only for the latest request.
   * `encode` returns null when there is nothing to send (the connection was closed for it).
   */
  answer(encode: () => Uint8Array | null): void;
  close(code: number, reason: string): void;
}

export interface RoomDeps {
  store: DocStore;
  bus: Bus;
  config: Config;
  log: Logger;
  metrics: Metrics;
  instanceId: string;
  /** Version history: told when the board is edited and when it closes here. */
  history?: HistoryHooks;
  /** Merges a big board's compaction off the main thread (the history worker). */
  mergeOffThread?: (parts: Uint8Array[]) => Promise<Uint8Array>;
}

/**
 * The origin of a change the server makes on a user's behalf (a restore, a revert): stored and
 * relayed like a client's edit, attributed to that user, sent to every client.
 */
export class ServerChange {
  constructor(readonly userId: string) {}
}

/** What a room learns from, and asks of, the instance-wide view of the other instances. */
export interface InstanceView {
  /** Whether any other instance is alive on the bus: alone, a room publishes nothing but sync requests. */
  othersAlive(): boolean;
  /** How many other instances are alive on the bus. */
  othersCount(): number;
  /** Any message from an instance proves it alive. */
  heard(instance: string): void;
}

/** Origins of changes that this instance must not store or publish again. */
const STORE_ORIGIN = Symbol('store');
/** An update another instance relayed: held until that instance confirms it stored it. */
const BUS_ORIGIN = Symbol('bus');
/** A sync reply: a difference from wherever; stored by this instance, not published. */
const SYNC_ORIGIN = Symbol('sync reply');
/**
 * A bus message applied while client updates wait for missing dependencies: the transaction may
 * integrate those waiting client structs too, and they reached no other instance and no store.
 * Such a transaction is stored and published like a client's (duplicates are harmless in Yjs).
 */
const MIXED_ORIGINS = Symbol('several origins');
/**
 * What a catch-up read from the Store and this room lacked: sent to this room's clients, neither
 * stored again nor published (each instance that may lack it catches up itself).
 */
const CATCH_UP_ORIGIN = Symbol('store catch-up');
const BUS_RESOLVING_ORIGIN = Symbol('bus, resolving pending client updates');

/** How long presence changes are merged before one message goes out. */
export const PRESENCE_TICK_MS = 25;
/**
 * A board's size is measured again (Room.remeasureIfDue) at most once per this many times the
 * last measure took, unless a quarter of it or more was added since.
 */
const MEASURE_EVERY_COST = 100;
/** Bytes of updates waiting for missing dependencies before the sender is cut off. */
const MAX_PENDING_BYTES = 1024 * 1024;
/** Reads a catch-up from the Store retries (with backoff) before it gives up. */
const CATCH_UP_ATTEMPTS = 6;
/** How long to wait for the bus when opening a board before serving it from the Store alone. */
export const SUBSCRIBE_WAIT_MS = 1000;

/** An update another instance relayed, kept until it confirms it stored it (or is presumed dead). */
type HeldUpdate = QueuedUpdate;

export class Room {
  /** The guid is only a name (it matters for subdocuments, which boards do not use): no uuid drawn per load. */
  readonly doc: Y.Doc;
  readonly peers = new Set<Peer>();
  readonly presence: RoomPresence;
  /**
   * The board's size for MAX_DOC_BYTES: its encoded state (Y.encodeStateAsUpdate) when last
   * measured, plus every update applied since, an upper bound that only grows. Summing updates
   * alone counts what a later change deleted or overwrote again and again (a shape moved 6,000
   * times, a board restored to a full and an empty version in turn), until a board a tenth of the
   * limit refuses every edit; so before refusing one the room measures again (remeasureIfDue).
   * Loaded from the Store it starts as the stored parts' sum, unmeasured.
   */
  sizeBytes = 0;
  /** Bytes counted into sizeBytes since it was last measured (all of it until the first measure). */
  private unmeasuredBytes = 0;
  /** When (performance.now()) measuring again is allowed, whatever grew since. */
  private measureAllowedAt = 0;
  private readonly persister: DocPersister;
  private unsubscribe: (() => Promise<void>) | null = null;
  private seq = 0;
  private readonly remoteSeq = new Map<string, number>();
  /** Per origin instance, what it relayed and has not confirmed stored, oldest first. */
  private readonly held = new Map<string, HeldUpdate[]>();
  /** The highest of our bus seqs announced as stored. */
  private announcedSeq = 0;
  /**
   * Saved marks: every update this room must see stored (its own queue, what it holds for other
   * instances) takes the next mark; whenStored() waits for every mark up to the one current when
   * it was called to be stored or confirmed.
   */
  private mark = 0;
  /** Opened without the bus (it was unreachable): served from the Store alone until it returns. */
  degraded = false;
  /** Sync step 2 with the whole board, kept until the next change: most joins start from an empty client. */
  private fullAnswer: Uint8Array | null = null;
  private presenceTimer: NodeJS.Timeout | null = null;
  /** Doc updates applied this turn, sent merged in one message when the turn ends. */
  private outgoing: Uint8Array[] = [];
  /** The one origin of this turn's updates (not sent back to it), or MIXED_ORIGINS. */
  private outgoingOrigin: unknown = null;
  private flushQueued = false;
  private presenceDue = false;
  private lastPresenceFlush = 0;
  private closed = false;
  /** Per peer, the newest "saved?" request that waits behind the one already waiting on the Store. */
  private readonly savedWaits = new WeakMap<Peer, { next: number | null }>();

  private constructor(
    readonly boardId: string,
    private readonly deps: RoomDeps,
    private readonly instances: InstanceView,
  ) {
    this.doc = new Y.Doc({ guid: boardId });
    this.presence = new RoomPresence(
      () => this.schedulePresence(),
      (owner, reason) =>
        deps.log.warn(
          { boardId, peer: (owner as Peer).id, userId: owner.userId, reason },
          'presence state dropped (logged once per connection and reason)',
        ),
    );
    this.persister = new DocPersister(
      boardId,
      deps.store,
      {
        debounceMs: deps.config.persistDebounceMs,
        maxDelayMs: deps.config.persistMaxDelayMs,
        onStored: (stored) => this.onStored(stored),
        mergeOffThread: deps.mergeOffThread,
      },
      deps.log,
      deps.metrics,
      // Deleted while open (the deletion's bus message may never have arrived): everyone leaves.
      () => this.closeAll(CloseCode.NO_SUCH_BOARD, 'board deleted'),
    );
    this.doc.on('update', this.onUpdate);
  }

  private readonly onUpdate = (update: Uint8Array, origin: unknown) => this.onDocUpdate(update, origin);

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
    const parts = partsOf(stored);
    for (const part of parts) {
      // A stored update that does not decode means the stored board is damaged: refuse to open
      // it rather than serve (and later overwrite) a partial board.
      Y.decodeUpdate(part);
      Y.applyUpdate(room.doc, part, STORE_ORIGIN);
      room.sizeBytes += part.length;
      room.unmeasuredBytes += part.length;
    }
    if (room.hasPending) {
      // Served anyway: a client that holds the missing part sends it on sync. Refusing would
      // make the board unusable forever.
      deps.log.warn({ boardId }, 'stored board has updates whose dependencies are missing');
    }
    await room.subscribe();
    return room;
  }

  /**
   * Subscribes to the board's bus channel and asks the others for what the Store lacks. When the
   * bus does not answer promptly (Redis down or hung), the board is served from the Store alone
   * (degraded) and resyncs, both ways, once the subscription comes through.
   */
  private async subscribe(): Promise<void> {
    const { bus, log } = this.deps;
    const subscribing = bus.subscribe(boardChannel(this.boardId), (data) => this.onBusMessage(data));
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      subscribing.then(
        () => true,
        () => false,
      ),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), bus.isHealthy() ? SUBSCRIBE_WAIT_MS : 0);
      }),
    ]);
    clearTimeout(timer);
    void subscribing.then(
      (unsubscribe) => {
        this.unsubscribe = unsubscribe;
        if (this.closed) {
          void unsubscribe().catch(() => undefined);
          return;
        }
        if (!this.degraded) return;
        this.degraded = false;
        this.deps.metrics.degradedRooms.dec();
        log.info({ boardId: this.boardId }, 'bus back: board resyncing with the other instances');
        this.requestSync('bus returned', true);
      },
      (err: unknown) => log.warn({ err, boardId: this.boardId }, 'subscribing to the board channel failed'),
    );
    if (!inTime) {
      this.degraded = true;
      this.deps.metrics.degradedRooms.inc();
      log.warn(
        { boardId: this.boardId },
        'bus unreachable: board served from the Store alone on this instance until the bus returns',
      );
    }
    this.requestSync('open');
  }

  private get hasPending(): boolean {
    return hasPendingUpdates(this.doc);
  }

  /** The origin for applying an update that came over the bus. */
  private get busOrigin(): symbol {
    return this.hasPending ? BUS_RESOLVING_ORIGIN : BUS_ORIGIN;
  }

  get isEmpty(): boolean {
    return this.peers.size === 0 && this.holds === 0;
  }

  /** Connections or server work (a restore) using the room; it is not unloaded while any is. */
  private holds = 0;

  /** Keeps the room open without a connection until the returned function is called. */
  keepOpen(): () => void {
    this.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
    };
  }

  /**
   * Changes the board on `userId`'s behalf in one transaction: every client here gets it at once,
   * the other instances over the Bus, and it is stored attributed to that user.
   */
  change(userId: string, fn: (doc: Y.Doc) => void): void {
    this.applyIncoming();
    this.doc.transact(() => fn(this.doc), new ServerChange(userId));
  }

  join(peer: Peer): void {
    this.peers.add(peer);
    peer.send(encodeSyncStep1(Y.encodeStateVector(this.doc)));
    const everyone = this.presence.encodeAll();
    if (everyone) peer.send(encodeAwarenessMessage(everyone));
  }

  leave(peer: Peer): void {
    // What it sent before leaving is an edit like any other.
    this.applyIncoming();
    if (!this.peers.delete(peer)) return;
    this.presence.removeOwner(peer);
  }

  /** One message from a peer. Malformed input closes only that peer; the doc is never touched. */
  receive(peer: Peer, data: Uint8Array): void {
    let message: ReturnType<typeof parseClientMessage>;
    try {
      message = parseClientMessage(data);
    } catch (error) {
      this.applyIncoming();
      this.reject(peer, CloseCode.UNDECODABLE, (error as Error).message);
      return;
    }
    if (message.kind === 'update' || message.kind === 'step2') {
      this.takeFromPeer(peer, message.update);
      return;
    }
    // Whatever else arrives sees every edit received before it applied (a sync answer holds
    // them, a save request waits for them).
    this.applyIncoming();
    switch (message.kind) {
      case 'step1': {
        // Encoded only when the peer can take it: a client that asks again and again without
        // reading costs one answer, not one whole board per request.
        const { stateVector } = message;
        peer.answer(() => {
          if (!this.peers.has(peer)) return null;
          try {
            return this.answerFor(stateVector);
          } catch (error) {
            this.reject(peer, CloseCode.UNDECODABLE, (error as Error).message);
            return null;
          }
        });
        return;
      }
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
      case 'saveRequest':
        this.answerWhenStored(peer, message.id);
        return;
    }
  }

  /**
   * Everything this peer sent before the request has been applied by now (one socket, in order),
   * so once the room's edits up to now are stored, so are the peer's. An edit still waiting for
   * missing dependencies is not in the doc, let alone stored: no answer then (the client asks
   * again), rather than a false "saved". A peer has at most one answer waiting on the Store: a
   * request that arrives meanwhile is answered after it, by a wait that starts then (so a client
   * asking often while the Store is down holds one promise, not thousands).
   */
  private answerWhenStored(peer: Peer, id: number): void {
    if (this.hasPending) return;
    const waiting = this.savedWaits.get(peer);
    if (waiting) {
      waiting.next = id;
      return;
    }
    const wait = { next: null as number | null };
    this.savedWaits.set(peer, wait);
    void this.whenStored().then(() => {
      this.savedWaits.delete(peer);
      if (!this.peers.has(peer)) return;
      peer.send(encodeSavedMessage(id));
      if (wait.next !== null) this.answerWhenStored(peer, wait.next);
    });
  }

  /** Sync step 2 for a state vector. */
  private answerFor(stateVector: Uint8Array): Uint8Array {
    // An empty state vector (a fresh client) is one byte, 0: answer from the cache, the same
    // bytes each time, so that the answers queued for many joiners share one buffer.
    if (stateVector.length === 1 && stateVector[0] === 0) {
      this.fullAnswer ??= encodeSyncStep2(Y.encodeStateAsUpdate(this.doc));
      return this.fullAnswer;
    }
    let update: Uint8Array;
    try {
      update = Y.encodeStateAsUpdate(this.doc, stateVector);
    } catch {
      throw new ProtocolError('malformed state vector');
    }
    return encodeSyncStep2(update);
  }

  /**
   * An update from a peer, checked now and applied with the others that peer sent in the same
   * turn (a client catching up or pasting sends hundreds in one read): one transaction, so one
   * Yjs cleanup, one relayed message, one bus message and one queued write for all of them,
   * instead of one of each per update. Applied before anything else touches the doc or answers
   * the peer (applyIncoming), and at the latest in the microtask after the socket's read.
   */
  private takeFromPeer(peer: Peer, update: Uint8Array): void {
    if (this.incomingPeer !== peer) this.applyIncoming();
    let layout: UpdateLayout;
    try {
      // Checked before applying: a malformed update must not leave half of itself behind.
      layout = checkUpdate(update);
    } catch (error) {
      this.applyIncoming();
      this.reject(peer, CloseCode.UNDECODABLE, `undecodable update: ${(error as Error).message}`);
      return;
    }
    if (!canEditBoard(peer.role)) {
      // A stock client answers the server's sync step 1 even when it has nothing to add.
      if (updateHasNewContent(this.doc, update))
        this.reject(peer, CloseCode.NO_ACCESS, 'viewers and commenters cannot edit');
      return;
    }
    // Another instance may be taking an update at this very moment that this one has not seen
    // yet: while others are alive, an update is taken only if the board would still fit were
    // each of them to take one as large at once (docs/security.md, "Board size across instances").
    const limit = this.deps.config.maxDocBytes;
    const instances = 1 + this.instances.othersCount();
    const incoming = this.incomingBytes + update.length;
    if (this.sizeBytes + incoming * instances > limit) {
      this.applyIncoming();
      if (this.sizeBytes + update.length * instances > limit) this.remeasureIfDue();
      if (this.sizeBytes + update.length * instances > limit && updateHasNewContent(this.doc, update)) {
        this.reject(peer, CloseCode.BOARD_TOO_LARGE, 'board over its size limit');
        return;
      }
    }
    this.incoming.push(update);
    this.incomingLayouts.push(layout);
    this.incomingBytes += update.length;
    if (this.incomingPeer === null) {
      this.incomingPeer = peer;
      queueMicrotask(this.applyIncomingLater);
    }
  }

  /**
   * Measures the board's encoded size again when the estimate may be stale by much: a quarter or
   * more of it was counted since the last measure (so the cost of measuring stays a constant
   * share of the bytes taken in, however the board grows), or it was last measured long enough
   * ago that measuring again costs under 1 % of the thread (what a big deletion, which counts
   * little, needs). Encoding a board takes about a millisecond per 200 KB.
   */
  private remeasureIfDue(): void {
    const now = performance.now();
    const measured = this.sizeBytes - this.unmeasuredBytes;
    if (this.unmeasuredBytes * 4 < measured && now < this.measureAllowedAt) return;
    const size = Y.encodeStateAsUpdate(this.doc).length;
    const took = performance.now() - now;
    this.sizeBytes = size;
    this.unmeasuredBytes = 0;
    this.measureAllowedAt = now + took * MEASURE_EVERY_COST;
    this.deps.metrics.docSizeMeasures.inc();
  }

  /** Updates taken from `incomingPeer` and not applied yet, in the order it sent them. */
  private incoming: Uint8Array[] = [];
  private incomingLayouts: UpdateLayout[] = [];
  /**
   * Set while a peer's updates are applied to a doc where something waited for a missing
   * dependency: what they complete (another client's edit that waited) is in the update Yjs emits
   * too, and the peer does not have it, so that update goes to every peer, the sender included.
   * (The durability harness found it, seed 595735680: a client that moved to another instance
   * never got an edit that had waited there until its own sync step 2 completed it.)
   */
  private resolvingPending = false;
  private incomingBytes = 0;
  private incomingPeer: Peer | null = null;
  private readonly applyIncomingLater = () => this.applyIncoming();

  /** Applies the updates taken from one peer (see takeFromPeer) in one transaction. */
  private applyIncoming(): void {
    const peer = this.incomingPeer;
    if (peer === null) return;
    const updates = this.incoming;
    const layouts = this.incomingLayouts;
    this.incoming = [];
    this.incomingLayouts = [];
    this.incomingBytes = 0;
    this.incomingPeer = null;
    if (this.closed) return;
    this.resolvingPending = this.hasPending;
    try {
      if (updates.length === 1) this.applyFromPeer(updates[0]!, layouts[0]!, peer);
      else this.applyMany(updates, layouts, peer);
    } catch (error) {
      this.deps.log.warn({ err: error, boardId: this.boardId, peer: peer.id }, 'update failed to apply');
      this.reject(peer, CloseCode.UNDECODABLE, 'update failed to apply');
      return;
    } finally {
      this.resolvingPending = false;
    }
    this.checkPending(peer);
  }

  /** A peer's updates in one transaction: joined into one update when they can be (joinUpdates). */
  private applyMany(updates: Uint8Array[], layouts: UpdateLayout[], peer: Peer): void {
    const joined = joinUpdates(updates, layouts);
    if (joined) {
      try {
        this.applyFromPeer(joined.update, joined.clocks, peer);
        return;
      } catch {
        // One of them is refused (say, a string that is not UTF-8) while Yjs reads, before it
        // integrates anything: applied one by one below, the ones before it are kept, as they
        // were before joining, and the refused one throws again (the peer is closed).
      }
    }
    this.doc.transact(() => {
      for (const update of updates) Y.applyUpdate(this.doc, update, peer);
    }, peer);
  }

  /**
   * Applies a peer's update. When it simply continues the doc (continuesDoc: the next clocks of
   * its client, nothing waiting), what it adds is the update itself: Yjs is kept from encoding
   * the transaction's changes again (a tenth of taking in a burst of edits, and work on every
   * relayed edit), and the update goes out, to the peers, the Bus and the Store, as the peer sent
   * it. If after all not everything was integrated (a struct waits for another client's item), or
   * applying threw part way, what was integrated goes out instead, as Yjs would have sent it.
   */
  private applyFromPeer(update: Uint8Array, layout: UpdateClocks, peer: Peer): void {
    if (!continuesDoc(this.doc, layout)) {
      Y.applyUpdate(this.doc, update, peer);
      return;
    }
    let deleted = false;
    this.doc.off('update', this.onUpdate);
    try {
      this.doc.transact((transaction) => {
        try {
          Y.applyUpdate(this.doc, update, peer);
        } finally {
          deleted = transaction.deleteSet.clients.size > 0;
        }
      }, peer);
    } finally {
      this.doc.on('update', this.onUpdate);
      if (deleted || appliedStructs(this.doc, layout))
        this.onDocUpdate(appliedWhole(this.doc, layout) ? update : addedSince(this.doc, layout), peer);
    }
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
    this.fullAnswer = null;
    if (origin === STORE_ORIGIN) return;
    this.sizeBytes += update.length;
    this.unmeasuredBytes += update.length;
    this.outgoing.push(update);
    const oneOrigin = this.outgoing.length === 1 || this.outgoingOrigin === origin;
    this.outgoingOrigin = oneOrigin && !this.resolvingPending ? origin : MIXED_ORIGINS;
    this.queueFlush();
    // Relayed by another instance: held (the raw message) until that instance confirms it.
    // Read from the Store by a catch-up: stored already.
    if (origin === BUS_ORIGIN || origin === CATCH_UP_ORIGIN) return;
    const userId = this.peers.has(origin as Peer)
      ? (origin as Peer).userId
      : origin instanceof ServerChange
        ? origin.userId
        : null;
    let seq = 0;
    // The instance that received an edit from a client stores it and tells the others (when
    // there are any: an instance that appears later asks for what it lacks when it opens the
    // board). A sync reply is stored here too (its sender may die before storing it) but not
    // published: the other instances ask for what they lack themselves.
    if (origin !== SYNC_ORIGIN) {
      if (this.instances.othersAlive()) {
        this.seq += 1;
        seq = this.seq;
        this.publish(BusMessageType.update, update, seq, '', userId ?? '');
      } else this.unpublished = true;
    }
    this.persister.enqueue({ update, userId, at: Date.now(), seq, mark: ++this.mark });
    this.deps.history?.edited(this.boardId);
  }

  private publish(type: BusMessageType, payload: Uint8Array, seq = 0, target = '', user = ''): void {
    this.deps.metrics.busMessagesOut.inc();
    this.deps.bus.publish(
      boardChannel(this.boardId),
      encodeBusMessage({ type, instance: this.deps.instanceId, seq, target, payload, user }),
    );
  }

  /**
   * Asks every other instance with this board open for the updates this one lacks. With
   * `reciprocate`, each of them also asks back, so both sides catch up (after a lapse or a bus
   * outage nobody published to the other side).
   */
  requestSync(reason: string, reciprocate = false): void {
    if (this.closed) return;
    this.deps.metrics.busResyncs.inc({ reason });
    this.publish(BusMessageType.syncRequest, Y.encodeStateVector(this.doc), reciprocate ? 1 : 0);
  }

  /** Edits were applied while no other instance was known: nobody else has them. */
  private unpublished = false;

  /** Another instance appeared: if edits went unpublished meanwhile, sync both ways. */
  shareWhatWasUnpublished(): void {
    if (!this.unpublished) return;
    this.unpublished = false;
    this.requestSync('unpublished', true);
  }

  /** The persister stored these: confirm our published ones to the others, and saved peers. */
  private onStored(stored: readonly QueuedUpdate[]): void {
    let top = 0;
    for (const item of stored) top = Math.max(top, item.seq);
    if (top > this.announcedSeq) {
      this.announcedSeq = top;
      // Alone, nobody holds anything of ours (one presumed dead but alive stores it after a while).
      if (!this.closed && this.instances.othersAlive())
        this.publish(BusMessageType.stored, new Uint8Array(0), top);
    }
    this.checkSaved();
  }

  /**
   * Stores, as this instance's own, what another instance relayed and has not confirmed: all of
   * it when that instance is presumed dead or this room closes, else what is older than `olderThan`
   * (its origin should have stored it by then). Duplicates in the Store are harmless in Yjs.
   */
  adopt(instance: string | null, reason: string, olderThan = Number.POSITIVE_INFINITY): void {
    let count = 0;
    for (const [origin, list] of this.held) {
      if (instance !== null && origin !== instance) continue;
      let taken = 0;
      while (taken < list.length && list[taken]!.at < olderThan) {
        const item = list[taken]!;
        this.persister.enqueue({ ...item, seq: 0 });
        taken += 1;
      }
      if (taken === 0) continue;
      count += taken;
      if (taken === list.length) this.held.delete(origin);
      else list.splice(0, taken);
    }
    if (count === 0) return;
    this.deps.metrics.adoptedUpdates.inc({ reason }, count);
    this.deps.log.info(
      { boardId: this.boardId, instance, count, reason },
      'storing updates another instance relayed but did not confirm',
    );
  }

  /** Marks up to which everything this room holds is stored (or confirmed by its origin). */
  savedMark(): number {
    let lowest = Number.POSITIVE_INFINITY;
    for (const item of this.persister.unstored) lowest = Math.min(lowest, item.mark);
    for (const list of this.held.values()) if (list[0]) lowest = Math.min(lowest, list[0].mark);
    return lowest === Number.POSITIVE_INFINITY ? this.mark : lowest - 1;
  }

  private checkSaved(): void {
    if (this.storedWaiters.length === 0) return;
    const saved = this.savedMark();
    const still = this.storedWaiters.filter((waiter) => waiter.upTo > saved);
    const done = this.storedWaiters.filter((waiter) => waiter.upTo <= saved);
    this.storedWaiters = still;
    for (const waiter of done) waiter.resolve();
  }

  private onBusMessage(data: Uint8Array): void {
    if (this.closed) return;
    this.applyIncoming();
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
          this.hold(message.instance, message.payload, message.seq, message.user || null);
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
          if (message.seq === 1) this.requestSync('asked back');
          return;
        }
        case BusMessageType.syncReply:
          if (message.target === this.deps.instanceId)
            Y.applyUpdate(this.doc, message.payload, this.hasPending ? BUS_RESOLVING_ORIGIN : SYNC_ORIGIN);
          return;
        case BusMessageType.stored:
          this.confirm(message.instance, message.seq);
          return;
        case BusMessageType.catchUp:
          this.catchUpFromStore('hint');
          return;
      }
    } catch (error) {
      this.deps.log.warn(
        { err: error, boardId: this.boardId, from: message.instance },
        'bus message failed to apply',
      );
    }
  }

  private hold(instance: string, update: Uint8Array, seq: number, userId: string | null): void {
    let list = this.held.get(instance);
    if (!list) {
      list = [];
      this.held.set(instance, list);
    }
    list.push({ update, userId, at: Date.now(), seq, mark: ++this.mark });
  }

  /** `instance` stored everything it published up to `seq`: forget what we held of it. */
  private confirm(instance: string, seq: number): void {
    const list = this.held.get(instance);
    if (!list) return;
    // Sequence numbers restart when that instance reopens the board; anything numbered at or
    // below `seq` from before was stored by its flush on unload.
    const rest = list.filter((item) => item.seq > seq);
    if (rest.length === list.length) return;
    if (rest.length > 0) this.held.set(instance, rest);
    else this.held.delete(instance);
    this.checkSaved();
  }

  private catchingUp = false;
  private catchUpAgain = false;

  /**
   * Reads the board from the Store and applies what this room lacks. The repair for edits that
   * are in the Store but never reached this instance over the bus: published into a bus outage
   * (at either end) by an instance that has since unloaded the board or died, so no sync request
   * can reach them. A request while one read runs costs one more read after it (the first may
   * have begun before the write it is meant to see). Retries while the Store is unreachable.
   */
  catchUpFromStore(reason: string): void {
    if (this.closed) return;
    if (this.catchingUp) {
      this.catchUpAgain = true;
      return;
    }
    this.catchingUp = true;
    this.deps.metrics.storeCatchUps.inc({ reason });
    void this.catchUp()
      .catch((err: unknown) =>
        this.deps.log.warn({ err, boardId: this.boardId, reason }, 'catching up from the Store failed'),
      )
      .finally(() => {
        this.catchingUp = false;
        if (!this.catchUpAgain) return;
        this.catchUpAgain = false;
        this.catchUpFromStore(reason);
      });
  }

  private async catchUp(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (this.closed) return;
      let stored: Awaited<ReturnType<DocStore['loadDoc']>>;
      try {
        stored = await this.deps.store.loadDoc(this.boardId);
      } catch (error) {
        if (attempt >= CATCH_UP_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MAX_MS, 500 * 2 ** attempt)));
        continue;
      }
      if (this.closed) return;
      const parts = partsOf(stored);
      if (parts.length === 0) return;
      const missing = Y.diffUpdate(mergeInBulk(parts), Y.encodeStateVector(this.doc));
      Y.applyUpdate(this.doc, missing, this.hasPending ? BUS_RESOLVING_ORIGIN : CATCH_UP_ORIGIN);
      return;
    }
  }

  /** An instance whose heartbeat lapsed: forget its presences, store what it did not confirm. */
  forgetInstance(instance: string): void {
    this.presence.removeInstance(instance);
    this.remoteSeq.delete(instance);
    this.adopt(instance, 'lapsed');
    // What it stored but could not relay (its bus was down) is only in the Store now.
    this.catchUpFromStore('lapsed');
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
   * Sends what this turn produced as one write per peer: the doc updates (several arrive in one
   * turn under load), one sync message each, and, when due, the presence changes. Each message is
   * encoded once and the same bytes go to every peer. The updates are not merged into one: merging
   * decodes and re-encodes every one of them (the largest item of a fanout profile), and a client
   * applies a few small messages written together as cheaply as one merged message.
   */
  private flushOutgoing(): void {
    this.flushQueued = false;
    let updates: Uint8Array[] | null = null;
    let except: unknown = null;
    if (this.outgoing.length > 0) {
      if (this.presenceTimer) {
        // Presence changes waiting for the end of their tick ride along in this turn's write
        // instead of costing every peer a write of their own a few ms later: writes are most of
        // a busy room's CPU (a fanout profile: the socket write 36 % of self time).
        clearTimeout(this.presenceTimer);
        this.presenceTimer = null;
        this.presenceDue = true;
      }
      updates = this.outgoing.map(encodeUpdate);
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
    if (!updates && !awareness) return;
    const forEveryone: Uint8Array | Uint8Array[] = updates
      ? awareness
        ? [...updates, awareness]
        : updates.length === 1
          ? updates[0]!
          : updates
      : awareness!;
    for (const peer of this.peers) {
      if (peer !== except) peer.send(forEveryone);
      else if (awareness) peer.send(awareness);
    }
  }

  /**
   * A user's membership changed to `membership` (null: removed): each of their live connections
   * follows at once, by the one access rule (auth/access.ts), so a viewer stops editing and a
   * viewer token stays a viewer token when its user is promoted.
   */
  setRole(userId: string, membership: Role | null, closeCode: number = CloseCode.NO_ACCESS): void {
    for (const peer of this.peers) {
      if (peer.userId !== userId) continue;
      const role = connectionRole(membership, peer.credentialRole);
      if (role === null) peer.close(closeCode, 'access removed');
      else peer.role = role;
    }
  }

  closeAll(code: number, reason: string): void {
    for (const peer of [...this.peers]) peer.close(code, reason);
  }

  /**
   * Stores everything this room holds: its own queue and what other instances relayed and have
   * not confirmed yet. Rejects if the store is down (the edits stay queued).
   */
  async flush(): Promise<void> {
    this.applyIncoming();
    do {
      this.adopt(null, 'flush');
      await this.persister.flush();
    } while (this.held.size > 0 || this.persister.pending > 0);
  }

  /**
   * Resolves once everything this room holds now is in the Store: its own queue, and what other
   * instances relayed and have not confirmed yet (a client whose update brought nothing new,
   * because another instance relayed it first, is saved only when that is stored). Never
   * rejects; stays pending while the store is down.
   */
  whenStored(): Promise<void> {
    this.applyIncoming();
    const upTo = this.mark;
    if (this.savedMark() >= upTo) return Promise.resolve();
    return new Promise((resolve) => this.storedWaiters.push({ upTo, resolve }));
  }

  private storedWaiters: { upTo: number; resolve: () => void }[] = [];

  get pendingWrites(): number {
    return this.persister.pending;
  }

  /**
   * Every edit this room holds is stored: none queued, none being written, none relayed by
   * another instance and unconfirmed.
   */
  get stored(): boolean {
    return this.persister.settled && this.held.size === 0;
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
    // What the others relayed and have not confirmed is in no Store yet as far as this room
    // knows: storing it (again, perhaps) is the price of forgetting it safely. flush() does that.
    await this.flush();
    await this.deps.history?.closing(this.boardId);
    this.closed = true;
    if (this.presenceTimer) clearTimeout(this.presenceTimer);
    this.presenceDue = true;
    this.flushOutgoing();
    this.persister.close();
    if (this.degraded) this.deps.metrics.degradedRooms.dec();
    this.degraded = false;
    // A bus that does not answer (Redis down or hung) must not hold up the unload or a shutdown.
    const unsubscribe = this.unsubscribe?.().catch(() => undefined);
    if (unsubscribe)
      await Promise.race([unsubscribe, new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS))]);
    this.doc.destroy();
  }
}
