// Replication: a room's channel to the other instances that have the same board open. It
// publishes this instance's edits (numbered, so a gap is noticed), holds what the others relay
// until they confirm they stored it (and stores it itself when they do not), answers and sends
// sync requests, and serves the board from the Store alone (degraded) while the bus is away.
import type { Logger } from 'pino';
import * as Y from 'yjs';
import type { Bus } from '../bus/bus.ts';
import { BusMessageType, boardChannel, decodeBusMessage, encodeBusMessage } from '../bus/protocol.ts';
import type { Metrics } from '../metrics.ts';
import { hasPendingUpdates } from './internals.ts';
import { applyUpdate, BUS, BUS_RESOLVING, CATCH_UP, SYNC_REPLY } from './origins.ts';
import type { QueuedUpdate } from './persister.ts';
import type { RoomPresence } from './presence.ts';

/** How long to wait for the bus when opening a board before serving it from the Store alone. */
export const SUBSCRIBE_WAIT_MS = 1000;

/** What a room learns from, and asks of, the instance-wide view of the other instances. */
export interface InstanceView {
  /** Whether any other instance is alive on the bus: alone, a room publishes nothing but sync requests. */
  othersAlive(): boolean;
  /** How many other instances are alive on the bus. */
  othersCount(): number;
  /** Any message from an instance proves it alive. */
  heard(instance: string): void;
}

/** What replication needs of its room. */
export interface ReplicationHost {
  readonly boardId: string;
  readonly doc: Y.Doc;
  readonly presence: RoomPresence;
  readonly bus: Bus;
  readonly instanceId: string;
  readonly instances: InstanceView;
  readonly metrics: Metrics;
  readonly log: Logger;
  /** Applies what clients sent and the room has not applied yet (a bus message comes after it). */
  settleIncoming(): void;
  /** Queues an update for this instance's Store. */
  store(item: QueuedUpdate): void;
  /** The saved mark for an update the room must see stored (SavedTracker.next). */
  nextMark(): number;
  /** Another instance confirmed it stored what this one held of it. */
  confirmed(): void;
  /** Reads the Store for what this instance lacks. */
  catchUpFromStore(reason: string): void;
}

/** An update another instance relayed, kept until it confirms it stored it (or is presumed dead). */
type HeldUpdate = QueuedUpdate;

export class Replication {
  /** Opened without the bus (it was unreachable): served from the Store alone until it returns. */
  degraded = false;
  private unsubscribe: (() => Promise<void>) | null = null;
  private seq = 0;
  private readonly remoteSeq = new Map<string, number>();
  /** Per origin instance, what it relayed and has not confirmed stored, oldest first. */
  private readonly held = new Map<string, HeldUpdate[]>();
  /** The highest of our bus seqs announced as stored. */
  private announcedSeq = 0;
  /** Edits were applied while no other instance was known: nobody else has them. */
  private unpublished = false;
  private closed = false;

  constructor(private readonly host: ReplicationHost) {}

