// Sharing the event loop between people's live edits and work nobody watches as it happens.
//
// Node runs one callback at a time: a person's edit that arrives while the server takes a
// content-API write waits for all of it, and for every other write that arrived in the same turn.
// Work that can wait a turn goes through a lane instead: one piece per event-loop turn, run after
// the I/O that was ready in that turn (people's edits are read, applied and relayed between two
// pieces), so an edit waits behind one piece at most, never behind a queue of them.

/** Resolves in a later event-loop turn, after the I/O that is ready now has been handled. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * `fn` over `items`, as many per event-loop turn as fit in `budgetMs` (at least one): the I/O that
 * arrives meanwhile is handled between two turns' shares.
 */
export async function mapInTurns<T, R>(
  items: readonly T[],
  budgetMs: number,
  fn: (item: T) => R,
): Promise<R[]> {
  const out: R[] = [];
  let turnStarted = performance.now();
  for (const item of items) {
    if (out.length > 0 && performance.now() - turnStarted >= budgetMs) {
      await nextTurn();
      turnStarted = performance.now();
    }
    out.push(fn(item));
  }
  return out;
}

/**
 * `fn` on `items` from `from` on, `perTurn` of them in this turn and the same in each turn after,
 * in order (fire and forget: a piece of each turn's work, with the turn's I/O between).
 */
export function eachInSlices<T>(items: readonly T[], perTurn: number, fn: (item: T) => void, from = 0): void {
  const end = Math.min(items.length, from + perTurn);
  for (let i = from; i < end; i++) fn(items[i] as T);
  if (end < items.length) setImmediate(() => eachInSlices(items, perTurn, fn, end));
}

/** Pieces of work run one per event-loop turn, in the order they asked. */
export class Lane {
  private waiting: (() => void)[] = [];
  private next = 0;
  private scheduled = false;

  /** Resolves when it is this caller's turn: the code after the await is its piece. */
  turn(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  /** Pieces waiting for their turn. */
  get length(): number {
    return this.waiting.length - this.next;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.runOne);
  }

  private readonly runOne = (): void => {
    this.scheduled = false;
    const resolve = this.waiting[this.next];
    this.next += 1;
    if (this.next === this.waiting.length) {
      this.waiting = [];
      this.next = 0;
    } else this.schedule();
    // The piece runs in this immediate's microtasks, before the loop polls again.
    resolve?.();
  };
}

/**
 * The process's lane for the content API (REST and MCP): a write's checks are one piece, its
 * change another, and its answer a third.
 */
export const backgroundLane = new Lane();
