// Hardening: the HTTP side. Oversized and malformed bodies, login brute force, a socket.io packet
// over its size limit and a cross-origin socket.io handshake, security headers and the session
// cookie's flags. The document clients on the server carry on through all of it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ErrorCode, WORKSPACE_PATH } from '@tandem/shared';
import { pino } from 'pino';
import { io, type Socket } from 'socket.io-client';
import { ApiClient } from '../../testing/clients.ts';
import { assertHeapNear, Bystanders, heapAfterGc } from '../../testing/hardening.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';

const LOGIN_ATTEMPTS = 5;

function workspaceSocket(url: string, cookie: string, origin: string): Socket {
  return io(url, {
    path: WORKSPACE_PATH,
    transports: ['websocket'],
    extraHeaders: { cookie, origin },
    reconnection: false,
  });
}

function outcome(socket: Socket): Promise<'connected' | string> {
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (error) => resolve(`refused: ${error.message}`));
  });
}

describe('hardening: HTTP and the workspace channel', () => {
  let server: TestServer;
  let owner: ApiClient;
  let bystanders: Bystanders;
  const sockets: Socket[] = [];

  before(async () => {
    server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: String(LOGIN_ATTEMPTS) } });
    owner = await new ApiClient(server.url).signup('Owner');
    bystanders = await Bystanders.start(server, owner, await owner.createBoard('Busy'));
  });
  after(async () => {
    for (const socket of sockets) socket.disconnect();
    bystanders.destroy();
    await server.close();
  });

  test('an oversized body is 413 and a malformed one 400, without a stack trace', async () => {
    const baseline = await heapAfterGc();
    const huge = JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) });
    const big = await owner.call<{ error: { code: string } }>('POST', '/api/boards', huge);
    assert.equal(big.status, 413);
    assert.equal(big.body.error.code, ErrorCode.PAYLOAD_TOO_LARGE);
    for (const body of ['{"title": ', '{"title": "a"}}', '\u0000\u0001', '[1, 2', 'null', '"string"']) {
      const answer = await owner.call<{ error: { code: string; message: string } }>(
        'POST',
        '/api/boards',
        body,
      );
      assert.equal(answer.status, 400, `body ${JSON.stringify(body)}`);
      assert.equal(answer.body.error.code, ErrorCode.BAD_REQUEST);
      assert.doesNotMatch(JSON.stringify(answer.body), /at .*\.ts:\d+/);
    }
    const wrongType = await owner.call('POST', '/api/boards', 'title=x', { 'content-type': 'text/plain' });
    assert.equal(wrongType.status, 400);
    await bystanders.checkSyncing('after bad bodies');
    await assertHeapNear(baseline, 'bad bodies');
  });

  test('login brute force from one address: 429 with Retry-After, even for the right password', async () => {
    const email = `victim-${Date.now()}@example.com`;
    const victim = new ApiClient(server.url);
    await victim.signup('Victim', email, 'the right password');
    const attacker = new ApiClient(server.url);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < LOGIN_ATTEMPTS + 3; i++) {
      const answer = await attacker.call('POST', '/api/auth/login', { email, password: `guess ${i}` });
      statuses.push(answer.status);
      if (answer.status === 429) retryAfter = answer.headers.get('retry-after');
    }
    assert.deepEqual(statuses.slice(0, LOGIN_ATTEMPTS), new Array(LOGIN_ATTEMPTS).fill(401));
    assert.ok(
      statuses.slice(LOGIN_ATTEMPTS).every((status) => status === 429),
      String(statuses),
    );
    assert.ok(Number(retryAfter) > 0 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);
    // The right password does not get through the lock either.
    const right = await attacker.call('POST', '/api/auth/login', { email, password: 'the right password' });
    assert.equal(right.status, 429);
    assert.ok(Number(right.headers.get('retry-after')) > 0);
    // The session the victim already has still works.
    assert.equal((await victim.call('GET', '/api/me')).status, 200);
  });

  test('a socket.io packet over maxHttpBufferSize drops that connection only; a cross-origin handshake is refused', async () => {
    const baseline = await heapAfterGc();
    const polite = workspaceSocket(server.url, owner.cookie, server.origin);
    sockets.push(polite);
    assert.equal(await outcome(polite), 'connected');

    const greedy = workspaceSocket(server.url, owner.cookie, server.origin);
    sockets.push(greedy);
    assert.equal(await outcome(greedy), 'connected');
    const dropped = new Promise<string>((resolve) => greedy.once('disconnect', (reason) => resolve(reason)));
    (greedy as unknown as { emit(name: string, payload: string): void }).emit(
      'presence:refresh',
      'p'.repeat(200 * 1024),
    );
    assert.equal(await dropped, 'transport close');
    assert.equal(polite.connected, true);

    for (const origin of ['https://evil.example', 'null']) {
      const foreign = workspaceSocket(server.url, owner.cookie, origin);
      sockets.push(foreign);
      assert.match(await outcome(foreign), /refused/, origin);
    }
    // Polling handshake from another site: refused too.
    const polling = await fetch(`${server.url}${WORKSPACE_PATH}/?EIO=4&transport=polling`, {
      headers: { origin: 'https://evil.example', cookie: owner.cookie },
    });
    assert.equal(polling.status, 403);
    await polling.text();

    // The server is fine: a new workspace connection works and hears live events.
    const fresh = workspaceSocket(server.url, owner.cookie, server.origin);
    sockets.push(fresh);
    assert.equal(await outcome(fresh), 'connected');
    let heard = false;
    fresh.on('board:changed', () => {
      heard = true;
    });
    await owner.call('PATCH', `/api/boards/${bystanders.otherBoardId}`, { title: 'Renamed' });
    await waitUntil('live event after the drop', () => heard);
    for (const socket of sockets.splice(0)) socket.disconnect();
    await bystanders.checkSyncing('after socket.io abuse');
    await assertHeapNear(baseline, 'socket.io abuse');
  });

  test('security headers on API, health and unknown paths; session cookie httpOnly and SameSite=Lax, not Secure over http', async () => {
    for (const path of ['/api/me', '/healthz', '/api/nope', '/b/whatever']) {
      const response = await fetch(server.url + path, { headers: { cookie: owner.cookie } });
      await response.text();
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(response.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(response.headers.get('referrer-policy'), 'same-origin', path);
    }
    const someone = new ApiClient(server.url);
    const answer = await someone.call('POST', '/api/auth/guest', { name: 'Guest' });
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('tandem_session='))!;
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    assert.doesNotMatch(cookie, /Secure/i);
  });
});

