// A generator worker: hosts a share of the bench clients, makes their traffic and times every delivery.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import * as Y from 'yjs';
import {
  type BenchClient,
  createClient,
  createLeanClient,
  createLightClient,
  type LeanClient,
  type LightClient,
  leanMark,
} from './client.ts';
import {
  type ClientSpec,
  type Command,
  type ConnectCommand,
  type ConnectResult,
  type Counts,
  type DecodeCommand,
  type Envelope,
  nowMicros,
  type Report,
  type SentCounts,
  type StartCommand,
} from './protocol.ts';
import { Samples } from './stats.ts';

interface Live {
  spec: ClientSpec;
  client: BenchClient;
  /** per writer id: last sequence number seen */
  lastSeq: Map<number, number>;
}

/** A timed person who reads marks from the bytes instead of holding the board (ClientSpec.lean). */
interface Lean {
  spec: ClientSpec;
  client: LeanClient;
  lastSeq: Map<number, number>;
}

/** Someone on the board who is not timed (ClientSpec.probe false). */
interface Extra {
  spec: ClientSpec;
  client: LightClient;
}

/**
 * A presence state as Tandem's schema wants it (docs/api.md §3; the server strips unknown fields), and the
 * same for every server. A moving cursor carries its send time in `x` and its sequence number in `y`.
 */
interface CursorState {
  cursor?: { x: number; y: number } | null;
}

function presence(id: number): Record<string, unknown> {
  return {
    user: { id: `bench-${id}`, name: `bench ${id}`, color: 'blue' },
    cursor: null,
    selection: [],
    viewport: { x: 0, y: 0, zoom: 1 },
    tool: 'select',
    idle: false,
  };
}

interface Mark {
  t: number;
  s: number;
  w: number;
}

// every y-websocket provider adds a process 'exit' listener; thousands of clients are expected here
process.setMaxListeners(0);

const live: Live[] = [];
const extras: Extra[] = [];
const leans: Lean[] = [];
let recording = false;
let docLatency = new Samples();
let awLatency = new Samples();
let counts: Counts = { docDelivered: 0, awDelivered: 0, disconnects: 0 };
const lag = monitorEventLoopDelay({ resolution: 10 });

function attach(l: Live): void {
  const { doc, provider } = l.client;
  const marks = doc.getMap<Mark>('bench');
  marks.observe((event: Y.YMapEvent<Mark>) => {
    if (event.transaction.local) return;
    const now = nowMicros();
    for (const key of event.keysChanged) {
      const m = marks.get(key);
      if (!m) continue;
      const prev = l.lastSeq.get(m.w) ?? 0;
      if (m.s <= prev) continue;
      l.lastSeq.set(m.w, m.s);
      if (!recording) continue;
      counts.docDelivered++;
      docLatency.push((now - m.t) / 1000);
    }
  });
  const own = doc.clientID;
  provider.awareness.on(
    'change',
    ({ added, updated }: { added: number[]; updated: number[] }, origin: unknown) => {
      if (!recording || origin === 'local') return;
      const now = nowMicros();
      const states = provider.awareness.getStates();
      for (const list of [added, updated]) {
        for (const id of list) {
          if (id === own) continue;
          const c = (states.get(id) as CursorState | undefined)?.cursor;
          if (!c) continue;
          counts.awDelivered++;
          awLatency.push((now - c.x) / 1000);
        }
      }
    },
  );
  provider.on('connection-close', () => {
    if (recording) counts.disconnects++;
  });
}

