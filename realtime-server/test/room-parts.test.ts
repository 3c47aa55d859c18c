// The Room's parts, each on its own (docs/architecture.md, "A newcomer's map"): the origin routing,
// Fanout, SavedTracker, DocSize, Ingest and Replication, driven with real Yjs docs, a real
// in-process bus and recording peers (a Peer is anything that can send bytes and be closed).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ANONYMOUS_VIEWER_WINDOW_MS, CloseCode, decodeSavedMessage, type Role } from '@tandem/shared';
import pino from 'pino';
import * as Y from 'yjs';
import { waitUntil } from '../../testing/services.ts';
import { MemoryHub } from '../src/bus/memory.ts';
import { StoreCatchUp } from '../src/documents/catchUp.ts';
import { Fanout, PRESENCE_WAIT_FACTOR, VIEWER_WRITES_PER_TURN } from '../src/documents/fanout.ts';
import { Ingest, type IngestHost } from '../src/documents/ingest.ts';
import {
  applyUpdate,
  BUS,
  BUS_RESOLVING,
  CATCH_UP,
  fromPeer,
  LOAD,
  onBehalfOf,
  routeOf,
  SYNC_REPLY,
  type TransactionOrigin,
} from '../src/documents/origins.ts';
import type { Peer } from '../src/documents/peer.ts';
import { DocPersister, type QueuedUpdate } from '../src/documents/persister.ts';
import { RoomPresence } from '../src/documents/presence.ts';
import { encodeAwarenessUpdate, parseClientMessage } from '../src/documents/protocol.ts';
import { Replication } from '../src/documents/replication.ts';
import { SavedTracker, WAITS_RESOLVED_PER_TURN } from '../src/documents/saved.ts';
import { SaveHealth } from '../src/documents/saveHealth.ts';
import { DocSize } from '../src/documents/size.ts';
import { createMetrics } from '../src/metrics.ts';
import { MemoryDocStore } from '../src/store/memory.ts';

const silent = pino({ level: 'silent' });
let nextPeerId = 0;

/** A peer that records what it is sent and how it was closed. */
class RecordingPeer implements Peer {
  readonly id = ++nextPeerId;
  readonly user;
  readonly clientIds = new Set<number>();
  readonly writes: (Uint8Array | Uint8Array[])[] = [];
  closedWith: number | null = null;
  constructor(
    readonly userId: string,
    public role: Role = 'editor',
    readonly credentialRole: Role = 'owner',
  ) {
    this.user = { id: userId, name: userId, color: '#e03131' };
  }
  send(message: Uint8Array | Uint8Array[]): void {
    this.writes.push(message);
  }
  answer(encode: () => Uint8Array | null): void {
    const message = encode();
    if (message) this.send(message);
  }
  close(code: number): void {
    this.closedWith = code;
  }
  /** Messages received, one write counting its messages separately. */
  get messages(): Uint8Array[] {
    return this.writes.flatMap((write) => (Array.isArray(write) ? write : [write]));
  }
}

