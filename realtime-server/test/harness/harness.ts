// The durability harness, in the spirit of Yjs's TestConnector and tldraw's sync fuzz: the real
// Rooms of several "instances" in one process, over an in-memory bus and one in-memory DocStore,
// with clients that are plain objects speaking the y-websocket protocol. A seed decides message
// order and delays, dropped bus messages, bus and store outages, instance crashes (the instance
// vanishes with its unsent queue and its debounce timers), restarts, and client moves. After each
// scenario every replica must have converged, and the Store must hold the union of what every
// surviving holder had: every client still around, and every instance that did not crash.

import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { pino } from 'pino';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { Random } from '../../../testing/random.ts';
import type { Bus, BusHandler } from '../../src/bus/bus.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Peer } from '../../src/documents/peer.ts';
import type { Room } from '../../src/documents/room.ts';
import { Rooms } from '../../src/documents/rooms.ts';
import { createMetrics, type Metrics } from '../../src/metrics.ts';
import { MemoryDocStore } from '../../src/store/memory.ts';
import type { DocEntry, DocStore, LogEntry, LogSize, StoredDoc } from '../../src/store/store.ts';
import type { VirtualClock } from './clock.ts';

const BOARD = 'harness-board-0000000000';

/** Shared by every scenario: building these per instance would dominate the run time. */
export interface HarnessShared {
  config: Config;
  metrics: Metrics;
}

export function createShared(): HarnessShared {
  const config = loadConfig({
    DATA_DIR: '/tmp',
    SECRET: 'harness-secret-harness-secret-harness-secret',
    PERSIST_DEBOUNCE_MS: '100',
    PERSIST_MAX_DELAY_MS: '500',
    CLIENT_DIR: '',
    INSTANCE_NAME: 'harness',
  });
  return { config, metrics: createMetrics() };
}

const silent = pino({ level: 'silent' });

const keysOf = (doc: Y.Doc): string[] => [...doc.getMap('shapes').keys()].sort();

// --- the bus ----------------------------------------------------------------------------------

class Network {
  readonly buses: HarnessBus[] = [];
  constructor(
    readonly random: Random,
    readonly dropRate: number,
  ) {}
}

/** One instance's connection to the in-memory broker: FIFO per link, seeded delays and drops. */
class HarnessBus implements Bus {
  readonly partitionable = true;
  up = true;
  dead = false;
  private readonly subs = new Map<string, Set<BusHandler>>();
  private readonly reconnectListeners: (() => void)[] = [];
  private readonly lastArrival = new Map<HarnessBus, number>();
  private waitingForUp: (() => void)[] = [];

  constructor(private readonly network: Network) {
    network.buses.push(this);
  }

  publish(channel: string, message: Uint8Array): void {
    if (this.dead || !this.up) return;
    const copy = Uint8Array.from(message);
    const { random } = this.network;
    for (const target of this.network.buses) {
      // An instance ignores its own messages: not delivering them saves a third of the events.
      if (target.dead || target === this) continue;
      if (random.chance(this.network.dropRate)) {
        // Redis drops a message only when a connection breaks: the receiver reconnects (and resyncs).
        target.outage(20 + random.int(800));
        continue;
      }
      const arrival = Math.max(Date.now() + 1 + random.int(15), this.lastArrival.get(target) ?? 0);
      this.lastArrival.set(target, arrival);
      setTimeout(() => target.receive(channel, copy), arrival - Date.now());
    }
  }

  private receive(channel: string, message: Uint8Array): void {
    if (this.dead || !this.up) return;
    for (const handler of [...(this.subs.get(channel) ?? [])]) handler(message);
  }