test('hardening: with an https PUBLIC_ORIGIN the session cookie is Secure', async () => {
  const publicOrigin = 'https://tandem.example';
  const server = await startServer({ env: { PUBLIC_ORIGIN: publicOrigin } });
  try {
    const client = new ApiClient(server.url, publicOrigin);
    const answer = await client.call('POST', '/api/auth/guest', { name: 'Guest' });
    assert.equal(answer.status, 201);
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('tandem_session='))!;
    assert.match(cookie, /; Secure/i);
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    // A state-changing call from the server's own http address is now a foreign origin.
    const foreign = await new ApiClient(server.url).call('POST', '/api/auth/guest', { name: 'Guest' });
    assert.equal(foreign.status, 403);
  } finally {
    await server.close();
  }
});

test('hardening: the per-email login limit holds across addresses and letter case', async () => {
  // Behind a load balancer every attempt may come from another address: the email's own budget
  // still runs out.
  const server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '3', TRUST_PROXY: 'true' } });
  try {
    const email = `spread-${Date.now()}@example.com`;
    await new ApiClient(server.url).signup('Target', email, 'the right password');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const variant = i % 2 === 0 ? email : email.toUpperCase();
      const answer = await new ApiClient(server.url).call(
        'POST',
        '/api/auth/login',
        { email: variant, password: `guess ${i}` },
        { 'x-forwarded-for': `198.51.100.${i + 1}` },
      );
      statuses.push(answer.status);
    }
    assert.deepEqual(statuses, [401, 401, 401, 429, 429, 429]);
  } finally {
    await server.close();
  }
});

test("hardening: balancers' and Prometheus's polls are not logged at info while they answer well", async () => {
  const lines: { msg?: string; url?: string; level: number }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const server = await startServer({ logger });
  try {
    for (const path of ['/healthz', '/readyz', '/metrics', '/readyz?probe=1']) {
      assert.equal((await fetch(`${server.url}${path}`)).status, 200, path);
    }
    assert.equal((await fetch(`${server.url}/api/me`)).status, 401);
    const requests = lines.filter((line) => line.msg === 'request').map((line) => line.url);
    assert.deepEqual(requests, ['/api/me'], 'only the API call is logged at info');
  } finally {
    await server.close();
  }
});

test('hardening: with METRICS_TOKEN set, /metrics answers only the scraper that holds it', async () => {
  const token = 'scraper-secret-0123456789';
  const server = await startServer({ env: { METRICS_TOKEN: token } });
  try {
    const scrape = (authorization?: string) =>
      fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', token]) {
      const refused = await scrape(authorization);
      assert.equal(refused.status, 401, String(authorization));
      assert.equal(
        ((await refused.json()) as { error: { code: string } }).error.code,
        ErrorCode.AUTH_REQUIRED,
      );
    }
    const answer = await scrape(`Bearer ${token}`);
    assert.equal(answer.status, 200);
    assert.match(await answer.text(), /^tandem_connections /m);
  } finally {
    await server.close();
  }
});
