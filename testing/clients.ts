// Test clients that talk to a real server the way real ones do: REST with the session cookie,
// and y-websocket's own WebsocketProvider (Node, the `ws` package) on the document channel.
import { encodeSavedMessage, SAVED_MESSAGE_TYPE } from '@tandem/shared';
import * as decoding from 'lib0/decoding';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { waitUntil } from './services.ts';

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

let counter = 0;
export const uniqueEmail = (): string => `user${process.pid}-${Date.now()}-${++counter}@example.com`;

/** One person: a cookie jar and REST calls with the right Origin. */
export class ApiClient {
  cookie = '';
  userId = '';

  constructor(
    readonly baseUrl: string,
    readonly origin = baseUrl,
  ) {}

  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(method !== 'GET' ? { origin: this.origin } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const setCookie = response.headers.getSetCookie();
    for (const line of setCookie) {
      const [pair] = line.split(';');
      if (pair?.startsWith('tandem_session=')) this.cookie = pair;
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (metrics, for example)
    }
    return { status: response.status, body: parsed as T, headers: response.headers } satisfies ApiAnswer<T>;
  }

  async signup(name = 'Ada', email = uniqueEmail(), password = 'correct horse battery'): Promise<this> {
    const answer = await this.call<{ user: { id: string } }>('POST', '/api/auth/signup', {
      email,
      name,
      password,
    });
    if (answer.status !== 201)
      throw new Error(`signup failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    this.userId = answer.body.user.id;
    return this;
  }

  async guest(name = 'Guest'): Promise<this> {
    const answer = await this.call<{ user: { id: string } }>('POST', '/api/auth/guest', { name });
    if (answer.status !== 201) throw new Error(`guest failed: ${answer.status}`);
    this.userId = answer.body.user.id;
    return this;
  }

  async createBoard(title = 'Test board'): Promise<string> {
    const answer = await this.call<{ board: { id: string } }>('POST', '/api/boards', { title });
    if (answer.status !== 201) throw new Error(`create board failed: ${answer.status}`);
    return answer.body.board.id;
  }

  /** Shares a board with `other` through a link of `role`. */
  async share(boardId: string, other: ApiClient, role: 'editor' | 'commenter' | 'viewer'): Promise<void> {
    const link = await this.call<{ link: { token: string } }>('POST', `/api/boards/${boardId}/links`, {
      role,
    });
    const joined = await other.call('POST', `/api/join/${link.body.link.token}`);
    if (joined.status !== 200) throw new Error(`join failed: ${joined.status}`);
  }

  async token(boardId: string): Promise<string> {
    const answer = await this.call<{ token: string }>('POST', `/api/boards/${boardId}/token`);
    if (answer.status !== 200) throw new Error(`token failed: ${answer.status}`);
    return answer.body.token;
  }
}

/** REST with an integration's key: no cookie, no Origin. */
export async function withKey<T = unknown>(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(base + path, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

/** A WebSocket class that sends a cookie and an Origin, as a browser would. */
export function socketClass(headers: Record<string, string>): typeof WebSocket {
  return class extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  } as typeof WebSocket;
}

export interface DocClient {
  doc: Y.Doc;
  provider: WebsocketProvider;
  closes: { code: number; reason: string }[];
  destroy(): void;
}

/** A real y-websocket client on `/yjs/:boardId`, authenticated by cookie or token. */
export function connectDoc(
  wsUrl: string,
  boardId: string,
  auth: { cookie?: string; token?: string; origin?: string },
  options: { connect?: boolean; doc?: Y.Doc } = {},
): DocClient {
  const doc = options.doc ?? new Y.Doc();
  // y-websocket adds a process 'exit' listener per provider (removed on destroy): a test with a
  // crowd of a dozen clients open is not a leak, and Node's warning at eleven listeners said so.
  const exitListeners = process.listenerCount('exit');
  if (exitListeners >= process.getMaxListeners() - 1) process.setMaxListeners(exitListeners + 10);
  const headers: Record<string, string> = {};
  if (auth.cookie) headers.cookie = auth.cookie;
  if (auth.origin) headers.origin = auth.origin;
  const provider = new WebsocketProvider(`${wsUrl}/yjs`, boardId, doc, {
    WebSocketPolyfill: socketClass(headers) as unknown as typeof globalThis.WebSocket,
    params: auth.token ? { token: auth.token } : {},
    // In Node, BroadcastChannel would let providers in one process sync without the server.
    disableBc: true,
    connect: options.connect ?? true,
    maxBackoffTime: 300,
  });
  const closes: { code: number; reason: string }[] = [];
  provider.on('connection-close', (event: { code: number; reason: string } | null) => {
    if (event) closes.push({ code: event.code, reason: event.reason });
  });
  return {
    doc,
    provider,
    closes,
    destroy() {
      provider.destroy();
      doc.destroy();
    },
  };
}

export const waitSynced = (client: DocClient, timeoutMs = 10_000) =>
  waitUntil('provider synced', () => client.provider.synced, timeoutMs);

/** Saved requests sent and answered per client (the saved message, shared/src/savedProtocol.ts). */
const savedState = new WeakMap<DocClient, { sent: number; confirmed: number }>();

/**
 * Resolves once the server confirms that everything `client` has sent so far is in the Store:
 * the "saved" request and answer that the browser client's "All changes saved" rests on. A
 * request lost with a socket is sent again on the next one, once it has synced.
 */
export async function whenStored(client: DocClient, timeoutMs = 15_000): Promise<void> {
  let state = savedState.get(client);
  if (!state) {
    const created = { sent: 0, confirmed: 0 };
    client.provider.messageHandlers[SAVED_MESSAGE_TYPE] = (_encoder, decoder) => {
      created.confirmed = Math.max(created.confirmed, decoding.readVarUint(decoder));
    };
    savedState.set(client, created);
    state = created;
  }
  const answered = state;
  const id = ++answered.sent;
  let askedOn: unknown = null;
  await waitUntil(
    `the server confirms that request ${id}'s edits are stored`,
    () => {
      if (answered.confirmed >= id) return true;
      const ws = client.provider.ws;
      if (ws && ws !== askedOn && client.provider.synced && ws.readyState === ws.OPEN) {
        askedOn = ws;
        ws.send(encodeSavedMessage(id));
      }
      return false;
    },
    timeoutMs,
  );
}

/** Opens a raw socket (no provider) and resolves with how the server closed it. */
export function rawSocket(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  const messages: Buffer[] = [];
  ws.on('message', (data: Buffer) => messages.push(data));
  ws.on('error', () => undefined);
  return { ws, closed, opened, messages };
}

/** JSON with sorted keys: Y.Map iterates in local insertion order, which differs between replicas. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** Canonical JSON of the shapes map, for comparing replicas. */
export const shapesJson = (doc: Y.Doc): string => stableJson(doc.getMap('shapes').toJSON());

/** A presence state that matches the shared schema. */
export function presence(user: { id: string; name: string; color: string }, x = 0, y = 0) {
  return {
    user,
    cursor: { x, y },
    selection: [],
    viewport: { x: 0, y: 0, zoom: 1 },
    tool: 'select',
    idle: false,
  };
}

/** Adds a shape record (a Y.Map, with a Y.Text when `text` is given) in one transaction. */
export function addShape(doc: Y.Doc, id: string, fields: Record<string, unknown>, text?: string): void {
  doc.transact(() => {
    const shape = new Y.Map<unknown>();
    for (const [key, value] of Object.entries(fields)) shape.set(key, value);
    if (text !== undefined) shape.set('text', new Y.Text(text));
    doc.getMap('shapes').set(id, shape);
  });
}

/** What a Store's loadDoc answers: the compacted snapshot, if any, then the log. */
export interface StoredParts {
  snapshot: Uint8Array | null;
  updates: Uint8Array[];
}

/** A document rebuilt from what a Store holds (the caller destroys it). */
export function docFromStored(stored: StoredParts): Y.Doc {
  const doc = new Y.Doc();
  for (const part of stored.snapshot ? [stored.snapshot, ...stored.updates] : stored.updates)
    Y.applyUpdate(doc, part);
  return doc;
}

/** The document `id` as a Store holds it now (the caller destroys it). */
export async function storedDoc(
  store: { loadDoc(id: string): Promise<StoredParts> },
  id: string,
): Promise<Y.Doc> {
  return docFromStored(await store.loadDoc(id));
}

/** The board as a Store holds it, as canonical shapes JSON. */
export async function storedShapes(
  store: { loadDoc(id: string): Promise<StoredParts> },
  boardId: string,
): Promise<string> {
  const doc = await storedDoc(store, boardId);
  const json = shapesJson(doc);
  doc.destroy();
  return json;
}
