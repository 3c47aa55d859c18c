// The in-process Bus, for one instance without Redis. Several buses can share a MemoryHub so
// tests can run two server instances in one process and see each other's messages.
import type { Logger } from 'pino';
import type { Bus, BusHandler } from './bus.ts';

export class MemoryHub {
  private readonly channels = new Map<string, Set<BusHandler>>();

  createBus(logger?: Logger): MemoryBus {
    return new MemoryBus(this, logger);
  }

  /** @internal */
  add(channel: string, handler: BusHandler): void {
    let set = this.channels.get(channel);
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
    }
    set.add(handler);
  }

  /** @internal */
  remove(channel: string, handler: BusHandler): void {
    const set = this.channels.get(channel);
    if (!set) return;
    set.delete(handler);
    if (set.size === 0) this.channels.delete(channel);
  }

  /** @internal */
  deliver(channel: string, message: Uint8Array): void {
    const set = this.channels.get(channel);
    if (!set) return;
    // One copy per publish, as a broker would deliver: subscribers never see the publisher's
    // later changes to its buffer.
    const copy = Uint8Array.from(message);
    for (const handler of [...set]) {
      // Asynchronous like a real broker, so callers never come to rely on synchronous delivery.
      queueMicrotask(() => {
        if (set.has(handler)) handler(copy);
      });
    }
  }
}

export class MemoryBus implements Bus {
  readonly partitionable = false;
  private readonly subscriptions = new Set<{ channel: string; handler: BusHandler }>();
  private closed = false;

  /** Without a logger, a throwing handler is an uncaught exception: loud, as tests want it. */
  constructor(
    private readonly hub: MemoryHub = new MemoryHub(),
    private readonly logger?: Logger,
  ) {}

  publish(channel: string, message: Uint8Array): void {
    if (this.closed) return;
    this.hub.deliver(channel, message);
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    // Each subscription gets its own wrapper so one handler subscribed twice is two subscriptions.
    const sub = { channel, handler: (m: Uint8Array) => this.deliver(channel, handler, m) };
    this.subscriptions.add(sub);
    this.hub.add(channel, sub.handler);
    return async () => {
      this.subscriptions.delete(sub);
      this.hub.remove(channel, sub.handler);
    };
  }

  private deliver(channel: string, handler: BusHandler, message: Uint8Array): void {
    if (!this.logger) {
      handler(message);
      return;
    }
    try {
      handler(message);
    } catch (err) {
      this.logger.error({ err, channel }, 'bus handler failed');
    }
  }

  onReconnect(_listener: () => void): void {
    // An in-process bus never loses its connection.
  }

  isHealthy(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const sub of this.subscriptions) this.hub.remove(sub.channel, sub.handler);
    this.subscriptions.clear();
  }
}
