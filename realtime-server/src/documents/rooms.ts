// The rooms of this instance, one per open document (a board's page), keyed by the document key
// (shared/pages.ts: the board id for its first page, so every board from before pages keeps its
// room, channel and stored rows). Only pages someone has open are loaded. A document is loaded once even when several clients arrive at the
// same moment (they share one pending load), and unloaded after its edits are stored when the
// last connection leaves. Rooms react to what Instances learns of the others: a lapsed instance's
// presences vanish and its unconfirmed updates are stored here; a returned one is resynced with.
import { MAIN_PAGE_ID, PAGE_LISTED_WAIT_MS, type PageEntry, readPages } from '@tandem/shared';
import { Instances } from '../bus/instances.ts';
import { BusMessageType, boardChannel, encodeBusMessage } from '../bus/protocol.ts';
import { LapseCatchUp, UNHEARD_AT_START } from './lapseCatchUp.ts';
import { RETRY_MAX_MS } from './persister.ts';
import type { InstanceView } from './replication.ts';
import { Room, type RoomDeps } from './room.ts';
import { SaveHealth } from './saveHealth.ts';
import { nextTurn } from './turns.ts';

/** Thrown by open() once the instance is shutting down; the client reconnects elsewhere (1001). */
export class ShuttingDownError extends Error {
  constructor() {
    super('instance shutting down');
    this.name = 'ShuttingDownError';
  }
}
const RESYNC_AFTER_RECONNECT_MS = [0, 1000, 5000];
/**
 * After a bus reconnect, open boards are read back from the Store this long after (once every
 * room that was open at the reconnect has answered the sync request, or stored and closed).
 */
const CATCH_UP_AFTER_RECONNECT_MS = 1000;
/**
 * A board unloaded here is remembered this long while the bus is up (longer than a broken
 * connection takes to be noticed): if the bus turns out to have been down, what this instance
 * published about it may have reached nobody, and the others are told to read the Store.
 */
const RECENTLY_CLOSED_MS = 10_000;
/**
 * A relayed update not confirmed stored by its origin within this long (past the persistence
 * bound) is stored by every instance that holds it.
 */
const HOLD_GRACE_MS = 1000;

export class Rooms {
  private readonly rooms = new Map<string, Room>();
  private readonly loading = new Map<string, Promise<Room>>();
  private readonly unloading = new Map<string, Promise<void>>();
  /** Which other instances are alive (shared with the workspace channel). */
  readonly instances: Instances;
  private readonly instanceView: InstanceView;
  /** Boards unloaded here lately, with when: see RECENTLY_CLOSED_MS. */
  private readonly recentlyClosed = new Map<string, number>();
  /** While another instance is lapsed, open rooms re-read the Store (what it stored since). */
  private readonly lapseCatchUp: LapseCatchUp;

  /** Whether this instance's boards are being stored (for /readyz). */
  readonly saves: SaveHealth;
  private readonly deps: RoomDeps;

  constructor(deps: RoomDeps) {
    this.saves = deps.saves ?? new SaveHealth();
    this.deps = { ...deps, saves: this.saves };
    this.instances = new Instances(deps.bus, deps.instanceId, deps.log);
    this.lapseCatchUp = new LapseCatchUp({
      keys: () => [...this.rooms.keys()],
      heads: (keys) => deps.store.logHeads(keys),
      read: (key, since) => this.rooms.get(key)?.catchUpFromStore('lapse window', since),
    });
    this.instanceView = {
      othersAlive: () => this.instances.othersAlive(),
      othersCount: () => this.instances.aliveCount(),
      heard: (instance) => this.instances.heard(instance),
    };
  }

