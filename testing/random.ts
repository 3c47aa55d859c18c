// Seeded randomness for fuzz tests: a failing run prints its seed, and TEST_SEED replays it.
import { mulberry32 } from '@tandem/shared';

export function testSeed(): number {
  const fromEnv = process.env.TEST_SEED;
  return fromEnv ? Number(fromEnv) : Math.floor(Math.random() * 2 ** 31);
}

export class Random {
  readonly next: () => number;
  constructor(readonly seed: number) {
    this.next = mulberry32(seed);
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}
