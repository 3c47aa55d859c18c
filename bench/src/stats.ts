// Pure statistics over samples: percentiles (nearest rank), summaries and medians of repeats.

/** Nearest-rank percentile of an ascending-sorted array: the smallest value with at least p% at or below it. */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (p <= 0) return sorted[0] as number;
  if (p >= 100) return sorted[n - 1] as number;
  const rank = Math.ceil((p / 100) * n);
  return sorted[Math.max(0, rank - 1)] as number;
}

export interface Summary {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarize(samples: ArrayLike<number>): Summary {
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  const n = sorted.length;
  return {
    count: n,
    mean: n === 0 ? Number.NaN : sum / n,
    p50: percentileSorted(sorted, 50),
    p95: percentileSorted(sorted, 95),
    p99: percentileSorted(sorted, 99),
    max: n === 0 ? Number.NaN : (sorted[n - 1] as number),
  };
}

/** Median of a list of numbers (mean of the two middle values for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = xs.length;
  if (n === 0) return Number.NaN;
  const mid = Math.floor(n / 2);
  return n % 2 === 1 ? (xs[mid] as number) : ((xs[mid - 1] as number) + (xs[mid] as number)) / 2;
}

/** Growable Float64 buffer, so millions of latency samples do not become millions of JS numbers in an array. */
export class Samples {
  private buf = new Float64Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = v;
  }
  toArray(): Float64Array {
    return this.buf.slice(0, this.length);
  }
}
