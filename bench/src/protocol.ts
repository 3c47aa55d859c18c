// Messages between the orchestrator and the generator workers, and the shared clock.
import type { ClientTarget } from './client.ts';

/** Microseconds on the monotonic clock, which every thread of every process on this machine shares. */
export function nowMicros(): number {
  const [s, ns] = process.hrtime();
  return s * 1e6 + ns / 1e3;
}

export interface ClientSpec extends ClientTarget {
  /** unique across the run */
  id: number;
  /** writes document updates */
  writer: boolean;
  /** moves its cursor (awareness) */
  mover: boolean;
  /**
   * Timed: a full y-websocket provider that decodes and times what it receives. Otherwise a light
   * client (client.ts) that says the same on the wire without decoding what it gets. Writers are
   * always probes.
   */
  probe: boolean;
  /**
   * A timed client that does not hold the board (client.ts `createLeanClient`): it writes its marks
   * from a doc of its own and times marks and cursors from the bytes it receives. `--lean`.
   */
  lean?: boolean;
}

export interface ConnectCommand {
  cmd: 'connect';
  clients: ClientSpec[];
  /** at most this many handshakes in flight per worker */
  concurrency: number;
  timeoutMs: number;
  /** coldload: the shapes map must reach this size before the client counts as synced */
  expectShapes?: number;
  echoAwareness?: boolean;
  /** coldload --cold: disconnect each client as soon as it synced, so the server can unload the board */
  closeAfterSync?: boolean;
}

export interface ConnectResult {
  synced: number;
  failed: number;
  /** per synced client: ms from creating its provider to its first `sync` with the server */
  syncMs: Float64Array;
  /**
   * per synced timed client: ms from creating its provider to the arrival of the largest message
   * it received before syncing (the board, on a fresh load): what follows is the client's own work
   */
  arrivedMs: Float64Array;
}

export interface StartCommand {
  cmd: 'start';
  /** document updates a second per writer (0: none) */
  updateRate: number;
  /** awareness (cursor) updates a second per mover (0: none) */
  awarenessRate: number;
  durationMs: number;
}

export interface SentCounts {
  /** updates sent, per writer id */
  updates: Record<number, number>;
  /** cursor moves sent, per mover id */
  cursors: Record<number, number>;
}

export interface Counts {
  docDelivered: number;
  awDelivered: number;
  disconnects: number;
}

export interface Report extends Counts {
  docLatencyMs: Float64Array;
  awLatencyMs: Float64Array;
  /** event-loop delay of this worker while sending, ms */
  lagP50: number;
  lagP99: number;
  lagMax: number;
  /** per writer id: the last sequence number every receiver on its board ended with (convergence) */
  finalSeqs: Record<number, number[]>;
}

/**
 * Apply a board's state to a fresh doc `times` times, as a loading client does with the server's
 * sync step 2: the part of a fresh load that no server can take away.
 */
export interface DecodeCommand {
  cmd: 'decode';
  state: Uint8Array;
  times: number;
}

export type Command =
  | ConnectCommand
  | StartCommand
  | DecodeCommand
  | { cmd: 'counts' }
  | { cmd: 'report' }
  | { cmd: 'close' };

export interface Envelope<T> {
  rid: number;
  body: T;
}

export interface Reply {
  rid: number;
  ok: boolean;
  error?: string;
  result?: unknown;
}
