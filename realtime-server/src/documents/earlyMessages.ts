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
  private readonly onMessage = (data: Buffer, isBinary: boolean) => {
    if (!isBinary) {
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
  }

  /**
   * True once the socket closed, or is closing (it sent a close frame, or was closed for what it
   * sent), before attach. Read from the socket rather than kept by a 'close' listener: such a
   * listener would keep this object, and the messages it held, alive as long as the connection.
   */
  get closed(): boolean {
    return this.ws.readyState === this.ws.CLOSING || this.ws.readyState === this.ws.CLOSED;
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
