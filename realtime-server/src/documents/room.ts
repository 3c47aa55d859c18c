// A Room is one open board on this instance: its Y.Doc, the connections (peers) editing it, and
// the parts that serve them, each in its own file. The Room wires them and speaks the sync
// protocol; docs/architecture.md ("A newcomer's map") follows an edit through them in order:
//   Ingest        (ingest.ts)      a client's update: checked, batched per turn, applied
//   routeOf       (origins.ts)     what the room does with a change, by where it came from
//   Fanout        (fanout.ts)      sent to the other peers at the end of the turn, with presence
//   Replication   (replication.ts) published to the other instances, held for them, sync requests
//   DocPersister  (persister.ts)   written to the Store, debounced and batched
//   SavedTracker  (saved.ts)       "All changes saved" once every mark up to now is stored
// with DocSize (size.ts, the board's size for MAX_DOC_BYTES), StoreCatchUp (catchUp.ts, what the
// Store has and the bus never brought) and RoomPresence (presence.ts). It knows nothing of
// WebSockets: a Peer (peer.ts) is anything that can send bytes and be closed.
import { CloseCode, integrationLimits, pageOf, type Role } from '@tandem/shared';
import type { Logger } from 'pino';
import * as Y from 'yjs';
import { connectionRole } from '../auth/access.ts';
import type { Bus } from '../bus/bus.ts';
import type { Config } from '../config.ts';
import type { HistoryHooks } from '../history/recorder.ts';
import type { Metrics } from '../metrics.ts';
import { type DocStore, partsOf } from '../store/store.ts';
import { changedShapeIds } from '../webhooks/boardChanges.ts';
import { AnonymousViewers } from './anonymousViewers.ts';
import { BotPresence } from './botPresence.ts';
import { StoreCatchUp } from './catchUp.ts';
import { Fanout } from './fanout.ts';
import { Ingest } from './ingest.ts';
import { hasPendingUpdates } from './internals.ts';
import { applyUpdate, LOAD, onBehalfOf, routeOf, type TransactionOrigin, transact } from './origins.ts';
import type { Peer } from './peer.ts';
import { DocPersister } from './persister.ts';
import { RoomPresence } from './presence.ts';
import {
  encodeAwarenessMessage,
  encodeSyncStep1,
  encodeSyncStep2,
  ProtocolError,
  parseClientMessage,
} from './protocol.ts';
import { type InstanceView, Replication } from './replication.ts';
import { SavedTracker } from './saved.ts';
import type { SaveHealth } from './saveHealth.ts';
import { DocSize } from './size.ts';
import { mapInTurns } from './turns.ts';

/** How long a server-side change in slices (Room.changeInTurns) may hold the thread per turn. */
const TURN_BUDGET_MS = 5;

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
  /**
   * Told which shapes each change this instance stores changed, and who changed them (webhooks'
   * board.updated). Only changes stored here: each edit is stored by one instance, so counted once.
   */
  changes?: (boardId: string, pageId: string, userId: string, shapeIds: string[]) => void;
  /** Told whether each of the board's writes to the Store succeeded (for /readyz). */
  saves?: SaveHealth;
}

/** Rooms opened by this process so far (Room.version). */
let roomsOpened = 0;

export class Room {
  /** The guid is only a name (it matters for subdocuments, which boards do not use): no uuid drawn per load. */
  readonly doc: Y.Doc;
  readonly peers = new Set<Peer>();
  readonly presence: RoomPresence;
  /** The cursors of writers that are not connections (integrations, docs/api.md §15). */
  readonly bots: BotPresence;
  /** The count of anonymous viewers here, shown to the others as one presence state (§16). */
  readonly anonymousViewers: AnonymousViewers;
  readonly size: DocSize;
  private readonly ingest: Ingest;
  private readonly fanout: Fanout;
  private readonly replication: Replication;
  private readonly persister: DocPersister;
  private readonly saved: SavedTracker;
  private readonly catchUp: StoreCatchUp;
  /** Sync step 2 with the whole board, kept until the next change: most joins start from an empty client. */
  private fullAnswer: Uint8Array | null = null;
  /** Server work (a restore) using the room without a connection; it is not unloaded while any is. */
  private holds = 0;
  /** Told of every change to the doc (the content API's long-poll of changes, docs/api.md §15). */
  private readonly watchers = new Set<() => void>();
  /** This room among every room this process opened, and the changes applied to it since. */
  private readonly serial = ++roomsOpened;
  private changes = 0;
  private closed = false;
  private closing: Promise<void> | null = null;

