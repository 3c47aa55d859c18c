// A board's size, for MAX_DOC_BYTES: an estimate that is cheap to keep and measured again only
// when it may be stale by much.
import * as Y from 'yjs';

/**
 * A board's size is measured again (DocSize.remeasureIfDue) at most once per this many times the
 * last measure took, unless a quarter of it or more was added since.
 */
const MEASURE_EVERY_COST = 100;

/**
 * The board's encoded state (Y.encodeStateAsUpdate) when last measured, plus every update applied
 * since: an upper bound that only grows. Summing updates alone counts what a later change deleted
 * or overwrote again and again (a shape moved 6,000 times, a board restored to a full and an empty
 * version in turn), until a board a tenth of the limit refuses every edit; so before refusing one
 * the room measures again. Loaded from the Store it starts as the stored parts' sum, unmeasured.
 */
export class DocSize {
  private total = 0;
  /** Bytes counted since the last measure (all of them until the first). */
  private unmeasured = 0;
  /** When (performance.now()) measuring again is allowed, whatever grew since. */
  private measureAllowedAt = 0;

  constructor(
    private readonly doc: Y.Doc,
    private readonly onMeasured: () => void,
  ) {}

  get bytes(): number {
    return this.total;
  }

  /** An update of `bytes` was applied (or a stored part loaded). */
  grew(bytes: number): void {
    this.total += bytes;
    this.unmeasured += bytes;
  }

  /**
   * Measures the board's encoded size again when the estimate may be stale by much: a quarter or
   * more of it was counted since the last measure (so the cost of measuring stays a constant
   * share of the bytes taken in, however the board grows), or it was last measured long enough
   * ago that measuring again costs under 1 % of the thread (what a big deletion, which counts
   * little, needs). Encoding a board takes about a millisecond per 200 KB.
   */
  remeasureIfDue(): void {
    const now = performance.now();
    const measured = this.total - this.unmeasured;
    if (this.unmeasured * 4 < measured && now < this.measureAllowedAt) return;
    const size = Y.encodeStateAsUpdate(this.doc).length;
    const took = performance.now() - now;
    this.total = size;
    this.unmeasured = 0;
    this.measureAllowedAt = now + took * MEASURE_EVERY_COST;
    this.onMeasured();
  }
}