  /**
   * Subscribes to the board's bus channel and syncs with the others both ways. When the
   * bus does not answer promptly (Redis down or hung), the board is served from the Store alone
   * (degraded) and resyncs, both ways, once the subscription comes through.
   */
  async subscribe(): Promise<void> {
    const { bus, log, boardId, metrics } = this.host;
    const subscribing = bus.subscribe(boardChannel(boardId), (data) => this.receive(data));
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
        metrics.degradedRooms.dec();
        log.info({ boardId }, 'bus back: board resyncing with the other instances');
        this.requestSync('bus returned', true);
      },
      (err: unknown) => log.warn({ err, boardId }, 'subscribing to the board channel failed'),
    );
    if (!inTime) {
      this.degraded = true;
      metrics.degradedRooms.inc();
      log.warn(
        { boardId },
        'bus unreachable: board served from the Store alone on this instance until the bus returns',
      );
    }
    // Both ways: the others answer with what this instance lacks, and ask back for what it read
    // from the Store and they lack. An instance cut from the bus stores edits nobody else hears of;
    // if it dies before its bus returns, a board open elsewhere the whole time lacked them, and
    // this newcomer (loading them from the Store) was the only one to notice.
    this.requestSync('open', true);
  }

  /**
   * An edit this instance stores: published to the others when there are any (an instance that
   * appears later asks for what it lacks when it opens the board). Returns its bus seq, 0 when
   * it was not published.
   */
  publishUpdate(update: Uint8Array, userId: string | null): number {
    if (!this.host.instances.othersAlive()) {
      this.unpublished = true;
      return 0;
    }
    this.seq += 1;
    this.publish(BusMessageType.update, update, this.seq, '', userId ?? '');
    return this.seq;
  }

  /** Presence changes of this instance's connections, for the others (when there are any). */
  publishPresence(local: Uint8Array): void {
    if (this.host.instances.othersAlive()) this.publish(BusMessageType.awareness, local);
  }

  private publish(type: BusMessageType, payload: Uint8Array, seq = 0, target = '', user = ''): void {
    const { metrics, bus, boardId, instanceId } = this.host;
    metrics.busMessagesOut.inc();
    bus.publish(
      boardChannel(boardId),
      encodeBusMessage({ type, instance: instanceId, seq, target, payload, user }),
    );
  }

  /**
   * Asks every other instance with this board open for the updates this one lacks. With
   * `reciprocate`, each of them also asks back, so both sides catch up (after a lapse or a bus
   * outage nobody published to the other side).
   */
  requestSync(reason: string, reciprocate = false): void {
    if (this.closed) return;
    this.host.metrics.busResyncs.inc({ reason });
    this.publish(BusMessageType.syncRequest, Y.encodeStateVector(this.host.doc), reciprocate ? 1 : 0);
  }

  /** Another instance appeared: if edits went unpublished meanwhile, sync both ways. */
  shareWhatWasUnpublished(): void {
    if (!this.unpublished) return;
    this.unpublished = false;
    this.requestSync('unpublished', true);
  }

  /** The Store has these: confirm our published ones to the others. */
  stored(stored: readonly QueuedUpdate[]): void {
    let top = 0;
    for (const item of stored) top = Math.max(top, item.seq);
    if (top <= this.announcedSeq) return;
    this.announcedSeq = top;
    // Alone, nobody holds anything of ours (one presumed dead but alive stores it after a while).
    if (!this.closed && this.host.instances.othersAlive())
      this.publish(BusMessageType.stored, new Uint8Array(0), top);
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
        this.host.store({ ...list[taken]!, seq: 0 });
        taken += 1;
      }
      if (taken === 0) continue;
      count += taken;
      if (taken === list.length) this.held.delete(origin);
      else list.splice(0, taken);
    }
    if (count === 0) return;
    this.host.metrics.adoptedUpdates.inc({ reason }, count);
    this.host.log.info(
      { boardId: this.host.boardId, instance, count, reason },
      'storing updates another instance relayed but did not confirm',
    );
  }

  /** Whether anything relayed by another instance waits for its confirmation. */
  get holding(): boolean {
    return this.held.size > 0;
  }

  /** The lowest saved mark among the updates held for other instances (Infinity when none). */
  lowestHeldMark(): number {
    let lowest = Number.POSITIVE_INFINITY;
    for (const list of this.held.values()) if (list[0]) lowest = Math.min(lowest, list[0].mark);
    return lowest;
  }

  /** An instance whose heartbeat lapsed: forget its presences, store what it did not confirm. */
  forgetInstance(instance: string): void {
    this.host.presence.removeInstance(instance);
    this.remoteSeq.delete(instance);
    this.adopt(instance, 'lapsed');
    // What it stored but could not relay (its bus was down) is only in the Store now.
    this.host.catchUpFromStore('lapsed');
  }

  /** The origin for applying what came over the bus: see BUS_RESOLVING. */
  private originFor(otherwise: typeof BUS | typeof SYNC_REPLY | typeof CATCH_UP) {
    return hasPendingUpdates(this.host.doc) ? BUS_RESOLVING : otherwise;
  }

  /** One message on the board's channel. */
  private receive(data: Uint8Array): void {
    if (this.closed) return;
    const { host } = this;
    host.settleIncoming();
    let message: ReturnType<typeof decodeBusMessage>;
    try {
      message = decodeBusMessage(data);
    } catch (error) {
      host.log.warn({ err: error, boardId: host.boardId }, 'undecodable bus message');
      return;
    }
    if (message.instance === host.instanceId) return;
    host.instances.heard(message.instance);
    host.metrics.busMessagesIn.inc();
    try {
      switch (message.type) {
        case BusMessageType.update: {
          const last = this.remoteSeq.get(message.instance);
          this.remoteSeq.set(message.instance, message.seq);
          this.hold(message.instance, message.payload, message.seq, message.user || null);
          applyUpdate(host.doc, message.payload, this.originFor(BUS));
          // A gap means a message was lost on the way: repair in one round trip. So does an
          // update that waits on something this instance never received.
          if (last !== undefined && message.seq !== last + 1 && message.seq !== 1) this.requestSync('gap');
          else if (hasPendingUpdates(host.doc)) this.requestSync('pending');
          return;
        }
        case BusMessageType.awareness:
          host.presence.applyRemote(message.instance, message.payload);
          return;
        case BusMessageType.syncRequest: {
          const diff = Y.encodeStateAsUpdate(host.doc, message.payload);
          this.publish(BusMessageType.syncReply, diff, 0, message.instance);
          // The newcomer also needs our presences, and we may lack what it has.
          const local = host.presence.encodeAll(true);
          if (local) this.publish(BusMessageType.awareness, local);
          if (message.seq === 1) this.requestSync('asked back');
          return;
        }
        case BusMessageType.syncReply:
          if (message.target === host.instanceId)
            applyUpdate(host.doc, message.payload, this.originFor(SYNC_REPLY));
          return;
        case BusMessageType.stored:
          this.confirm(message.instance, message.seq);
          return;
        case BusMessageType.catchUp:
          host.catchUpFromStore('hint');
          return;
        case BusMessageType.storedUpdate:
          applyUpdate(host.doc, message.payload, this.originFor(CATCH_UP));
          return;
      }
    } catch (error) {
      host.log.warn(
        { err: error, boardId: host.boardId, from: message.instance },
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
    list.push({ update, userId, at: Date.now(), seq, mark: this.host.nextMark() });
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
    this.host.confirmed();
  }

  /** Leaves the board's channel; a bus that does not answer (Redis down or hung) does not hold it up. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.degraded) this.host.metrics.degradedRooms.dec();
    this.degraded = false;
    const unsubscribe = this.unsubscribe?.().catch(() => undefined);
    if (unsubscribe)
      await Promise.race([unsubscribe, new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS))]);
  }
}
