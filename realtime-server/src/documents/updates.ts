// Questions about a Yjs update relative to a doc, answered without applying it.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import { clientsOf, clockOf, hasPendingUpdates, rangeAlreadyDeleted, UpdateWalk } from './internals.ts';

export { hasPendingUpdates } from './internals.ts';

/**
 * Whether applying `update` would change `doc`: a struct the doc lacks, or a deletion it has not
 * applied. A viewer's client sends updates carrying only what the server already has (its answer
 * to sync step 1, whole delete set included); those are harmless and must not cut it off.
 */
export function updateHasNewContent(doc: Y.Doc, update: Uint8Array): boolean {
  const { structs, ds } = Y.decodeUpdate(update);
  for (const struct of structs) {
    if (struct instanceof Y.Skip) continue;
    if (struct.id.clock + struct.length > clockOf(doc, struct.id.client)) return true;
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

/** Which clocks an update's structs cover: what the room asks of an update before and after applying it. */
export interface UpdateClocks {
  /** The one client whose structs the update carries; NO_CLIENT or SEVERAL_CLIENTS otherwise. */
  client: number;
  /** The clock of its first struct, and the clock after its last. */
  clock: number;
  endClock: number;
}

/**
 * Where the parts of a Yjs update (v1) lie, as checkUpdate walked them: enough to join updates
 * without decoding them again (joinUpdates).
 */
export interface UpdateLayout extends UpdateClocks {
  structs: number;
  /** Byte range of its structs (after the client and clock), and of its delete set's entries. */
  structsFrom: number;
  structsTo: number;
  deleteClients: number;
  deletesFrom: number;
  deletesTo: number;
}

/** UpdateClocks.client of an update with only deletions. */
const NO_CLIENT = -1;
/** UpdateClocks.client of an update with the structs of more than one client. */
const SEVERAL_CLIENTS = -2;

/**
 * Checks that a Yjs update (v1) can be applied all or nothing, far more cheaply than a full
 * Y.decodeUpdate (which builds every struct and was 11 % of taking in a burst of edits), and says
 * where its parts lie.
 *
 * Why this is enough: Y.applyUpdate reads every struct of an update, content included, before it
 * integrates any, so a malformed struct section throws with the doc untouched. What it reads
 * after integrating is the delete set, and a delete set cut short or garbled would leave the
 * structs applied and the deletions half done. So this walks the struct section the way Yjs reads
 * it (without building anything: no string decoded, no JSON value built, no view allocated) only
 * to find where the delete set starts, and reads the delete set in full. Throws on anything it
 * cannot walk, and never reads past the end where Yjs would (which would also end in a throw); the
 * walk accepts every update Y.decodeUpdate accepts (realtime-server/test/update-check.test.ts
 * compares them on valid and mangled updates).
 */
export function checkUpdate(update: Uint8Array): UpdateLayout {
  const walk = new UpdateWalk(update);
  const clients = walk.varUint();
  let client = clients === 0 ? NO_CLIENT : SEVERAL_CLIENTS;
  let clock = 0;
  let endClock = 0;
  let structs = 0;
  let structsFrom = walk.pos; // an update without structs: an empty range
  for (let c = 0; c < clients; c++) {
    structs = walk.varUint();
    const id = walk.varUint();
    clock = walk.varUint();
    structsFrom = walk.pos;
    endClock = clock;
    for (let s = 0; s < structs; s++) endClock += walk.struct();
    if (clients === 1) client = id;
  }
  const structsTo = walk.pos;
  const deleteClients = walk.varUint();
  const deletesFrom = walk.pos;
  for (let c = 0; c < deleteClients; c++) {
    walk.varUint(); // client
    const ranges = walk.varUint();
    for (let r = 0; r < ranges; r++) {
      walk.varUint(); // clock
      walk.varUint(); // length
    }
  }
  return {
    client,
    clock,
    endClock,
    structs,
    structsFrom,
    structsTo,
    deleteClients,
    deletesFrom,
    deletesTo: walk.pos,
  };
}

/**
 * The updates one client sent in a row as one update, by concatenation: its structs one after
 * the other, then their delete sets as one (joinedDeletes). Applying it does what applying them one by one
 * does, in a third less time for a read's worth of one-edit updates (Yjs's work per update: its
 * decoders, its pending checks, its delete set pass), and no Y.mergeUpdates (which decodes and
 * re-encodes everything). Null when they are not one client's structs in an unbroken run of
 * clocks (an update of several clients, two clients, a gap or an overlap): those are applied one
 * by one. Struct encoding in v1 is self-contained (no struct refers to the one before it in the
 * bytes), which is what makes concatenation valid.
 */
export function joinUpdates(
  updates: readonly Uint8Array[],
  layouts: readonly UpdateLayout[],
): { update: Uint8Array; clocks: UpdateClocks } | null {
  const runs = clientRuns(layouts);
  if (!runs || runs.length > 1) return null;
  const run = runs[0];
  const clocks: UpdateClocks = run
    ? { client: run.client, clock: run.clock, endClock: run.endClock }
    : { client: NO_CLIENT, clock: 0, endClock: 0 };
  return { update: writeJoined(updates, layouts, runs), clocks };
}

/**
 * Many updates as one, for storing: joined by concatenation when each client's structs among them
 * run unbroken (what the edits of a persister batch are, one person's tabs included: far cheaper
 * than merging, which decodes and re-encodes every struct and was 4–10 % of the server's time in
 * fanout profiles), merged otherwise. Clients are written highest first, as Y.mergeUpdates writes
 * them, and so is the delete set (joinedDeletes); compaction merges the structs later.
 */
export function joinOrMerge(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let layouts: UpdateLayout[];
  try {
    layouts = parts.map(checkUpdate);
  } catch {
    return mergeInBulk(parts); // never expected: the room checked or encoded every one of them
  }
  const runs = clientRuns(layouts);
  if (!runs) return mergeInBulk(parts);
  return writeJoined(
    parts,
    layouts,
    runs.sort((a, b) => b.client - a.client),
  );
}

/** One client's structs across updates: which updates hold them, in order, and the clocks they cover. */
interface ClientRun extends UpdateClocks {
  structs: number;
  parts: number[];
}

/** Each client's run of structs, in first-seen order; null when an update holds several clients, or a run breaks. */
function clientRuns(layouts: readonly UpdateLayout[]): ClientRun[] | null {
  const runs: ClientRun[] = [];
  // The run the last update continued: a batch is mostly one client's, so this is nearly always it.
  let last: ClientRun | undefined;
  for (let i = 0; i < layouts.length; i++) {
    const layout = layouts[i]!;
    if (layout.client === SEVERAL_CLIENTS) return null;
    if (layout.client === NO_CLIENT) continue;
    const run = last?.client === layout.client ? last : runs.find((r) => r.client === layout.client);
    if (!run) {
      const { client, clock, endClock, structs } = layout;
      last = { client, clock, endClock, structs, parts: [i] };
      runs.push(last);
    } else if (layout.clock !== run.endClock) return null;
    else {
      run.endClock = layout.endClock;
      run.structs += layout.structs;
      run.parts.push(i);
      last = run;
    }
  }
  return runs;
}

/**
 * The runs' structs, each run under one header, then the updates' delete sets as one (joinedDeletes),
 * written into one buffer of the exact size (a read's worth of updates is 1,000–2,000 parts: a
 * growing encoder copied them twice).
 */
function writeJoined(
  updates: readonly Uint8Array[],
  layouts: readonly UpdateLayout[],
  runs: readonly ClientRun[],
): Uint8Array {
  let size = 0;
  for (const layout of layouts) size += layout.structsTo - layout.structsFrom;
  const count = encoding.encode((e) => encoding.writeVarUint(e, runs.length));
  const heads = runs.map((run) =>
    encoding.encode((e) => {
      encoding.writeVarUint(e, run.structs);
      encoding.writeVarUint(e, run.client);
      encoding.writeVarUint(e, run.clock);
    }),
  );
  const deletes = joinedDeletes(updates, layouts);
  size += count.length + deletes.length;
  for (const head of heads) size += head.length;
  const out = new Uint8Array(size);
  let at = 0;
  const put = (bytes: Uint8Array) => {
    out.set(bytes, at);
    at += bytes.length;
  };
  put(count);
  for (const [r, run] of runs.entries()) {
    put(heads[r]!);
    for (const i of run.parts) put(updates[i]!.subarray(layouts[i]!.structsFrom, layouts[i]!.structsTo));
  }
  put(deletes);
  return out;
}

/**
 * The delete sets of several updates as one, as Yjs writes a delete set: each client once, its
 * ranges in order of clock and merged. Concatenating the updates' entries would apply the same
 * deletions, but only while the receiver has every deleted item: Yjs keeps the deletions it
 * cannot apply yet (their items have not arrived) in a v2-encoded delete set whose clocks are
 * written as differences from the range before, so ranges out of order (an update deleting an
 * older item than the update before it did) are stored garbled, and later delete items nobody
 * deleted while the deletions meant are lost (the convergence fuzz test found it, seed
 * 1553958763: a client behind by a few edits was sent such a joined update and never converged).
 * One update's delete set, written by Yjs, is already in that form and is copied as it is.
 */
function joinedDeletes(updates: readonly Uint8Array[], layouts: readonly UpdateLayout[]): Uint8Array {
  const withDeletes: number[] = [];
  for (let i = 0; i < layouts.length; i++) if (layouts[i]!.deleteClients > 0) withDeletes.push(i);
  if (withDeletes.length <= 1) {
    const only = withDeletes[0];
    if (only === undefined) return Uint8Array.of(0);
    const layout = layouts[only]!;
    return encoding.encode((e) => {
      encoding.writeVarUint(e, layout.deleteClients);
      encoding.writeUint8Array(e, updates[only]!.subarray(layout.deletesFrom, layout.deletesTo));
    });
  }
  return orderedDeletes(updates, layouts, withDeletes);
}

/** The delete sets of `updates[i]` for each i of `which`, as one delete set in Yjs's form. */
function orderedDeletes(
  updates: readonly Uint8Array[],
  layouts: readonly UpdateLayout[],
  which: readonly number[],
): Uint8Array {
  // Each client's ranges as [clock, length], in the order they come.
  const rangesOf = new Map<number, [number, number][]>();
  for (const i of which) {
    const layout = layouts[i]!;
    const decoder = decoding.createDecoder(updates[i]!.subarray(layout.deletesFrom, layout.deletesTo));
    for (let c = 0; c < layout.deleteClients; c++) {
      const client = decoding.readVarUint(decoder);
      const ranges = rangesOf.get(client) ?? [];
      rangesOf.set(client, ranges);
      for (let r = decoding.readVarUint(decoder); r > 0; r--)
        ranges.push([decoding.readVarUint(decoder), decoding.readVarUint(decoder)]);
    }
  }
  return encoding.encode((e) => {
    encoding.writeVarUint(e, rangesOf.size);
    for (const client of [...rangesOf.keys()].sort((a, b) => b - a)) {
      const merged = sortedAndMerged(rangesOf.get(client)!);
      encoding.writeVarUint(e, client);
      encoding.writeVarUint(e, merged.length / 2);
      for (const n of merged) encoding.writeVarUint(e, n);
    }
  });
}

/**
 * `update` with its delete set in Yjs's form (each client once, its ranges in clock order), the
 * same bytes when it already is. For what was stored before joinedDeletes wrote delete sets so:
 * two instances append to one log in the order their batches are stored, so a batch can delete
 * what a later entry of the log holds, and applied in order it met the garbling joinedDeletes
 * describes (realtime-server/test/convergence.test.ts on two instances found stored boards
 * missing fields). An update that does not walk is returned as it is, for Yjs to refuse.
 */
export function withOrderedDeletes(update: Uint8Array): Uint8Array {
  let layout: UpdateLayout;
  try {
    layout = checkUpdate(update);
  } catch {
    return update;
  }
  if (deletesInOrder(update, layout)) return update;
  const deletes = orderedDeletes([update], [layout], [0]);
  const out = new Uint8Array(layout.structsTo + deletes.length);
  out.set(update.subarray(0, layout.structsTo));
  out.set(deletes, layout.structsTo);
  return out;
}

/** Whether an update's delete set names each client once, with its ranges in clock order. */
function deletesInOrder(update: Uint8Array, layout: UpdateLayout): boolean {
  if (layout.deleteClients === 0) return true;
  const decoder = decoding.createDecoder(update.subarray(layout.deletesFrom, layout.deletesTo));
  const clients = new Set<number>();
  for (let c = 0; c < layout.deleteClients; c++) {
    const client = decoding.readVarUint(decoder);
    if (clients.has(client)) return false;
    clients.add(client);
    let end = 0;
    for (let r = decoding.readVarUint(decoder); r > 0; r--) {
      const clock = decoding.readVarUint(decoder);
      if (clock < end) return false;
      end = clock + decoding.readVarUint(decoder);
    }
  }
  return true;
}

/** Ranges sorted by clock, those that overlap or touch made one, as [clock, length, …]. */
function sortedAndMerged(ranges: [number, number][]): number[] {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [clock, length] of ranges) {
    const last = out.length - 2;
    if (last >= 0 && clock <= out[last]! + out[last + 1]!)
      out[last + 1] = Math.max(out[last + 1]!, clock + length - out[last]!);
    else out.push(clock, length);
  }
  return out;
}

/**
 * Whether applying an update laid out so would add exactly that update to `doc`: its structs
 * continue the doc's own run of that client's clocks (none of them known already) and nothing
 * waits in the doc for missing dependencies. appliedWhole says afterwards whether it did (one of
 * its structs may still wait for another client's item).
 */
export function continuesDoc(doc: Y.Doc, layout: UpdateClocks): boolean {
  if (hasPendingUpdates(doc)) return false;
  if (layout.client === NO_CLIENT) return true;
  return layout.client >= 0 && clockOf(doc, layout.client) === layout.clock;
}

/** After applying an update that continuesDoc: whether all of it was integrated, nothing left waiting. */
export function appliedWhole(doc: Y.Doc, layout: UpdateClocks): boolean {
  if (hasPendingUpdates(doc)) return false;
  return layout.client === NO_CLIENT || clockOf(doc, layout.client) === layout.endClock;
}

/** After applying an update that continuesDoc: whether any of its structs were integrated. */
export function appliedStructs(doc: Y.Doc, layout: UpdateClocks): boolean {
  return layout.client >= 0 && clockOf(doc, layout.client) > layout.clock;
}

/**
 * After applying an update that continuesDoc but not whole: what applying it added to `doc`, as
 * one update, encoded from the doc (not the update as sent, which may hold what made Yjs throw
 * part way). Its client's structs from the update's first clock on (no other client's can have
 * been integrated: nothing was waiting), the doc's whole delete set (a superset of what the
 * update deleted, the way a sync step 2 carries deletions), and, as in every Y.encodeStateAsUpdate,
 * what waits in the doc for a missing dependency.
 */
export function addedSince(doc: Y.Doc, layout: UpdateClocks): Uint8Array {
  const vector = new Map<number, number>();
  for (const client of clientsOf(doc)) vector.set(client, clockOf(doc, client));
  if (layout.client >= 0) vector.set(layout.client, layout.clock);
  return Y.encodeStateAsUpdate(doc, Y.encodeStateVector(vector));
}
