// When presence goes out (documents/fanout.ts, docs/api.md §8 "Awareness"): a cursor move on a
// quiet board is sent at once, not at the end of a tick, and moves that arrive together are merged
// into one message. The tick (PRESENCE_TICK_MS) is set to a minute here, so a move that waited for
// it would not arrive within the test's time; counting the awareness messages a watcher receives
// shows what was merged. Real server, raw sockets.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { presenceColors } from '@tandem/shared';
import * as decoding from 'lib0/decoding';
import { ApiClient } from '../../testing/clients.ts';
import { awarenessMessage, type RawDoc, rawDoc } from '../../testing/hardening.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';

const TICK_MS = 60_000;

/** The cursors x of `clientId` in each awareness message the socket received, in order. */
function cursorsSeen(socket: RawDoc, clientId: number): number[][] {
  const out: number[][] = [];
  for (const data of socket.messages) {
    const decoder = decoding.createDecoder(new Uint8Array(data));
    if (decoding.readVarUint(decoder) !== 1) continue;
    const update = decoding.createDecoder(decoding.readVarUint8Array(decoder));
    const xs: number[] = [];
    for (let n = decoding.readVarUint(update); n > 0; n--) {
      const id = decoding.readVarUint(update);
      decoding.readVarUint(update); // clock
      const state = JSON.parse(decoding.readVarString(update)) as { cursor?: { x: number } } | null;
      if (id === clientId && state?.cursor) xs.push(state.cursor.x);
    }
    if (xs.length > 0) out.push(xs);
  }
  return out;
}

/** The colours the states of `clientId` carried in what the socket received. */
function colorsSeen(socket: RawDoc, clientId: number): string[] {
  const out: string[] = [];
  for (const data of socket.messages) {
    const decoder = decoding.createDecoder(new Uint8Array(data));
    if (decoding.readVarUint(decoder) !== 1) continue;
    const update = decoding.createDecoder(decoding.readVarUint8Array(decoder));
    for (let n = decoding.readVarUint(update); n > 0; n--) {
      const id = decoding.readVarUint(update);
      decoding.readVarUint(update); // clock
      const state = JSON.parse(decoding.readVarString(update)) as { user?: { color?: string } } | null;
      if (id === clientId && state?.user?.color) out.push(state.user.color);
    }
  }
  return out;
}

describe('when presence is sent', () => {
  let server: TestServer;
  let owner: ApiClient;
  const sockets: RawDoc[] = [];
  before(async () => {
    server = await startServer({ env: { PRESENCE_TICK_MS: String(TICK_MS) } });
    owner = await new ApiClient(server.url).signup('Mover');
  });
  after(async () => {
    for (const socket of sockets) socket.ws.terminate();
    await server.close();
  });

  const join = async (boardId: string) => {
    const socket = await rawDoc(server, boardId, { cookie: owner.cookie });
    sockets.push(socket);
    return socket;
  };
  const move = (clientId: number, clock: number, x: number) =>
    awarenessMessage([{ clientId, clock, state: JSON.stringify({ cursor: { x, y: 0 } }) }]);

  test('a cursor move on a quiet board goes out at once, and so does the next one, however long the tick', async () => {
    const boardId = await owner.createBoard();
    const mover = await join(boardId);
    const watcher = await join(boardId);
    const clientId = 4242;
    const started = performance.now();
    mover.ws.send(move(clientId, 1, 1));
    await waitUntil('the first move arrives', () => cursorsSeen(watcher, clientId).length === 1, 10_000);
    // The send just now makes the room wait a little before its next one (what the send cost, times
    // PRESENCE_WAIT_FACTOR: milliseconds), not the minute of the tick.
    mover.ws.send(move(clientId, 2, 2));
    await waitUntil('the second move arrives', () => cursorsSeen(watcher, clientId).length === 2, 10_000);
    assert.ok(performance.now() - started < TICK_MS / 2, 'neither waited for the tick');
    assert.deepEqual(cursorsSeen(watcher, clientId), [[1], [2]], 'one message per move, in order');
  });

  test('a mover gets its own state back once, for its colour, not with every move; again when its colour changes', async () => {
    const boardId = await owner.createBoard();
    const mover = await join(boardId);
    const watcher = await join(boardId);
    const clientId = 4545;
    for (let x = 1; x <= 4; x++) {
      mover.ws.send(move(clientId, x, x));
      await waitUntil(`move ${x} arrives`, () => cursorsSeen(watcher, clientId).flat().includes(x), 10_000);
    }
    assert.deepEqual(cursorsSeen(watcher, clientId), [[1], [2], [3], [4]], 'the watcher sees every move');
    const colorMove = (clock: number, x: number, color: string) =>
      awarenessMessage([{ clientId, clock, state: JSON.stringify({ cursor: { x, y: 0 }, color }) }]);
    // Two colours other than the one the mover was given (its person's, picked at random at
    // signup): picking the colour it already has changes nothing, and nothing comes back.
    const [recolour, recolourAgain] = presenceColors.filter((c) => !colorsSeen(mover, clientId).includes(c));
    mover.ws.send(colorMove(5, 5, recolour!));
    await waitUntil(
      'the recoloured move comes back',
      () => cursorsSeen(mover, clientId).flat().includes(5),
      10_000,
    );
    mover.ws.send(move(clientId, 6, 6));
    await waitUntil('move 6 arrives', () => cursorsSeen(watcher, clientId).flat().includes(6), 10_000);
    // Another colour comes back after whatever the server sent the mover for move 6 (one socket).
    mover.ws.send(colorMove(7, 7, recolourAgain!));
    await waitUntil(
      'the next recoloured move comes back',
      () => cursorsSeen(mover, clientId).flat().includes(7),
      10_000,
    );
    // The mover's own socket: its first state (its stamped colour) and the two that changed it.
    assert.deepEqual(cursorsSeen(mover, clientId), [[1], [5], [7]]);
  });

  test('moves that arrive together are merged into one message with the latest state', async () => {
    const boardId = await owner.createBoard();
    const mover = await join(boardId);
    const watcher = await join(boardId);
    const clientId = 4343;
    // Twenty moves in one write (the client's socket corked meanwhile): read in one turn, sent at
    // its end as one message.
    const raw = (mover.ws as unknown as { _socket: Socket })._socket;
    raw.cork();
    for (let i = 1; i <= 20; i++) mover.ws.send(move(clientId, i, i));
    raw.uncork();
    await waitUntil(
      'the last move arrives',
      () => cursorsSeen(watcher, clientId).flat().includes(20),
      10_000,
    );
    assert.deepEqual(cursorsSeen(watcher, clientId), [[20]], 'one message, only the latest state');
  });
});
