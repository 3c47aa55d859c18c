// While another instance is lapsed (presumed dead), this instance's open rooms read again what
// it may have stored since. A lapsed instance may be alive but cut from the bus: it keeps storing
// its clients' edits, which nobody else hears of. The read at the lapse (Replication.forgetInstance)
// comes before those; if it then dies with its clients, the Store is the only place they are, and
// a room open here all along would lack them until it unloads. A read applies only the diff
// against the room's state vector, so reading again is harmless.
//
// How long, and at what cost. Such an instance may stay cut off for any time, so a window of fixed
// length (the first version stopped 60 s after the lapse) always leaves a gap. The reads go on for
// as long as the instance stays lapsed: they end when it returns (the both-ways resync covers what
// it stored) or LAPSE_CATCH_UP_BOUND_MS after its lapse (a dead instance never returns, and its id
// is not reused). Each round is one cheap Store query first (DocStore.logHeads: each open board's
// last log position, two index lookups a board): only the rooms whose log moved since the last
// round read, and only what was stored after the position they saw then (DocStore.logSince; the
// whole board the first time), so this instance's own writes, which move the position too, cost
// a read of themselves, not of the board. Rounds come every LAPSE_CATCH_UP_INTERVAL_MS for LAPSE_CATCH_UP_MS after
// the latest lapse (what was stored in flight at a death commits within the database timeout, and
// the common case, a crash, is settled then), then back off to LAPSE_CATCH_UP_MAX_INTERVAL_MS. So
// a long lapse costs one small query per 30 s per instance, plus one read per round of each board
// someone actually wrote to; and the reads a round finds are spread over the heartbeat ticks,
// LAPSE_READS_PER_TICK at a time, not all in one tick.
//
// An instance that starts while another is already cut off never hears that one, so never sees
// it lapse. It counts such an unknown instance as lapsed at its own start (UNHEARD_AT_START, on a
// bus that can be cut at all): the same rounds, with the same bound. Knowing every instance
// instead (each registered in the Store) would cost a write per heartbeat for this one case.
//
// Why not act on the cut-off side instead (close or pause its clients once the bus has been away
// for long): an outage of Redis itself cuts every instance at once, and each would then close all
// its clients, who could reconnect nowhere better; degraded mode exists to keep them working
// (docs/architecture.md, "Degraded mode"). The survivors' side needs no guess about which end is cut.

/** During the first LAPSE_CATCH_UP_MS after a lapse, rounds come this often. */
export const LAPSE_CATCH_UP_INTERVAL_MS = 5000;
/**
 * The dense part of the window. A write in flight when an instance dies is committed or cancelled
 * within the database timeout (statement_timeout, 5 s): a crash is settled well within this.
 */
export const LAPSE_CATCH_UP_MS = 60_000;
/** After it, the interval doubles per round up to this (the delay of a late edit's catch-up). */
export const LAPSE_CATCH_UP_MAX_INTERVAL_MS = 30_000;
/** Rounds for a lapsed instance stop this long after its lapse unless it returns sooner. */
export const LAPSE_CATCH_UP_BOUND_MS = 24 * 60 * 60_000;
/** Rooms that read the Store per heartbeat tick; the rest wait for the next ticks. */
export const LAPSE_READS_PER_TICK = 20;

/** The name for any instance cut from the bus before this one started (Rooms.start). */
export const UNHEARD_AT_START = '(unheard at start)';

export interface LapseCatchUpDeps {
  /** The keys of the open rooms. */
  keys(): string[];
  /** Each document's last log position (DocStore.logHeads). */
  heads(keys: readonly string[]): Promise<Map<string, number>>;
  /**
   * Reads one open room's board from the Store (Room.catchUpFromStore): what was stored after log
   * position `since`, or the whole board when it is null.
   */
  read(key: string, since: number | null): void;
  /** How long rounds go on for a lapsed instance; LAPSE_CATCH_UP_BOUND_MS unless a test says. */
  boundMs?: number;
}

export class LapseCatchUp {
  /** Lapsed instances, with when to stop reading for them. */
  private readonly until = new Map<string, number>();
  /** Each open room's log head as of the round that last had it read. */
  private seen = new Map<string, number>();
  /** Rooms to read, oldest first, LAPSE_READS_PER_TICK per tick, each from the head it last saw. */
  private readonly queue = new Map<string, number | null>();
  private nextRound = 0;
  private interval = LAPSE_CATCH_UP_INTERVAL_MS;
  private denseUntil = 0;
  private checking = false;
  private readonly boundMs: number;

  constructor(private readonly deps: LapseCatchUpDeps) {
    this.boundMs = deps.boundMs ?? LAPSE_CATCH_UP_BOUND_MS;
  }

  /** An instance lapsed (the rooms read the Store at once, in forgetInstance). */
  lapsed(instance: string, now: number): void {
    this.until.set(instance, now + this.boundMs);
    this.denseUntil = now + LAPSE_CATCH_UP_MS;
    this.interval = LAPSE_CATCH_UP_INTERVAL_MS;
    this.nextRound = now + LAPSE_CATCH_UP_INTERVAL_MS;
    // The first round reads every open room, as the read at the lapse did: nothing seen yet.
    this.seen = new Map();
  }

  /**
   * A room opened while rounds run, having asked the log head before it loaded the board: the
   * load read everything up to `head`, so its first round reads only what came after, not the
   * whole board again (a day of rounds after every start would otherwise load each board twice).
   */
  opened(key: string, head: number): void {
    if (this.active) this.seen.set(key, head);
  }

  /** A lapsed instance was heard again: the both-ways resync brings what it stored. */
  returned(instance: string): void {
    this.until.delete(instance);
  }

  /** Whether open rooms are being read again for some lapsed instance. */
  get active(): boolean {
    return this.until.size > 0;
  }

  /**
   * Once a heartbeat period: reads some of the queued rooms, and starts a round when one is due.
   * An instance's rounds end only after a round at or past its bound.
   */
  tick(now: number): void {
    let budget = LAPSE_READS_PER_TICK;
    for (const [key, since] of this.queue) {
      if (budget-- === 0) break;
      this.queue.delete(key);
      this.deps.read(key, since);
    }
    if (this.until.size === 0 || now < this.nextRound || this.checking) return;
    if (now >= this.denseUntil) this.interval = Math.min(this.interval * 2, LAPSE_CATCH_UP_MAX_INTERVAL_MS);
    this.nextRound = now + this.interval;
    this.round();
    for (const [instance, until] of this.until) if (until <= now) this.until.delete(instance);
  }

  /**
   * Asks the Store for the open boards' log heads and queues the rooms whose head moved since,
   * to read after the head they saw (one still queued keeps its older one). The head is taken
   * before the read it causes, so the read sees everything up to it. A failed query queues
   * nothing and records nothing: the next round compares with the same heads.
   */
  private round(): void {
    const keys = this.deps.keys();
    if (keys.length === 0) return;
    this.checking = true;
    void this.deps
      .heads(keys)
      .then((heads) => {
        const seen = new Map<string, number>();
        for (const [key, head] of heads) {
          seen.set(key, head);
          const before = this.seen.get(key);
          if (before !== head && !this.queue.has(key)) this.queue.set(key, before ?? null);
        }
        // Rooms that opened while the query ran keep the head they loaded at.
        const open = new Set(this.deps.keys());
        for (const [key, head] of this.seen) if (!seen.has(key) && open.has(key)) seen.set(key, head);
        this.seen = seen;
      })
      .catch(() => undefined)
      .finally(() => {
        this.checking = false;
      });
  }
}
