// One bench client: a real Y.Doc and y-websocket's WebsocketProvider over the `ws` package, opened on
// whichever server is under test.
import { DocumentMessageType, SyncMessageType } from '@tandem/shared';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import type { ServerKind } from './servers.ts';

export interface ClientTarget {
  kind: ServerKind;
  /** ws://127.0.0.1:port */
  wsBase: string;
  /** Origin header, checked by Tandem on upgrades */
  origin: string;
  board: string;
  params: Record<string, string>;
}

/** Options every bench socket gets: no compression, so no server pays for it and neither does the bench. */
const socketOptions = { perMessageDeflate: false } as const;

function socketWithOrigin(origin: string): unknown {
  return class OriginSocket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { ...socketOptions, headers: { origin } });
    }
  };
}

// Hocuspocus multiplexes documents on one socket: each frame starts with the document name, the
// first frame authenticates, and the server sends extra frame types (auth answer, sync status after
// each update, "sync reply"). This socket speaks that framing to Hocuspocus and plain y-websocket
// frames to the provider, doing what @hocuspocus/provider's own framing does and nothing more.
const HP_SYNC = 0;
const HP_AWARENESS = 1;
const HP_AUTH = 2;
const HP_QUERY_AWARENESS = 3;
const HP_SYNC_REPLY = 4;

type Listener = ((event: never) => void) | null;

class HocuspocusSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;
  binaryType = 'arraybuffer';
  onopen: Listener = null;
  onclose: Listener = null;
  onerror: Listener = null;
  onmessage: Listener = null;
  private readonly ws: WebSocket;
  private readonly address: Uint8Array;

  constructor(url: string) {
    const u = new URL(url);
    const name = decodeURIComponent(u.pathname.slice(1));
    const enc = encoding.createEncoder();
    encoding.writeVarString(enc, name);
    this.address = encoding.toUint8Array(enc);
    this.ws = new WebSocket(`ws://${u.host}/`, socketOptions);
    this.ws.on('open', () => {
      const auth = encoding.createEncoder();
      encoding.writeUint8Array(auth, this.address);
      encoding.writeVarUint(auth, HP_AUTH);
      encoding.writeVarUint(auth, 0); // AuthMessageType.Token
      encoding.writeVarString(auth, '');
      this.ws.send(encoding.toUint8Array(auth));
      (this.onopen as ((e: object) => void) | null)?.({});
    });
    this.ws.on('message', (data: Buffer) => {
      const dec = decoding.createDecoder(data);
      decoding.readVarString(dec);
      const type = decoding.readVarUint(dec);
      if (
        type !== HP_SYNC &&
        type !== HP_SYNC_REPLY &&
        type !== HP_AWARENESS &&
        type !== HP_QUERY_AWARENESS
      ) {
        return; // auth answers and sync-status acknowledgements mean nothing to a y-websocket provider
      }
      const rest = data.subarray(dec.pos);
      const out = new Uint8Array(rest.length + 1);
      out[0] = type === HP_SYNC_REPLY ? HP_SYNC : type;
      out.set(rest, 1);
      (this.onmessage as ((e: { data: Uint8Array }) => void) | null)?.({ data: out });
    });
    this.ws.on('close', (code: number, reason: Buffer) => {
      (this.onclose as ((e: { code: number; reason: string }) => void) | null)?.({
        code,
        reason: reason.toString(),
      });
    });
    this.ws.on('error', (err) => (this.onerror as ((e: unknown) => void) | null)?.(err));
  }

  get readyState(): number {
    return this.ws.readyState;
  }

  send(data: Uint8Array): void {
    const out = new Uint8Array(this.address.length + data.length);
    out.set(this.address, 0);
    out.set(data, this.address.length);
    this.ws.send(out);
  }

  close(): void {
    this.ws.close();
  }
}

export interface BenchClient {
  doc: Y.Doc;
  provider: WebsocketProvider;
  destroy(): void;
}