  /** The connection breaks for `ms`: messages both ways are lost, then it comes back. */
  outage(ms: number): void {
    if (this.dead || !this.up) return;
    this.up = false;
    setTimeout(() => {
      if (this.dead) return;
      this.up = true;
      const waiting = this.waitingForUp;
      this.waitingForUp = [];
      for (const resolve of waiting) resolve();
      for (const listener of this.reconnectListeners) listener();
    }, ms);
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    // Like a Redis client's offline queue: a subscription waits for the connection.
    if (!this.up) await new Promise<void>((resolve) => this.waitingForUp.push(resolve));
    // Kept on purpose: the simulated bus's own latency (a subscription is not instant), not a test wait.
    await new Promise((resolve) => setTimeout(resolve, 1));
    let set = this.subs.get(channel);
    if (!set) {
      set = new Set();
      this.subs.set(channel, set);
    }
    const wrapped: BusHandler = (m) => handler(m);
    set.add(wrapped);
    return async () => {
      set.delete(wrapped);
    };
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  isHealthy(): boolean {
    return this.up && !this.dead;
  }

  async close(): Promise<void> {
    this.dead = true;
  }
}

// --- the store --------------------------------------------------------------------------------

/**
 * The shared DocStore, and every shape key it holds as of now, kept as each append commits
 * (compaction only merges what is there), so checking a "saved" answer costs a lookup, not a
 * rebuild of the stored board. The final check still reads the Store itself.
 */
class SharedStore extends MemoryDocStore {
  private readonly mirror = new Y.Doc({ guid: 'harness-mirror', gc: false });

  override async append(boardId: string, entries: DocEntry[]): Promise<LogSize> {
    const size = await super.append(boardId, entries);
    for (const entry of entries) Y.applyUpdate(this.mirror, entry.update);
    return size;
  }

  /** Whether the Store holds this shape now. */
  holds(key: string): boolean {
    return this.mirror.getMap('shapes').has(key);
  }

  /** Every shape the Store holds now. */
  keys(): string[] {
    return keysOf(this.mirror);
  }
}

/** One instance's connection to the shared DocStore: latency, outages, and death mid-write. */
class StoreView implements DocStore {
  up = true;
  dead = false;

  constructor(
    private readonly store: SharedStore,
    private readonly random: Random,
  ) {}

  /** Runs `op` after a delay (it commits then) and answers after another: a crash in between
   *  leaves it committed but unanswered; a crash before leaves it undone. */
  private call<T>(op: () => Promise<T>): Promise<T> {
    const commitIn = 1 + this.random.int(20);
    const answerIn = 1 + this.random.int(20);
    return new Promise<T>((resolve, reject) => {
      setTimeout(() => {
        if (this.dead) return;
        if (!this.up) {
          reject(new Error('store unreachable'));
          return;
        }
        op().then(
          (value) =>
            setTimeout(() => {
              if (!this.dead) resolve(value);
            }, answerIn),
          reject,
        );
      }, commitIn);
    });
  }

  loadDoc(boardId: string): Promise<StoredDoc> {
    return this.call(() => this.store.loadDoc(boardId));
  }

  append(boardId: string, entries: DocEntry[]): Promise<LogSize> {
    return this.call(() => this.store.append(boardId, entries));
  }

  compact(boardId: string, merge: (parts: Uint8Array[]) => Uint8Array): Promise<void> {
    return this.call(() => this.store.compact(boardId, merge));
  }

  logHeads(keys: readonly string[]): Promise<Map<string, number>> {
    return this.read(() => this.store.logHeads(keys));
  }

  logSince(boardId: string, afterSeq: number, limit?: number): Promise<LogEntry[]> {
    return this.read(() => this.store.logSince(boardId, afterSeq, limit));
  }

  /** A read that answers after a fixed delay: it draws nothing from the scenario's random numbers. */
  private read<T>(op: () => Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      setTimeout(() => {
        if (this.dead) return;
        if (!this.up) reject(new Error('store unreachable'));
        else void op().then(resolve, reject);
      }, 5);
    });
  }
}

// --- instances --------------------------------------------------------------------------------

export class Instance {
  crashed = false;
  stopped = false;
  /** Every shape any room of this instance ever held: if it survives, the Store must have them. */
  readonly held = new Set<string>();
  private readonly watched = new WeakSet<Room>();
  readonly bus: HarnessBus;
  readonly store: StoreView;
  readonly rooms: Rooms;

