// Messages between instances on a board's bus channel. Each carries the sending instance's id
// and, for updates, its sequence number for the board, so a receiver that sees a gap asks for
// the difference at once instead of waiting for the next edit.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

export const BusMessageType = {
  /** A Yjs update received from a client of the sender. */
  update: 1,
  /** Awareness states owned by the sender's connections. */
  awareness: 2,
  /** "Send me what I lack": payload is the sender's state vector. */
  syncRequest: 3,
  /** The answer to a sync request, addressed to one instance: payload is the missing update. */
  syncReply: 4,
} as const;
export type BusMessageType = (typeof BusMessageType)[keyof typeof BusMessageType];

export interface BusMessage {
  type: BusMessageType;
  instance: string;
  seq: number;
  payload: Uint8Array;
  /** The addressee of a sync reply; empty for broadcasts. */
  target: string;
}

export function encodeBusMessage(message: BusMessage): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeUint8(encoder, message.type);
  encoding.writeVarString(encoder, message.instance);
  encoding.writeVarUint(encoder, message.seq);
  encoding.writeVarString(encoder, message.target);
  encoding.writeVarUint8Array(encoder, message.payload);
  return encoding.toUint8Array(encoder);
}

export function decodeBusMessage(data: Uint8Array): BusMessage {
  const decoder = decoding.createDecoder(data);
  const type = decoding.readUint8(decoder) as BusMessageType;
  if (type < 1 || type > 4) throw new Error(`unknown bus message type ${type}`);
  const instance = decoding.readVarString(decoder);
  const seq = decoding.readVarUint(decoder);
  const target = decoding.readVarString(decoder);
  const payload = decoding.readVarUint8Array(decoder);
  return { type, instance, seq, target, payload };
}

export const boardChannel = (boardId: string): string => `board:${boardId}`;
