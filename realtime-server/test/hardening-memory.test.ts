// Hardening: slow viewers must not exhaust memory. A real server process holds a
// board of about 6 MB; sixteen viewers connect, stop reading (their sockets are paused, so the
// server's sends pile up) and each ask for the whole board 40 times, half of them with a state
// vector that defeats any cache. The server answers a connection's sync request only once it has
// read the previous answer, and sheds the slowest connections when the queued bytes of the whole
// process pass MAX_QUEUED_BYTES: the bytes queued and the process's live memory (V8 heap plus
// the buffers outside it, read from /metrics) stay bounded, and a bystander still syncs and sees an
// edit.
//
// Why not resident memory: with the same live memory (heap + external growing 14-27 MiB), the
// process's RSS grew anywhere from 77 to 175 MiB across runs of this test, because glibc keeps the
// pages of freed multi-megabyte buffers for reuse rather than returning them at once. RSS measured
// the allocator's habits, not what the slow viewers hold, and failed on a fresh machine for that
// reason. It is still printed, for whoever reads the log.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  rawSocket,
  waitSynced,
} from '../../testing/clients.ts';
import { type RawDoc, sendAndProbe, syncMessage } from '../../testing/hardening.ts';
import { type ServerProcess, startProcess } from '../../testing/process.ts';
import { waitUntil } from '../../testing/services.ts';

const MiB = 1024 * 1024;
const VIEWERS = 16;
const REQUESTS = 40;
const QUEUE_BUDGET = 32 * MiB;

/** A number from the server's Prometheus text. */
async function metric(server: ServerProcess, name: string, labels?: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const labelled = labels ? `\\{${labels}\\}` : '(?:\\{[^}]*\\})?';
  const match = new RegExp(`^${name}${labelled} ([0-9.e+]+)$`, 'm').exec(text);
  assert.ok(match, `/metrics has ${name}${labels ? `{${labels}}` : ''}`);
  return Number(match[1]);
}

/** A state vector naming a client the board has never seen: answered with the whole board, uncached. */
function foreignStateVector(clientId: number): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, 1);
  encoding.writeVarUint(encoder, clientId);
  encoding.writeVarUint(encoder, 1);
  return encoding.toUint8Array(encoder);
}