export interface ClientOptions {
  /**
   * Stock y-websocket providers re-send every remote presence change they receive; with 50 people
   * moving cursors that is N² messages. Browsers running Tandem's client (and Hocuspocus's provider)
   * send only their own state, so the bench does too unless asked to behave like the stock provider.
   */
  echoAwareness?: boolean;
  doc?: Y.Doc;
}

/** The URL a y-websocket provider would open for this target, and the socket class that speaks to its server. */
function transport(target: ClientTarget): { serverUrl: string; Polyfill: unknown } {
  if (target.kind === 'tandem')
    return { serverUrl: `${target.wsBase}/yjs`, Polyfill: socketWithOrigin(target.origin) };
  if (target.kind === 'hocuspocus') return { serverUrl: target.wsBase, Polyfill: HocuspocusSocket };
  return { serverUrl: target.wsBase, Polyfill: socketWithOrigin(target.origin) };
}

export function createClient(target: ClientTarget, opts: ClientOptions = {}): BenchClient {
  const doc = opts.doc ?? new Y.Doc();
  const { serverUrl, Polyfill } = transport(target);
  const provider = new WebsocketProvider(serverUrl, target.board, doc, {
    WebSocketPolyfill: Polyfill as typeof globalThis.WebSocket,
    params: target.params,
    disableBc: true,
    // a bench that stops on its own must not retry for ever against a server that closed it
    maxBackoffTime: 1000,
  });
  if (!opts.echoAwareness) {
    const p = provider as unknown as {
      _awarenessUpdateHandler: (changes: unknown, origin: unknown) => void;
    };
    const stock = p._awarenessUpdateHandler;
    const ownOnly = (changes: unknown, origin: unknown) => {
      if (origin === 'local') stock(changes, origin);
    };
    provider.awareness.off('update', stock);
    provider.awareness.on('update', ownOnly);
    p._awarenessUpdateHandler = ownOnly; // so provider.destroy() unregisters it
  }
  return {
    doc,
    provider,
    destroy: () => {
      provider.awareness.setLocalState(null);
      provider.destroy();
      doc.destroy();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// A light client: one person on the board who is not timed. It opens the same socket a provider
// would, says the same things on the wire (sync step 1, an empty sync step 2 in answer to the
// server's, its presence, and, for a mover, its cursor at the same rate as a provider's), but it
// does not decode what it receives. With 200 people on a board, 200 full providers each decoding
// every cursor of 50 movers (JSON.parse of each state, 300,000 a second) saturate the generator's
// core long before any server does; the server's work is the same whichever client reads the bytes.
// The timed clients (the probes) stay full y-websocket providers.

interface LightSocket {
  binaryType: string;
  readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: ArrayBuffer | Uint8Array }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: Uint8Array): void;
  close(): void;
}

export interface LightClient {
  /** resolves when the server answered this client's sync step 1 */
  synced: Promise<void>;
  readonly connected: boolean;
  /** publishes this person's presence with the cursor at (x, y), as a provider's awareness would */
  moveCursor(x: number, y: number): void;
  onClose(listener: () => void): void;
  destroy(): void;
}

function syncMessage(step: number, payload: Uint8Array): Uint8Array {
  const enc = encoding.createEncoder();
  encoding.writeVarUint(enc, DocumentMessageType.sync);
  encoding.writeVarUint(enc, step);
  encoding.writeVarUint8Array(enc, payload);
  return encoding.toUint8Array(enc);
}

/** An awareness message carrying one client's state, byte for byte what y-protocols encodes. */
function awarenessMessage(clientId: number, clock: number, state: unknown): Uint8Array {
  const update = encoding.createEncoder();
  encoding.writeVarUint(update, 1);
  encoding.writeVarUint(update, clientId);
  encoding.writeVarUint(update, clock);
  encoding.writeVarString(update, JSON.stringify(state));
  const enc = encoding.createEncoder();
  encoding.writeVarUint(enc, DocumentMessageType.awareness);
  encoding.writeVarUint8Array(enc, encoding.toUint8Array(update));
  return encoding.toUint8Array(enc);
}

/** What light and lean clients share: the socket a provider opens, and a person's presence on it. */
interface Wire {
  synced: Promise<void>;
  markSynced(): void;
  send(message: Uint8Array): void;
  readonly connected: boolean;
  moveCursor(x: number, y: number): void;
  onClose(listener: () => void): void;
  /** leaves: a null presence, as a provider sends when it is destroyed, then closes */
  destroy(): void;
}

/**
 * Opens the socket a provider would for `target` and says what a provider says on open (its state
 * vector and its presence, under `clientId`); every message received goes to `onMessage`.
 */
function openWire(
  target: ClientTarget,
  presence: Record<string, unknown>,
  clientId: number,
  stateVector: () => Uint8Array,
  onMessage: (data: Uint8Array) => void,
): Wire {
  const { serverUrl, Polyfill } = transport(target);
  const query = new URLSearchParams(target.params).toString();
  const url = `${serverUrl}/${target.board}${query ? `?${query}` : ''}`;
  const socket = new (Polyfill as new (url: string) => LightSocket)(url);
  socket.binaryType = 'arraybuffer';
  let clock = 0;
  let state: Record<string, unknown> = { ...presence };
  let open = false;
  let destroyed = false;
  const closeListeners: (() => void)[] = [];
  let markSynced: () => void = () => {};
  const synced = new Promise<void>((resolve) => {
    markSynced = resolve;
  });
  const send = (message: Uint8Array) => {
    if (open && socket.readyState === 1) socket.send(message);
  };
  socket.onopen = () => {
    open = true;
    send(syncMessage(SyncMessageType.step1, stateVector()));
    send(awarenessMessage(clientId, ++clock, state));
  };
  socket.onmessage = (event) =>
    onMessage(event.data instanceof Uint8Array ? event.data : new Uint8Array(event.data));
  socket.onclose = () => {
    const wasOpen = open;
    open = false;
    if (wasOpen && !destroyed) for (const l of closeListeners) l();
  };
  socket.onerror = () => {};
  return {
    synced,
    markSynced: () => markSynced(),
    send,
    get connected() {
      return open;
    },
    moveCursor(x, y) {
      state = { ...state, cursor: { x, y } };
      send(awarenessMessage(clientId, ++clock, state));
    },
    onClose: (listener) => closeListeners.push(listener),
    destroy() {
      destroyed = true;
      send(awarenessMessage(clientId, ++clock, null));
      socket.close();
    },
  };
}

export function createLightClient(target: ClientTarget, presence: Record<string, unknown>): LightClient {
  // A random 32-bit id, as Yjs picks a Doc's clientID; the state vector of an empty doc.
  const clientId = Math.floor(Math.random() * 2 ** 31);
  const wire: Wire = openWire(
    target,
    presence,
    clientId,
    () => Uint8Array.of(0),
    (data) => {
      if (data[0] !== DocumentMessageType.sync) return; // presence and anything else: received, not decoded
      if (data[1] === SyncMessageType.step1)
        wire.send(syncMessage(SyncMessageType.step2, Uint8Array.of(0, 0)));
      else if (data[1] === SyncMessageType.step2) wire.markSynced();
    },
  );
  return {
    synced: wire.synced,
    get connected() {
      return wire.connected;
    },
    moveCursor: wire.moveCursor,
    onClose: wire.onClose,
    destroy: wire.destroy,
  };
}

// ---------------------------------------------------------------------------------------------
// A lean client: a timed person who does not hold the board. It says what a provider says on the
// wire, writes its marks from a Y.Doc of its own (which holds only its own marks, so its updates
// are valid wherever they land), and times every other writer's mark and cursor by reading the
// bytes it receives rather than integrating them. With `--lean`, the timed clients are lean: 20
// people each integrating 500 stickies a second (a content-API run) would otherwise be 20
// browsers' work on the generator's single core, and the latency it measured would be that core's
// queue, not the server's. Every server is timed the same way in a lean run.

/** A lean writer's mark: `BM:<writer>:<seq>:<send time µs>;`, a string a byte search finds in any update. */
const MARK_PREFIX = Buffer.from('BM:');
export function leanMark(writer: number, seq: number, sentMicros: number): string {
  return `BM:${writer}:${seq}:${sentMicros};`;
}

export interface LeanHandlers {
  /** a writer's mark arrived (every mark in the message, including a sync answer's) */
  onMark(writer: number, seq: number, sentMicros: number): void;
  /** another bench person's cursor arrived; `x` is its send time (µs) */
  onCursor(x: number): void;
}

export interface LeanClient {
  synced: Promise<void>;
  readonly connected: boolean;
  /** sets this writer's mark under `key` in its own doc; the update goes to the server as a provider's would */
  writeMark(key: string, mark: string): void;
  moveCursor(x: number, y: number): void;
  onClose(listener: () => void): void;
  destroy(): void;
}

/** Every `BM:w:s:t;` in the bytes. */
function scanMarks(bytes: Buffer, onMark: LeanHandlers['onMark']): void {
  for (let at = bytes.indexOf(MARK_PREFIX); at >= 0; at = bytes.indexOf(MARK_PREFIX, at + 3)) {
    const end = bytes.indexOf(0x3b, at); // ';'
    if (end < 0 || end - at > 64) continue;
    const [, w, s, t] = bytes.toString('latin1', at, end).split(':');
    const writer = Number(w);
    const seq = Number(s);
    const sent = Number(t);
    if (Number.isFinite(writer) && Number.isFinite(seq) && Number.isFinite(sent)) onMark(writer, seq, sent);
  }
}

export function createLeanClient(
  target: ClientTarget,
  presence: Record<string, unknown>,
  handlers: LeanHandlers,
): LeanClient {
  const doc = new Y.Doc();
  const marks = doc.getMap<string>('bench');
  const onMessage = (data: Uint8Array) => {
    const dec = decoding.createDecoder(data);
    const type = decoding.readVarUint(dec);
    if (type === DocumentMessageType.sync) {
      const step = decoding.readVarUint(dec);
      if (step === SyncMessageType.step1) {
        const vector = decoding.readVarUint8Array(dec);
        wire.send(syncMessage(SyncMessageType.step2, Y.encodeStateAsUpdate(doc, vector)));
        return;
      }
      scanMarks(Buffer.from(data.buffer, data.byteOffset, data.byteLength), handlers.onMark);
      if (step === SyncMessageType.step2) wire.markSynced();
    } else if (type === DocumentMessageType.awareness) {
      const update = decoding.createDecoder(decoding.readVarUint8Array(dec));
      const n = decoding.readVarUint(update);
      for (let i = 0; i < n; i++) {
        const id = decoding.readVarUint(update);
        decoding.readVarUint(update); // clock
        const json = decoding.readVarString(update);
        if (id === doc.clientID) continue;
        const s = JSON.parse(json) as { user?: { name?: string }; cursor?: { x: number } | null } | null;
        // only the bench's people, whose cursor's x is its send time: a bot's cursor (the content
        // API's, "<name> (bot)") sits at board coordinates
        if (s?.cursor && !s.user?.name?.endsWith('(bot)')) handlers.onCursor(s.cursor.x);
      }
    }
  };
  const wire: Wire = openWire(target, presence, doc.clientID, () => Y.encodeStateVector(doc), onMessage);
  doc.on('update', (update: Uint8Array) => wire.send(syncMessage(SyncMessageType.update, update)));
  return {
    synced: wire.synced,
    get connected() {
      return wire.connected;
    },
    writeMark(key, mark) {
      marks.set(key, mark);
    },
    moveCursor: wire.moveCursor,
    onClose: wire.onClose,
    destroy() {
      wire.destroy();
      doc.destroy();
    },
  };
}