async function connect(cmd: ConnectCommand): Promise<ConnectResult> {
  const syncMs = new Samples();
  const arrivedMs = new Samples();
  let failed = 0;
  const queue = [...cmd.clients];
  const one = async (spec: ClientSpec) => {
    const start = nowMicros();
    if (spec.lean) {
      const ok = await joinLean(spec, cmd.timeoutMs);
      if (ok) syncMs.push((nowMicros() - start) / 1000);
      else failed++;
      return;
    }
    if (!spec.probe) {
      const ok = await joinLight(spec, cmd.timeoutMs);
      if (ok) syncMs.push((nowMicros() - start) / 1000);
      else failed++;
      return;
    }
    const client = createClient(spec, { echoAwareness: cmd.echoAwareness });
    const arrived = whenLargestArrives(client, start);
    client.provider.awareness.setLocalState(presence(spec.id));
    const l: Live = { spec, client, lastSeq: new Map() };
    live.push(l);
    attach(l);
    const ok = await new Promise<boolean>((resolve) => {
      const shapes = client.doc.getMap('shapes');
      const done = () => {
        if (!client.provider.synced) return;
        if (cmd.expectShapes !== undefined && shapes.size < cmd.expectShapes) return;
        finish(true);
      };
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        client.provider.off('sync', done);
        if (cmd.expectShapes !== undefined) shapes.unobserve(done);
        resolve(ok);
      };
      const timer = setTimeout(() => finish(false), cmd.timeoutMs);
      client.provider.on('sync', done);
      if (cmd.expectShapes !== undefined) shapes.observe(done);
      done();
    });
    if (ok) {
      syncMs.push((nowMicros() - start) / 1000);
      arrivedMs.push(arrived());
    } else failed++;
    if (cmd.closeAfterSync) {
      client.destroy();
      live.splice(live.indexOf(l), 1);
    }
  };
  const lanes = Array.from({ length: Math.max(1, cmd.concurrency) }, async () => {
    for (let spec = queue.shift(); spec; spec = queue.shift()) await one(spec);
  });
  await Promise.all(lanes);
  return { synced: syncMs.length, failed, syncMs: syncMs.toArray(), arrivedMs: arrivedMs.toArray() };
}

/**
 * Notes when the largest message a client receives arrives (µs since `start`), before the
 * provider handles it; returns a function that gives it in ms. On a fresh load that message is the
 * board: before it is the connection and the server's work, after it the client's decoding.
 */
function whenLargestArrives(client: ReturnType<typeof createClient>, start: number): () => number {
  const ws = client.provider.ws as unknown as {
    onmessage: ((event: { data: ArrayBuffer | Uint8Array }) => void) | null;
  } | null;
  const handle = ws?.onmessage;
  let largest = -1;
  let at = Number.NaN;
  if (ws && handle)
    ws.onmessage = (event) => {
      if (event.data.byteLength > largest) {
        largest = event.data.byteLength;
        at = nowMicros();
      }
      handle(event);
    };
  return () => (at - start) / 1000;
}

async function joinLight(spec: ClientSpec, timeoutMs: number): Promise<boolean> {
  const client = createLightClient(spec, presence(spec.id));
  extras.push({ spec, client });
  return syncedWithin(client, timeoutMs);
}