  async start(): Promise<void> {
    const { bus, config } = this.deps;
    this.instances.onLapse((instance, how) => {
      for (const room of this.rooms.values()) room.forgetInstance(instance);
      // One that left stored its rooms first: nothing of it is in the Store that was not relayed.
      if (how === 'lapsed') this.lapseCatchUp.lapsed(instance, Date.now());
    });
    this.instances.onReturn((instance) => {
      this.lapseCatchUp.returned(instance);
      // Nobody published to it while it was presumed dead, nor it to us: catch up both ways.
      for (const room of this.rooms.values()) room.requestSync('returned', true);
    });
    this.instances.onJoin(() => {
      // Edits made while this instance believed itself alone were published to nobody.
      for (const room of this.rooms.values()) room.shareWhatWasUnpublished();
    });
    this.instances.onTick(() => {
      const now = Date.now();
      const due = now - config.persistMaxDelayMs - HOLD_GRACE_MS;
      for (const room of this.rooms.values()) room.adopt(null, 'held too long', due);
      this.lapseCatchUp.tick(now);
      if (bus.isHealthy())
        for (const [key, at] of this.recentlyClosed)
          if (now - at > RECENTLY_CLOSED_MS) this.recentlyClosed.delete(key);
    });
    bus.onReconnect(() => {
      // Messages may have been lost while the bus was down, both ways: every open board resyncs
      // and asks back. Once now, and again shortly after, since the other instances may not have
      // resubscribed yet and would miss this first request. What this instance published about
      // a board it has unloaded since is in the Store, and nobody here can answer for it: the
      // others are told to read the Store. And an instance that published to us meanwhile and
      // has unloaded the board since cannot answer our request: open boards read the Store too.
      // A board open now may unload before the others ask back: it is hinted for then.
      const touched = new Set([...this.recentlyClosed.keys(), ...this.rooms.keys()]);
      this.recentlyClosed.clear();
      for (const delay of RESYNC_AFTER_RECONNECT_MS) {
        const timer = setTimeout(() => {
          for (const room of this.rooms.values()) room.requestSync('reconnect', true);
          // Once per board, from the second round on (the others have resubscribed by then, or
          // read the Store after their own reconnect).
          if (delay === 0) return;
          for (const key of touched) {
            if (this.rooms.has(key)) continue;
            touched.delete(key);
            this.hintCatchUp(key);
          }
        }, delay);
        timer.unref();
      }
      const timer = setTimeout(() => {
        for (const room of this.rooms.values()) room.catchUpFromStore('reconnect');
      }, CATCH_UP_AFTER_RECONNECT_MS);
      timer.unref();
    });
    await this.instances.start();
    // An instance cut from the bus before this one started is one it never hears of, so never
    // sees lapse: it may go on storing its clients' edits and then die with them, and the Store
    // is the only place they are. Such an instance is treated as one that lapsed at this start:
    // open rooms read the Store in rounds, as for any lapse (LapseCatchUp, UNHEARD_AT_START).
    if (bus.partitionable) this.lapseCatchUp.lapsed(UNHEARD_AT_START, Date.now());
  }

  get size(): number {
    return this.rooms.size;
  }

  /** The open room of a document (a board id is its first page's key). */
  get(key: string): Room | undefined {
    return this.rooms.get(key);
  }

  /** Every open room of a board, one per open page: access and deletion apply to all of them. */
  ofBoard(boardId: string): Room[] {
    return [...this.rooms.values()].filter((room) => room.boardId === boardId);
  }

  values(): IterableIterator<Room> {
    return this.rooms.values();
  }

  /**
   * Whether the board's page list (in its first document) holds `pageId`. Read from the first
   * page's Room, loaded here if it is not open (an open Room hears every instance's edits over the
   * bus), and waited for a moment: the page just added by this very person travels on their
   * first-document connection, which may be paced, or on another instance, and so arrive after
   * the new page's own connection. The first page is always listed. `lingerMs` keeps the first
   * page's Room loaded that long after (Rooms.linger): a content-API or MCP call on another page
   * otherwise loaded the whole first document from the Store, and dropped it, on every call.
   */
  async pageListed(boardId: string, pageId: string, lingerMs = 0): Promise<boolean> {
    if (pageId === MAIN_PAGE_ID) return true;
    const { room, release } = await this.acquire(boardId);
    try {
      const listed = () => readPages(room.doc).some((page) => page.id === pageId);
      if (listed()) return true;
      return await new Promise<boolean>((resolve) => {
        const done = (answer: boolean) => {
          clearTimeout(timer);
          room.doc.off('update', onUpdate);
          resolve(answer);
        };
        const onUpdate = () => {
          if (listed()) done(true);
        };
        const timer = setTimeout(() => done(false), PAGE_LISTED_WAIT_MS);
        room.doc.on('update', onUpdate);
      });
    } finally {
      this.linger(room, lingerMs);
      release();
    }
  }

  /** A board's pages in order (docs/api.md §17), read from its first document's open room. */
  async pagesOf(boardId: string): Promise<PageEntry[]> {
    const { room, release } = await this.acquire(boardId);
    try {
      return readPages(room.doc);
    } finally {
      release();
    }
  }

  /**
   * The open room of a board, loaded first if needed, held open until `release` is called: the
   * caller joins it (or works on it) and then releases it. Without the hold, a room whose last
   * connection left could unload between the load and the join, and a connection would join a
   * closed room whose edits reach no Store and no other instance (harness seed 77000144).
   */
  async acquire(key: string): Promise<{ room: Room; release: () => void }> {
    for (;;) {
      if (this.stopping) throw new ShuttingDownError();
      // Looked up and held in one synchronous step: an unload checks emptiness synchronously too.
      const room = this.rooms.get(key);
      if (room) {
        const unhold = room.keepOpen();
        return {
          room,
          release: () => {
            unhold();
            this.release(room);
          },
        };
      }
      await this.open(key);
    }
  }

