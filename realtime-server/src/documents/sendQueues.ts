// Memory shedding: the bytes queued for sending on every document connection of this process are
// held under MAX_QUEUED_BYTES (docs/security.md, "Memory"). Past it, the connections with the most
// queued are cut off (1013), largest first, until the total fits again.
import type { Metrics } from '../metrics.ts';

/**
 * A connection with less than this queued is not counted against MAX_QUEUED_BYTES: it drains
 * within a turn or two, and its count could go stale (a socket emits 'drain' only once it has
 * been over its 16 KiB high-water mark).
 */
export const UNCOUNTED_QUEUE_BYTES = 64 * 1024;

/** What SendQueues needs of a connection. */
export interface Queued {
  /** This connection's queued bytes as last counted. */
  readonly counted: number;
  /** Drops the connection at once, freeing its queue. */
  shed(): void;
}

export class SendQueues {
  total = 0;
  private shedding = false;

  constructor(
    readonly limit: number,
    private readonly metrics: Metrics,
    /** Every connection that may be holding bytes (the candidates to shed). */
    private readonly connections: () => Iterable<Queued>,
    private readonly onShed: (connection: Queued, total: number) => void = () => undefined,
  ) {}

  /** The bytes a connection with `buffered` queued counts for. */
  static counted(buffered: number): number {
    return buffered >= UNCOUNTED_QUEUE_BYTES ? buffered : 0;
  }

  /** A connection's queued bytes changed from `before` to `after`. */
  change(before: number, after: number): void {
    this.total += after - before;
    this.metrics.sendQueueBytes.set(this.total);
    if (this.total > this.limit) this.shed();
  }

  /** Over the limit: cuts off the connections with the most queued until the total fits. */
  private shed(): void {
    if (this.shedding) return;
    this.shedding = true;
    try {
      const slowest = [...this.connections()]
        .filter((c) => c.counted > 0)
        .sort((a, b) => b.counted - a.counted);
      for (const connection of slowest) {
        if (this.total <= this.limit) break;
        this.onShed(connection, this.total);
        connection.shed();
      }
    } finally {
      this.shedding = false;
    }
  }
}