describe('hardening: slow viewers and the memory bound', () => {
  let server: ServerProcess;
  const clients: DocClient[] = [];
  const raws: RawDoc[] = [];

  before(async () => {
    server = await startProcess({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'tandem-memory-')),
      MAX_DOC_BYTES: String(16 * MiB),
      MAX_QUEUED_BYTES: String(QUEUE_BUDGET),
    });
  });
  after(async () => {
    for (const client of clients) client.destroy();
    for (const raw of raws) raw.ws.terminate();
    await server?.stop('SIGKILL');
  });

  test(`${VIEWERS} viewers that read nothing ask for a 6 MB board ${REQUESTS} times each: resident memory stays bounded and a bystander keeps syncing`, async () => {
    const owner = await new ApiClient(server.url).signup('Owner');
    const viewer = await new ApiClient(server.url).signup('Viewer');
    const boardId = await owner.createBoard('Big');
    await owner.share(boardId, viewer, 'viewer');

    // About 6 MB of board, in four 1.5 MB updates (under MAX_MESSAGE_BYTES).
    const writer = rawSocket(`${server.wsUrl}/yjs/${boardId}`, { cookie: owner.cookie });
    raws.push(writer);
    await writer.opened;
    const content = new Y.Doc();
    const text = content.getText('filler');
    for (let i = 0; i < 4; i++) {
      const vector = Y.encodeStateVector(content);
      text.insert(text.length, String.fromCharCode(97 + i).repeat(1536 * 1024));
      assert.equal(
        await sendAndProbe(writer, syncMessage(2, Y.encodeStateAsUpdate(content, vector))),
        'alive',
      );
    }
    const bystander = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    clients.push(bystander);
    await waitSynced(bystander, 60_000);
    assert.equal(bystander.doc.getText('filler').length, 4 * 1536 * 1024, 'the bystander has the board');

    const connectionsBefore = await metric(server, 'tandem_connections');
    const messagesBefore = await metric(server, 'tandem_messages_in_total');
    const residentBefore = await metric(server, 'process_resident_memory_bytes');
    const live = async () =>
      (await metric(server, 'nodejs_heap_size_used_bytes')) +
      (await metric(server, 'nodejs_external_memory_bytes'));
    const liveBefore = await live();

    const token = await viewer.token(boardId);
    const greedy: RawDoc[] = [];
    for (let i = 0; i < VIEWERS; i++) {
      const socket = rawSocket(`${server.wsUrl}/yjs/${boardId}?token=${encodeURIComponent(token)}`);
      raws.push(socket);
      greedy.push(socket);
    }
    await Promise.all(greedy.map((socket) => socket.opened));
    for (const [i, socket] of greedy.entries()) {
      // Reads nothing from now on: whatever the server sends stays queued on its side.
      (socket.ws as unknown as { _socket: Socket })._socket.pause();
      const request = syncMessage(0, i % 2 === 0 ? new Uint8Array([0]) : foreignStateVector(1_000_000 + i));
      for (let r = 0; r < REQUESTS; r++) socket.ws.send(request);
    }

    // Peaks while the server works through the requests, and for a while after, sampled often so
    // a short peak is seen.
    let livePeak = liveBefore;
    let queuedPeak = 0;
    let residentPeak = residentBefore;
    const sample = async () => {
      queuedPeak = Math.max(queuedPeak, await metric(server, 'tandem_send_queue_bytes'));
      livePeak = Math.max(livePeak, await live());
      residentPeak = Math.max(residentPeak, await metric(server, 'process_resident_memory_bytes'));
    };
    await waitUntil(
      'the server has read every sync request, or cut off every viewer',
      async () => {
        await sample();
        const read = (await metric(server, 'tandem_messages_in_total')) - messagesBefore;
        return (
          read >= VIEWERS * REQUESTS || (await metric(server, 'tandem_connections')) <= connectionsBefore
        );
      },
      120_000,
    );
    // Kept on purpose: sampling memory every 50 ms over 2 s after the peak is the measurement
    // (the budget must hold at every sample), not a wait for something to happen.
    for (let i = 0; i < 40; i++) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const liveGrowth = livePeak - liveBefore;
    console.log(
      `at the peak: ${(queuedPeak / MiB).toFixed(1)} MiB queued, live memory +${(liveGrowth / MiB).toFixed(0)} MiB, resident memory +${((residentPeak - residentBefore) / MiB).toFixed(0)} MiB`,
    );
    // The process budget holds at every sample, and holding it took cutting slow viewers off:
    // sixteen 6 MB answers do not fit in 32 MiB. (With the budget lifted, 96 MiB stays queued.)
    assert.ok(
      queuedPeak <= QUEUE_BUDGET,
      `${(queuedPeak / MiB).toFixed(1)} MiB queued, over the process budget`,
    );
    assert.ok(queuedPeak > QUEUE_BUDGET / 2, 'the viewers did fill the queue (the scenario ran)');
    assert.ok(
      (await metric(server, 'tandem_connection_closes_total', 'code="1013"')) >= 1,
      'slow viewers were cut off (1013) to hold the budget',
    );
    // A ceiling on everything the flood makes the process hold, garbage not yet collected
    // included (answers already cut off still count until the next GC): measured at 67-85 MiB,
    // with or without the budget. Without the one-answer-at-a-time rule the viewers' 640 requests
    // would queue gigabytes; without any bound each viewer holds MAX_DOC_BYTES plus 8 MiB.
    const liveCeiling = 192 * MiB;
    assert.ok(
      liveGrowth < liveCeiling,
      `live memory (V8 heap + external buffers) grew by ${(liveGrowth / MiB).toFixed(0)} MiB, over ${liveCeiling / MiB} MiB`,
    );

    // The bystander still syncs: a fresh client gets the whole board and sees a new edit.
    const late = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    clients.push(late);
    await waitSynced(late, 60_000);
    assert.equal(late.doc.getText('filler').length, 4 * 1536 * 1024, 'a late client has the whole board');
    addShape(bystander.doc, 'after-the-flood', { type: 'sticky', x: 1, y: 1 }, 'still here');
    await waitUntil('the late client sees the bystander’s edit', () =>
      late.doc.getMap('shapes').has('after-the-flood'),
    );
    assert.deepEqual(bystander.closes, [], 'the bystander was never closed');
    content.destroy();
  });
});
