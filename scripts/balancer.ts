// A TCP load balancer for `npm run cluster`: round robin per connection, bytes piped both ways
// (so HTTP keep-alive and WebSocket upgrades pass through untouched), and a backend that refuses
// the connection is skipped for the next one. It plays the part nginx plays in
// docker-compose.yml; it is not meant to face the internet.
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface Backend {
  name: string;
  host: string;
  port: number;
}

export interface BalancerOptions {
  backends: Backend[];
  /** Called for every accepted connection with the backend it reached (or null: none answered). */
  onConnection?: (backend: Backend | null) => void;
  /** Called when a backend refuses or fails to connect; the next one is tried. */
  onBackendError?: (backend: Backend, error: Error) => void;
  /** How long to wait for a backend to accept before trying the next one. */
  connectTimeoutMs?: number;
}

export interface Balancer {
  server: Server;
  /** Listens on port (0: a free one) and resolves to the port. */
  listen(port: number, host?: string): Promise<number>;
  /** Stops accepting; connections already piped stay until either side closes them. */
  close(): Promise<void>;
  /** Destroys every piped connection now. */
  destroyConnections(): void;
}

const BAD_GATEWAY = [
  'HTTP/1.1 502 Bad Gateway',
  'Content-Type: text/plain; charset=utf-8',
  'Connection: close',
  '',
  'No Tandem instance is accepting connections.\n',
].join('\r\n');

export function createBalancer(options: BalancerOptions): Balancer {
  const { backends, connectTimeoutMs = 5000 } = options;
  if (backends.length === 0) throw new Error('the balancer needs at least one backend');
  let next = 0;
  const open = new Set<Socket>();

  const server = createServer({ allowHalfOpen: true, pauseOnConnect: true }, (client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    // Errors on the client side (a reset, for one) only end this connection.
    client.on('error', () => client.destroy());
    const start = next;
    next = (next + 1) % backends.length;
    tryBackend(client, start, 0);
  });

  function tryBackend(client: Socket, index: number, attempts: number): void {
    if (client.destroyed) return;
    if (attempts === backends.length) {
      options.onConnection?.(null);
      client.end(BAD_GATEWAY);
      client.resume();
      return;
    }
    const backend = backends[index] as Backend;
    const upstream = createConnection({ host: backend.host, port: backend.port, allowHalfOpen: true });
    const timer = setTimeout(
      () => upstream.destroy(new Error(`no answer within ${connectTimeoutMs} ms`)),
      connectTimeoutMs,
    );
    // A client that goes away while its backend is still being reached takes that attempt along.
    const abort = () => upstream.destroy();
    client.once('close', abort);
    const failed = (error: Error) => {
      clearTimeout(timer);
      client.off('close', abort);
      upstream.destroy();
      if (client.destroyed) return;
      options.onBackendError?.(backend, error);
      tryBackend(client, (index + 1) % backends.length, attempts + 1);
    };
    upstream.once('error', failed);
    upstream.once('connect', () => {
      clearTimeout(timer);
      client.off('close', abort);
      upstream.off('error', failed);
      open.add(upstream);
      upstream.once('close', () => open.delete(upstream));
      options.onConnection?.(backend);
      // pipe() ends the other side's writable half when one side ends (half-close is kept),
      // and a reset on either side tears both down.
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
      client.once('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }

  return {
    server,
    async listen(port, host = '127.0.0.1') {
      server.listen(port, host);
      await once(server, 'listening');
      const address = server.address();
      return typeof address === 'object' && address ? address.port : port;
    },
    close() {
      return new Promise((resolve) => server.close(() => resolve()));
    },
    destroyConnections() {
      for (const socket of open) socket.destroy();
    },
  };
}