  constructor(
    readonly id: string,
    network: Network,
    shared: SharedStore,
    random: Random,
    deps: HarnessShared,
  ) {
    this.bus = new HarnessBus(network);
    this.store = new StoreView(shared, random);
    this.rooms = new Rooms({
      store: this.store,
      bus: this.bus,
      config: deps.config,
      log: silent,
      metrics: deps.metrics,
      instanceId: id,
    });
  }

  get live(): boolean {
    return !this.crashed && !this.stopped;
  }

  watch(room: Room): void {
    if (this.watched.has(room)) return;
    this.watched.add(room);
    // Shapes are only ever added, so a room's last state holds all it ever held: read it when the
    // room is destroyed (unloaded, or closed at the end).
    room.doc.on('destroy', () => {
      for (const key of room.doc.getMap('shapes').keys()) this.held.add(key);
    });
  }

  /** SIGKILL: its bus connection, its store connection and its timers' effects vanish at once. */
  crash(): void {
    this.crashed = true;
    this.bus.dead = true;
    this.store.dead = true;
    void this.rooms.instances.stop();
  }
}

// --- clients ----------------------------------------------------------------------------------

interface Connection {
  instance: Instance;
  peer: Peer;
  room: Room | null;
  closed: boolean;
  toServer: number;
  toClient: number;
}

const SERVER = Symbol('server');

export class Client {
  readonly doc: Y.Doc;
  conn: Connection | null = null;
  gone = false;
  made = 0;

  constructor(
    readonly index: number,
    private readonly random: Random,
    private readonly allKeys: Set<string>,
    readonly vanishes: boolean,
    private readonly shared: SharedStore,
    private readonly falseSaves: string[],
  ) {
    // A fixed guid and client id: no random draws (which cost), and a seed replays exactly.
    this.doc = new Y.Doc({ guid: `client-${index}` });
    this.doc.clientID = index + 1;
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === SERVER) return;
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, 0);
      syncProtocol.writeUpdate(encoder, update);
      this.send(encoding.toUint8Array(encoder));
    });
  }

  edit(): void {
    if (this.gone) return;
    const key = `c${this.index}-${this.made++}`;
    this.allKeys.add(key);
    this.doc.transact(() => {
      const shape = new Y.Map<unknown>();
      shape.set('type', 'rect');
      shape.set('x', this.made);
      this.doc.getMap('shapes').set(key, shape);
    });
  }

  connect(instance: Instance): void {
    if (this.gone || this.conn) return;
    const conn: Connection = {
      instance,
      room: null,
      closed: false,
      toServer: 0,
      toClient: 0,
      peer: {
        id: this.index,
        userId: `user-${this.index}`,
        user: { id: `user-${this.index}`, name: `User ${this.index}`, color: '#000000' },
        role: 'editor',
        credentialRole: 'owner',
        clientIds: new Set(),
        send: (message) => {
          for (const m of Array.isArray(message) ? message : [message]) this.deliverToClient(conn, m);
        },
        close: () => this.drop(conn),
        answer: (encode) => {
          const message = encode();
          if (message) conn.peer.send(message);
        },
      },
    };
    this.conn = conn;
    void instance.rooms.acquire(BOARD).then(
      ({ room, release }) => {
        if (conn.closed || !instance.live) {
          if (instance.live) release();
          return;
        }
        instance.watch(room);
        conn.room = room;
        room.join(conn.peer);
        release();
        const encoder = encoding.createEncoder();
        encoding.writeVarUint(encoder, 0);
        syncProtocol.writeSyncStep1(encoder, this.doc);
        this.sendOn(conn, encoding.toUint8Array(encoder));
      },
      () => this.drop(conn),
    );
  }

  /** The connection ends (the client moves, or the server closed it). */
  drop(conn: Connection): void {
    if (conn.closed) return;
    conn.closed = true;
    if (this.conn === conn) this.conn = null;
    const { room, instance } = conn;
    if (room && instance.live) {
      room.leave(conn.peer);
      instance.rooms.release(room);
    }
  }

  private send(message: Uint8Array): void {
    const conn = this.conn;
    if (conn?.room) this.sendOn(conn, message);
  }

  private sendOn(conn: Connection, message: Uint8Array): void {
    const arrival = Math.max(Date.now() + 1 + this.random.int(10), conn.toServer);
    conn.toServer = arrival;
    setTimeout(() => {
      if (conn.closed || !conn.instance.live || !conn.room) return;
      conn.room.receive(conn.peer, message);
      if (this.random.chance(0.2)) this.checkSaved(conn);
    }, arrival - Date.now());
  }

  /**
   * What a "saved" answer would promise: once the room says everything it holds now is stored,
   * the Store must hold every shape the room had at this moment.
   */
  private checkSaved(conn: Connection): void {
    const room = conn.room!;
    const keys = [...room.doc.getMap('shapes').keys()];
    void room.whenStored().then(() => {
      if (!conn.instance.live) return;
      const missing = keys.filter((key) => !this.shared.holds(key));
      if (missing.length > 0)
        this.falseSaves.push(`${conn.instance.id} said stored while the Store lacked ${missing.join(', ')}`);
    });
  }

  private deliverToClient(conn: Connection, message: Uint8Array): void {
    const arrival = Math.max(Date.now() + 1 + this.random.int(10), conn.toClient);
    conn.toClient = arrival;
    setTimeout(() => {
      if (conn.closed || this.gone) return;
      const decoder = decoding.createDecoder(message);
      if (decoding.readVarUint(decoder) !== 0) return; // presence: not this harness's business
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, 0);
      syncProtocol.readSyncMessage(decoder, encoder, this.doc, SERVER);
      if (encoding.length(encoder) > 1) this.sendOn(conn, encoding.toUint8Array(encoder));
    }, arrival - Date.now());
  }
}

