// Hardening: malformed request lines and upgrade requests against a real server process. No
// request, however broken its target or headers, may throw out of a parser and stop the process:
// each is answered with a 4xx, and the process keeps serving.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ServerProcess, startProcess } from '../../testing/process.ts';
import { Random, testSeed } from '../../testing/random.ts';

const FUZZ_COUNT = Number(process.env.HARDENING_UPGRADE_FUZZ_COUNT ?? 5000);
const CONCURRENCY = 16;

/** Sends raw bytes on a fresh TCP connection; resolves with the status code of the answer (0 if none). */
function rawRequest(port: number, bytes: string | Buffer): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      resolve(match ? Number(match[1]) : 0);
    };
    const timer = setTimeout(done, 5000);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done();
    });
    socket.on('error', done);
    socket.on('close', done);
  });
}

const WS_HEADERS =
  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

function upgrade(target: string, extraHeaders = ''): string {
  return `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${WS_HEADERS}${extraHeaders}\r\n`;
}

/** Targets that break a URL or percent-decoding parser. */
const BROKEN_TARGETS = [
  '/yjs/%',
  '/yjs/%E0%A4%A',
  'http://[/yjs/x',
  '/yjs/%ZZ',
  '/yjs/%C0%80',
  '/yjs/abc%',
  '/yjs/%uD800',
  '/yjs/%ED%A0%80',
  'http://[::1/yjs/x',
  'http://a:b@[/yjs/x',
  '//[/yjs/x',
  'http://%/yjs/x',
  'http://host:99999/yjs/x',
];

// No '?' or '#': the undecodable part must stay in the path, not move to the query or fragment.
const NASTY = ['%', '%E0', '%A4', '%ZZ', '[', ']', '\\', '%00', '%FF', '..', '/', '@', ':', 'é', '\u0000'];

function randomTarget(random: Random): string {
  const base = random.pick([
    '/yjs/',
    'http://[/yjs/',
    'http://x/yjs/',
    '//yjs/',
    '/yjs',
    '/socket.io/',
    '/api/boards/',
    '/',
  ]);
  let tail = '';
  const parts = 1 + random.int(6);
  for (let i = 0; i < parts; i++)
    tail += random.chance(0.6)
      ? random.pick(NASTY)
      : String.fromCharCode(33 + random.int(94)).replace(/[?#]/, '~');
  // Every fuzzed upgrade target is undecodable, so it must be refused before any handshake.
  return `${base}${tail}%`;
}

function randomHeaderValue(random: Random): string {
  let value = '';
  const length = random.int(40);
  for (let i = 0; i < length; i++)
    value += String.fromCharCode(random.chance(0.9) ? 32 + random.int(95) : 128 + random.int(128));
  return value;
}

/** One malformed request: an undecodable upgrade, an upgrade with broken headers, or a bad request line. */
function randomRequest(random: Random): Buffer {
  const kind = random.int(3);
  if (kind === 0) {
    const extra = random.chance(0.5) ? `Cookie: tandem_session=${randomHeaderValue(random)}\r\n` : '';
    return Buffer.from(upgrade(randomTarget(random), extra), 'latin1');
  }
  if (kind === 1) {
    // A decodable document path with a handshake that cannot succeed: a foreign Origin, or a
    // missing or garbled key or version.
    const breakage = random.pick([
      `Origin: http://evil-${random.int(1000)}.invalid\r\n`,
      `Origin: ${randomHeaderValue(random)}x\r\n`,
    ]);
    if (random.chance(0.5)) return Buffer.from(upgrade(`/yjs/${random.int(1e9)}`, breakage), 'latin1');
    const head = `GET /yjs/${random.int(1e9)}?token=${encodeURIComponent(randomHeaderValue(random))} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`;
    const key = random.chance(0.5) ? `Sec-WebSocket-Key: ${randomHeaderValue(random)}\r\n` : '';
    const version = `Sec-WebSocket-Version: ${random.pick(['', '8', '13x', randomHeaderValue(random)])}\r\n`;
    return Buffer.from(`${head}${key}${version}\r\n`, 'latin1');
  }
  const method = random.pick(['GET', 'POST', 'PATCH', 'DELETE', 'G\u0000T', 'OPTIONS', 'BREW', '']);
  const target = random.pick([
    randomTarget(random),
    `/api/boards/${randomTarget(random)}`,
    `/b/${randomTarget(random)}`,
    '*',
    '',
  ]);
  const version = random.pick(['HTTP/1.1', 'HTTP/1.1', 'HTTP/9.9', 'HTP/1.1', '']);
  const headers = random.chance(0.5)
    ? `Host: ${randomHeaderValue(random)}\r\n`
    : `X-${random.int(99)}: ${randomHeaderValue(random)}\r\n`;
  return Buffer.from(`${method} ${target} ${version}\r\n${headers}Content-Length: 0\r\n\r\n`, 'latin1');
}

describe('hardening: request lines and upgrades', () => {
  let server: ServerProcess;
  let dataDir: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tandem-upgrade-'));
    server = await startProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'fatal' });
  });
  after(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('undecodable document paths get 400, and the process stays up', async () => {
    for (const target of BROKEN_TARGETS) {
      for (const extra of ['', 'Origin: http://127.0.0.1\r\n']) {
        const status = await rawRequest(server.port, upgrade(target, extra));
        assert.ok(status >= 400 && status < 500, `${target} answered ${status}`);
        assert.equal(server.child.exitCode, null, `the process exited after ${target}`);
      }
      const plain = await rawRequest(server.port, `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      // Without an upgrade, a decodable path is the single-page app's (here: no client built, 503).
      assert.ok(plain >= 400 && plain !== 500, `plain GET ${target} answered ${plain}`);
    }
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200);
  });

  test(`${FUZZ_COUNT} seeded malformed requests: each answered with a 4xx, the process keeps serving`, async () => {
    const seed = testSeed();
    const random = new Random(seed);
    const requests = Array.from({ length: FUZZ_COUNT }, () => randomRequest(random));
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++]!;
        const status = await rawRequest(server.port, request);
        if (!(status >= 400 && status < 500))
          failures.push(`${status}: ${JSON.stringify(request.toString('latin1'))}`);
        if (server.child.exitCode !== null) throw new Error(`the process exited (seed ${seed})`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    assert.deepEqual(
      failures.slice(0, 12),
      [],
      `seed ${seed}: ${failures.length} requests not answered with a 4xx`,
    );
    assert.equal(server.child.exitCode, null, `seed ${seed}: the process exited`);
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200, `seed ${seed}: /healthz after the fuzz`);
  });
});
