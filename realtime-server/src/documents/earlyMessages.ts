// Early-message buffering: what a socket sends between the handshake and attach (the client
// speaks first: sync step 1 arrives while the board may still be loading), binary only.
import { CloseCode } from '@tandem/shared';
import type { WebSocket } from 'ws';
import { closeSocket } from './framing.ts';

/**
 * Messages that arrive before the room is loaded are kept; past this many bytes the socket is not
 * read until the room is ready (a fast client is slowed, not closed).
 */
export const MAX_EARLY_BYTES = 8 * 1024 * 1024;

/**
 * Keeps what a socket sends until attach. Past MAX_EARLY_BYTES the socket is not read until
 * attach (a bot that writes at once is slowed down, not closed).
 */
export class EarlyMessages {
  readonly messages: Buffer[] = [];
  private bytes = 0;
  /** Whether reading stopped because too much arrived before attach. */
  private paused = false;
  /** True once the socket closed (or was closed for what it sent) before attach. */
  closed = false;
  private readonly onMessage = (data: Buffer, isBinary: boolean) => {
    if (!isBinary) {
      this.closed = true;
      closeSocket(this.ws, CloseCode.UNDECODABLE, 'text frames are not accepted');
      return;
    }
    this.bytes += data.length;
    this.messages.push(data);
    if (this.bytes > MAX_EARLY_BYTES && !this.paused) {
      this.paused = true;
      this.ws.pause();
    }
  };

  constructor(private readonly ws: WebSocket) {
    ws.on('message', this.onMessage);
    ws.once('close', () => {
      this.closed = true;
    });
  }

  /** Stops keeping messages and hands over the ones kept; reading resumes if it had stopped. */
  drain(): Buffer[] {
    this.ws.off('message', this.onMessage);
    if (this.paused) {
      this.paused = false;
      this.ws.resume();
    }
    return this.messages.splice(0);
  }
}
