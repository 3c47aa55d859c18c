// Tandem's one addition to the y-websocket protocol on /yjs/:boardId: "tell me when my edits are
// stored" (docs/api.md §4, "all changes saved"). It is negotiated by its first use, so a stock
// y-websocket client, which never asks, never receives a message type it does not know:
//
//   client → server  [SAVED_MESSAGE_TYPE, varUint id]  "answer `id` once everything I sent on this
//                                                       connection before this message is stored"
//   server → client  [SAVED_MESSAGE_TYPE, varUint id]  "everything you sent before request `id`
//                                                       is in the Store (not merely received)"
//
// The server answers only requests it received, in the order their edits were stored; while the
// Store is unreachable it holds the answer back (it never says "stored" for something that is
// not). A connection that closes loses its pending answers: the client asks again after it
// reconnects and syncs. Numbers are lib0 varUints (LEB128), like the rest of the protocol.

/** Far from y-protocols' 0–3 and from the types other Yjs servers add (Hocuspocus: 4–8). */
export const SAVED_MESSAGE_TYPE = 100;

/** Request ids are counters; past this a client starts again at 1 (answers are matched by id). */
export const MAX_SAVED_ID = 2 ** 31 - 1;

export function encodeSavedMessage(id: number): Uint8Array {
  if (!Number.isInteger(id) || id < 0 || id > MAX_SAVED_ID) throw new RangeError(`bad saved id ${id}`);
  const bytes = [SAVED_MESSAGE_TYPE];
  let rest = id;
  while (rest > 0x7f) {
    bytes.push(0x80 | (rest & 0x7f));
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Uint8Array.from(bytes);
}

/** The id of a saved message, or null when `data` is not exactly one well-formed saved message. */
export function decodeSavedMessage(data: Uint8Array): number | null {
  if (data.length < 2 || data[0] !== SAVED_MESSAGE_TYPE) return null;
  let id = 0;
  let scale = 1;
  for (let i = 1; i < data.length; i++) {
    const byte = data[i]!;
    id += (byte & 0x7f) * scale;
    if (id > MAX_SAVED_ID) return null;
    if ((byte & 0x80) === 0) return i === data.length - 1 ? id : null;
    scale *= 128;
  }
  return null;
}
