// While another instance is lapsed (presumed dead), this instance's open rooms re-read the Store
// now and then. A lapsed instance may be alive but cut from the bus: it keeps storing its clients'
// edits, which nobody else hears of. The read at the lapse (Replication.forgetInstance) comes
// before those; if it then dies with its clients, the Store is the only place they are, and a
// room open here all along would lack them until it unloads. A read applies only the diff against
// the room's state vector, so reading again is harmless. It stops when the instance returns (the
// both-ways resync covers what it stored) or LAPSE_CATCH_UP_MS after the lapse.

/** While an instance is lapsed, open rooms re-read the Store this often (the persistence bound under load). */
export const LAPSE_CATCH_UP_INTERVAL_MS = 5000;
/**
 * …for this long after its lapse, unless it returns sooner. A write in flight when an instance
 * dies is committed or cancelled within the database timeout (statement_timeout, 5 s), so this
 * covers an instance that dies up to about 50 s after it lapsed. One cut from the bus but alive
 * longer, which then dies with its clients, is not covered (docs/architecture.md).
 */
export const LAPSE_CATCH_UP_MS = 60_000;

export class LapseCatchUp {
  /** Lapsed instances, with when to stop reading for them. */
  private readonly until = new Map<string, number>();
  private nextRead = 0;

  /** `read` reads the Store for every open room. */
  constructor(private readonly read: () => void) {}

  /** An instance lapsed (the rooms read the Store at once, in forgetInstance). */
  lapsed(instance: string, now: number): void {
    this.until.set(instance, now + LAPSE_CATCH_UP_MS);
    this.nextRead = now + LAPSE_CATCH_UP_INTERVAL_MS;
  }

  /** A lapsed instance was heard again: the both-ways resync brings what it stored. */
  returned(instance: string): void {
    this.until.delete(instance);
  }

  /** Whether open rooms are being read again for some lapsed instance. */
  get active(): boolean {
    return this.until.size > 0;
  }

  /** Once a heartbeat period. An instance's window ends only after a read at or past its bound. */
  tick(now: number): void {
    if (this.until.size === 0 || now < this.nextRead) return;
    this.nextRead = now + LAPSE_CATCH_UP_INTERVAL_MS;
    this.read();
    for (const [instance, until] of this.until) if (until <= now) this.until.delete(instance);
  }
}
