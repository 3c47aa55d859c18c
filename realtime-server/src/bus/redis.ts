// The Redis Bus: pub/sub between instances. A subscribed connection cannot publish, so there is
// one client for each. Pub/sub is at-most-once: what is published while a client is down is
// dropped, and onReconnect tells callers to repair (documents/ exchanges state vectors).
import { createAdapter } from '@socket.io/redis-adapter';
import type { Logger } from 'pino';
import { createClient, type RedisClientType } from 'redis';
import type { SharedCounter } from '../auth/rateLimit.ts';
import type { Bus, BusHandler, SocketIoAdapter } from './bus.ts';

/**
 * The same client, except that every promise one of its methods returns has a handler attached.
 * The socket.io Redis adapter publishes (and subscribes) without ever catching: a publish queued
 * while Redis hangs and rejected when the connection resets (ECONNRESET) would otherwise be an
 * unhandled rejection, which stops Node. Callers that await still see the rejection.
 */
export function withHandledRejections<T extends object>(
  client: T,
  onRejection: (error: unknown, method: string) => void,
): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (result instanceof Promise) result.catch((error: unknown) => onRejection(error, String(property)));
        return result;
      };
    },
  });
}

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
  readonly partitionable = true;
  private readonly publisher: Client;
  private readonly subscriber: Client;
  private readonly reconnectListeners: (() => void)[] = [];
  private readonly logger: Logger;
  private readonly prefix: string;
  private readonly url: string;
  /** Set while either client is down, so coming back up is reported once. */
  private down = false;
  private closed = false;
  private droppedWhileDown = 0;

  private constructor(options: RedisBusOptions) {
    this.logger = options.logger;
    this.prefix = options.prefix;
    this.url = options.url;
    this.publisher = this.client(options.url, 'publisher', true);
    this.subscriber = this.client(options.url, 'subscriber', false);
  }

  /** Connects both clients; waits (retrying with backoff) until Redis answers. */
  static async open(options: RedisBusOptions): Promise<RedisBus> {
    const bus = new RedisBus(options);
    await Promise.all([bus.publisher.connect(), bus.subscriber.connect()]);
    bus.down = false;
    bus.probeTimer = setInterval(() => bus.probe(), PROBE_MS);
    bus.probeTimer.unref();
    return bus;
  }

  private probeTimer: NodeJS.Timeout | null = null;
  private probing = false;
  /** Set while Redis is connected but does not answer (hung, SIGSTOP, a silent partition). */
  private stalled = false;

  /**
   * A hung Redis keeps its connections open, so the client still says it is ready: a PING that
   * goes unanswered for PROBE_DEADLINE_MS tells. When it answers again, callers repair as after
   * a reconnect.
   */
  private probe(): void {
    if (this.probing || this.closed || !this.publisher.isReady) return;
    this.probing = true;
    const timer = setTimeout(() => {
      if (this.stalled || this.closed) return;
      this.stalled = true;
      this.down = true;
      this.logger.warn('redis bus not answering; treating it as down');
    }, PROBE_DEADLINE_MS);
    this.publisher
      .ping()
      .then(
        () => {
          if (!this.stalled) return;
          this.stalled = false;
          this.onReady();
        },
        () => undefined,
      )
      .finally(() => {
        clearTimeout(timer);
        this.probing = false;
      });
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
      // A broker that is down or hung must not hold up a room's unload or a shutdown.
      await withinDeadline(this.subscriber.unsubscribe(name, listener, true));
    };
  }

  /**
   * socket.io's Redis adapter, on two connections of its own (its subscriber listens to patterns
   * this bus does not know), under the same prefix.
   */
  async socketIoAdapter(): Promise<SocketIoAdapter> {
    const log = this.logger;
    const publisher = createClient({ url: this.url, socket: { reconnectStrategy: reconnectDelay } });
    const subscriber = publisher.duplicate();
    for (const client of [publisher, subscriber]) {
      client.on('error', (error: Error) =>
        log.debug({ err: error }, 'socket.io redis adapter connection error'),
      );
    }
    await Promise.all([publisher.connect(), subscriber.connect()]);
    // What is lost is a live dashboard event (a rename, a presence list); the dashboards refetch
    // when their socket reconnects.
    const dropped = (error: unknown, method: string) =>
      log.debug({ err: error, method }, 'socket.io redis adapter command failed');
    return {
      factory: createAdapter(
        withHandledRejections(publisher, dropped),
        withHandledRejections(subscriber, dropped),
        { key: `${this.prefix}socket.io` },
      ),
      async close() {
        await Promise.all([publisher, subscriber].map(closeClient));
      },
    };
  }

  /**
   * Counts under `<prefix>count:<name>:<key>`, each a key that expires with its window. One round
   * trip (a script runs whole on Redis): the first count of a window sets its expiry.
   */
  counter(name: string): SharedCounter {
    return {
      count: async (key, windowMs) => {
        // Down or hung: the publisher's commands fail at once (no offline queue) or never answer.
        if (!this.isHealthy()) throw new Error('redis is unreachable');
        const reply = await this.publisher.eval(COUNT_SCRIPT, {
          keys: [`${this.prefix}count:${name}:${key}`],
          arguments: [String(windowMs)],
        });
        const [count, msLeft] = reply as [number, number];
        return { count, msLeft: msLeft < 0 ? windowMs : msLeft };
      },
    };
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  isHealthy(): boolean {
    return !this.closed && !this.stalled && this.publisher.isReady && this.subscriber.isReady;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.probeTimer) clearInterval(this.probeTimer);
    await Promise.all([this.publisher, this.subscriber].map(closeClient));
  }
}

/** INCR, PEXPIRE on a window's first count, and the count with the milliseconds left. */
const COUNT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

/** How often Redis is asked whether it answers, and how long it may take. */
const PROBE_MS = 1000;
const PROBE_DEADLINE_MS = 2000;

/** How long a courtesy to the broker (unsubscribe, QUIT) may take before we stop waiting. */
const BROKER_DEADLINE_MS = 1000;

async function withinDeadline(promise: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, BROKER_DEADLINE_MS);
    }),
  ]);
  clearTimeout(timer);
}

/**
 * Closes politely when Redis answers, else (down, or hung) drops the connection. A polite close
 * that misses its deadline is dropped too: node-redis marks the client closed at once but keeps
 * its socket open to drain, which would keep the process alive for as long as Redis stays silent.
 * destroy() is idempotent, so a client that closed (or never opened) is left as it is.
 */
async function closeClient(client: { isReady: boolean; close(): Promise<unknown>; destroy(): void }) {
  if (client.isReady) await withinDeadline(client.close());
  client.destroy();
}
