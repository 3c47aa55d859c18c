// Hardening: resources a client can hold on to. A reader that stops reading while others type
// fast, connections that never finish their request or trickle it, thousands of boards opened one
// after another, and a stored update damaged on disk. Each time the server stays responsive, the
// ordinary clients carry on, rooms are unloaded and the heap returns near its baseline.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { CloseCode } from '@tandem/shared';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import * as Y from 'yjs';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  shapesJson,
  storedShapes,
  waitSynced,
} from '../../testing/clients.ts';
import {
  assertHeapNear,
  Bystanders,
  heapAfterGc,
  type RawDoc,
  rawDoc,
  sendAndProbe,
  syncMessage,
  waitAllReleased,
} from '../../testing/hardening.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';
import { signAccessToken } from '../src/auth/tokens.ts';

const DEADLINE_MS = 1000;

async function closesWithCode(server: TestServer, code: number): Promise<number> {
  const metric = await server.app.metrics.closes.get();
  return metric.values.find((v) => v.labels.code === String(code))?.value ?? 0;
}

/**
 * Sends 256 KB text updates on `writer` while the room's largest send backlog is under 8 MiB,
 * until `done`; returns the length typed.
 */
async function typeFast(
  server: TestServer,
  boardId: string,
  writer: RawDoc,
  done: () => Promise<boolean>,
): Promise<number> {
  const doc = new Y.Doc();
  const text = doc.getText('typing');
  const room = server.app.rooms.get(boardId)!;
  const backlog = () =>
    Math.max(
      ...[...room.peers].map(
        (peer) => (peer as unknown as { ws: { bufferedAmount: number } }).ws.bufferedAmount,
      ),
    );
  let sent = 0;
  while (!(await done())) {
    if (backlog() > 8 * 1024 * 1024) {
      await waitUntil('the backlog drains below 8 MB', () => backlog() <= 8 * 1024 * 1024, 60_000);
      continue;
    }
    const vector = Y.encodeStateVector(doc);
    text.insert(text.length, String.fromCharCode(97 + (sent % 26)).repeat(256 * 1024));
    assert.equal(await sendAndProbe(writer, syncMessage(2, Y.encodeStateAsUpdate(doc, vector))), 'alive');
    sent += 1;
    assert.ok(sent < 400, 'the slow reader was never closed');
  }
  const length = text.length;
  doc.destroy();
  return length;
}