  /** The board this document is a page of: access, membership and deletion are the board's. */
  readonly boardId: string;
  readonly pageId: string;

  private constructor(
    /**
     * The document's key (shared/pages.ts docKey): the board id for its first page. The Store, the
     * bus channel, history and everything below the Room name the document by it; its parts call
     * it `boardId`, which it is for every board's first page.
     */
    readonly key: string,
    private readonly deps: RoomDeps,
    instances: InstanceView,
  ) {
    const { config, log, metrics } = deps;
    ({ boardId: this.boardId, pageId: this.pageId } = pageOf(key));
    const boardId = key;
    const doc = new Y.Doc({ guid: key });
    this.doc = doc;
    this.size = new DocSize(doc, () => metrics.docSizeMeasures.inc());
    this.presence = new RoomPresence(
      () => this.fanout.presenceChanged(),
      (owner, reason) =>
        log.warn(
          { boardId, peer: (owner as Peer).id, userId: owner.userId, reason },
          'presence state dropped (logged once per connection and reason)',
        ),
    );
    this.bots = new BotPresence(this.presence, integrationLimits.presenceMs);
    this.anonymousViewers = new AnonymousViewers(this.presence, () => this.peers);
    const isClosed = () => this.closed;
    this.catchUp = new StoreCatchUp(boardId, doc, deps.store, metrics, log, isClosed);
    this.replication = new Replication({
      boardId,
      doc,
      presence: this.presence,
      bus: deps.bus,
      instanceId: deps.instanceId,
      instances,
      metrics,
      log,
      settleIncoming: () => this.ingest.applyWaiting(),
      store: (item) => this.persister.enqueue(item),
      nextMark: () => this.saved.next(),
      confirmed: () => this.saved.check(),
      catchUpFromStore: (reason) => this.catchUp.request(reason),
    });
    this.fanout = new Fanout(
      this.peers,
      this.presence,
      (local) => this.replication.publishPresence(local),
      config.presenceTickMs,
    );
    this.saved = new SavedTracker({
      lowestUnsaved: () => {
        let lowest = this.replication.lowestHeldMark();
        for (const item of this.persister.unstored) lowest = Math.min(lowest, item.mark);
        return lowest;
      },
      hasPending: () => hasPendingUpdates(doc),
      isConnected: (peer) => this.peers.has(peer),
    });
    this.persister = new DocPersister(
      boardId,
      deps.store,
      {
        debounceMs: config.persistDebounceMs,
        maxDelayMs: config.persistMaxDelayMs,
        onStored: (stored) => {
          this.replication.stored(stored);
          this.saved.check();
        },
        mergeOffThread: deps.mergeOffThread,
        saves: deps.saves,
      },
      log,
      metrics,
      // Deleted while open (the deletion's bus message may never have arrived): everyone leaves.
      () => this.closeAll(CloseCode.NO_SUCH_BOARD, 'board deleted'),
    );
    this.ingest = new Ingest({
      doc,
      size: this.size,
      maxDocBytes: config.maxDocBytes,
      instances: () => 1 + instances.othersCount(),
      isClosed,
      reject: (peer, code, reason) => this.reject(peer, code, reason),
      applyQuietly: (apply, changed, origin) => {
        doc.off('update', this.onUpdate);
        try {
          apply();
        } finally {
          doc.on('update', this.onUpdate);
          const update = changed();
          if (update) this.route(update, origin);
        }
      },
      requestSync: (reason) => this.replication.requestSync(reason),
      failed: (peer, error) => {
        log.warn({ err: error, boardId, peer: peer.id }, 'update failed to apply');
        this.reject(peer, CloseCode.UNDECODABLE, 'update failed to apply');
      },
    });
    doc.on('update', this.onUpdate);
    const changes = deps.changes;
    if (changes) {
      const shapes = doc.getMap('shapes');
      doc.on('afterTransaction', (transaction: Y.Transaction) => {
        const route = routeOf(transaction.origin as TransactionOrigin);
        if (route.storage !== 'here' || route.userId === null || transaction.changed.size === 0) return;
        const ids = changedShapeIds(transaction, shapes);
        // A webhook is the board's, whatever page changed; the page says where the shapes are.
        if (ids.length > 0) changes(this.boardId, this.pageId, route.userId, ids);
      });
    }
  }

  private readonly onUpdate = (update: Uint8Array, origin: unknown) =>
    this.route(update, origin as TransactionOrigin);

