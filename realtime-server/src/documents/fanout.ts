// Fanout: what a room sends its peers. The doc updates applied in one event-loop turn go out
// together at the end of the turn, with the presence changes when due, as one write per peer;
// each message is encoded once and the same bytes go to every peer. Anonymous viewers (docs/api.md
// §16) are the exception: their updates are merged over a window and sent as one frame.
import { ANONYMOUS_VIEWER_WINDOW_MS, limits } from '@tandem/shared';
import type { Peer } from './peer.ts';
import type { PresenceOwner, RoomPresence } from './presence.ts';
import { encodeAwarenessMessage, encodeUpdate } from './protocol.ts';
import { eachInSlices } from './turns.ts';
import { joinOrMerge } from './updates.ts';

/**
 * After sending presence, a room waits this many times what that send took before it sends
 * presence again, so a room's presence writes take at most 1/(1 + this) of the process's time
 * (20 %) however fast cursors move. A send to 50 peers takes ~0.2 ms on an idle core: the next
 * waits ~0.8 ms, and every change meanwhile is merged into it. Measured on a quiet machine
 * (docs/benchmarks.md, issue 31: presence): 12 left the cursor p50 at 2× Hocuspocus's; 4 brings it
 * to 0.9× at half Hocuspocus's CPU; 1 buys little more latency for more CPU. A bigger room, a slower
 * machine or a busy one (the send takes longer by the wall clock) waits longer, up to the tick.
 */
export const PRESENCE_WAIT_FACTOR = 4;

/**
 * Anonymous viewers written to per event-loop turn. A window's frame to 500 viewers is ~2.5 ms of
 * socket writes; done at once, every person's update that arrives meanwhile waits behind all of
 * them (issue 26 measured the editors' p99 at 1.7× with 500 viewers). In slices, the people's
 * updates are read and relayed between two slices. Slices of 50 left the editors' p99 at 1.37×
 * (30 s runs, three pairs), of 20 at 1.29×, of 10 at 1.16× (six pairs) for the same server CPU:
 * an update waits behind one slice at most, ~0.1 ms of writes.
 */
export const VIEWER_WRITES_PER_TURN = 10;