function shapeUpdate(id: string, from?: Y.Doc): { update: Uint8Array; doc: Y.Doc } {
  const doc = from ?? new Y.Doc();
  const before = Y.encodeStateVector(doc);
  doc.getMap('shapes').set(id, new Y.Map(Object.entries({ type: 'rect', x: 1, y: 2 })));
  return { update: Y.encodeStateAsUpdate(doc, before), doc };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('origins: what a room does with a change, by where it came from', () => {
  test('routeOf gives each kind its relay, storage, publication and author', () => {
    const peer = new RecordingPeer('ana');
    const table: [TransactionOrigin, ReturnType<typeof routeOf>][] = [
      [fromPeer(peer), { sender: peer, storage: 'here', publish: true, userId: 'ana' }],
      [onBehalfOf('ben'), { sender: null, storage: 'here', publish: true, userId: 'ben' }],
      [LOAD, { sender: null, storage: 'none', publish: false, userId: null }],
      [BUS, { sender: null, storage: 'held', publish: false, userId: null }],
      [BUS_RESOLVING, { sender: null, storage: 'here', publish: true, userId: null }],
      [SYNC_REPLY, { sender: null, storage: 'here', publish: false, userId: null }],
      [CATCH_UP, { sender: null, storage: 'stored', publish: false, userId: null }],
    ];
    for (const [origin, route] of table) assert.deepEqual(routeOf(origin), route, origin.kind);
  });
});

describe('Fanout', () => {
  test("one turn's updates reach every peer but their sender in one write; mixed senders reach everyone", async () => {
    const ana = new RecordingPeer('ana');
    const ben = new RecordingPeer('ben');
    const peers = new Set<Peer>([ana, ben]);
    const fanout = new Fanout(peers, new RoomPresence(() => undefined), () => undefined);
    fanout.add(shapeUpdate('a').update, ana);
    fanout.add(shapeUpdate('b').update, ana);
    await nextTurn();
    assert.equal(ana.writes.length, 0, 'the sender has its own updates');
    assert.equal(ben.writes.length, 1, 'one write for the turn');
    assert.equal(ben.messages.length, 2, 'two sync messages in it');
    fanout.add(shapeUpdate('c').update, ana);
    fanout.add(shapeUpdate('d').update, ben);
    await nextTurn();
    assert.equal(ana.writes.length, 1, 'updates from two senders in one turn go to everyone');
    assert.equal(ben.writes.length, 2);
    fanout.add(shapeUpdate('e').update, null);
    await nextTurn();
    assert.equal(ana.writes.length, 2, 'an update from no peer goes to everyone');
    fanout.close();
  });

  test("anonymous viewers get a window's updates as one merged message; people get each turn's at once", async () => {
    const ana = new RecordingPeer('ana');
    const ben = new RecordingPeer('ben');
    const viewers = [new RecordingPeer('public:1', 'viewer'), new RecordingPeer('public:1', 'viewer')];
    for (const viewer of viewers) Object.assign(viewer, { anonymous: true });
    const fanout = new Fanout(
      new Set<Peer>([ana, ben, ...viewers]),
      new RoomPresence(() => undefined),
      () => undefined,
    );
    const source = new Y.Doc();
    const started = performance.now();
    for (const id of ['a', 'b', 'c']) {
      fanout.add(shapeUpdate(id, source).update, ana);
      await nextTurn();
    }
    assert.equal(ben.writes.length, 3, 'a person gets every turn at once');
    assert.equal(viewers[0]!.writes.length, 0, 'a viewer waits for the window');
    await waitUntil('the window ends', () => viewers.every((v) => v.writes.length === 1));
    assert.ok(performance.now() - started >= ANONYMOUS_VIEWER_WINDOW_MS - 5);
    assert.equal(
      viewers[0]!.writes[0],
      viewers[1]!.writes[0],
      'merged once, the same bytes for every viewer',
    );
    const received = new Y.Doc();
    const message = parseClientMessage(viewers[0]!.messages[0]!);
    assert.equal(message.kind, 'update');
    if (message.kind === 'update') Y.applyUpdate(received, message.update);
    assert.deepEqual(received.getMap('shapes').toJSON(), source.getMap('shapes').toJSON());
    // Closing sends what the window holds at once.
    fanout.add(shapeUpdate('d', source).update, ana);
    await nextTurn();
    fanout.close();
    assert.equal(viewers[0]!.writes.length, 2);
    assert.equal(ana.writes.length, 0, 'the sender is never sent its own updates');
  });

  test("a window's frame reaches many viewers a slice per turn, so people's updates are relayed in between", async () => {
    const ana = new RecordingPeer('ana');
    const ben = new RecordingPeer('ben');
    const viewers = Array.from({ length: VIEWER_WRITES_PER_TURN * 2 + 5 }, () => {
      const viewer = new RecordingPeer('public:1', 'viewer');
      Object.assign(viewer, { anonymous: true });
      return viewer;
    });
    const fanout = new Fanout(
      new Set<Peer>([ana, ben, ...viewers]),
      new RoomPresence(() => undefined),
      () => undefined,
    );
    const source = new Y.Doc();
    const written = () => viewers.filter((v) => v.writes.length > 0).length;
    const last = viewers.at(-1)!;
    // When the first slice's last viewer is written: how many have the frame, and a person's
    // update arrives then (as one read from a socket would, between two turns).
    let afterFirstSlice = -1;
    const endOfSlice = viewers[VIEWER_WRITES_PER_TURN - 1]!;
    const sendToEnd = endOfSlice.send.bind(endOfSlice);
    endOfSlice.send = (message) => {
      sendToEnd(message);
      queueMicrotask(() => {
        if (afterFirstSlice >= 0) return;
        afterFirstSlice = written();
        fanout.add(shapeUpdate('b', source).update, ana);
      });
    };
    let lastViewerWritesWhenBenGotB = -1;
    const sendToBen = ben.send.bind(ben);
    ben.send = (message) => {
      sendToBen(message);
      if (ben.writes.length === 2) lastViewerWritesWhenBenGotB = last.writes.length;
    };
    fanout.add(shapeUpdate('a', source).update, ana);
    await waitUntil('every viewer has the frame', () => written() === viewers.length);
    assert.equal(afterFirstSlice, VIEWER_WRITES_PER_TURN, 'one slice in the turn the window ended');
    await waitUntil("ben has ana's second update", () => ben.writes.length === 2);
    assert.equal(
      lastViewerWritesWhenBenGotB,
      0,
      "the person's update went out before the viewers' last slice",
    );
    fanout.close();
    await waitUntil('closing sent the rest of the window to every viewer', () =>
      viewers.every((v) => v.writes.length === 2),
    );
  });

  test('presence goes out at once in a quiet room, then merged per tick, and published for the others', async () => {
    // Ana moves; Ben sees her moves (her own are not written back to her).
    const ana = new RecordingPeer('ana');
    ana.clientIds.add(7);
    const ben = new RecordingPeer('ben');
    const peers = new Set<Peer>([ana, ben]);
    const published: Uint8Array[] = [];
    let fanout: Fanout | null = null;
    const presence = new RoomPresence(() => fanout?.presenceChanged());
    fanout = new Fanout(peers, presence, (local) => published.push(local));
    // A partial state (a bot's cursor) is completed with the presence defaults.
    const awareness = (clock: number, x: number) =>
      encodeAwarenessUpdate([{ clientId: 7, clock, state: JSON.stringify({ cursor: { x, y: 0 } }) }], 1);
    presence.applyFromPeer(ana, awareness(1, 1));
    await nextTurn();
    assert.equal(ben.writes.length, 1, 'the first change goes out this turn');
    assert.equal(published.length, 1, 'and to the other instances');
    presence.applyFromPeer(ana, awareness(2, 2));
    presence.applyFromPeer(ana, awareness(3, 3));
    await waitUntil('the tick ends', () => ben.writes.length === 2);
    assert.equal(published.length, 2, 'two changes within the tick: one message');
    fanout.close();
  });

  test('after a send, presence waits what the send took times PRESENCE_WAIT_FACTOR, and never longer than the tick', async () => {
    const SEND_MS = 30;
    /** A peer whose every send takes SEND_MS of the event loop, as a big room's sends do together. */
    class SlowPeer extends RecordingPeer {
      override send(message: Uint8Array | Uint8Array[]): void {
        const until = performance.now() + SEND_MS;
        while (performance.now() < until);
        super.send(message);
      }
    }
    const awareness = (clock: number) =>
      encodeAwarenessUpdate(
        [{ clientId: 9, clock, state: JSON.stringify({ cursor: { x: clock, y: 0 } }) }],
        1,
      );
    /** Ana moves (client 9); Ben, whose sends are slow, is written her moves. */
    const room = (tickMs: number) => {
      const ana = new RecordingPeer('ana');
      ana.clientIds.add(9);
      const ben = new SlowPeer('ben');
      let fanout: Fanout | null = null;
      const presence = new RoomPresence(() => fanout?.presenceChanged());
      fanout = new Fanout(new Set<Peer>([ana, ben]), presence, () => undefined, tickMs);
      return { ana, ben, presence, fanout };
    };

    const long = room(60_000);
    long.presence.applyFromPeer(long.ana, awareness(1));
    await nextTurn();
    assert.equal(long.ben.writes.length, 1, 'the first change goes out this turn');
    const sentAt = performance.now();
    long.presence.applyFromPeer(long.ana, awareness(2));
    await nextTurn();
    assert.equal(long.ben.writes.length, 1, 'the next one waits: the last send was slow');
    await waitUntil('the wait ends, long before the tick', () => long.ben.writes.length === 2, 10_000);
    assert.ok(
      performance.now() - sentAt >= SEND_MS * PRESENCE_WAIT_FACTOR * 0.9,
      'it waited about the send time times the factor',
    );
    long.fanout.close();

    const short = room(0);
    short.presence.applyFromPeer(short.ana, awareness(1));
    await nextTurn();
    short.presence.applyFromPeer(short.ana, awareness(2));
    await nextTurn();
    assert.equal(short.ben.writes.length, 2, 'a tick of 0: every turn sends what changed in it');
    short.fanout.close();
  });
});

describe('SavedTracker', () => {
  test('a wait resolves once every mark up to its start is stored; a peer has at most one answer waiting', async () => {
    const unstored = new Set<number>();
    let pending = false;
    const connected = new Set<Peer>();
    const saved = new SavedTracker({
      lowestUnsaved: () => (unstored.size === 0 ? Number.POSITIVE_INFINITY : Math.min(...unstored)),
      hasPending: () => pending,
      isConnected: (peer) => connected.has(peer),
    });
    await saved.whenStored();
    const first = saved.next();
    const second = saved.next();
    unstored.add(first).add(second);
    let resolved = false;
    void saved.whenStored().then(() => {
      resolved = true;
    });
    const third = saved.next();
    unstored.add(third);
    unstored.delete(first);
    saved.check();
    await nextTurn();
    assert.equal(resolved, false, 'mark 2 is not stored yet');
    unstored.delete(second);
    saved.check();
    await nextTurn();
    assert.equal(resolved, true, 'marks 1 and 2 stored: resolved although mark 3 is not');
    assert.equal(saved.savedMark(), second);

    const ana = new RecordingPeer('ana');
    connected.add(ana);
    saved.answerWhenStored(ana, 1);
    saved.answerWhenStored(ana, 2);
    saved.answerWhenStored(ana, 3);
    await nextTurn();
    assert.equal(ana.writes.length, 0, 'mark 3 is not stored: no answer');
    unstored.delete(third);
    saved.check();
    await waitUntil('both answers', () => ana.writes.length === 2);
    assert.deepEqual(
      ana.messages.map((m) => decodeSavedMessage(m)),
      [1, 3],
      'the first request, then the latest of those that waited behind it',
    );
    pending = true;
    saved.answerWhenStored(ana, 4);
    await nextTurn();
    assert.equal(ana.writes.length, 2, 'no answer while an edit waits for a missing dependency');
  });

  test('many waits completed by one write resolve a slice per event-loop turn, in order', async () => {
    let stored = false;
    const saved = new SavedTracker({
      lowestUnsaved: () => (stored ? Number.POSITIVE_INFINITY : 1),
      hasPending: () => false,
      isConnected: () => true,
    });
    saved.next();
    const order: number[] = [];
    const count = WAITS_RESOLVED_PER_TURN * 3 + 2;
    for (let i = 0; i < count; i++) void saved.whenStored().then(() => order.push(i));
    stored = true;
    saved.check();
    // Microtasks only: what resolved in this turn.
    for (let i = 0; i < 3; i++) await Promise.resolve();
    assert.equal(order.length, WAITS_RESOLVED_PER_TURN, 'one slice in this turn, the rest later');
    await waitUntil('every wait resolved', () => order.length === count);
    assert.deepEqual(order, [...Array(count).keys()], 'in the order they began');
  });
});

describe('DocSize', () => {
  test('counts what is applied, and measures again when a quarter or more was added since', () => {
    const doc = new Y.Doc();
    let measures = 0;
    const size = new DocSize(doc, () => measures++);
    const text = doc.getText('t');
    for (let i = 0; i < 50; i++) {
      const before = Y.encodeStateVector(doc);
      text.insert(0, 'x'.repeat(100));
      text.delete(0, 100);
      size.grew(Y.encodeStateAsUpdate(doc, before).length);
    }
    const counted = size.bytes;
    size.remeasureIfDue();
    assert.equal(measures, 1);
    assert.equal(size.bytes, Y.encodeStateAsUpdate(doc).length);
    assert.ok(
      size.bytes < counted / 4,
      `deleted text counts little once measured (${size.bytes} < ${counted} / 4)`,
    );
    size.remeasureIfDue();
    assert.equal(measures, 1, 'nothing added since, and just measured: not again');
  });
});

describe('Ingest', () => {
  function host(doc: Y.Doc, maxDocBytes = 1024 * 1024) {
    const routed: { update: Uint8Array; origin: TransactionOrigin }[] = [];
    const rejected: { peer: Peer; code: number }[] = [];
    const size = new DocSize(doc, () => undefined);
    doc.on('update', (update: Uint8Array, origin: TransactionOrigin) => routed.push({ update, origin }));
    const ingestHost: IngestHost = {
      doc,
      size,
      maxDocBytes,
      instances: () => 1,
      isClosed: () => false,
      reject: (peer, code) => rejected.push({ peer, code }),
      applyQuietly: (apply, changed, origin) => {
        const muted = routed.length;
        apply();
        routed.splice(muted);
        const update = changed();
        if (update) routed.push({ update, origin });
      },
      requestSync: () => undefined,
      failed: (peer) => rejected.push({ peer, code: -1 }),
    };
    return { ingest: new Ingest(ingestHost), routed, rejected, size };
  }

  test("one peer's updates of a turn are applied in one transaction, attributed to it", async () => {
    const doc = new Y.Doc();
    const { ingest, routed } = host(doc);
    const ana = new RecordingPeer('ana');
    const client = new Y.Doc();
    for (let i = 0; i < 5; i++) ingest.take(ana, shapeUpdate(`s${i}`, client).update, 'update');
    assert.equal(doc.getMap('shapes').size, 0, 'not applied before the microtask');
    await Promise.resolve();
    assert.equal(doc.getMap('shapes').size, 5);
    assert.equal(routed.length, 1, 'one change for five updates');
    const origin = routed[0]!.origin;
    assert.equal(origin.kind, 'peer');
    assert.equal(origin.kind === 'peer' && origin.peer, ana);
  });

  test("a viewer's sync answer is never applied and never closes it, though it holds what the doc has only waiting", () => {
    const doc = new Y.Doc();
    const { ingest, rejected } = host(doc);
    // An edit whose dependency has not arrived waits in the doc; a viewer sent it holds it waiting
    // too, and Yjs puts what waits in every sync answer. Its own clock is past the doc's.
    const author = new Y.Doc();
    shapeUpdate('first', author);
    const waiting = shapeUpdate('second', author).update;
    const editor = new RecordingPeer('eve');
    ingest.take(editor, waiting, 'update');
    ingest.applyWaiting();
    assert.equal(doc.getMap('shapes').size, 0, 'the second waits for the first');
    const viewerCopy = new Y.Doc();
    Y.applyUpdate(viewerCopy, waiting);
    const answer = Y.encodeStateAsUpdate(viewerCopy, Y.encodeStateVector(doc));
    const viewer = new RecordingPeer('vic', 'viewer');
    ingest.take(viewer, answer, 'step2');
    ingest.applyWaiting();
    assert.equal(rejected.length, 0, 'the viewer stays');
    // Content the doc has never seen, in a sync answer: not applied either, and not closed for.
    ingest.take(viewer, shapeUpdate('forged').update, 'step2');
    ingest.applyWaiting();
    assert.equal(rejected.length, 0);
    assert.equal(doc.getMap('shapes').size, 0, 'nothing of the viewer applied');
    // The same as an update, an edit: closed with 4403.
    ingest.take(viewer, shapeUpdate('edit').update, 'update');
    ingest.applyWaiting();
    assert.deepEqual(
      rejected.map(({ peer, code }) => [peer.userId, code]),
      [['vic', CloseCode.NO_ACCESS]],
    );
    assert.equal(doc.getMap('shapes').size, 0);
  });

  test("a viewer's new content, an undecodable update and one over the size limit close only that peer", () => {
    const doc = new Y.Doc();
    const { ingest, rejected, size } = host(doc, 600);
    const viewer = new RecordingPeer('vic', 'viewer');
    ingest.take(viewer, shapeUpdate('v').update, 'update');
    const garbled = new RecordingPeer('gus');
    ingest.take(garbled, new Uint8Array([1, 2, 3, 250, 250, 250]), 'update');
    const big = new RecordingPeer('bea');
    const client = new Y.Doc();
    client.getText('t').insert(0, 'y'.repeat(700));
    ingest.take(big, Y.encodeStateAsUpdate(client), 'update');
    ingest.applyWaiting();
    assert.deepEqual(
      rejected.map(({ peer, code }) => [peer.userId, code]),
      [
        ['vic', CloseCode.NO_ACCESS],
        ['gus', CloseCode.UNDECODABLE],
        ['bea', CloseCode.BOARD_TOO_LARGE],
      ],
    );
    assert.equal(doc.getMap('shapes').size, 0);
    assert.equal(doc.getText('t').length, 0, 'nothing of them applied');
    assert.equal(
      size.bytes,
      Y.encodeStateAsUpdate(doc).length,
      'measured again before refusing: the empty board',
    );
  });
});

describe('Replication', () => {
  function replica(hub: MemoryHub, instanceId: string, others: () => boolean) {
    const doc = new Y.Doc();
    const stored: QueuedUpdate[] = [];
    let mark = 0;
    let confirmations = 0;
    const replication = new Replication({
      boardId: 'board-parts',
      doc,
      presence: new RoomPresence(() => undefined),
      bus: hub.createBus(),
      instanceId,
      instances: { othersAlive: others, othersCount: () => (others() ? 1 : 0), heard: () => undefined },
      metrics: createMetrics(),
      log: silent,
      settleIncoming: () => undefined,
      store: (item) => stored.push(item),
      nextMark: () => ++mark,
      confirmed: () => confirmations++,
      catchUpFromStore: () => undefined,
    });
    return { doc, stored, replication, confirmations: () => confirmations };
  }

  /** Two instances on one in-process hub, subscribed to the board. */
  async function twoReplicas(othersAlive: () => boolean) {
    const hub = new MemoryHub();
    const a = replica(hub, 'instance-a', othersAlive);
    const b = replica(hub, 'instance-b', othersAlive);
    await a.replication.subscribe();
    await b.replication.subscribe();
    return { a, b };
  }

  test('an edit published by one instance is held by the other until confirmed, and adopted when its origin lapses', async () => {
    const { a, b } = await twoReplicas(() => true);

    const first = shapeUpdate('one').update;
    applyUpdate(a.doc, first, LOAD);
    assert.equal(a.replication.publishUpdate(first, 'ana'), 1, 'the first seq');
    await waitUntil('b applies it', () => b.doc.getMap('shapes').has('one'));
    assert.equal(b.replication.holding, true, 'b holds it for a');
    assert.equal(b.replication.lowestHeldMark() < Number.POSITIVE_INFINITY, true);

    a.replication.stored([{ update: first, userId: 'ana', at: Date.now(), seq: 1, mark: 1 }]);
    await waitUntil('b forgets it once a confirms', () => !b.replication.holding);
    assert.equal(b.confirmations(), 1);
    assert.equal(b.stored.length, 0, 'b never stored it: a did');

    const second = shapeUpdate('two').update;
    applyUpdate(a.doc, second, LOAD);
    a.replication.publishUpdate(second, 'ana');
    await waitUntil('b applies the second', () => b.doc.getMap('shapes').has('two'));
    b.replication.forgetInstance('instance-a');
    assert.equal(b.replication.holding, false);
    assert.deepEqual(
      b.stored.map((item) => [item.userId, item.seq]),
      [['ana', 0]],
      'a lapsed before confirming: b stores it as its own, attributed to its author',
    );
    await a.replication.close();
    await b.replication.close();
  });

  test('alone, nothing is published; when another instance appears, both sides sync', async () => {
    let othersAlive = false;
    const { a, b } = await twoReplicas(() => othersAlive);
    const alone = shapeUpdate('alone').update;
    applyUpdate(a.doc, alone, LOAD);
    assert.equal(a.replication.publishUpdate(alone, 'ana'), 0, 'not published');
    await nextTurn();
    assert.equal(b.doc.getMap('shapes').has('alone'), false);
    othersAlive = true;
    a.replication.shareWhatWasUnpublished();
    await waitUntil('b gets it by the reciprocated sync', () => b.doc.getMap('shapes').has('alone'));
    await a.replication.close();
    await b.replication.close();
  });
});

describe('StoreCatchUp', () => {
  test('a read from a log position applies only what was stored after it; a read without one, the whole board', async () => {
    const store = new MemoryDocStore();
    const entry = (update: Uint8Array) => ({ update, userId: null, at: new Date() });
    // Two writers (independent updates): the room already read up to the first one's entry.
    await store.append('b', [entry(shapeUpdate('before').update)]);
    const seen = (await store.logHeads(['b'])).get('b')!;
    await store.append('b', [entry(shapeUpdate('after').update)]);
    const doc = new Y.Doc();
    const catchUp = new StoreCatchUp('b', doc, store, createMetrics(), silent, () => false);
    const shapes = doc.getMap('shapes');
    catchUp.request('test', seen);
    await waitUntil('the entry after the position is read', () => shapes.has('after'));
    assert.equal(shapes.has('before'), false, 'nothing at or before the position was read');
    catchUp.request('test');
    await waitUntil('the whole board is read', () => shapes.has('before'));
  });
});

describe('DocPersister', () => {
  test('a board edited without pause is stored after PERSIST_MAX_DELAY_MS, unless someone waits (hurry): then within the debounce', async () => {
    /** Edits every 10 ms for 600 ms; how many log entries the Store held when the stream ended. */
    const storedDuringStream = async (hurry: boolean): Promise<number> => {
      const store = new MemoryDocStore();
      // The debounce is never reached (an edit every 10 ms); the longest delay is far past the stream.
      const persister = new DocPersister(
        'b',
        store,
        { debounceMs: 50, maxDelayMs: 60_000 },
        silent,
        createMetrics(),
      );
      const doc = new Y.Doc();
      let mark = 0;
      const edit = () => {
        const { update } = shapeUpdate(`s${mark}`, doc);
        persister.enqueue({ update, userId: 'u', at: Date.now(), seq: 0, mark: ++mark });
      };
      edit();
      if (hurry) persister.hurry();
      const ends = Date.now() + 600;
      while (Date.now() < ends) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        edit();
      }
      const entries = (await store.loadDoc('b')).updates.length;
      await persister.flush();
      persister.close();
      const stored = new Y.Doc();
      for (const update of (await store.loadDoc('b')).updates) Y.applyUpdate(stored, update);
      assert.equal(stored.getMap('shapes').size, mark, 'every edit is stored after the flush');
      return entries;
    };
    assert.equal(await storedDuringStream(false), 0, 'nothing stored while the edits go on');
    assert.ok(
      (await storedDuringStream(true)) >= 1,
      'the queue someone waits for is stored while the edits go on',
    );
  });

  test('a Store that fails every write (a full disk) is retried with backoff while people keep editing, not once per edit', async () => {
    // The way a full disk fails: at once, on every append.
    let failing = true;
    let attempts = 0;
    const store = new MemoryDocStore();
    const append = store.append.bind(store);
    store.append = async (boardId, entries) => {
      attempts += 1;
      if (failing) throw new Error('database or disk is full');
      return append(boardId, entries);
    };
    const metrics = createMetrics();
    const persister = new DocPersister('b', store, { debounceMs: 20, maxDelayMs: 100 }, silent, metrics);
    const doc = new Y.Doc();
    let mark = 0;
    try {
      const ends = Date.now() + 1500;
      while (Date.now() < ends) {
        const { update } = shapeUpdate(`s${mark}`, doc);
        persister.enqueue({ update, userId: 'u', at: Date.now(), seq: 0, mark: ++mark });
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Backoff from 500 ms (250 ms doubling, ±25 %): a handful of attempts in 1.5 s. Before, every
      // edit after the first failure started another attempt at once (about one per edit, 100+).
      assert.ok(attempts <= 6, `${attempts} attempts to store in 1.5 s of edits every 10 ms`);
      failing = false;
      await persister.flush();
    } finally {
      failing = false;
      persister.close();
    }
    const stored = new Y.Doc();
    for (const update of (await store.loadDoc('b')).updates) Y.applyUpdate(stored, update);
    assert.equal(stored.getMap('shapes').size, mark, 'every edit is stored once the Store takes writes');
  });
});

describe('SaveHealth (what /readyz reads of the persisters)', () => {
  test('failing once a board has failed for the whole window with nothing stored meanwhile', () => {
    const saves = new SaveHealth();
    saves.stored('a', 0);
    saves.failed('a', 1_000);
    saves.failed('a', 3_000);
    assert.equal(saves.failing(5_000, 5_999), false, 'failing for less than the window');
    assert.equal(saves.failing(5_000, 6_000), true);
    saves.stored('a', 6_500);
    assert.equal(saves.failing(5_000, 20_000), false, 'stored again');
  });

  test('one board failing while others are stored is not the instance failing', () => {
    const saves = new SaveHealth();
    saves.failed('broken', 0);
    saves.stored('fine', 8_000);
    assert.equal(saves.failing(5_000, 10_000), false);
    assert.equal(saves.failing(5_000, 13_000), true, 'nothing stored for 5 s');
    saves.forget('broken');
    assert.equal(saves.failing(5_000, 13_000), false, 'a closed board no longer counts');
  });
});