describe('hardening: resources held by clients', () => {
  let server: TestServer;
  let owner: ApiClient;
  let bystanders: Bystanders;

  before(async () => {
    server = await startServer({ env: { FIRST_MESSAGE_DEADLINE_MS: String(DEADLINE_MS) } });
    owner = await new ApiClient(server.url).signup('Owner');
    bystanders = await Bystanders.start(server, owner, await owner.createBoard('Busy'));
  });
  after(async () => {
    bystanders.destroy();
    await server.close();
  });

  test('a client that stops reading while others type fast is closed with 1013; the others keep syncing', async () => {
    const baseline = await heapAfterGc();
    const boardId = await owner.createBoard('Fast typing');
    const colleague = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    await waitSynced(colleague);
    const slow = await rawDoc(server, boardId, { cookie: owner.cookie });
    const writer = await rawDoc(server, boardId, { cookie: owner.cookie });
    // The slow reader's socket stops reading: what the server sends piles up in its buffer.
    (slow.ws as unknown as { _socket: Socket })._socket.pause();
    const before = await closesWithCode(server, CloseCode.TOO_SLOW);
    // The typist's own copy goes out of scope with this function, before the heap is measured.
    const typedLength = await typeFast(
      server,
      boardId,
      writer,
      async () => (await closesWithCode(server, CloseCode.TOO_SLOW)) > before,
    );
    // The colleague kept up the whole time and still syncs both ways.
    await waitUntil(
      'colleague has all the typing',
      () => colleague.doc.getText('typing').length === typedLength,
    );
    addShape(colleague.doc, 'after-slow', { type: 'rect', x: 0, y: 0 });
    const check = await rawDoc(server, boardId, { cookie: owner.cookie });
    await waitUntil('the room has the colleague edit', () =>
      server.app.rooms.get(boardId)!.doc.getMap('shapes').has('after-slow'),
    );
    assert.deepEqual(colleague.closes, []);
    await waitUntil('the slow reader is gone', () => server.app.rooms.get(boardId)!.peers.size === 3);
    for (const socket of [slow, writer, check]) socket.ws.terminate();
    colleague.destroy();
    await bystanders.checkSyncing('after the slow reader');
    await waitUntil('the board unloaded', () => server.app.rooms.get(boardId) === undefined);
    await assertHeapNear(baseline, 'slow reader');
  });

  test('connections that never send their request, or trickle it, are ended; the server stays responsive', async () => {
    // FIRST_MESSAGE_DEADLINE_MS is the deadline for a request head, an upgrade included.
    assert.equal(server.app.http.server.headersTimeout, DEADLINE_MS);
    const boardId = bystanders.boardId;
    const port = Number(new URL(server.url).port);
    const ended: Promise<void>[] = [];
    const open = (): Socket => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      // Read (and drop) what the server answers, so its close is noticed.
      socket.resume();
      ended.push(new Promise<void>((resolve) => socket.once('close', () => resolve())));
      return socket;
    };
    // Twenty that connect and never send a byte.
    for (let i = 0; i < 20; i++) open();
    const timers: NodeJS.Timeout[] = [];
    for (let i = 0; i < 20; i++) {
      const socket = open();
      await once(socket, 'connect');
      socket.write(
        `GET /yjs/${boardId} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nCookie: ${owner.cookie}\r\n`,
      );
      // One more byte of a header that never ends, every 50 ms.
      timers.push(setInterval(() => socket.write('X'), 50));
    }
    // Meanwhile the server answers, and the document channel carries on.
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200);
    await bystanders.checkSyncing('while connections hang');
    await Promise.all(ended);
    for (const timer of timers) clearInterval(timer);
    await bystanders.checkSyncing('after hanging connections');
  });

  test('2,000 boards opened one after another are all unloaded afterwards', async () => {
    const baseline = await heapAfterGc();
    const user = await new ApiClient(server.url).signup('Explorer');
    const count = 2000;
    const boardIds: string[] = [];
    for (let i = 0; i < count; i++) {
      const board = await server.store.createBoard({
        id: `hb${String(i).padStart(19, '0')}`,
        title: `b${i}`,
        ownerId: user.userId,
      });
      boardIds.push(board.id);
    }
    const expires = Date.now() + 600_000;
    let open: RawDoc[] = [];
    for (const [i, boardId] of boardIds.entries()) {
      const token = signAccessToken(server.config.secret, {
        boardId,
        userId: user.userId,
        role: 'owner',
        expiresAt: expires,
      });
      const socket = await rawDoc(server, boardId, { token });
      if (i % 10 === 0) {
        // Some of them get an edit, so there is something to store on the way out.
        const doc = new Y.Doc();
        addShape(doc, `s${i}`, { type: 'rect', x: i, y: i });
        assert.equal(await sendAndProbe(socket, syncMessage(2, Y.encodeStateAsUpdate(doc))), 'alive');
        doc.destroy();
      }
      open.push(socket);
      // Keep at most a few open at once (MAX_BOARDS_OPEN_PER_USER), like someone clicking through.
      if (open.length >= 20) {
        for (const socket of open) socket.ws.close();
        await Promise.all(open.map((socket) => socket.closed));
        open = [];
      }
    }
    for (const socket of open) socket.ws.close();
    await waitUntil('every board unloaded', () => server.app.rooms.size === 2, 30_000);
    assert.equal(server.app.gateway.connectionCount, bystanders.clients.length);
    assert.match(await storedShapes(server.store, boardIds[1990]!), /s1990/);
    await bystanders.checkSyncing('after 2,000 boards');
    await assertHeapNear(baseline, '2,000 boards');
  });
});

