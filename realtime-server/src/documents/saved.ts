// "All changes saved", kept honest: every update a room must see stored (its own queue, what it
// holds for other instances) takes the next mark; a wait for "stored" resolves once every mark up
// to the one current when it began is stored or confirmed by the instance that stores it.
import { encodeSavedMessage } from '@tandem/shared';
import type { Peer } from './peer.ts';
import { eachInSlices } from './turns.ts';

export interface SavedSources {
  /** The lowest mark not stored yet (its own queue, updates held for others); Infinity when none. */
  lowestUnsaved(): number;
  /** Something waits in the doc for a missing dependency: not in the doc, let alone stored. */
  hasPending(): boolean;
  /** The peer is still connected to the room. */
  isConnected(peer: Peer): boolean;
}

/**
 * Waits resolved in one event-loop turn at most; the rest in the next turns. A write that
 * completes 50 content-API calls resolved them all in one turn, each answering its HTTP request:
 * 5–23 ms in which no one's edit was relayed.
 */
export const WAITS_RESOLVED_PER_TURN = 8;

export class SavedTracker {
  private mark = 0;
  private waiters: { upTo: number; resolve: () => void }[] = [];
  /** Per peer, the newest "saved?" request that waits behind the one already waiting on the Store. */
  private readonly peerWaits = new WeakMap<Peer, { next: number | null }>();

  constructor(private readonly sources: SavedSources) {}

  /** The mark for an update the room must see stored. */
  next(): number {
    this.mark += 1;
    return this.mark;
  }

  /** The mark up to which everything this room holds is stored (or confirmed by its origin). */
  savedMark(): number {
    const lowest = this.sources.lowestUnsaved();
    return lowest === Number.POSITIVE_INFINITY ? this.mark : lowest - 1;
  }

  /** Something was stored or confirmed: resolves the waits it completes. */
  check(): void {
    if (this.waiters.length === 0) return;
    const saved = this.savedMark();
    const done = this.waiters.filter((waiter) => waiter.upTo <= saved);
    if (done.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => waiter.upTo > saved);
    eachInSlices(done, WAITS_RESOLVED_PER_TURN, (waiter) => waiter.resolve());
  }

  /** Resolves once everything marked so far is stored; never rejects (pending while the Store is down). */
  whenStored(): Promise<void> {
    const upTo = this.mark;
    if (this.savedMark() >= upTo) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ upTo, resolve }));
  }

  /**
   * Answers a peer's "saved?" request `id` once what the room holds now is stored. Everything the
   * peer sent before the request has been applied by then (one socket, in order), so its edits
   * are among them. An edit still waiting for missing dependencies is not in the doc, let alone
   * stored: no answer then (the client asks again), rather than a false "saved". A peer has at
   * most one answer waiting on the Store: a request that arrives meanwhile is answered after it,
   * by a wait that starts then (so a client asking often while the Store is down holds one
   * promise, not thousands).
   */
  answerWhenStored(peer: Peer, id: number): void {
    if (this.sources.hasPending()) return;
    const waiting = this.peerWaits.get(peer);
    if (waiting) {
      waiting.next = id;
      return;
    }
    const wait = { next: null as number | null };
    this.peerWaits.set(peer, wait);
    void this.whenStored().then(() => {
      this.peerWaits.delete(peer);
      if (!this.sources.isConnected(peer)) return;
      peer.send(encodeSavedMessage(id));
      if (wait.next !== null) this.answerWhenStored(peer, wait.next);
    });
  }
}
