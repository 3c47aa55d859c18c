// The bus protocol, all of it: every channel name and how each channel's messages are encoded.
// Channels are namespaced by the Bus (REDIS_PREFIX), not here.
//
//   instances          heartbeat: the sender's instance id (varString)            bus/instances.ts
//   board:<boardId>    BoardMessage, binary (below)                               documents/room.ts
//   control            ControlMessage, JSON: access changes, deletions, logouts   documents/control.ts
//   presence           PresenceMessage, JSON: who is on which board               workspace/
//
// Board messages carry the sending instance's id and, for updates, its sequence number for the
// board, so a receiver that sees a gap asks for the difference at once instead of waiting for the
// next edit; and "stored through seq N", so the others know what they may forget (durability:
// see docs/architecture.md). Fields added later are appended at the end and optional, so an
// older decoder ignores them.
import type { PresenceUser, Role } from '@tandem/shared';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

// --- instances ------------------------------------------------------------------------------

export const INSTANCES_CHANNEL = 'instances';

/**
 * An instance's heartbeat, or its goodbye (`leaving`): sent once by a graceful stop, after it
 * stored every room, so the others forget it at once instead of presuming it dead 3.5 s later and
 * reading the Store for what it might have stored while cut off (LapseCatchUp). The flag follows
 * the id, so an older instance reads a goodbye as one last heartbeat.
 */
export function encodeHeartbeat(instance: string, leaving = false): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, instance);
  if (leaving) encoding.writeVarUint(encoder, 1);
  return encoding.toUint8Array(encoder);
}

/** The instance id of a heartbeat and whether it is a goodbye, or null when the bytes are not one. */
export function decodeHeartbeat(data: Uint8Array): { instance: string; leaving: boolean } | null {
  try {
    const decoder = decoding.createDecoder(data);
    const instance = decoding.readVarString(decoder);
    const leaving = decoding.hasContent(decoder) && decoding.readVarUint(decoder) === 1;
    return { instance, leaving };
  } catch {
    return null;
  }
}

// --- board:<boardId> ------------------------------------------------------------------------

export const boardChannel = (boardId: string): string => `board:${boardId}`;

export const BusMessageType = {
  /** A Yjs update received from a client of the sender; `seq` numbers it, `user` sent it. */
  update: 1,
  /** Awareness states owned by the sender's connections. */
  awareness: 2,
  /**
   * "Send me what I lack": payload is the sender's state vector. With `seq` 1 ("reciprocate"),
   * the receiver also asks back, so a resync after a lapse or a reconnect goes both ways.
   */
  syncRequest: 3,
  /** The answer to a sync request, addressed to one instance: payload is the missing update. */
  syncReply: 4,
  /** "Everything I published up to `seq` on this board is in the Store." Payload empty. */
  stored: 5,
  /**
   * "I stored edits of this board that may never have reached you (my bus was down when I
   * published them, and I no longer have the board open to answer a sync request): read them
   * from the Store." Payload empty.
   */
  catchUp: 6,
  /**
   * "This update of the board is in the Store already (written by an instance that does not have
   * the board open: a restore): apply it and send it to your clients; neither hold nor store it."
   * Payload is the update. One lost on the way is in the Store: the sender hints a catch-up after
   * its bus reconnects.
   */
  storedUpdate: 7,
} as const;
export type BusMessageType = (typeof BusMessageType)[keyof typeof BusMessageType];

export interface BusMessage {
  type: BusMessageType;
  instance: string;
  seq: number;
  payload: Uint8Array;
  /** The addressee of a sync reply; empty for broadcasts. */
  target: string;
  /** For updates: the user who sent it to the origin instance (attribution); empty when unknown. */
  user?: string;
}

export function encodeBusMessage(message: BusMessage): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeUint8(encoder, message.type);
  encoding.writeVarString(encoder, message.instance);
  encoding.writeVarUint(encoder, message.seq);
  encoding.writeVarString(encoder, message.target);
  encoding.writeVarUint8Array(encoder, message.payload);
  if (message.user) encoding.writeVarString(encoder, message.user);
  return encoding.toUint8Array(encoder);
}

export function decodeBusMessage(data: Uint8Array): BusMessage {
  const decoder = decoding.createDecoder(data);
  const type = decoding.readUint8(decoder) as BusMessageType;
  if (type < 1 || type > BusMessageType.storedUpdate) throw new Error(`unknown bus message type ${type}`);
  const instance = decoding.readVarString(decoder);
  const seq = decoding.readVarUint(decoder);
  const target = decoding.readVarString(decoder);
  const payload = decoding.readVarUint8Array(decoder);
  const user = decoding.hasContent(decoder) ? decoding.readVarString(decoder) : '';
  return { type, instance, seq, target, payload, user };
}

// --- control and presence (workspace/) --------------------------------------------------------

export const CONTROL_CHANNEL = 'control';
export const PRESENCE_CHANNEL = 'presence';

export type ControlMessage =
  | { t: 'access'; from: string; boardId: string; userId: string; role: Role | null }
  | { t: 'deleted'; from: string; boardId: string }
  /** A session ended (logout): document connections opened with it close everywhere. */
  | { t: 'session'; from: string; sessionHash: string };

export type PresenceMessage =
  | { t: 'boards'; from: string; boards: Record<string, PresenceUser[]>; full: boolean }
  | { t: 'request'; from: string };

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

export function encodeJsonMessage(message: ControlMessage | PresenceMessage): Uint8Array {
  return textEncoder.encode(JSON.stringify(message));
}

/** The message, or null when the bytes are not JSON. The caller checks `t`. */
export function decodeJsonMessage<T extends ControlMessage | PresenceMessage>(data: Uint8Array): T | null {
  try {
    return JSON.parse(textDecoder.decode(data)) as T;
  } catch {
    return null;
  }
}
