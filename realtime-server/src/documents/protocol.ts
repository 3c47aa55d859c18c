// The y-websocket wire protocol (sync + awareness), encoded once per message so one buffer can
// be sent to every socket. Parsing is strict: anything malformed throws, and the caller closes
// that connection with 1007.

import {
  MAX_SAVED_ID,
  DocumentMessageType as MessageType,
  SAVED_MESSAGE_TYPE,
  SyncMessageType as SyncType,
} from '@tandem/shared';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

export type ClientMessage =
  | { kind: 'step1'; stateVector: Uint8Array }
  | { kind: 'step2'; update: Uint8Array }
  | { kind: 'update'; update: Uint8Array }
  | { kind: 'awareness'; update: Uint8Array }
  | { kind: 'queryAwareness' }
  /** Tandem's "tell me when what I sent is stored" (shared/src/savedProtocol.ts). */
  | { kind: 'saveRequest'; id: number };

export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** Reads exactly one message; trailing bytes or an unknown type are a protocol error. */
export function parseClientMessage(data: Uint8Array): ClientMessage {
  if (data.length === 0) throw new ProtocolError('empty message');
  const decoder = decoding.createDecoder(data);
  let message: ClientMessage;
  try {
    const type = decoding.readVarUint(decoder);
    if (type === MessageType.sync) {
      const syncType = decoding.readVarUint(decoder);
      const payload = decoding.readVarUint8Array(decoder);
      if (syncType === SyncType.step1) message = { kind: 'step1', stateVector: payload };
      else if (syncType === SyncType.step2) message = { kind: 'step2', update: payload };
      else if (syncType === SyncType.update) message = { kind: 'update', update: payload };
      else throw new ProtocolError(`unknown sync message type ${syncType}`);
    } else if (type === MessageType.awareness) {
      message = { kind: 'awareness', update: decoding.readVarUint8Array(decoder) };
    } else if (type === MessageType.queryAwareness) {
      message = { kind: 'queryAwareness' };
    } else if (type === SAVED_MESSAGE_TYPE) {
      const id = decoding.readVarUint(decoder);
      if (id > MAX_SAVED_ID) throw new ProtocolError('saved request id out of range');
      message = { kind: 'saveRequest', id };
    } else {
      throw new ProtocolError(`unknown message type ${type}`);
    }
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    throw new ProtocolError(`malformed message: ${(error as Error).message}`);
  }
  if (decoding.hasContent(decoder)) throw new ProtocolError('trailing bytes after message');
  return message;
}

/**
 * [sync][syncType][varuint length][payload], written into one buffer of the exact size (the hot
 * path of every relayed edit: no encoder and its growing buffers). Both types are below 128, so
 * each is one byte of varuint.
 */
function syncMessage(syncType: number, payload: Uint8Array): Uint8Array {
  let lengthBytes = 1;
  for (let n = payload.length; n > 0x7f; n = Math.floor(n / 0x80)) lengthBytes += 1;
  const out = new Uint8Array(2 + lengthBytes + payload.length);
  out[0] = MessageType.sync;
  out[1] = syncType;
  let pos = 2;
  let n = payload.length;
  while (n > 0x7f) {
    out[pos++] = 0x80 | (n & 0x7f);
    n = Math.floor(n / 0x80);
  }
  out[pos++] = n;
  out.set(payload, pos);
  return out;
}

export const encodeSyncStep1 = (stateVector: Uint8Array): Uint8Array =>
  syncMessage(SyncType.step1, stateVector);
export const encodeSyncStep2 = (update: Uint8Array): Uint8Array => syncMessage(SyncType.step2, update);
export const encodeUpdate = (update: Uint8Array): Uint8Array => syncMessage(SyncType.update, update);

export function encodeAwarenessMessage(awarenessUpdate: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MessageType.awareness);
  encoding.writeVarUint8Array(encoder, awarenessUpdate);
  return encoding.toUint8Array(encoder);
}

/** One entry of an awareness update: `state` is the raw JSON text ("null" for a removal). */
export interface AwarenessEntry {
  clientId: number;
  clock: number;
  state: string;
}

/** Decodes an awareness update without parsing the JSON states (that is left to the caller). */
export function decodeAwarenessUpdate(update: Uint8Array): AwarenessEntry[] {
  const decoder = decoding.createDecoder(update);
  const entries: AwarenessEntry[] = [];
  try {
    const count = decoding.readVarUint(decoder);
    if (count > 10_000) throw new ProtocolError('too many awareness entries');
    for (let i = 0; i < count; i++) {
      const clientId = decoding.readVarUint(decoder);
      const clock = decoding.readVarUint(decoder);
      const state = decoding.readVarString(decoder);
      entries.push({ clientId, clock, state });
    }
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    throw new ProtocolError(`malformed awareness update: ${(error as Error).message}`);
  }
  if (decoding.hasContent(decoder)) throw new ProtocolError('trailing bytes after awareness update');
  return entries;
}

export function encodeAwarenessUpdate(entries: Iterable<AwarenessEntry>, count: number): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, count);
  for (const entry of entries) {
    encoding.writeVarUint(encoder, entry.clientId);
    encoding.writeVarUint(encoder, entry.clock);
    encoding.writeVarString(encoder, entry.state);
  }
  return encoding.toUint8Array(encoder);
}