// --- scenarios --------------------------------------------------------------------------------

/** What a plan may drive: the instances and clients of its scenario, and the faults to inject. */
export interface Scenario {
  readonly random: Random;
  readonly instances: Instance[];
  readonly clients: Client[];
  startInstance(): Promise<Instance>;
  /** A client (vanishing or not) that does not connect yet. */
  addClient(vanishes: boolean): Client;
  connect(client: Client, instance: Instance): void;
  /** Reconnects a client to some live instance after `delay`, retrying while there is none. */
  reconnect(client: Client, delay: number): void;
  live(): Instance[];
  pickLive(): Instance | null;
  after(ms: number, fn: () => void): void;
  /** SIGKILL: the instance's clients vanish with it (when `vanishes` says so) or reconnect elsewhere. */
  crash(victim: Instance, vanishes: (client: Client) => boolean): void;
  note(what: string): void;
}

/** Sets a scenario up and schedules its events; returns how long it is active (ms). */
export type Plan = (scenario: Scenario) => Promise<number>;

/** The seeded plan: instances, clients, edits, moves, crashes, bus and store outages, all drawn. */
const seededPlan: Plan = async ({
  random,
  instances,
  clients,
  startInstance,
  addClient,
  connect,
  reconnect,
  live,
  pickLive,
  after,
  crash,
  note,
}) => {
  const instanceCount = 2 + random.int(2);
  for (let i = 0; i < instanceCount; i++) await startInstance();
  const clientCount = 2 + random.int(3);
  for (let i = 0; i < clientCount; i++) addClient(random.chance(0.5));
  for (const client of clients) connect(client, random.pick(instances));

  const activeMs = 4000 + random.int(6000);
  for (const client of clients) {
    const edits = 3 + random.int(12);
    for (let i = 0; i < edits; i++) after(random.int(activeMs), () => client.edit());
    const moves = random.int(3);
    for (let i = 0; i < moves; i++)
      after(random.int(activeMs), () => {
        if (!client.conn || client.gone) return;
        note(`client ${client.index} moves`);
        client.drop(client.conn);
        reconnect(client, random.int(1500));
      });
  }
  const crashes = random.int(3);
  for (let i = 0; i < crashes; i++)
    after(random.int(activeMs), () => {
      const victim = pickLive();
      if (!victim) return;
      crash(victim, (client) => client.vanishes && random.chance(0.6));
      if (random.chance(0.6)) after(300 + random.int(4000), () => void startInstance());
    });
  const busOutages = random.int(3);
  for (let i = 0; i < busOutages; i++)
    after(random.int(activeMs), () => {
      const ms = 50 + random.int(random.chance(0.3) ? 4500 : 1500);
      if (random.chance(0.4)) {
        note(`redis restarts (${ms} ms)`);
        for (const instance of live()) instance.bus.outage(ms);
      } else {
        const victim = pickLive();
        if (!victim) return;
        note(`${victim.id} loses the bus (${ms} ms)`);
        victim.bus.outage(ms);
      }
    });
  const storeOutages = random.int(3);
  for (let i = 0; i < storeOutages; i++)
    after(random.int(activeMs), () => {
      const ms = 100 + random.int(4000);
      const victims = random.chance(0.5) ? live() : [pickLive()].filter((v) => v !== null);
      note(`store unreachable for ${victims.map((v) => v.id).join(',')} (${ms} ms)`);
      for (const victim of victims) victim.store.up = false;
      after(ms, () => {
        for (const victim of victims) victim.store.up = true;
      });
    });

  return activeMs;
};