  /**
   * Loads the board from the Store, subscribes to its bus channel and asks the other instances
   * for what the Store does not have yet. Rejects (leaving the stored board untouched) when the
   * stored content cannot be read or applied.
   */
  static async load(key: string, deps: RoomDeps, instances: InstanceView): Promise<Room> {
    const room = new Room(key, deps, instances);
    const started = performance.now();
    const stored = await deps.store.loadDoc(key);
    deps.metrics.storeLatency.observe({ op: 'load' }, (performance.now() - started) / 1000);
    for (const part of partsOf(stored)) {
      // A stored update that does not decode means the stored board is damaged: refuse to open
      // it rather than serve (and later overwrite) a partial board.
      Y.decodeUpdate(part);
      applyUpdate(room.doc, part, LOAD);
      room.size.grew(part.length);
    }
    if (hasPendingUpdates(room.doc)) {
      // Served anyway: a client that holds the missing part sends it on sync. Refusing would
      // make the board unusable forever.
      deps.log.warn({ boardId: key }, 'stored board has updates whose dependencies are missing');
    }
    await room.replication.subscribe();
    return room;
  }

  /**
   * Every change to the doc, by where it came from (routeOf): to the peers that lack it, to the
   * other instances, to the Store, to history.
   */
  private route(update: Uint8Array, origin: TransactionOrigin): void {
    this.fullAnswer = null;
    this.changes += 1;
    const route = routeOf(origin);
    if (route.storage === 'none') return;
    for (const watcher of this.watchers) watcher();
    this.size.grew(update.length);
    this.fanout.add(update, this.ingest.resolvingPending ? null : route.sender);
    // Relayed by another instance: held (the raw message) until that instance confirms it.
    // Read from the Store by a catch-up: stored already.
    if (route.storage !== 'here') return;
    // The instance that received an edit from a client stores it and tells the others. A sync
    // reply is stored here too (its sender may die before storing it) but not published: the
    // other instances ask for what they lack themselves.
    const seq = route.publish ? this.replication.publishUpdate(update, route.userId) : 0;
    this.persister.enqueue({ update, userId: route.userId, at: Date.now(), seq, mark: this.saved.next() });
    this.deps.history?.edited(this.key);
  }

  /** Opened without the bus (it was unreachable): served from the Store alone until it returns. */
  /**
   * Moves with every change the document takes, deletions included (a state vector does not: a
   * deletion adds no item), and never repeats in this process, across rooms of one key too: what
   * is derived from the document can be kept under it (the board search's words).
   */
  get version(): string {
    return `${this.serial}.${this.changes}`;
  }

  get degraded(): boolean {
    return this.replication.degraded;
  }

  get isEmpty(): boolean {
    return this.peers.size === 0 && this.holds === 0;
  }

  /**
   * Calls `watcher` after each change to the board, whatever its origin (a client here, another
   * instance, a server change, a catch-up), until the returned function is called.
   */
  watch(watcher: () => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

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
    this.ingest.applyWaiting();
    transact(this.doc, () => fn(this.doc), onBehalfOf(userId));
  }

  /**
   * Applies a change made of several updates, each following the one before (a restore's slices,
   * history/board.ts restoreChanges), on `userId`'s behalf, a few per event-loop turn (as many as
   * fit in TURN_BUDGET_MS, at least one): every other board of the instance, and this board's own
   * clients, are served between them, where one transaction of a 4,000-shape restore stalled them
   * all for 85–270 ms. Clients see the change arrive over a few turns; edits they make meanwhile
   * merge with it like any concurrent edit. The caller holds the room open (Rooms.acquire).
   */
  async changeInTurns(userId: string, updates: readonly Uint8Array[]): Promise<void> {
    await mapInTurns(updates, TURN_BUDGET_MS, (update) => {
      if (this.closed) throw new Error('room closed while a change was being applied');
      this.change(userId, (doc) => Y.applyUpdate(doc, update));
    });
  }

  join(peer: Peer): void {
    this.peers.add(peer);
    peer.send(encodeSyncStep1(Y.encodeStateVector(this.doc)));
    // An anonymous viewer is sent nobody's presence (docs/api.md §16); it is counted instead.
    if (peer.anonymous) {
      this.anonymousViewers.joined();
      return;
    }
    const everyone = this.presence.encodeAll();
    if (everyone) peer.send(encodeAwarenessMessage(everyone));
  }

  leave(peer: Peer): void {
    // What it sent before leaving is an edit like any other.
    this.ingest.applyWaiting();
    if (!this.peers.delete(peer)) return;
    if (peer.anonymous) this.anonymousViewers.left();
    else this.presence.removeOwner(peer);
  }

