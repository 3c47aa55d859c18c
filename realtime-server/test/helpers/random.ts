// Seeded randomness for fuzz tests: a failing run prints its seed, and TEST_SEED replays it.
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
