// Hardening: image uploads against a real server process. An upload the client abandons or
// stalls gives back its descriptor and temporary file; heavy images do not starve the rest of the
// instance (a login stays fast while four 49-megapixel uploads run); an image that does not fit on
// a full disk leaves no temporary file behind.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ErrorCode, mulberry32 } from '@tandem/shared';
import sharp from 'sharp';
import { ApiClient } from '../../testing/clients.ts';
import { mountSmallDisk } from '../../testing/hardening.ts';
import { type ServerProcess, startProcess } from '../../testing/process.ts';
import { assertError, uploadAsset } from '../../testing/rest.ts';
import { waitUntil } from '../../testing/services.ts';

/** Open descriptors of a process. */
const descriptors = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;

/** Files in the server's upload folders (`tandem-uploads-*` under its TMPDIR), with their sizes. */
function uploadTemps(tmp: string): number[] {
  const sizes: number[] = [];
  for (const dir of readdirSync(tmp).filter((name) => name.startsWith('tandem-uploads-'))) {
    for (const name of readdirSync(join(tmp, dir))) {
      try {
        sizes.push(statSync(join(tmp, dir, name)).size);
      } catch {
        // removed between the two reads
      }
    }
  }
  return sizes;
}

/**
 * Starts an upload on a raw socket declaring `declared` bytes and writes `send` of them; resolves
 * once the server has them on disk. The caller then stops writing or closes the socket.
 */
async function startUpload(
  server: ServerProcess,
  who: ApiClient,
  boardId: string,
  declared: number,
  send: number,
): Promise<Socket> {
  const socket = connect(server.port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.resume();
  await once(socket, 'connect');
  socket.write(
    `POST /api/boards/${boardId}/assets HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n` +
      `Origin: ${server.url}\r\nCookie: ${who.cookie}\r\nContent-Type: image/jpeg\r\n` +
      `Content-Length: ${declared}\r\n\r\n`,
  );
  const chunk = Buffer.alloc(64 * 1024, 0x5a);
  for (let sent = 0; sent < send; sent += chunk.length) {
    if (!socket.write(chunk.subarray(0, Math.min(chunk.length, send - sent)))) await once(socket, 'drain');
  }
  return socket;
}

/** Waits at most a second for the descriptors and upload files to be back to `baseline`. */
async function waitReleased(pid: number, tmp: string, baseline: number): Promise<number> {
  const from = Date.now();
  let seen = '';
  try {
    await waitUntil(
      'descriptors and temporary files are back to the baseline',
      () => {
        const temps = uploadTemps(tmp);
        const open = descriptors(pid);
        seen = `${open} descriptors (baseline ${baseline}), ${temps.length} temporary files of ${temps.reduce((a, b) => a + b, 0)} bytes`;
        return temps.length === 0 && open <= baseline;
      },
      1000,
    );
  } catch {
    assert.fail(`a second later the server still holds ${seen}`);
  }
  return Date.now() - from;
}

describe('hardening: uploads that are abandoned or stall', () => {
  let server: ServerProcess;
  let tmp: string;
  let dataDir: string;
  let owner: ApiClient;
  let boardId: string;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'tandem-uploads-test-'));
    dataDir = mkdtempSync(join(tmpdir(), 'tandem-data-'));
    server = await startProcess({ DATA_DIR: dataDir, TMPDIR: tmp });
    owner = await new ApiClient(server.url).signup('Owner');
    boardId = await owner.createBoard('Uploads');
  });
  after(async () => {
    await server.stop();
    rmSync(tmp, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a 10 MB upload closed after 9 MB gives back its descriptor and temporary file within a second', async () => {
    // Five people, one upload each (one user may have only MAX_UPLOADS_PER_USER running).
    const people: { who: ApiClient; board: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const who = await new ApiClient(server.url).signup(`Uploader ${i}`);
      people.push({ who, board: await who.createBoard(`Board ${i}`) });
    }
    const pid = server.child.pid!;
    const baseline = descriptors(pid);
    assert.deepEqual(uploadTemps(tmp), []);
    const sockets: Socket[] = [];
    for (const { who, board } of people) {
      sockets.push(await startUpload(server, who, board, 10 * 1024 * 1024, 9 * 1024 * 1024));
    }
    // The server is receiving all five: five temporary files, nearly whole.
    await waitUntil('the server holds 9 MB of each upload', () => {
      const sizes = uploadTemps(tmp);
      return sizes.length === 5 && sizes.every((size) => size >= 8 * 1024 * 1024);
    });
    assert.ok(descriptors(pid) >= baseline + 5, 'each upload holds a descriptor while it runs');
    for (const socket of sockets) socket.destroy();
    const ms = await waitReleased(pid, tmp, baseline);
    console.log(`five aborted uploads released in ${ms} ms`);
    // And the next upload works.
    const small = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    const answer = await uploadAsset(owner, boardId, small, 'image/png');
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
  });

  test('a stalled upload is ended by the request timeout and gives everything back within a second', async () => {
    const pid = server.child.pid!;
    const baseline = descriptors(pid);
    const socket = await startUpload(server, owner, boardId, 10 * 1024 * 1024, 1024 * 1024);
    await waitUntil('the server holds the first megabyte', () => uploadTemps(tmp).includes(1024 * 1024));
    // The client sends nothing more but keeps the connection open; the server ends it.
    await once(socket, 'close');
    const ms = await waitReleased(pid, tmp, baseline);
    console.log(`stalled upload released ${ms} ms after the server ended it`);
  });
});

