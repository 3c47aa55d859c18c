// One bench client: a real Y.Doc and y-websocket's WebsocketProvider over the `ws` package, opened on
// whichever server is under test.
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

export function createClient(target: ClientTarget, opts: ClientOptions = {}): BenchClient {
  const doc = opts.doc ?? new Y.Doc();
  let serverUrl = target.wsBase;
  let Polyfill: unknown;
  if (target.kind === 'tandem') {
    serverUrl = `${target.wsBase}/yjs`;
    Polyfill = socketWithOrigin(target.origin);
  } else if (target.kind === 'hocuspocus') {
    Polyfill = HocuspocusSocket;
  } else {
    Polyfill = socketWithOrigin(target.origin);
  }
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
