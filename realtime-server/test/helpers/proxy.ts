// A TCP proxy a test can cut and restore, to make a real service unreachable for a while
// without stopping it for everyone else.
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class CuttableProxy {
  private readonly sockets = new Set<Socket>();
  private cut = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<CuttableProxy> {
    let proxy: CuttableProxy | null = null;
    const server = createServer((client) => {
      if (!proxy || proxy.cut) {
        client.destroy();
        return;
      }
      const upstream = createConnection({ host: targetHost, port: targetPort });
      for (const socket of [client, upstream]) {
        proxy.sockets.add(socket);
        socket.on('close', () => proxy?.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('proxy has no port');
    proxy = new CuttableProxy(server, address.port);
    return proxy;
  }

  /** Drops every open connection and refuses new ones. */
  disconnect(): void {
    this.cut = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  reconnect(): void {
    this.cut = false;
  }

  async close(): Promise<void> {
    this.disconnect();
    this.server.close();
  }
}
