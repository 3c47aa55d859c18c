// The Bus seam: pub/sub between server instances. In-process (one instance) by default, Redis
// pub/sub when REDIS_URL is set. Messages are opaque bytes; docs/ gives them meaning.

export type BusHandler = (message: Uint8Array) => void;

export interface Bus {
  publish(channel: string, message: Uint8Array): void;
  /** Resolves once the subscription is active; the returned function unsubscribes. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  /** Called after the connection to the broker was lost and came back (subscriptions are restored first). */
  onReconnect(listener: () => void): void;
  /** False while the broker is unreachable (for /readyz). */
  isHealthy(): boolean;
  close(): Promise<void>;
}