/** Every file under `dir`, as paths relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));

describe('hardening: an upload onto a full disk', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-data-'));
  const assetsDir = join(dataDir, 'assets');
  mkdirSync(assetsDir);
  // 192 KB for images: a 300 KB one cannot be stored, small ones can.
  const skip = mountSmallDisk(assetsDir, '192k');
  let server: ServerProcess;
  let owner: ApiClient;
  let boardId: string;

  before(async () => {
    if (skip) return;
    server = await startProcess({ DATA_DIR: dataDir });
    owner = await new ApiClient(server.url).signup('Owner');
    boardId = await owner.createBoard('Full disk');
  });
  after(async () => {
    await server?.stop();
    if (!skip) execFileSync('umount', [assetsDir]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('fails, leaves no temporary file in DATA_DIR/assets, and the space is there for the next image', {
    skip,
  }, async () => {
    const upload = (body: Buffer) => uploadAsset(owner, boardId, body, 'image/png');
    // Noise does not compress: about 300 KB as PNG.
    const random = mulberry32(5);
    const raw = Buffer.alloc(320 * 320 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(random() * 256);
    const big = await sharp(raw, { raw: { width: 320, height: 320, channels: 3 } })
      .png()
      .toBuffer();
    assert.ok(big.byteLength > 192 * 1024, `the fixture is ${big.byteLength} bytes`);
    const failed = await upload(big);
    assertError(failed, 500, ErrorCode.INTERNAL);
    assert.deepEqual(
      filesUnder(assetsDir).filter((name) => name.endsWith('.tmp')),
      [],
      'no temporary file is left behind',
    );
    // What the failed write took is free again: a 70 KB image fits.
    const fits = await sharp(raw.subarray(0, 150 * 150 * 3), {
      raw: { width: 150, height: 150, channels: 3 },
    })
      .png()
      .toBuffer();
    const stored = await upload(fits);
    assert.equal(stored.status, 201, JSON.stringify(stored.body));
    assert.deepEqual(filesUnder(assetsDir).sort(), [
      join(boardId, stored.body.asset.id),
      join(boardId, `${stored.body.asset.id}.json`),
    ]);
  });
});

/** Resident memory of a process now and at its peak (since start, or since `resetPeak`), in MB. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}
/** Starts the peak-memory count of a process anew (Linux: `5` to clear_refs, as root). */
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

