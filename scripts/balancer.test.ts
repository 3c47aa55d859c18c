// The cluster's TCP balancer: round robin per connection, bytes both ways, refused backends
// skipped, 502 when none answers.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type Server } from 'node:net';
import { after, test } from 'node:test';
import { type Backend, createBalancer } from './balancer.ts';

const servers: Server[] = [];
after(() => {
  for (const server of servers) server.close();
});

/** A backend that answers every line with "<name>:<line>". */
async function echo(name: string): Promise<Backend> {
  const server = createServer((socket) => {
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => socket.write(`${name}:${data}`));
    socket.on('end', () => socket.end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  const address = server.address();
  return { name, host: '127.0.0.1', port: typeof address === 'object' && address ? address.port : 0 };
}

/**
 * A port on 127.0.0.1 that refuses connections and stays refusing: below 1024, out of the range the
 * system hands out to `listen(0)` and outgoing connections (a freed free port was taken by the
 * cluster test running beside this one, which then answered the "down" backend's connections).
 */
async function refusedPort(): Promise<number> {
  for (let port = 1; port < 1024; port++) {
    const socket = connect({ host: '127.0.0.1', port });
    const refused = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(false));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    socket.destroy();
    if (refused) return port;
  }
  throw new Error('no port below 1024 refuses connections on 127.0.0.1');
}

/** One TCP connection: sends `text`, half-closes, resolves with everything received. */
async function exchange(port: number, text: string): Promise<string> {
  const socket = connect({ host: '127.0.0.1', port });
  socket.setEncoding('utf8');
  let received = '';
  socket.on('data', (data: string) => {
    received += data;
  });
  await once(socket, 'connect');
  socket.end(text);
  await once(socket, 'close');
  return received;
}

test('consecutive connections alternate between backends, and bytes flow both ways', async () => {
  const balancer = createBalancer({ backends: [await echo('a'), await echo('b')] });
  const port = await balancer.listen(0);
  try {
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) answers.push(await exchange(port, `hello ${i}`));
    assert.deepEqual(answers, ['a:hello 0', 'b:hello 1', 'a:hello 2', 'b:hello 3']);
  } finally {
    await balancer.close();
  }
});

test('a backend that refuses connections is skipped; with none left, the client gets a 502', async () => {
  const down: Backend = { name: 'down', host: '127.0.0.1', port: await refusedPort() };
  const refused: string[] = [];
  const balancer = createBalancer({
    backends: [down, await echo('up')],
    onBackendError: (backend) => refused.push(backend.name),
  });
  const port = await balancer.listen(0);
  try {
    for (let i = 0; i < 3; i++) assert.equal(await exchange(port, 'x'), 'up:x');
    assert.ok(refused.includes('down'));
  } finally {
    await balancer.close();
  }

  const none = createBalancer({ backends: [down] });
  const nonePort = await none.listen(0);
  try {
    assert.match(await exchange(nonePort, 'GET / HTTP/1.1\r\n\r\n'), /^HTTP\/1\.1 502 Bad Gateway\r\n/);
  } finally {
    await none.close();
  }
});
