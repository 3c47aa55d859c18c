// A TCP proxy a test can cut and restore, to make a real service unreachable for a while
// without stopping it for everyone else. Two kinds of fault:
// - disconnect(): every connection is reset and new ones are refused (a service that died);
// - blackhole(): every connection stays open but nothing passes any more, and new connections are
//   accepted but never reach the service (a firewall dropping packets, a failover): the silent
//   partition that only timeouts notice. heal() lets new connections through again; connections
//   blackholed before stay silent for ever, as they would after a real failover.
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

interface Link {
  client: Socket;
  upstream: Socket | null;
  silent: boolean;
}

export class CuttableProxy {
  private readonly links = new Set<Link>();
  private mode: 'open' | 'refuse' | 'blackhole' = 'open';
  /** Connections refused since the proxy started (while disconnected): how often a client retried. */
  refused = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<CuttableProxy> {
    let proxy: CuttableProxy | null = null;
    const server = createServer((client) => {
      if (!proxy || proxy.mode === 'refuse') {
        if (proxy) proxy.refused += 1;
        client.destroy();
        return;
      }
      const self = proxy;
      const link: Link = { client, upstream: null, silent: self.mode === 'blackhole' };
      self.links.add(link);
      const drop = () => {
        client.destroy();
        link.upstream?.destroy();
        self.links.delete(link);
      };
      client.on('error', drop);
      client.on('close', drop);
      if (link.silent) {
        // Accepted, then nothing: whatever the client sends is swallowed.
        client.on('data', () => undefined);
        return;
      }
      const upstream = createConnection({ host: targetHost, port: targetPort });
      link.upstream = upstream;
      upstream.on('error', drop);
      upstream.on('close', drop);
      client.on('data', (data) => {
        if (!link.silent) upstream.write(data);
      });
      upstream.on('data', (data) => {
        if (!link.silent) client.write(data);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('proxy has no port');
    proxy = new CuttableProxy(server, address.port);
    return proxy;
  }

  /** Resets every open connection and refuses new ones. */
  disconnect(): void {
    this.mode = 'refuse';
    for (const link of this.links) {
      link.client.destroy();
      link.upstream?.destroy();
    }
    this.links.clear();
  }

  /** Silences every open connection, and accepts new ones without ever connecting them. */
  blackhole(): void {
    this.mode = 'blackhole';
    for (const link of this.links) link.silent = true;
  }

  /** Lets new connections through again (after disconnect() or blackhole()). */
  reconnect(): void {
    this.mode = 'open';
  }

  heal(): void {
    this.reconnect();
  }

  async close(): Promise<void> {
    this.disconnect();
    this.server.close();
  }
}