  /** One message from a peer. Malformed input closes only that peer; the doc is never touched. */
  receive(peer: Peer, data: Uint8Array): void {
    let message: ReturnType<typeof parseClientMessage>;
    try {
      message = parseClientMessage(data);
    } catch (error) {
      this.ingest.applyWaiting();
      this.reject(peer, CloseCode.UNDECODABLE, (error as Error).message);
      return;
    }
    if (message.kind === 'update' || message.kind === 'step2') {
      this.ingest.take(peer, message.update, message.kind);
      return;
    }
    // Whatever else arrives sees every edit received before it applied (a sync answer holds
    // them, a save request waits for them).
    this.ingest.applyWaiting();
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
        // An anonymous viewer's presence is dropped unread (its client sends one as stock).
        if (peer.anonymous) return;
        try {
          this.presence.applyFromPeer(peer, message.update);
        } catch (error) {
          this.reject(peer, CloseCode.UNDECODABLE, (error as Error).message);
        }
        return;
      case 'queryAwareness': {
        if (peer.anonymous) return;
        const everyone = this.presence.encodeAll();
        if (everyone) peer.send(encodeAwarenessMessage(everyone));
        return;
      }
      case 'saveRequest':
        this.saved.answerWhenStored(peer, message.id);
        return;
    }
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

  private reject(peer: Peer, code: number, reason: string): void {
    this.deps.log.info({ boardId: this.boardId, peer: peer.id, code, reason }, 'closing connection');
    peer.close(code, reason);
  }

  // --- what the instance asks of its rooms (rooms.ts) -------------------------------------------

  /** See Replication.requestSync. */
  requestSync(reason: string, reciprocate = false): void {
    this.replication.requestSync(reason, reciprocate);
  }

  /** See Replication.shareWhatWasUnpublished. */
  shareWhatWasUnpublished(): void {
    this.replication.shareWhatWasUnpublished();
  }

  /** See Replication.adopt. */
  adopt(instance: string | null, reason: string, olderThan = Number.POSITIVE_INFINITY): void {
    this.replication.adopt(instance, reason, olderThan);
  }

  /** See Replication.forgetInstance. */
  forgetInstance(instance: string): void {
    this.replication.forgetInstance(instance);
  }

  /** See StoreCatchUp.request. */
  catchUpFromStore(reason: string, since: number | null = null): void {
    this.catchUp.request(reason, since);
  }

  /**
   * A user's membership changed to `membership` (null: removed): each of their live connections
   * follows at once, by the one access rule (auth/access.ts), so a viewer stops editing and a
   * viewer token stays a viewer token when its user is promoted.
   */
  setRole(userId: string, membership: Role | null, closeCode: number = CloseCode.NO_ACCESS): void {
    if (membership === null) this.bots.hide(userId);
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

  /** The saved mark up to which everything this room holds is stored (see SavedTracker). */
  savedMark(): number {
    return this.saved.savedMark();
  }

  /**
   * Stores everything this room holds: its own queue and what other instances relayed and have
   * not confirmed yet. Rejects if the store is down (the edits stay queued).
   */
  async flush(): Promise<void> {
    this.ingest.applyWaiting();
    do {
      this.replication.adopt(null, 'flush');
      await this.persister.flush();
    } while (this.replication.holding || !this.persister.settled);
  }

  /**
   * Resolves once everything this room holds now is in the Store: its own queue, and what other
   * instances relayed and have not confirmed yet (a client whose update brought nothing new,
   * because another instance relayed it first, is saved only when that is stored). Never
   * rejects; stays pending while the store is down. `soon`: the caller answers only then (a
   * content-API write), so this room's queue is stored within the debounce, however busy the board.
   */
  whenStored(options?: { soon: boolean }): Promise<void> {
    this.ingest.applyWaiting();
    if (options?.soon) this.persister.hurry();
    return this.saved.whenStored();
  }

  get pendingWrites(): number {
    return this.persister.pending;
  }

  /**
   * Every edit this room holds is stored: none queued, none being written, none relayed by
   * another instance and unconfirmed.
   */
  get stored(): boolean {
    return this.persister.settled && !this.replication.holding;
  }

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
    await this.deps.history?.closing(this.key);
    this.closed = true;
    this.bots.close();
    this.anonymousViewers.close();
    this.presence.close();
    const leaving = this.replication.close();
    this.fanout.close();
    this.persister.close();
    await leaving;
    this.doc.destroy();
  }
}
