// The Redis Bus: pub/sub between instances. A subscribed connection cannot publish, so there is
// one client for each. Pub/sub is at-most-once: what is published while a client is down is
// dropped, and onReconnect tells callers to repair (docs/ exchanges state vectors).
import type { Logger } from 'pino';
import { createClient, type RedisClientType } from 'redis';
import type { Bus, BusHandler } from './bus.ts';

export interface RedisBusOptions {
  url: string;
  /** Namespaces every channel, so deployments (and test runs) sharing a Redis never cross. */
  prefix: string;
  logger: Logger;
}

type Client = RedisClientType;

/** Backoff with jitter, capped, forever: an instance outlives any Redis outage. */
export const reconnectDelay = (retries: number): number =>
  Math.min(5000, 50 * 2 ** Math.min(retries, 10)) * (0.75 + Math.random() * 0.5);

export class RedisBus implements Bus {
  private readonly publisher: Client;
  private readonly subscriber: Client;
  private readonly reconnectListeners: (() => void)[] = [];
  private readonly logger: Logger;
  private readonly prefix: string;
  /** Set while either client is down, so coming back up is reported once. */
  private down = false;
  private closed = false;
  private droppedWhileDown = 0;

  private constructor(options: RedisBusOptions) {
    this.logger = options.logger;
    this.prefix = options.prefix;
    this.publisher = this.client(options.url, 'publisher', true);
    this.subscriber = this.client(options.url, 'subscriber', false);
  }

  /** Connects both clients; waits (retrying with backoff) until Redis answers. */
  static async open(options: RedisBusOptions): Promise<RedisBus> {
    const bus = new RedisBus(options);
    await Promise.all([bus.publisher.connect(), bus.subscriber.connect()]);
    bus.down = false;
    return bus;
  }

  private client(url: string, role: string, dropWhileDown: boolean): Client {
    const client: Client = createClient({
      url,
      // A publish while Redis is down is dropped at once rather than queued and sent stale;
      // a subscribe waits for the connection instead.
      disableOfflineQueue: dropWhileDown,
      pingInterval: 10_000,
      socket: { reconnectStrategy: reconnectDelay },
    });
    client.on('error', (err: Error) => {
      if (this.closed) return;
      // One warning per outage; the retries that follow would only repeat it.
      if (!this.down) this.logger.warn({ err, role }, 'redis bus connection lost; reconnecting');
      else this.logger.debug({ err, role }, 'redis bus still unreachable');
      this.down = true;
    });
    client.on('ready', () => this.onReady());
    return client;
  }

  private onReady(): void {
    if (this.closed || !this.down || !this.isHealthy()) return;
    this.down = false;
    this.logger.info({ dropped: this.droppedWhileDown }, 'redis bus reconnected');
    this.droppedWhileDown = 0;
    // The subscriber emits 'ready' only after its subscriptions were restored.
    for (const listener of this.reconnectListeners) {
      try {
        listener();
      } catch (err) {
        this.logger.error({ err }, 'bus reconnect listener failed');
      }
    }
  }

  private channel(name: string): string {
    return this.prefix ? `${this.prefix}:${name}` : name;
  }

  publish(channel: string, message: Uint8Array): void {
    if (this.closed) return;
    const payload = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
    this.publisher.publish(this.channel(channel), payload).catch((err: Error) => {
      if (this.closed) return;
      this.droppedWhileDown++;
      this.logger.debug({ err, channel }, 'bus message dropped');
    });
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    const name = this.channel(channel);
    // One listener per subscription, so unsubscribing one never removes another.
    const listener = (message: Buffer) => {
      try {
        handler(message);
      } catch (err) {
        this.logger.error({ err, channel }, 'bus handler failed');
      }
    };
    await this.subscriber.subscribe(name, listener, true);
    return async () => {
      if (this.closed) return;
      await this.subscriber.unsubscribe(name, listener, true);
    };
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  isHealthy(): boolean {
    return !this.closed && this.publisher.isReady && this.subscriber.isReady;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(
      [this.publisher, this.subscriber].map(async (client) => {
        if (client.isReady) await client.close().catch(() => client.destroy());
        else if (client.isOpen) client.destroy();
      }),
    );
  }
}