  /**
   * The open room of a board, loading it first if needed (one load for concurrent callers). Not
   * held: it may be unloaded by the time the caller runs. Use acquire() to join or change it.
   */
  async open(key: string): Promise<Room> {
    if (this.stopping) throw new ShuttingDownError();
    const open = this.rooms.get(key);
    if (open) return open;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const load = (async () => {
      // A room still storing its last edits must finish before the board is read again; one
      // whose close failed is back in the map then, and is the room.
      await this.unloading.get(key);
      const kept = this.rooms.get(key);
      if (kept) return kept;
      // While lapse rounds run, the log head before the load tells them what the load read.
      const head = this.lapseCatchUp.active
        ? await this.deps.store.logHeads([key]).then(
            (heads) => heads.get(key),
            () => undefined,
          )
        : undefined;
      const room = await Room.load(key, this.deps, this.instanceView);
      if (head !== undefined) this.lapseCatchUp.opened(key, head);
      this.rooms.set(key, room);
      this.deps.metrics.rooms.set(this.rooms.size);
      return room;
    })();
    this.loading.set(key, load);
    try {
      return await load;
    } finally {
      this.loading.delete(key);
    }
  }

  /** Rooms kept loaded after a content-API or MCP call (linger): one hold and one timer per room. */
  private readonly lingering = new Map<string, { room: Room; until: number; unhold: () => void }>();

  /**
   * Keeps `room` loaded `ms` after now, where an API call leaves a board nobody has open: loading
   * decodes the whole board from the Store, so a bot writing every second to a board of 5,000
   * shapes paid that on every call. A later call moves the time on; the room then unloads as usual
   * (its edits are stored by the debounce meanwhile, as with any open room).
   */
  linger(room: Room, ms: number): void {
    if (ms <= 0 || this.stopping) return;
    const until = Date.now() + ms;
    const held = this.lingering.get(room.key);
    if (held?.room === room) {
      held.until = until;
      return;
    }
    if (held) this.endLinger(room.key);
    const entry = { room, until, unhold: room.keepOpen() };
    this.lingering.set(room.key, entry);
    const wait = (delay: number) => {
      const timer = setTimeout(() => {
        if (this.lingering.get(room.key) !== entry) return;
        if (Date.now() < entry.until) wait(entry.until - Date.now());
        else this.endLinger(room.key);
      }, delay);
      timer.unref();
    };
    wait(ms);
  }

  /** Lets a lingering room go now (it unloads if nobody else holds it). */
  endLinger(key: string): void {
    const entry = this.lingering.get(key);
    if (!entry) return;
    this.lingering.delete(key);
    entry.unhold();
    this.release(entry.room);
  }

  /** Unloads a room whose last connection left. */
  release(room: Room): void {
    if (!room.isEmpty || this.rooms.get(room.key) !== room || this.unloading.has(room.key)) return;
    const unload = this.unload(room);
    this.unloading.set(room.key, unload);
    void unload.finally(() => this.unloading.delete(room.key));
  }

