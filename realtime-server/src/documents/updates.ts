// Questions about a Yjs update relative to a doc, answered without applying it.
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';

/** True when every item in [clock, clock + len) of `client` is known to the doc and deleted. */
function rangeAlreadyDeleted(doc: Y.Doc, client: number, clock: number, len: number): boolean {
  if (clock + len > Y.getState(doc.store, client)) return false;
  const structs = doc.store.clients.get(client);
  if (!structs) return false;
  let index = Y.findIndexSS(structs, clock);
  const end = clock + len;
  while (index < structs.length) {
    const struct = structs[index]!;
    if (struct.id.clock >= end) break;
    if (!struct.deleted) return false;
    index += 1;
  }
  return true;
}

/**
 * Whether applying `update` would change `doc`: a struct the doc lacks, or a deletion it has not
 * applied. A viewer's client sends updates carrying only what the server already has (its answer
 * to sync step 1, whole delete set included); those are harmless and must not cut it off.
 */
export function updateHasNewContent(doc: Y.Doc, update: Uint8Array): boolean {
  const { structs, ds } = Y.decodeUpdate(update);
  for (const struct of structs) {
    if (struct instanceof Y.Skip) continue;
    if (struct.id.clock + struct.length > Y.getState(doc.store, struct.id.client)) return true;
  }
  for (const [client, ranges] of ds.clients) {
    for (const range of ranges) if (!rangeAlreadyDeleted(doc, client, range.clock, range.len)) return true;
  }
  return false;
}

/** How many updates one Y.mergeUpdates call takes in mergeInBulk (best of 2–64 when measured). */
const MERGE_FAN_IN = 32;

/**
 * Y.mergeUpdates, in rounds of MERGE_FAN_IN: the same bytes, but merging n updates at once costs
 * about n² (20,000 one-edit updates: 7.8 s, in one stall of the event loop), and in rounds
 * n·log(n) (the same 20,000: 0.17 s). A fast client's edits reach the persister by the thousand.
 */
export function mergeInBulk(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let round = parts as Uint8Array[];
  while (round.length > MERGE_FAN_IN) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < round.length; i += MERGE_FAN_IN) {
      const group = round.slice(i, i + MERGE_FAN_IN);
      next.push(group.length === 1 ? group[0]! : Y.mergeUpdates(group));
    }
    round = next;
  }
  return Y.mergeUpdates(round);
}

/**
 * Checks that a Yjs update (v1) can be applied all or nothing, far more cheaply than a full
 * Y.decodeUpdate (which builds every struct and was 11 % of taking in a burst of edits).
 *
 * Why this is enough: Y.applyUpdate reads every struct of an update, content included, before it
 * integrates any, so a malformed struct section throws with the doc untouched. What it reads
 * after integrating is the delete set, and a delete set cut short or garbled would leave the
 * structs applied and the deletions half done. So this walks the struct section the way Yjs reads
 * it (without building anything) only to find where the delete set starts, and reads the delete
 * set in full. Throws on anything it cannot walk; the walk accepts every update Y.decodeUpdate
 * accepts (realtime-server/test/update-check.test.ts compares them on valid and mangled updates).
 */
export function checkUpdate(update: Uint8Array): void {
  const decoder = decoding.createDecoder(update);
  const clients = decoding.readVarUint(decoder);
  for (let c = 0; c < clients; c++) {
    const structs = decoding.readVarUint(decoder);
    decoding.readVarUint(decoder); // client
    decoding.readVarUint(decoder); // clock
    for (let s = 0; s < structs; s++) skipStruct(decoder);
  }
  const deleteClients = decoding.readVarUint(decoder);
  for (let c = 0; c < deleteClients; c++) {
    decoding.readVarUint(decoder); // client
    const ranges = decoding.readVarUint(decoder);
    for (let r = 0; r < ranges; r++) {
      decoding.readVarUint(decoder); // clock
      decoding.readVarUint(decoder); // length
    }
  }
}

const BITS5 = 31;
const BIT6 = 32;
const BIT7 = 64;
const BIT8 = 128;
/** Yjs's type refs that carry a name: YXmlElement (3) and YXmlHook (5); 0–6 exist. */
const NAMED_TYPE_REFS = new Set([3, 5]);
const TYPE_REFS = 7;

/** Moves past a length-prefixed string or buffer (throws when it runs past the end). */
function skipBytes(decoder: decoding.Decoder): void {
  decoding.readVarUint8Array(decoder);
}

/** One struct as Yjs's readClientsStructRefs reads it (update format v1). */
function skipStruct(decoder: decoding.Decoder): void {
  const info = decoding.readUint8(decoder);
  const kind = info & BITS5;
  if (kind === 0 || kind === 10) {
    decoding.readVarUint(decoder); // GC or Skip: a length
    return;
  }
  if ((info & BIT8) === BIT8) {
    decoding.readVarUint(decoder); // origin client
    decoding.readVarUint(decoder); // origin clock
  }
  if ((info & BIT7) === BIT7) {
    decoding.readVarUint(decoder); // right origin client
    decoding.readVarUint(decoder); // right origin clock
  }
  if ((info & (BIT7 | BIT8)) === 0) {
    if (decoding.readVarUint(decoder) === 1)
      skipBytes(decoder); // parent: a root type's name
    else {
      decoding.readVarUint(decoder); // parent: an item's id
      decoding.readVarUint(decoder);
    }
    if ((info & BIT6) === BIT6) skipBytes(decoder); // parentSub
  }
  switch (kind) {
    case 1: // deleted
      decoding.readVarUint(decoder);
      return;
    case 2: {
      // JSON: strings (parsed by Yjs before it integrates anything)
      const count = decoding.readVarUint(decoder);
      for (let i = 0; i < count; i++) skipBytes(decoder);
      return;
    }
    case 3: // binary
    case 4: // string
    case 5: // embed (JSON)
      skipBytes(decoder);
      return;
    case 6: // format: key, JSON value
      skipBytes(decoder);
      skipBytes(decoder);
      return;
    case 7: {
      const typeRef = decoding.readVarUint(decoder);
      if (typeRef >= TYPE_REFS) throw new Error(`unknown type ref ${typeRef}`);
      if (NAMED_TYPE_REFS.has(typeRef)) skipBytes(decoder);
      return;
    }
    case 8: {
      const count = decoding.readVarUint(decoder);
      for (let i = 0; i < count; i++) decoding.readAny(decoder);
      return;
    }
    case 9: // subdocument: guid, options
      skipBytes(decoder);
      decoding.readAny(decoder);
      return;
    default:
      throw new Error(`unknown content type ${kind}`);
  }
}