/** Counts the client's disconnects while recording; whether it synced within `timeoutMs`. */
async function syncedWithin(
  client: { synced: Promise<void>; onClose(listener: () => void): void },
  timeoutMs: number,
): Promise<boolean> {
  client.onClose(() => {
    if (recording) counts.disconnects++;
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ok = await Promise.race([client.synced.then(() => true), timedOut]);
  clearTimeout(timer);
  return ok;
}

async function joinLean(spec: ClientSpec, timeoutMs: number): Promise<boolean> {
  const lastSeq = new Map<number, number>();
  const client = createLeanClient(spec, presence(spec.id), {
    onMark(w, s, t) {
      if (w === spec.id) return;
      const prev = lastSeq.get(w) ?? 0;
      if (s <= prev) return;
      lastSeq.set(w, s);
      if (!recording) return;
      counts.docDelivered++;
      docLatency.push((nowMicros() - t) / 1000);
    },
    onCursor(x) {
      if (!recording) return;
      counts.awDelivered++;
      awLatency.push((nowMicros() - x) / 1000);
    },
  });
  leans.push({ spec, client, lastSeq });
  return syncedWithin(client, timeoutMs);
}

let sent: SentCounts = { updates: {}, cursors: {} };

function start(cmd: StartCommand): Promise<SentCounts> {
  docLatency = new Samples();
  awLatency = new Samples();
  counts = { docDelivered: 0, awDelivered: 0, disconnects: 0 };
  sent = { updates: {}, cursors: {} };
  recording = true;
  lag.reset();
  lag.enable();
  const timers: NodeJS.Timeout[] = [];
  const every = (rate: number, fn: () => void) => {
    const period = 1000 / rate;
    // a random phase, so a thousand clients do not all fire in the same millisecond
    timers.push(
      setTimeout(() => {
        fn();
        timers.push(setInterval(fn, period));
      }, Math.random() * period),
    );
  };
  /**
   * Sends one numbered message from `id` at `rate` a second while `connected`, counting each in
   * `tally` (sent.updates or sent.cursors); `send` gets its sequence number.
   */
  const numbered = (
    tally: Record<number, number>,
    id: number,
    rate: number,
    connected: () => boolean,
    send: (seq: number) => void,
  ) => {
    if (rate <= 0) return;
    tally[id] = 0;
    every(rate, () => {
      if (!connected()) return;
      const seq = (tally[id] ?? 0) + 1;
      tally[id] = seq;
      send(seq);
    });
  };
  const now = () => Math.round(nowMicros());
  for (const e of extras) {
    if (!e.spec.mover) continue;
    numbered(
      sent.cursors,
      e.spec.id,
      cmd.awarenessRate,
      () => e.client.connected,
      (s) => e.client.moveCursor(now(), s),
    );
  }
  for (const l of leans) {
    const { id } = l.spec;
    const connected = () => l.client.connected;
    if (l.spec.writer)
      numbered(sent.updates, id, cmd.updateRate, connected, (s) =>
        l.client.writeMark(`w${id}`, leanMark(id, s, now())),
      );
    if (l.spec.mover)
      numbered(sent.cursors, id, cmd.awarenessRate, connected, (s) => l.client.moveCursor(now(), s));
  }
  for (const l of live) {
    const { id } = l.spec;
    const { doc, provider } = l.client;
    const connected = () => provider.wsconnected;
    if (l.spec.writer) {
      const marks = doc.getMap<Mark>('bench');
      numbered(sent.updates, id, cmd.updateRate, connected, (s) =>
        marks.set(`w${id}`, { t: now(), s, w: id }),
      );
    }
    if (l.spec.mover)
      numbered(sent.cursors, id, cmd.awarenessRate, connected, (s) =>
        provider.awareness.setLocalStateField('cursor', { x: now(), y: s }),
      );
  }
  return new Promise((resolve) => {
    setTimeout(() => {
      for (const t of timers) clearTimeout(t);
      lag.disable();
      resolve(sent);
    }, cmd.durationMs);
  });
}

function report(): Report {
  recording = false;
  const finalSeqs: Record<number, number[]> = {};
  for (const l of [...live, ...leans]) {
    for (const [w, s] of l.lastSeq) {
      let list = finalSeqs[w];
      if (!list) {
        list = [];
        finalSeqs[w] = list;
      }
      list.push(s);
    }
  }
  const ms = (ns: number) => (Number.isFinite(ns) ? ns / 1e6 : Number.NaN);
  return {
    ...counts,
    docLatencyMs: docLatency.toArray(),
    awLatencyMs: awLatency.toArray(),
    lagP50: ms(lag.percentile(50)),
    lagP99: ms(lag.percentile(99)),
    lagMax: ms(lag.max),
    finalSeqs,
  };
}

/** ms per apply; one untimed apply first, as the loads have a warm-up load. */
function decode(cmd: DecodeCommand): number[] {
  const applyOnce = () => {
    const doc = new Y.Doc();
    const t0 = nowMicros();
    Y.applyUpdate(doc, cmd.state);
    const ms = (nowMicros() - t0) / 1000;
    doc.destroy();
    return ms;
  };
  applyOnce();
  return Array.from({ length: cmd.times }, applyOnce);
}

function close(): void {
  for (const l of live) l.client.destroy();
  live.length = 0;
  for (const e of extras) e.client.destroy();
  extras.length = 0;
  for (const l of leans) l.client.destroy();
  leans.length = 0;
}

async function handle(cmd: Command): Promise<unknown> {
  switch (cmd.cmd) {
    case 'connect':
      return connect(cmd);
    case 'start':
      return start(cmd);
    case 'decode':
      return decode(cmd);
    case 'counts':
      return { ...counts };
    case 'report':
      return report();
    case 'close':
      close();
      return null;
  }
}

parentPort?.on('message', (msg: Envelope<Command>) => {
  handle(msg.body).then(
    (result) => {
      const transfer: ArrayBuffer[] = [];
      if (msg.body.cmd === 'report') {
        const r = result as Report;
        transfer.push(r.docLatencyMs.buffer as ArrayBuffer, r.awLatencyMs.buffer as ArrayBuffer);
      }
      parentPort?.postMessage({ rid: msg.rid, ok: true, result }, transfer);
    },
    (err: unknown) => parentPort?.postMessage({ rid: msg.rid, ok: false, error: String(err) }),
  );
});
