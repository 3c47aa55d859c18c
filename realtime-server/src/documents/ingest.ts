// Ingest: where a client's update is checked, batched and applied to the room's doc. An update is
// checked when it arrives (decodable, allowed for the sender's role, within the board's size) and
// applied with the others the same peer sent in the same turn (a client catching up or pasting
// sends hundreds in one read): one transaction, so one Yjs cleanup, one relayed message, one bus
// message and one queued write for all of them, instead of one of each per update.
import { CloseCode, canEditBoard } from '@tandem/shared';
import * as Y from 'yjs';
import { dropPendingUpdates, hasPendingUpdates, pendingBytes } from './internals.ts';
import { applyUpdate, fromPeer, type TransactionOrigin, transact } from './origins.ts';
import type { Peer } from './peer.ts';
import { encodeSyncStep1 } from './protocol.ts';
import type { DocSize } from './size.ts';
import {
  addedSince,
  appliedStructs,
  appliedWhole,
  checkUpdate,
  continuesDoc,
  joinUpdates,
  type UpdateClocks,
  type UpdateLayout,
  updateHasNewContent,
} from './updates.ts';

/** Bytes of updates waiting for missing dependencies before the sender is cut off. */
export const MAX_PENDING_BYTES = 1024 * 1024;

/** What ingest needs of its room. */
export interface IngestHost {
  readonly doc: Y.Doc;
  readonly size: DocSize;
  readonly maxDocBytes: number;
  /** This instance and the other live ones: each may take an update at the same moment. */
  instances(): number;
  isClosed(): boolean;
  /** Closes one peer's connection for what it sent (the others and the doc are untouched). */
  reject(peer: Peer, code: number, reason: string): void;
  /**
   * Runs `apply` with the doc's update event muted, then, when `changed` returns an update, routes
   * it as the transaction's change: the room relays, stores and publishes it as for any update.
   */
  applyQuietly(apply: () => void, changed: () => Uint8Array | null, origin: TransactionOrigin): void;
  /** Asks the other instances for what this one lacks. */
  requestSync(reason: string): void;
  /** Applying failed for a reason other than the peer's input (logged, the peer closed). */
  failed(peer: Peer, error: unknown): void;
}

export class Ingest {
  /** Updates taken from `peer` and not applied yet, in the order it sent them. */
  private updates: Uint8Array[] = [];
  private layouts: UpdateLayout[] = [];
  private bytes = 0;
  private peer: Peer | null = null;
  /**
   * Set while a peer's updates are applied to a doc where something waited for a missing
   * dependency: what they complete (another client's edit that waited) is in the update Yjs emits
   * too, and the peer does not have it, so that update goes to every peer, the sender included.
   * (The durability harness found it, seed 595735680: a client that moved to another instance
   * never got an edit that had waited there until its own sync step 2 completed it.)
   */
  resolvingPending = false;
  private readonly applyLater = () => this.applyWaiting();

  constructor(private readonly host: IngestHost) {}

  /**
   * An update from a peer, checked now and applied with the others that peer sent in the same
   * turn: before anything else touches the doc or answers the peer (the room calls applyWaiting),
   * and at the latest in the microtask after the socket's read.
   */
  take(peer: Peer, update: Uint8Array, kind: 'update' | 'step2'): void {
    const { host } = this;
    if (this.peer !== peer) this.applyWaiting();
    let layout: UpdateLayout;
    try {
      // Checked before applying: a malformed update must not leave half of itself behind.
      layout = checkUpdate(update);
    } catch (error) {
      this.applyWaiting();
      host.reject(peer, CloseCode.UNDECODABLE, `undecodable update: ${(error as Error).message}`);
      return;
    }
    // Viewers and commenters (docs/api.md §6) read the document; they never change it.
    if (!canEditBoard(peer.role)) {
      // Their answer to the server's sync step 1 is never applied, and never closes them: a stock
      // client answers even with nothing to add, and a read-only copy may hold what this instance
      // has not integrated (structs and deletions waiting for a dependency, which Yjs puts in
      // every sync answer; edits another instance sent it that this one has not caught up on).
      // Closing for that told a public viewer "You no longer have access" again at every
      // reconnect, and it never caught up (found by the two-instance convergence fuzz).
      if (kind === 'update' && updateHasNewContent(host.doc, update))
        host.reject(peer, CloseCode.NO_ACCESS, 'viewers and commenters cannot edit');
      return;
    }
    // Another instance may be taking an update at this very moment that this one has not seen
    // yet: while others are alive, an update is taken only if the board would still fit were
    // each of them to take one as large at once (docs/security.md, "Board size across instances").
    const limit = host.maxDocBytes;
    const instances = host.instances();
    const incoming = this.bytes + update.length;
    if (host.size.bytes + incoming * instances > limit) {
      this.applyWaiting();
      if (host.size.bytes + update.length * instances > limit) host.size.remeasureIfDue();
      if (host.size.bytes + update.length * instances > limit && updateHasNewContent(host.doc, update)) {
        host.reject(peer, CloseCode.BOARD_TOO_LARGE, 'board over its size limit');
        return;
      }
    }
    this.updates.push(update);
    this.layouts.push(layout);
    this.bytes += update.length;
    if (this.peer === null) {
      this.peer = peer;
      queueMicrotask(this.applyLater);
    }
  }

