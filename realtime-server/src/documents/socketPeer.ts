// One document connection over ws, as a Room sees it (a Peer): what it may do (role, from the
// access rule), and how messages reach it without letting a slow reader hold unbounded memory.
import { CloseCode, type PresenceUser, pageOf, type Role } from '@tandem/shared';
import type { WebSocket } from 'ws';
import type { Metrics } from '../metrics.ts';
import type { CheckedConnection } from './accessCheck.ts';
import type { Grant } from './admission.ts';
import { closeSocket, frameOnce, writeFramed } from './framing.ts';
import type { Pacer } from './pacing.ts';
import type { Peer } from './peer.ts';
import type { Room } from './room.ts';
import { type Queued, SendQueues } from './sendQueues.ts';

export class SocketPeer implements Peer, Queued, CheckedConnection {
  readonly clientIds = new Set<number>();
  slowSweeps = 0;
  alive = true;
  room: Room | null = null;
  /** Set once attached: paces what the connection sends to the message rate. */
  pacer: Pacer<SocketPeer> | null = null;
  /** Closes the connection when its access token expires; cleared when it closes. */
  expiry: NodeJS.Timeout | null = null;
  private closed = false;

  /** The board whose page this connection edits: access and limits are the board's. */
  readonly boardId: string;
  readonly userId: string;
  role: Role;
  readonly credentialRole: Role;
  /** The board's access version this connection's role was last checked under. */
  accessVersion: number;

  /** This connection's queued bytes as last counted in `queues`. */
  counted = 0;
  /** A sync answer is queued on this side, not yet handed to the kernel. */
  private answering = false;
  /** The latest sync request that arrived meanwhile, answered once that one has left. */
  private nextAnswer: (() => Uint8Array | null) | null = null;

  constructor(
    readonly id: number,
    /** The document (shared/pages.ts docKey): a page of `boardId`, whose access it has. */
    readonly key: string,
    readonly grant: Grant,
    readonly ws: WebSocket,
    private readonly metrics: Metrics,
    /** A send buffer that would grow past this closes the connection (1013) at once. */
    private readonly maxBufferedBytes: number,
    private readonly queues: SendQueues,
  ) {
    this.boardId = pageOf(key).boardId;
    this.userId = grant.user.id;
    this.role = grant.role;
    this.credentialRole = grant.credentialRole;
    this.accessVersion = grant.accessVersion;
  }

  get user(): PresenceUser {
    return this.grant.user;
  }

  get anonymous(): boolean {
    return this.grant.anonymous;
  }

  get sessionHash(): string | null {
    return this.grant.sessionHash;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  answer(encode: () => Uint8Array | null): void {
    if (this.answering) {
      this.nextAnswer = encode;
      return;
    }
    const message = encode();
    if (message === null || this.closed) return;
    this.answering = true;
    this.send(message, () => {
      this.answering = false;
      const next = this.nextAnswer;
      this.nextAnswer = null;
      if (next && !this.closed) this.answer(next);
    });
  }

  /** Counts what is queued on this socket now into the process total (which may shed). */
  recount(): void {
    const buffered = this.closed ? this.counted : this.ws.bufferedAmount;
    const counted = SendQueues.counted(buffered);
    if (counted === this.counted) return;
    const before = this.counted;
    this.counted = counted;
    this.queues.change(before, counted);
  }

  /** Takes this connection out of the process total (it closed). */
  uncount(): void {
    const before = this.counted;
    this.counted = 0;
    if (before !== 0) this.queues.change(before, 0);
  }

  /**
   * Cut off to free memory: a connection with this much queued reads too little to see a close
   * frame behind it, so the socket is dropped at once and its queue freed with it.
   */
  shed(): void {
    this.close(CloseCode.TOO_SLOW, 'connection too slow to keep up');
    this.ws.terminate();
    this.uncount();
  }

  /** `written` is called once the message has been handed to the kernel (not if it is dropped). */
  send(message: Uint8Array | Uint8Array[], written?: () => void): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    const frame = frameOnce(message);
    // The sweep closes a slow reader only after seconds; meanwhile a client that never reads
    // could make the server queue without bound (a 4-byte sync step 1 is answered with the whole
    // board, every time). One whole board plus the slow threshold is all a connection can need.
    if (this.ws.bufferedAmount + frame.length > this.maxBufferedBytes) {
      this.close(CloseCode.TOO_SLOW, 'connection too slow to keep up');
      return;
    }
    this.metrics.traffic.messagesOut += Array.isArray(message) ? message.length : 1;
    this.metrics.traffic.bytesOut += frame.length;
    writeFramed(this.ws, message, frame, written);
    this.recount();
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.metrics.closes.inc({ code: String(code) });
    closeSocket(this.ws, code, reason);
  }
}
