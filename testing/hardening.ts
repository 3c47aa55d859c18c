// Shared pieces of the hardening suite: heap measurement after a real GC, raw document sockets
// that wait until the server has joined them to the room, and "bystanders" — ordinary clients on
// the attacked board and on another board whose sync and stored content must survive each attack.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as encoding from 'lib0/encoding';
import type * as Y from 'yjs';
import {
  type ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  rawSocket,
  storedShapes,
  waitSynced,
} from './clients.ts';
import type { TestServer } from './server.ts';
import { waitUntil } from './services.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap in use after full collections (the test runner does not pass --expose-gc). */
export async function heapAfterGc(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/** Generous: the heap may wobble by some megabytes, but a leak of the attack's size would not fit. */
export const HEAP_SLACK_BYTES = 24 * 1024 * 1024;

export async function assertHeapNear(
  baseline: number,
  what: string,
  slack = HEAP_SLACK_BYTES,
): Promise<void> {
  // Sockets and rooms are released asynchronously: allow a few collections before judging.
  let heap = 0;
  for (let i = 0; i < 50; i++) {
    heap = await heapAfterGc();
    if (heap - baseline < slack) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(
    `${what}: heap ${(heap / 1e6).toFixed(1)} MB after GC, baseline ${(baseline / 1e6).toFixed(1)} MB`,
  );
}

export function syncMessage(syncType: 0 | 1 | 2, payload: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, 0);
  encoding.writeVarUint(encoder, syncType);
  encoding.writeVarUint8Array(encoder, payload);
  return encoding.toUint8Array(encoder);
}

export function awarenessMessage(entries: { clientId: number; clock: number; state: string }[]): Uint8Array {
  const inner = encoding.createEncoder();
  encoding.writeVarUint(inner, entries.length);
  for (const entry of entries) {
    encoding.writeVarUint(inner, entry.clientId);
    encoding.writeVarUint(inner, entry.clock);
    encoding.writeVarString(inner, entry.state);
  }
  return awarenessRaw(encoding.toUint8Array(inner));
}

export function awarenessRaw(update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, 1);
  encoding.writeVarUint8Array(encoder, update);
  return encoding.toUint8Array(encoder);
}

export type RawDoc = ReturnType<typeof rawSocket>;

/** A raw socket on a board, resolved once the server has joined it (its sync step 1 arrived). */
export async function rawDoc(
  server: TestServer,
  boardId: string,
  auth: { cookie?: string; token?: string },
): Promise<RawDoc> {
  const query = auth.token ? `?token=${encodeURIComponent(auth.token)}` : '';
  const socket = rawSocket(
    `${server.wsUrl}/yjs/${boardId}${query}`,
    auth.cookie ? { cookie: auth.cookie } : {},
  );
  const joined = new Promise<void>((resolve, reject) => {
    socket.ws.once('message', () => resolve());
    void socket.closed.then((close) =>
      reject(new Error(`raw socket closed before joining: ${close.code} ${close.reason}`)),
    );
  });
  await socket.opened;
  await joined;
  return socket;
}

/**
 * Sends one message, then a ping. Resolves 'alive' when the pong comes back (the server handled the
 * message, whose handling is synchronous, and kept the connection) or with the close code.
 */
export function sendAndProbe(socket: RawDoc, message: Uint8Array | string): Promise<'alive' | number> {
  return new Promise((resolve) => {
    const { ws } = socket;
    if (ws.readyState !== ws.OPEN) {
      void socket.closed.then((close) => resolve(close.code));
      return;
    }
    const onPong = () => {
      ws.off('close', onClose);
      resolve('alive');
    };
    const onClose = (code: number) => {
      ws.off('pong', onPong);
      resolve(code);
    };
    ws.once('pong', onPong);
    ws.once('close', onClose);
    ws.send(message);
    ws.ping();
  });
}

/** Ordinary clients on the attacked board and on another one, with content already stored. */
export class Bystanders {
  readonly clients: DocClient[] = [];
  private edits = 0;
  readonly otherBoardId: string;

  private constructor(
    private readonly server: TestServer,
    readonly owner: ApiClient,
    readonly boardId: string,
    otherBoardId: string,
  ) {
    this.otherBoardId = otherBoardId;
  }

  /** Two clients on `boardId` and two on a fresh board, each board with a stored shape. */
  static async start(server: TestServer, owner: ApiClient, boardId: string): Promise<Bystanders> {
    const other = await owner.createBoard('Bystanders');
    const set = new Bystanders(server, owner, boardId, other);
    for (const id of [boardId, boardId, other, other]) {
      set.clients.push(connectDoc(server.wsUrl, id, { cookie: owner.cookie }));
    }
    await Promise.all(set.clients.map((client) => waitSynced(client)));
    await set.checkSyncing('before');
    return set;
  }

  private pair(boardId: string): [DocClient, DocClient] {
    const on = this.clients.filter((client) => client.provider.roomname === boardId);
    return [on[0]!, on[1]!];
  }

  /**
   * Every bystander is still connected (never closed), an edit on each board reaches the other
   * client there, and every bystander edit made so far is in the store.
   */
  async checkSyncing(label: string): Promise<void> {
    for (const client of this.clients) {
      assert.deepEqual(client.closes, [], `${label}: a bystander was disconnected`);
      assert.equal(client.provider.wsconnected, true, `${label}: a bystander is not connected`);
    }
    for (const boardId of [this.boardId, this.otherBoardId]) {
      const [a, b] = this.pair(boardId);
      const id = `bystander-${++this.edits}`;
      addShape(a.doc, id, { type: 'sticky', x: this.edits, y: 0 }, label);
      await waitUntil(`${label}: bystander edit ${id} synced on ${boardId}`, () =>
        b.doc.getMap('shapes').has(id),
      );
    }
    await this.checkStored(label);
  }

  /** Every bystander shape is stored, unchanged, on both boards. */
  async checkStored(label: string): Promise<void> {
    for (const boardId of [this.boardId, this.otherBoardId]) {
      const [a] = this.pair(boardId);
      const expected = bystanderShapes(a.doc);
      await this.server.app.rooms.get(boardId)?.flush();
      const stored = JSON.parse(await storedShapes(this.server.store, boardId)) as Record<string, unknown>;
      for (const [id, shape] of Object.entries(expected)) {
        assert.deepEqual(stored[id], shape, `${label}: stored ${id} on ${boardId} lost or changed`);
      }
    }
  }

  destroy(): void {
    for (const client of this.clients) client.destroy();
    this.clients.length = 0;
  }
}

function bystanderShapes(doc: Y.Doc): Record<string, unknown> {
  const all = doc.getMap('shapes').toJSON() as Record<string, unknown>;
  return Object.fromEntries(Object.entries(all).filter(([id]) => id.startsWith('bystander-')));
}

/** Waits until the server holds no connection and no room (everything was released). */
export async function waitAllReleased(server: TestServer, what: string): Promise<void> {
  await waitUntil(
    `${what}: every connection and room released`,
    () => server.app.gateway.connectionCount === 0 && server.app.rooms.size === 0,
    20_000,
  );
}

/** Mounts a tmpfs of `size` at `dir` (a disk that fills up); answers why not when it cannot. */
export function mountSmallDisk(dir: string, size: string): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tandem-full-disk', dir], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `cannot mount a tmpfs to fill up (needs root): ${(error as Error).message.split('\n')[0]}`;
  }
}