export class Fanout {
  /** Doc updates applied this turn, sent in one write when the turn ends. */
  private outgoing: Uint8Array[] = [];
  /** The one peer all of this turn's updates came from (not sent back to it); null: everyone. */
  private sender: Peer | null = null;
  private flushQueued = false;
  private presenceTimer: NodeJS.Timeout | null = null;
  private presenceDue = false;
  /** When presence was last sent, and how long after it the next may go (PRESENCE_WAIT_FACTOR). */
  private lastPresenceFlush = Number.NEGATIVE_INFINITY;
  private presenceWait = 0;
  /** Updates sent to the people this window, not yet to the anonymous viewers. */
  private forViewers: Uint8Array[] = [];
  private viewerTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly peers: ReadonlySet<Peer>,
    private readonly presence: RoomPresence,
    /** Presence changes of this instance's connections, for the other instances. */
    private readonly publishPresence: (local: Uint8Array) => void,
    /** The longest presence changes are held to merge them (PRESENCE_TICK_MS). */
    private readonly tickMs: number = limits.presenceTickMs,
  ) {}

  /** An update for every peer but `sender` (null: every peer). */
  add(update: Uint8Array, sender: Peer | null): void {
    // Updates from several senders in one turn go to everyone: Yjs ignores what a client has.
    this.sender = this.outgoing.length === 0 || this.sender === sender ? sender : null;
    this.outgoing.push(update);
    this.queueFlush();
  }

  /**
   * Presence changed. Leading edge: a change goes out at the end of this turn unless presence was
   * sent less than `presenceWait` ago; then the changes that arrive meanwhile are merged and sent
   * when that wait ends. In a quiet room (or a small one, whose sends cost little) a cursor move
   * waits for nothing; under load the wait grows with what a send costs, up to the tick.
   */
  presenceChanged(): void {
    if (this.presenceTimer || this.presenceDue || this.closed) return;
    const wait = this.lastPresenceFlush + this.presenceWait - performance.now();
    if (wait <= 0) {
      this.presenceDue = true;
      this.queueFlush();
      return;
    }
    this.presenceTimer = setTimeout(() => {
      this.presenceTimer = null;
      this.presenceDue = true;
      this.flush();
    }, wait);
  }

  /** Sends what is waiting, presence included, and sends nothing after. */
  close(): void {
    this.closed = true;
    if (this.presenceTimer) clearTimeout(this.presenceTimer);
    this.presenceTimer = null;
    this.presenceDue = true;
    this.flush();
    this.flushViewers();
  }

  private queueFlush(): void {
    if (this.flushQueued || this.closed) return;
    this.flushQueued = true;
    setImmediate(() => this.flush());
  }

  /**
   * Sends what this turn produced as one write per peer: the doc updates (several arrive in one
   * turn under load), one sync message each, and, when due, the presence changes. The updates are
   * not merged into one: merging decodes and re-encodes every one of them (the largest item of a
   * fanout profile), and a client applies a few small messages written together as cheaply as
   * one merged message.
   */
  private flush(): void {
    this.flushQueued = false;
    let updates: Uint8Array[] | null = null;
    let raw: Uint8Array[] | null = null;
    let except: Peer | null = null;
    if (this.outgoing.length > 0) {
      if (this.presenceTimer) {
        // Presence changes waiting for the end of their tick ride along in this turn's write
        // instead of costing every peer a write of their own a few ms later: writes are most of
        // a busy room's CPU (a fanout profile: the socket write 36 % of self time).
        clearTimeout(this.presenceTimer);
        this.presenceTimer = null;
        this.presenceDue = true;
      }
      raw = this.outgoing;
      updates = raw.map(encodeUpdate);
      except = this.sender;
      this.outgoing = [];
      this.sender = null;
    }
    let awareness: Uint8Array | null = null;
    let presenceOwner: PresenceOwner | null = null;
    let started = 0;
    if (this.presenceDue) {
      this.presenceDue = false;
      started = performance.now();
      const change = this.presence.takeChanges();
      if (change) {
        awareness = encodeAwarenessMessage(change.all);
        presenceOwner = change.ownerOnly;
        if (change.local) this.publishPresence(change.local);
      }
    }
    if (!updates && !awareness) return;
    const updatesOnly: Uint8Array | Uint8Array[] | null = updates
      ? updates.length === 1
        ? updates[0]!
        : updates
      : null;
    const forEveryone: Uint8Array | Uint8Array[] = updates
      ? awareness
        ? [...updates, awareness]
        : updatesOnly!
      : awareness!;
    let viewers = false;
    for (const peer of this.peers) {
      // Anonymous viewers (docs/api.md §16) get the board's updates later (flushViewers), never
      // presence. They cannot write, so none of them is the sender.
      if (peer.anonymous) viewers = true;
      else if (peer === presenceOwner) {
        if (updatesOnly && peer !== except) peer.send(updatesOnly);
      } else if (peer !== except) peer.send(forEveryone);
      else if (awareness) peer.send(awareness);
    }
    if (raw && viewers) {
      for (const update of raw) this.forViewers.push(update);
      this.viewerTimer ??= setTimeout(() => this.flushViewers(), ANONYMOUS_VIEWER_WINDOW_MS);
    }
    if (awareness) {
      // Timed by the wall clock on purpose: on a busy machine the same send takes longer, and
      // presence is merged over longer waits, which is when that is worth its latency.
      const ended = performance.now();
      this.lastPresenceFlush = ended;
      this.presenceWait = Math.min(this.tickMs, (ended - started) * PRESENCE_WAIT_FACTOR);
    }
  }

  /**
   * Sends the window's updates to the anonymous viewers as one message, merged once for all of
   * them (joinOrMerge: Y.mergeUpdates's bytes, joined without decoding when each client's edits
   * run unbroken). A viewer gets fewer, larger frames, up to a window late; the 500 viewers of a
   * board with 10 editors cost 5,000 writes a second instead of 50,000. Nothing is lost to a viewer
   * that joined during the window: what was applied before its sync answer is in the answer, what
   * came after is in this message (and what is in both, Yjs applies once).
   */
  private flushViewers(): void {
    if (this.viewerTimer) clearTimeout(this.viewerTimer);
    this.viewerTimer = null;
    const pending = this.forViewers;
    if (pending.length === 0) return;
    this.forViewers = [];
    const message = encodeUpdate(joinOrMerge(pending));
    const viewers: Peer[] = [];
    for (const peer of this.peers) if (peer.anonymous) viewers.push(peer);
    // A closed peer drops what it is sent.
    eachInSlices(viewers, VIEWER_WRITES_PER_TURN, (viewer) => viewer.send(message));
  }
}
