// Which browser origins may write and open sockets (docs/api.md §7, "Origins"): with no
// PUBLIC_ORIGIN the server is also reached by its own IP address or machine name (a teammate
// opens http://192.168.1.20:8080 from the next desk), never by a domain name a page could
// point at it; with PUBLIC_ORIGIN set, that origin alone. Requests are sent with the Host header
// a browser would send for the address typed, which fetch cannot set.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { ErrorCode, WORKSPACE_PATH } from '@tandem/shared';
import { io } from 'socket.io-client';
import WebSocket from 'ws';
import { ApiClient, uniqueEmail } from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';

interface Sent {
  host: string;
  origin?: string;
  cookie?: string;
}

/** A REST call to `server` as a browser at `sent.host` makes it. */
function call(server: TestServer, method: string, path: string, sent: Sent, body?: unknown) {
  const { port } = new URL(server.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{
    status: number;
    body: { error?: { code: string; message: string } } & Record<string, unknown>;
    cookie: string;
  }>((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          host: sent.host,
          ...(sent.origin ? { origin: sent.origin } : {}),
          ...(sent.cookie ? { cookie: sent.cookie } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          const cookie = (response.headers['set-cookie'] ?? [])
            .map((line) => line.split(';')[0] ?? '')
            .find((pair) => pair.startsWith('tandem_session='));
          resolve({
            status: response.statusCode ?? 0,
            body: text ? JSON.parse(text) : {},
            cookie: cookie ?? '',
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

const signup = (server: TestServer, sent: Sent) =>
  call(server, 'POST', '/api/auth/signup', sent, {
    email: uniqueEmail(),
    name: 'Desk neighbour',
    password: 'correct horse battery',
  });

/** How a document socket opened at `sent.host` ends: 'open', or the HTTP status it was refused with. */
function upgrade(server: TestServer, boardId: string, sent: Sent): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${server.wsUrl}/yjs/${boardId}`, {
      headers: {
        host: sent.host,
        ...(sent.origin ? { origin: sent.origin } : {}),
        cookie: sent.cookie ?? '',
      },
    });
    ws.on('open', () => {
      resolve('open');
      ws.close();
    });
    ws.on('unexpected-response', (_request, response) => {
      resolve(String(response.statusCode));
      ws.terminate();
    });
    ws.on('error', () => resolve('error'));
  });
}

function workspace(server: TestServer, sent: Sent): Promise<string> {
  return new Promise((resolve) => {
    const socket = io(server.url, {
      path: WORKSPACE_PATH,
      transports: ['websocket'],
      extraHeaders: { host: sent.host, origin: sent.origin ?? '', cookie: sent.cookie ?? '' },
      reconnection: false,
    });
    socket.once('connect', () => {
      resolve('connected');
      socket.close();
    });
    socket.once('connect_error', (error) => {
      resolve(`refused: ${error.message}`);
      socket.close();
    });
  });
}

describe('origins: no PUBLIC_ORIGIN', () => {
  let server: TestServer;
  let port: string;
  let boardId: string;
  let owner: ApiClient;

  before(async () => {
    server = await startServer();
    port = new URL(server.url).port;
    owner = await new ApiClient(server.url).signup('Owner');
    boardId = await owner.createBoard('Office board');
  });
  after(() => server.close());

  test("a browser at the machine's IP address or name signs up, opens a board and the workspace", async () => {
    for (const host of [`10.1.2.3:${port}`, `[fd00::20]:${port}`, `localhost:${port}`]) {
      const sent = { host, origin: `http://${host}` };
      const answer = await signup(server, sent);
      assert.equal(answer.status, 201, `${host}: ${JSON.stringify(answer.body)}`);
      assert.ok(answer.cookie, host);
      const person = { ...sent, cookie: answer.cookie };
      const created = await call(server, 'POST', '/api/boards', person, { title: `From ${host}` });
      assert.equal(created.status, 201, host);
      const newBoard = (created.body.board as { id: string }).id;
      assert.equal(await upgrade(server, newBoard, person), 'open', host);
      assert.equal(await workspace(server, person), 'connected', host);
    }
  });

  test('a share link made at the IP address carries that address', async () => {
    const atIp = { host: `10.1.2.3:${port}`, origin: `http://10.1.2.3:${port}`, cookie: owner.cookie };
    const created = await call(server, 'POST', `/api/boards/${boardId}/links`, atIp, { role: 'editor' });
    assert.equal(created.status, 201);
    const link = created.body.link as { url: string; token: string };
    assert.equal(link.url, `http://10.1.2.3:${port}/join/${link.token}`);
    // Made at the configured address, it stays there.
    const listed = await owner.call<{ links: { url: string }[] }>('GET', `/api/boards/${boardId}/links`);
    assert.ok(
      listed.body.links.every((l) => l.url.startsWith(`${server.origin}/`)),
      JSON.stringify(listed.body),
    );
  });

  test('a domain name, or a page elsewhere, is another site, and the refusal says where Tandem is', async () => {
    const refusals: Sent[] = [
      // A page on a domain whose DNS points at this machine (rebinding): same host, still refused.
      { host: `rebind.example:${port}`, origin: `http://rebind.example:${port}` },
      // A page elsewhere calling the IP address.
      { host: `10.1.2.3:${port}`, origin: 'https://evil.example' },
      // The IP address on another port: another origin.
      { host: `10.1.2.3:${port}`, origin: 'http://10.1.2.3:1' },
    ];
    for (const sent of refusals) {
      const answer = await signup(server, sent);
      assert.equal(answer.status, 403, JSON.stringify(sent));
      assert.equal(answer.body.error?.code, ErrorCode.FORBIDDEN);
      assert.equal(
        answer.body.error?.message,
        `Requests from another site are not allowed: this Tandem answers at ${server.origin}. Open it there, or ask whoever runs it to set PUBLIC_ORIGIN to the address you use.`,
      );
      assert.equal(
        await upgrade(server, boardId, { ...sent, cookie: owner.cookie }),
        '403',
        JSON.stringify(sent),
      );
      assert.match(
        await workspace(server, { ...sent, cookie: owner.cookie }),
        /^refused/,
        JSON.stringify(sent),
      );
    }
    // Nothing was let in: the board still has its owner alone.
    const members = await owner.call<{ members: unknown[] }>('GET', `/api/boards/${boardId}/members`);
    assert.equal(members.body.members.length, 1);
  });
});

describe('origins: PUBLIC_ORIGIN set', () => {
  let server: TestServer;
  let port: string;

  before(async () => {
    server = await startServer({ env: { PUBLIC_ORIGIN: 'https://board.example.org' } });
    port = new URL(server.url).port;
  });
  after(() => server.close());

  test('only that origin may write: the IP address and localhost are refused', async () => {
    for (const host of [`10.1.2.3:${port}`, `localhost:${port}`]) {
      const answer = await signup(server, { host, origin: `http://${host}` });
      assert.equal(answer.status, 403, host);
      assert.match(answer.body.error?.message ?? '', /answers at https:\/\/board\.example\.org\./);
    }
    const answer = await signup(server, { host: 'board.example.org', origin: 'https://board.example.org' });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
  });
});