describe('hardening: heavy images', () => {
  /**
   * How much four heavy uploads may slow another user's login, at the 99th percentile, beyond what
   * the machine itself costs (the p99 of logins with no upload running, measured first): the issue
   * asks for a login p99 under 500 ms. Measured p99 76-380 ms with the fix and 1.6-3.7 s before it;
   * on a machine loaded by other work, quiet logins alone reached 600 ms, hence the baseline.
   */
  const LOGIN_SLOWDOWN_MS = 500;
  const PASSWORD = 'correct horse battery';
  let server: ServerProcess;
  let tmp: string;
  let dataDir: string;
  /** 7,000 × 7,000 pixels (49 megapixels) with EXIF orientation 6, in 290 KB: a flat colour. */
  let heavy: Buffer;
  let small: Buffer;
  const email = `lena-${process.pid}-${Date.now()}@example.com`;

  before(async () => {
    heavy = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#7a8a9a' } })
      .jpeg({ quality: 5 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    small = await sharp({ create: { width: 30, height: 30, channels: 3, background: '#f80' } })
      .png()
      .toBuffer();
    tmp = mkdtempSync(join(tmpdir(), 'tandem-uploads-test-'));
    dataDir = mkdtempSync(join(tmpdir(), 'tandem-data-'));
    // Logins are what is measured here, not their rate limit.
    server = await startProcess({ DATA_DIR: dataDir, TMPDIR: tmp, LOGIN_ATTEMPTS_PER_MINUTE: '100000' });
    await new ApiClient(server.url).signup('Lena', email, PASSWORD);
  });
  after(async () => {
    await server.stop();
    rmSync(tmp, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  const editor = async (name: string) => {
    const who = await new ApiClient(server.url).signup(name);
    return { who, boardId: await who.createBoard(name) };
  };
  const upload = (who: ApiClient, boardId: string, body: Buffer) =>
    uploadAsset(who, boardId, body, 'image/jpeg');
  const login = async (): Promise<number> => {
    const started = performance.now();
    const answer = await new ApiClient(server.url).call('POST', '/api/auth/login', {
      email,
      password: PASSWORD,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return performance.now() - started;
  };

  test('four 49-megapixel uploads at once: another user logs in fast meanwhile, and memory stays bounded', async () => {
    const pid = server.child.pid!;
    const metadata = await sharp(heavy).metadata();
    assert.deepEqual([metadata.width, metadata.height, metadata.orientation], [7000, 7000, 6]);
    assert.ok(heavy.byteLength < 400 * 1024, `the fixture is ${heavy.byteLength} bytes`);
    // Two editors, two uploads each: within the per-user limit, so all four are decoded.
    const uploaders = [await editor('Alice'), await editor('Bob')];
    for (let i = 0; i < 3; i++) await login(); // warm
    const quiet: number[] = [];
    for (let i = 0; i < 20; i++) quiet.push(await login());
    const quietP99 = percentile(quiet, 99);
    // sharp is loaded by a first small image, so its start is not counted below.
    assert.equal((await upload(uploaders[0]!.who, uploaders[0]!.boardId, small)).status, 201);
    resetPeak(pid);
    const before = memory(pid);
    let running = true;
    const started = performance.now();
    const uploads = Promise.all(
      uploaders.flatMap(({ who, boardId }) => [upload(who, boardId, heavy), upload(who, boardId, heavy)]),
    ).finally(() => {
      running = false;
    });
    const logins: number[] = [];
    while (running) logins.push(await login());
    const answers = await uploads;
    const took = performance.now() - started;
    const after = memory(pid);
    const p99 = percentile(logins, 99);
    console.log(
      `logins with no upload: p99 ${Math.round(quietP99)} ms; 4 uploads in ${Math.round(took)} ms; ${logins.length} logins meanwhile: p50 ${Math.round(percentile(logins, 50))} ms, p99 ${Math.round(p99)} ms; ` +
        `RSS ${Math.round(before.rss)} MB before, peak ${Math.round(after.peak)} MB, ${Math.round(after.rss)} MB after`,
    );
    for (const answer of answers) {
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.deepEqual([answer.body.asset.width, answer.body.asset.height], [7000, 7000]);
    }
    assert.ok(logins.length >= 3, `${logins.length} logins while the uploads ran`);
    assert.ok(
      p99 < quietP99 + LOGIN_SLOWDOWN_MS,
      `login p99 ${Math.round(p99)} ms while four heavy uploads ran, ${Math.round(quietP99)} ms without`,
    );
    // One 49-megapixel decode at a time: its pixels (147 MB) and the encoder's buffers, not four.
    assert.ok(
      after.peak - before.rss < 700,
      `RSS rose from ${Math.round(before.rss)} to ${Math.round(after.peak)} MB`,
    );
  });

  test('a third upload at once from one user gets 429 RATE_LIMITED with Retry-After; others are not held up', async () => {
    const carol = await editor('Carol');
    const dave = await editor('Dave');
    // Two uploads of Carol's in flight (their bodies not finished).
    const sockets = [
      await startUpload(server, carol.who, carol.boardId, 1024 * 1024, 64 * 1024),
      await startUpload(server, carol.who, carol.boardId, 1024 * 1024, 64 * 1024),
    ];
    await waitUntil('both are being received', () => uploadTemps(tmp).length === 2);
    const refused = await upload(carol.who, carol.boardId, small);
    const error = assertError(refused, 429, ErrorCode.RATE_LIMITED);
    assert.match(error.message, /2 images uploading/);
    assert.equal(refused.headers.get('retry-after'), '5');
    // Another user is not affected.
    assert.equal((await upload(dave.who, dave.boardId, small)).status, 201);
    // Once one of Carol's ends (here: she gives up on it), her next upload is taken.
    sockets[0]!.destroy();
    await waitUntil('the slot is given back', () => uploadTemps(tmp).length === 1, 1000);
    const taken = await upload(carol.who, carol.boardId, small);
    assert.equal(taken.status, 201, JSON.stringify(taken.body));
    sockets[1]!.destroy();
  });
});