describe('hardening: a stored update damaged on disk', () => {
  const lines: string[] = [];
  let server: TestServer;
  let owner: ApiClient;
  const clients: DocClient[] = [];

  before(async () => {
    const logger = pino(
      { level: 'warn' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    server = await startServer({ logger });
    owner = await new ApiClient(server.url).signup('Owner');
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await server.close();
  });

  test('the board fails to load with 1011 and a log line, and is never replaced or overwritten; other boards work', async () => {
    const damaged = await owner.createBoard('Damaged');
    const healthy = await owner.createBoard('Healthy');
    for (const boardId of [damaged, healthy]) {
      const client = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
      await waitSynced(client);
      for (let i = 0; i < 5; i++)
        addShape(client.doc, `${boardId}-${i}`, { type: 'sticky', x: i, y: i }, `note ${i}`);
      const expected = shapesJson(client.doc);
      await waitUntil('stored', async () => (await storedShapes(server.store, boardId)) === expected);
      client.destroy();
    }
    await waitAllReleased(server, 'before damage');

    // Damage one stored row of one board, as a bad disk or a bad copy would.
    const db = new Database(`${server.dataDir}/tandem.db`);
    const row = db
      .prepare('SELECT seq, data FROM doc_updates WHERE board_id = ? ORDER BY seq LIMIT 1')
      .get(damaged) as { seq: number; data: Buffer } | undefined;
    assert.ok(row, 'the board has a stored update');
    const bytes = Buffer.from(row.data);
    bytes.fill(0xff, 2, Math.min(bytes.length, 40));
    db.prepare('UPDATE doc_updates SET data = ? WHERE seq = ?').run(bytes, row.seq);
    const snapshot = (): string =>
      JSON.stringify(
        db
          .prepare('SELECT seq, hex(data) AS data FROM doc_updates WHERE board_id = ? ORDER BY seq')
          .all(damaged),
      ) +
      JSON.stringify(
        db.prepare('SELECT hex(data) AS data FROM doc_snapshots WHERE board_id = ?').all(damaged),
      );
    const before = snapshot();

    for (let i = 0; i < 3; i++) {
      const client = connectDoc(server.wsUrl, damaged, { cookie: owner.cookie });
      clients.push(client);
      addShape(client.doc, `offline-${i}`, { type: 'rect', x: 0, y: 0 });
      await waitUntil('refused with 1011', () =>
        client.closes.some((close) => close.code === CloseCode.INTERNAL),
      );
      client.provider.shouldConnect = false;
      client.provider.disconnect();
    }
    assert.ok(
      lines.some((line) => line.includes('board failed to load') && line.includes(damaged)),
      'logged',
    );
    assert.equal(server.app.rooms.get(damaged), undefined);

    // The healthy board is untouched and works.
    const reader = connectDoc(server.wsUrl, healthy, { cookie: owner.cookie });
    clients.push(reader);
    await waitSynced(reader);
    assert.ok(reader.doc.getMap('shapes').has(`${healthy}-4`));
    addShape(reader.doc, 'later', { type: 'rect', x: 1, y: 1 });
    await waitUntil('healthy board still stores', async () =>
      (await storedShapes(server.store, healthy)).includes('later'),
    );

    // Nothing wrote to the damaged board: not an empty board, not the clients' offline edits.
    assert.equal(snapshot(), before);
    db.close();
  });
});

describe('hardening: a client that asks for the whole board again and again without reading', () => {
  const MAX_DOC = 2 * 1024 * 1024;
  /** What loopback socket buffers (both ends) take before a sender's own queue starts to fill. */
  const KERNEL_BUFFER_BYTES = 8 * 1024 * 1024;
  let server: TestServer;
  let owner: ApiClient;
  let bystanders: Bystanders;

  before(async () => {
    server = await startServer({ env: { MAX_DOC_BYTES: String(MAX_DOC) } });
    owner = await new ApiClient(server.url).signup('Owner');
    bystanders = await Bystanders.start(server, owner, await owner.createBoard('Big'));
  });
  after(async () => {
    bystanders.destroy();
    await server.close();
  });

  test('is answered once until it reads the answer, then once more for its latest request', async () => {
    const boardId = bystanders.boardId;
    // About 1.5 MB of board.
    const writer = await rawDoc(server, boardId, { cookie: owner.cookie });
    await fill(writer, 6);
    writer.ws.close();
    const baseline = await heapAfterGc();
    const board = Y.encodeStateAsUpdate(server.app.rooms.get(boardId)!.doc).length;
    const bytesOut = () => server.app.metrics.traffic.bytesOut;
    const messagesIn = () => server.app.metrics.traffic.messagesIn;

    const greedy = await rawDoc(server, boardId, { cookie: owner.cookie });
    const socket = (greedy.ws as unknown as { _socket: Socket })._socket;
    socket.pause();
    const sentBefore = bytesOut();
    const readBefore = messagesIn();
    // Four bytes each, each asking for the whole board.
    for (let i = 0; i < 200; i++) greedy.ws.send(syncMessage(0, new Uint8Array([0])));
    await waitUntil('the server read every request', () => messagesIn() - readBefore >= 200);
    // Kept on purpose: give any answer the server would still queue a moment to be counted (this
    // proves no more is queued, which no event can signal).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const queued = bytesOut() - sentBefore;
    // Answers the kernel took count as read (the server cannot tell); one more waits on our side.
    const answered = Math.round(queued / board);
    assert.ok(answered >= 1, 'the first request was answered');
    assert.ok(
      queued <= board + KERNEL_BUFFER_BYTES,
      `${(queued / 1e6).toFixed(1)} MB sent for 200 requests of a ${(board / 1e6).toFixed(1)} MB board`,
    );
    assert.equal(greedy.ws.readyState, greedy.ws.OPEN, 'the reader was not cut off');

    // It reads again: the answers sent arrive, then one more for its latest request if that came
    // in after the last answer was written, and no more. The first answer is written as the first
    // request is read, so with one answer written the latest request always waits; with more, the
    // kernel took an answer while requests were still being read, and the last answer written may
    // already be the latest request's (when depends on how fast the kernel took it).
    socket.resume();
    const boards = () => greedy.messages.filter((m) => m.length >= board).length;
    await waitUntil(`${answered} whole boards arrived`, () => boards() >= answered);
    // Kept on purpose: this proves that no further answer arrives, which no event can signal.
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (answered === 1) assert.equal(boards(), 2, 'one answer, then one for the latest request');
    else
      assert.ok([answered, answered + 1].includes(boards()), `${boards()} answers after ${answered} queued`);
    greedy.ws.terminate();
    await bystanders.checkSyncing('after the greedy reader');
    await assertHeapNear(baseline, 'greedy reader');
  });
});

/** Sends `chunks` updates of 256 KB of text on a raw socket. */
async function fill(socket: RawDoc, chunks: number): Promise<void> {
  const doc = new Y.Doc();
  const text = doc.getText('filler');
  for (let i = 0; i < chunks; i++) {
    const vector = Y.encodeStateVector(doc);
    text.insert(text.length, 'f'.repeat(256 * 1024));
    assert.equal(await sendAndProbe(socket, syncMessage(2, Y.encodeStateAsUpdate(doc, vector))), 'alive');
  }
  doc.destroy();
}
