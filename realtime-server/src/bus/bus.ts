// The Bus seam: pub/sub between server instances. In-process (one instance) by default, Redis
// pub/sub when REDIS_URL is set. Messages are opaque bytes; documents/ gives them meaning.

import type { Server } from 'socket.io';
import type { SharedCounter } from '../auth/rateLimit.ts';

export type BusHandler = (message: Uint8Array) => void;

/** The socket.io adapter that carries workspace events between instances, and how to stop it. */
export interface SocketIoAdapter {
  factory: Parameters<Server['adapter']>[0];
  close(): Promise<void>;
}

export interface Bus {
  publish(channel: string, message: Uint8Array): void;
  /** Resolves once the subscription is active; the returned function unsubscribes. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  /** Called after the connection to the broker was lost and came back (subscriptions are restored first). */
  onReconnect(listener: () => void): void;
  /** False while the broker is unreachable (for /readyz). */
  isHealthy(): boolean;
  /**
   * Whether one instance can be cut from this bus while others go on using it (a broker between
   * processes). Then an instance cannot know of another that was cut before it came, and reads
   * the Store for a while after it starts (Rooms.start). An in-process bus is never cut.
   */
  readonly partitionable: boolean;
  /** The socket.io adapter over the same broker; absent when there is one instance only. */
  socketIoAdapter?(): Promise<SocketIoAdapter>;
  /**
   * Fixed-window counts that every instance shares, under `name` (rate limits per key across
   * instances); absent when there is one instance only.
   */
  counter?(name: string): SharedCounter;
  close(): Promise<void>;
}