  /** Applies the updates taken from one peer (see take) in one transaction. */
  applyWaiting(): void {
    const peer = this.peer;
    if (peer === null) return;
    const updates = this.updates;
    const layouts = this.layouts;
    this.updates = [];
    this.layouts = [];
    this.bytes = 0;
    this.peer = null;
    if (this.host.isClosed()) return;
    this.resolvingPending = hasPendingUpdates(this.host.doc);
    try {
      if (updates.length === 1) this.applyOne(updates[0]!, layouts[0]!, peer);
      else this.applyMany(updates, layouts, peer);
    } catch (error) {
      this.host.failed(peer, error);
      return;
    } finally {
      this.resolvingPending = false;
    }
    this.checkPending(peer);
  }

  /** A peer's updates in one transaction: joined into one update when they can be (joinUpdates). */
  private applyMany(updates: Uint8Array[], layouts: UpdateLayout[], peer: Peer): void {
    const joined = joinUpdates(updates, layouts);
    if (joined) {
      try {
        this.applyOne(joined.update, joined.clocks, peer);
        return;
      } catch {
        // One of them is refused (say, a string that is not UTF-8) while Yjs reads, before it
        // integrates anything: applied one by one below, the ones before it are kept, as they
        // were before joining, and the refused one throws again (the peer is closed).
      }
    }
    const origin = fromPeer(peer);
    transact(
      this.host.doc,
      () => {
        for (const update of updates) applyUpdate(this.host.doc, update, origin);
      },
      origin,
    );
  }

  /**
   * Applies a peer's update. When it simply continues the doc (continuesDoc: the next clocks of
   * its client, nothing waiting), what it adds is the update itself: Yjs is kept from encoding
   * the transaction's changes again (a tenth of taking in a burst of edits, and work on every
   * relayed edit), and the update goes out, to the peers, the Bus and the Store, as the peer sent
   * it. If after all not everything was integrated (a struct waits for another client's item), or
   * applying threw part way, what was integrated goes out instead, as Yjs would have sent it.
   */
  private applyOne(update: Uint8Array, layout: UpdateClocks, peer: Peer): void {
    const { doc } = this.host;
    const origin = fromPeer(peer);
    if (!continuesDoc(doc, layout)) {
      applyUpdate(doc, update, origin);
      return;
    }
    let deleted = false;
    this.host.applyQuietly(
      () =>
        transact(
          doc,
          (transaction) => {
            try {
              applyUpdate(doc, update, origin);
            } finally {
              deleted = transaction.deleteSet.clients.size > 0;
            }
          },
          origin,
        ),
      () =>
        deleted || appliedStructs(doc, layout)
          ? appliedWhole(doc, layout)
            ? update
            : addedSince(doc, layout)
          : null,
      origin,
    );
  }

  /**
   * An update whose dependencies have not arrived waits in the doc. Ask the sender (and the other
   * instances) for what is missing; drop the waiting data and cut the sender off when it grows.
   */
  private checkPending(peer: Peer): void {
    const { doc } = this.host;
    if (!hasPendingUpdates(doc)) return;
    if (pendingBytes(doc) > MAX_PENDING_BYTES) {
      dropPendingUpdates(doc);
      this.host.reject(peer, CloseCode.UNDECODABLE, 'too many updates with missing dependencies');
      return;
    }
    peer.send(encodeSyncStep1(Y.encodeStateVector(doc)));
    this.host.requestSync('pending');
  }
}