export class ScenarioFailure extends Error {}

/**
 * Runs one seeded scenario to the end. Throws ScenarioFailure (its message names the seed and
 * what diverged) when a replica did not converge or the Store lost something a survivor held.
 */
export async function runScenario(
  seed: number,
  clock: VirtualClock,
  shared: HarnessShared,
  /** Seeds Math.random (the server's own jitter); the scenario's seed unless a regression names another. */
  jitterSeed = seed,
  /** What happens in the scenario: drawn from the seed unless a hand-written plan is given. */
  plan: Plan = seededPlan,
): Promise<string> {
  const random = new Random(seed);
  clock.reseed(jitterSeed);
  const store = new SharedStore();
  const network = new Network(random, random.pick([0, 0, 0.005, 0.02]));
  const allKeys = new Set<string>();
  const falseSaves: string[] = [];
  const instances: Instance[] = [];
  let nextInstance = 0;
  const events: string[] = [];
  const at = () => `${String(clock.now - start).padStart(6)}ms`;
  const note = (what: string) => events.push(`${at()} ${what}`);
  const start = clock.now;

  const startInstance = async () => {
    const instance = new Instance(`i${nextInstance++}`, network, store, random, shared);
    instances.push(instance);
    await clock.runWhile(instance.rooms.start(), 10_000);
    note(`${instance.id} started`);
    return instance;
  };
  const live = () => instances.filter((i) => i.live);
  const pickLive = () => {
    const candidates = live();
    return candidates.length > 0 ? random.pick(candidates) : null;
  };

  const clients: Client[] = [];
  const after = (ms: number, fn: () => void) => {
    setTimeout(fn, ms);
  };
  const connect = (client: Client, target: Instance) => {
    client.connect(target);
    note(`client ${client.index} connects to ${target.id}`);
  };
  /** Reconnects a client to some live instance, retrying while there is none. */
  const reconnect = (client: Client, delay: number) =>
    after(delay, () => {
      if (client.gone || client.conn) return;
      const target = pickLive();
      if (target) connect(client, target);
      else reconnect(client, 500);
    });
  const crash = (victim: Instance, vanishes: (client: Client) => boolean) => {
    note(`${victim.id} crashes`);
    victim.crash();
    for (const client of clients) {
      const conn = client.conn;
      if (!conn || conn.instance !== victim) continue;
      conn.closed = true;
      client.conn = null;
      if (vanishes(client)) {
        client.gone = true;
        note(`client ${client.index} vanishes with it`);
      } else reconnect(client, 100 + random.int(3000));
    }
  };
  const addClient = (vanishes: boolean) => {
    const client = new Client(clients.length, random, allKeys, vanishes, store, falseSaves);
    clients.push(client);
    return client;
  };
  const activeMs = await plan({
    random,
    instances,
    clients,
    startInstance,
    addClient,
    connect,
    reconnect,
    live,
    pickLive,
    after,
    crash,
    note,
  });

  await clock.runUntil(start + activeMs);
  // Heal: outages end on their own within seconds; everyone still around reconnects.
  await clock.runUntil(clock.now + 5000);
  if (live().length === 0) await startInstance();
  for (const client of clients) if (!client.gone && !client.conn) reconnect(client, random.int(500));
  await clock.runUntil(clock.now + 7000);

  const fail = (what: string): never => {
    throw new ScenarioFailure(`seed ${seed}: ${what}\n${events.join('\n')}`);
  };
  if (falseSaves.length > 0) fail(`a room answered "stored" too early: ${falseSaves[0]}`);
  // Every replica converged.
  const replicas: [string, Y.Doc][] = [];
  for (const client of clients)
    if (!client.gone && client.conn) replicas.push([`client ${client.index}`, client.doc]);
  for (const instance of live()) {
    const room = instance.rooms.get(BOARD);
    if (room && !room.isEmpty) replicas.push([`${instance.id}'s room`, room.doc]);
  }
  const reference = replicas[0] ? keysOf(replicas[0][1]).join(',') : '';
  for (const [name, doc] of replicas) {
    const keys = keysOf(doc);
    if (keys.join(',') === reference) continue;
    const first = new Set(keysOf(replicas[0]![1]));
    const lacks = [...first].filter((key) => !keys.includes(key));
    const extra = keys.filter((key) => !first.has(key));
    fail(
      `${name} did not converge with ${replicas[0]![0]}: ${keys.length} shapes vs ${first.size}` +
        ` (lacks ${lacks.slice(0, 8).join(', ') || 'none'}; has extra ${extra.slice(0, 8).join(', ') || 'none'})`,
    );
  }

  // Every live room holds what the Store holds. An edit that is only in the Store (its instance,
  // cut from the bus, stored it and died, its clients with it) must reach the rooms open elsewhere
  // all along, not only the next room that loads the board.
  const storedBeforeLeaving = store.keys();
  for (const instance of live()) {
    const room = instance.rooms.get(BOARD);
    if (!room || room.isEmpty) continue;
    const has = new Set(keysOf(room.doc));
    const lacks = storedBeforeLeaving.filter((key) => !has.has(key));
    if (lacks.length > 0)
      fail(
        `${instance.id}'s room lacks ${lacks.length} shapes the Store holds: ${lacks.slice(0, 8).join(', ')}`,
      );
  }

  // Everyone leaves, the rooms unload, the instances stop.
  for (const client of clients) if (client.conn) client.drop(client.conn);
  await clock.runUntil(clock.now + 3000);
  for (const instance of live()) {
    instance.stopped = true;
    await clock.runWhile(instance.rooms.closeAll(1001, 'scenario over'), 120_000);
  }

  const stored = new Y.Doc({ guid: 'harness-stored' });
  const content = await store.loadDoc(BOARD);
  for (const part of content.snapshot ? [content.snapshot, ...content.updates] : content.updates)
    Y.applyUpdate(stored, part);
  const storedKeys = new Set(keysOf(stored));
  const expected = new Set<string>();
  for (const instance of instances) if (!instance.crashed) for (const key of instance.held) expected.add(key);
  for (const client of clients) if (!client.gone) for (const key of keysOf(client.doc)) expected.add(key);
  const missing = [...expected].filter((key) => !storedKeys.has(key));
  if (missing.length > 0)
    fail(`the Store lacks ${missing.length} shapes a survivor held: ${missing.slice(0, 8).join(', ')}`);
  const invented = [...storedKeys].filter((key) => !allKeys.has(key));
  if (invented.length > 0) fail(`the Store holds shapes nobody made: ${invented.join(', ')}`);
  return `${instances.length} instances, ${clients.length} clients, ${storedKeys.size}/${allKeys.size} shapes stored`;
}
