// Large local changes travel in pieces that each fit under the server's MAX_MESSAGE_BYTES (docs/api.md §5
// closes a connection with 1009 on a bigger message). A Yjs update is split by its structs: each
// piece carries a run of consecutive structs of one client (the order they were made in), and the
// last piece carries the delete set. Applied in order, the pieces equal the whole update; applied
// out of order, Yjs holds the early arrivals as pending until the rest come, as for any update.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import type { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { messageHandler, SYNC_MESSAGE, setMessageHandler, stopStockUpdates } from './internals.ts';

/** Pieces stay under this: an eighth of the default MAX_MESSAGE_BYTES, so a lowered limit still fits. */
export const PIECE_BYTES = 256 * 1024;

type Struct = ReturnType<typeof Y.decodeUpdate>['structs'][number];
type DeleteSet = ReturnType<typeof Y.decodeUpdate>['ds'];

function encodeRun(client: number, structs: Struct[]): Uint8Array {
  const enc = new Y.UpdateEncoderV1();
  encoding.writeVarUint(enc.restEncoder, 1);
  encoding.writeVarUint(enc.restEncoder, structs.length);
  enc.writeClient(client);
  encoding.writeVarUint(enc.restEncoder, structs[0]!.id.clock);
  for (const s of structs) s.write(enc, 0);
  encoding.writeVarUint(enc.restEncoder, 0); // no deletes in this piece
  return enc.toUint8Array();
}

function encodeDeletes(ds: DeleteSet): Uint8Array {
  const enc = new Y.UpdateEncoderV1();
  encoding.writeVarUint(enc.restEncoder, 0); // no structs
  encoding.writeVarUint(enc.restEncoder, ds.clients.size);
  for (const [client, items] of [...ds.clients.entries()].sort((a, b) => b[0] - a[0])) {
    enc.resetDsCurVal();
    encoding.writeVarUint(enc.restEncoder, client);
    encoding.writeVarUint(enc.restEncoder, items.length);
    for (const it of items) {
      enc.writeDsClock(it.clock);
      enc.writeDsLen(it.len);
    }
  }
  return enc.toUint8Array();
}

/** Splits a run until each piece fits (a single struct bigger than `max` travels alone). */
function splitRun(client: number, run: Struct[], max: number, out: Uint8Array[]): void {
  const piece = encodeRun(client, run);
  if (piece.length <= max || run.length === 1) {
    out.push(piece);
    return;
  }
  const half = Math.ceil(run.length / 2);
  splitRun(client, run.slice(0, half), max, out);
  splitRun(client, run.slice(half), max, out);
}

/** `update` (Yjs v1) as updates of at most `max` bytes each, in an order that applies cleanly. */
export function splitUpdate(update: Uint8Array, max = PIECE_BYTES): Uint8Array[] {
  if (update.length <= max) return [update];
  const { structs, ds } = Y.decodeUpdate(update);
  const out: Uint8Array[] = [];
  // Consecutive structs of one client, without the Skip placeholders for clocks the update lacks.
  let run: Struct[] = [];
  const flush = () => {
    if (run.length > 0) splitRun(run[0]!.id.client, run, max, out);
    run = [];
  };
  for (const s of structs) {
    if (s instanceof Y.Skip) {
      flush();
      continue;
    }
    const prev = run[run.length - 1];
    if (prev && (prev.id.client !== s.id.client || prev.id.clock + prev.length !== s.id.clock)) flush();
    run.push(s);
  }
  flush();
  if (ds.clients.size > 0) out.push(encodeDeletes(ds));
  return out;
}

/**
 * Makes `provider` send document changes in pieces: both live updates (an import, a big paste)
 * and its answer to the server's sync step 1, which after an offline session or a reload carries
 * everything the server lacks. Without this, one change over MAX_MESSAGE_BYTES closes the
 * connection with 1009 at every attempt, and the board is wedged. Answers the undo function.
 */
export function sendInPieces(provider: WebsocketProvider, max = PIECE_BYTES): () => void {
  const { doc } = provider;
  const sendUpdate = (update: Uint8Array) => {
    for (const piece of splitUpdate(update, max)) {
      const ws = provider.ws;
      if (!provider.wsconnected || !ws || ws.readyState !== ws.OPEN) return;
      const enc = encoding.createEncoder();
      encoding.writeVarUint(enc, SYNC_MESSAGE);
      syncProtocol.writeUpdate(enc, piece);
      ws.send(encoding.toUint8Array(enc));
    }
  };
  const onUpdate = (update: Uint8Array, origin: unknown) => {
    if (origin !== provider) sendUpdate(update);
  };
  stopStockUpdates(provider);
  doc.on('update', onUpdate);

  const stock = messageHandler(provider, SYNC_MESSAGE)!;
  setMessageHandler(provider, SYNC_MESSAGE, (encoder, decoder, p, emitSynced, type) => {
    const peek = decoding.clone(decoder);
    if (decoding.readVarUint(peek) !== syncProtocol.messageYjsSyncStep1) {
      stock(encoder, decoder, p, emitSynced, type);
      return;
    }
    decoding.readVarUint(decoder);
    const update = Y.encodeStateAsUpdate(doc, decoding.readVarUint8Array(decoder));
    if (update.length <= max) {
      encoding.writeVarUint(encoder, SYNC_MESSAGE);
      encoding.writeVarUint(encoder, syncProtocol.messageYjsSyncStep2);
      encoding.writeVarUint8Array(encoder, update);
    } else sendUpdate(update); // as plain updates; the encoder stays empty, so nothing else is sent
  });
  return () => {
    doc.off('update', onUpdate);
    setMessageHandler(provider, SYNC_MESSAGE, stock);
  };
}
