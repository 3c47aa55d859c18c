// Hardening: a JSON body over the limit is answered 413 PAYLOAD_TOO_LARGE even while the client is
// still sending it. The server drains the rest (up to REFUSED_BODY_DRAIN_BYTES) before answering;
// answering and closing at once reset the connection under a client that writes before it reads,
// and Node's fetch saw EPIPE instead of the answer. A real server process: in the test's own
// process the timing hid the reset.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ErrorCode, limits } from '@tandem/shared';
import { ApiClient } from '../../testing/clients.ts';
import { type ServerProcess, startProcess } from '../../testing/process.ts';
import { REFUSED_BODY_DRAIN_BYTES } from '../src/http/server.ts';

const MiB = 1024 * 1024;

/** A body of `total` bytes, streamed (no Content-Length) in chunks of `chunk` bytes. */
function streamed(total: number, chunk: number): ReadableStream<Uint8Array> {
  const piece = new Uint8Array(chunk).fill(0x20);
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      controller.enqueue(piece);
      sent += chunk;
    },
  });
}

describe('hardening: refused bodies are answered, not reset', () => {
  let server: ServerProcess;
  let owner: ApiClient;
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-bodies-'));

  before(async () => {
    server = await startProcess({ DATA_DIR: dataDir });
    owner = await new ApiClient(server.url).signup('Owner');
  });
  after(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (body: Uint8Array | ReadableStream<Uint8Array>) =>
    fetch(`${server.url}/api/boards`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { cookie: owner.cookie, origin: server.url, 'content-type': 'application/json' },
    } as RequestInit);

  test('a streamed body over the limit gets the 413 JSON, every time', async () => {
    const total = 8 * MiB;
    assert.ok(total > limits.maxJsonBodyBytes && total <= REFUSED_BODY_DRAIN_BYTES);
    const outcomes: string[] = [];
    for (const chunk of [64 * 1024, 16 * 1024, 1024 * 1024]) {
      for (let i = 0; i < 4; i++) {
        try {
          const answer = await post(streamed(total, chunk));
          const body = (await answer.json()) as { error?: { code?: string; message?: string } };
          outcomes.push(`${answer.status} ${body.error?.code}`);
          assert.match(body.error?.message ?? '', /too large/);
        } catch (error) {
          outcomes.push(`failed: ${(error as { cause?: { code?: string } }).cause?.code ?? error}`);
        }
      }
    }
    assert.deepEqual(
      outcomes,
      outcomes.map(() => `413 ${ErrorCode.PAYLOAD_TOO_LARGE}`),
      `every oversized body is answered 413: ${outcomes.join(', ')}`,
    );
  });

  test('so does a declared one, and the server still serves the next call', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      try {
        const answer = await post(new Uint8Array(8 * MiB).fill(0x20));
        outcomes.push(
          `${answer.status} ${((await answer.json()) as { error: { code: string } }).error.code}`,
        );
      } catch (error) {
        outcomes.push(`failed: ${(error as { cause?: { code?: string } }).cause?.code ?? error}`);
      }
    }
    assert.deepEqual(
      outcomes,
      outcomes.map(() => `413 ${ErrorCode.PAYLOAD_TOO_LARGE}`),
      outcomes.join(', '),
    );
    assert.equal((await owner.call('POST', '/api/boards', { title: 'After' })).status, 201);
  });
});