  /** Never rejects: release() does not wait for it, and open() waits for it before a load. */
  private async unload(room: Room): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await room.flush();
        if (!room.isEmpty || this.stopping) return;
        this.rooms.delete(room.key);
        this.deps.metrics.rooms.set(this.rooms.size);
        try {
          // Flushes again: what another instance relayed since needs storing, and may fail.
          await room.close();
        } catch (error) {
          // Not closed (a failed close leaves the room as it was): back in the map, so that
          // closeAll stores it at shutdown and a client that comes back finds it.
          this.rooms.set(room.key, room);
          this.deps.metrics.rooms.set(this.rooms.size);
          throw error;
        }
        break;
      } catch (error) {
        // The store is down: keep the room (and its edits) and try again; a client that comes
        // back meanwhile finds the room still open. Once shutdown begins, closeAll takes over.
        this.deps.log.warn(
          { err: error, boardId: room.key, attempt: attempt + 1 },
          'unloading a board failed; retrying',
        );
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(RETRY_MAX_MS, 500 * 2 ** Math.min(attempt, 6))),
        );
        if (!room.isEmpty || this.stopping) return;
      }
    }
    this.recentlyClosed.set(room.key, Date.now());
  }

  /**
   * `updates` were written to a board's Store directly, not through a room (a restore of a board
   * nobody had open here): the instances with the board open get them over the bus, one per turn
   * so that none of them applies a whole board's change at once, as updates already stored
   * (applied and sent to their clients, neither held nor stored again). Lost on the way (a bus
   * outage here), they are in the Store: the board is hinted for a catch-up after the reconnect,
   * as a board unloaded here is. A room here (opened meanwhile, or still loading: it may have
   * read the Store before the write) reads them back from the Store.
   */
  async changedInStore(key: string, updates: readonly Uint8Array[], reason: string): Promise<void> {
    this.recentlyClosed.set(key, Date.now());
    for (const [index, update] of updates.entries()) {
      if (index > 0) await nextTurn();
      this.publishBoard(key, BusMessageType.storedUpdate, update);
    }
    const room = this.rooms.get(key);
    if (room) room.catchUpFromStore(reason);
    else
      void this.loading
        .get(key)
        ?.then((loaded) => loaded.catchUpFromStore(reason))
        .catch(() => undefined);
  }

  /** Tells the instances with a board open to read it from the Store (see RECENTLY_CLOSED_MS). */
  private hintCatchUp(key: string): void {
    this.publishBoard(key, BusMessageType.catchUp, new Uint8Array(0));
  }

  /** A message on a board's channel from this instance, about a board it may not have open. */
  private publishBoard(key: string, type: BusMessageType, payload: Uint8Array): void {
    this.deps.metrics.busMessagesOut.inc();
    this.deps.bus.publish(
      boardChannel(key),
      encodeBusMessage({ type, instance: this.deps.instanceId, seq: 0, target: '', payload }),
    );
  }

  /** Set once shutdown begins: no board is opened any more. */
  stopping = false;

  /**
   * Closes every connection with `code` and stores every room, retrying with backoff for up to
   * `budgetMs` (a database outage shorter than that loses nothing). Resolves to the boards whose
   * edits are still not stored when the budget is spent; for shutdown.
   */
  async closeAll(code: number, reason: string, budgetMs = Number.POSITIVE_INFINITY): Promise<string[]> {
    this.stopping = true;
    // closeWithin below stores and closes every room, held or not.
    for (const entry of this.lingering.values()) entry.unhold();
    this.lingering.clear();
    const deadline = Date.now() + budgetMs;
    await Promise.allSettled([...this.loading.values()]);
    // A room whose unload is past its first flush has left the map and is closing: storing what
    // was relayed meanwhile, recording the board's version, leaving the bus. Shutdown waits for
    // it (closing the Store under it lost that version); an unload whose close fails puts its
    // room back in the map, and one still retrying a flush stops now that `stopping` is set.
    await settledBy([...this.unloading.values()], deadline);
    // Rooms still storing their last edits before unloading are among these: they stay in the
    // map until stored.
    const rooms = [...this.rooms.values()];
    for (const room of rooms) room.closeAll(code, reason);
    const stored = await Promise.all(rooms.map((room) => this.closeWithin(room, deadline)));
    const unstored = rooms.filter((_room, i) => !stored[i]).map((room) => room.key);
    this.rooms.clear();
    // A goodbye only when everything is stored: otherwise the others must treat it as a lapse.
    await this.instances.stop(unstored.length === 0);
    return unstored;
  }

  /** Closes a room, retrying while the store fails and the deadline allows; true once its edits are stored. */
  private async closeWithin(room: Room, deadline: number): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      const { reached, cancel } = reaching(deadline);
      const outcome = await Promise.race([
        room.close().then(
          () => 'closed' as const,
          (error: unknown) => error,
        ),
        reached,
      ]);
      cancel();
      if (outcome === 'closed') return true;
      if (outcome === 'deadline') {
        // The edits may be stored while leaving the bus hangs (Redis down): that is not a loss.
        if (room.stored) return true;
        this.deps.log.error(
          { boardId: room.key, pending: room.pendingWrites },
          'edits could not be stored within the shutdown budget',
        );
        return false;
      }
      const wait = Math.min(2000, 100 * 2 ** attempt);
      if (Date.now() + wait >= deadline) {
        this.deps.log.error(
          { err: outcome, boardId: room.key, pending: room.pendingWrites },
          'edits could not be stored within the shutdown budget',
        );
        return false;
      }
      this.deps.log.warn(
        { err: outcome, boardId: room.key, attempt: attempt + 1 },
        'storing edits at shutdown failed; retrying',
      );
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * Resolves at `deadline` (ms since the epoch); never for an infinite one (setTimeout would take
 * it for 1 ms). `cancel` clears the timer.
 */
function reaching(deadline: number): { reached: Promise<'deadline'>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const reached = new Promise<'deadline'>((resolve) => {
    if (Number.isFinite(deadline))
      timer = setTimeout(() => resolve('deadline'), Math.max(0, deadline - Date.now()));
  });
  return { reached, cancel: () => clearTimeout(timer) };
}

/** Waits for `promises` to settle, or for `deadline`, whichever comes first. */
async function settledBy(promises: Promise<unknown>[], deadline: number): Promise<void> {
  if (promises.length === 0) return;
  const { reached, cancel } = reaching(deadline);
  await Promise.race([Promise.allSettled(promises), reached]);
  cancel();
}
