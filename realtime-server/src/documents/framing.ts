// Writing one message to many sockets: a room broadcasts the same bytes to every connection, so
// the WebSocket frame is built once and written to each socket's TCP stream directly, instead of
// letting ws frame it again per socket (the broadcast hot path). Safe because server frames are
// unmasked and we use no extension that transforms payloads (perMessageDeflate is off), so ws
// never holds frames back that this could overtake. The raw stream is ws's private field: it is
// reached through internals.ts only.
import type { WebSocket } from 'ws';
import { rawStream } from './internals.ts';

/** A binary WebSocket frame as a server sends it (FIN, opcode 2, unmasked). */
export function frameBinary(payload: Uint8Array): Buffer {
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x82;
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  frame.set(payload, headerLength);
  return frame;
}

const frames = new WeakMap<Uint8Array | Uint8Array[], Buffer>();
/** The frame(s) of a message, built once however many sockets it is sent to. */
export function frameOnce(message: Uint8Array | Uint8Array[]): Buffer {
  let frame = frames.get(message);
  if (!frame) {
    frame = Array.isArray(message) ? Buffer.concat(message.map(frameBinary)) : frameBinary(message);
    frames.set(message, frame);
  }
  return frame;
}

/**
 * Writes a message (framed once, see above) to a socket; `written` is called once it has been
 * handed to the kernel. Falls back to ws's own send when the raw stream is not writable.
 */
export function writeFramed(
  ws: WebSocket,
  message: Uint8Array | Uint8Array[],
  frame: Buffer,
  written?: () => void,
): void {
  const stream = rawStream(ws);
  if (stream?.writable) stream.write(frame, written);
  else {
    const parts = Array.isArray(message) ? message : [message];
    for (const [i, part] of parts.entries())
      ws.send(part, { binary: true }, i === parts.length - 1 ? written : undefined);
  }
}

/** Calls `listener` whenever the socket's TCP stream drains (its queue was written out). */
export function onDrain(ws: WebSocket, listener: () => void): void {
  rawStream(ws)?.on('drain', listener);
}

/** Closes with a code, and drops a client that never completes the close handshake. */
export function closeSocket(ws: WebSocket, code: number, reason: string): void {
  if (ws.readyState === ws.CLOSED || ws.readyState === ws.CLOSING) return;
  ws.close(code, reason.slice(0, 120));
  // A client that stopped reading never completes the close handshake.
  setTimeout(() => ws.terminate(), 2000).unref();
}
