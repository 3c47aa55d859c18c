// The client's offset from the server's clock, NTP-style: each sample is (sent, server time,
// received) on the local clock; the server read its clock somewhere within the round trip, so
// the estimate server − midpoint is off by at most half the round trip. The sample with the
// shortest round trip has the tightest bound and wins.

export interface ClockSample {
  /** Local clock when the request left. */
  sent: number;
  /** The server's clock in its answer. */
  server: number;
  /** Local clock when the answer arrived. */
  received: number;
}

export interface ClockOffset {
  /** Add to the local clock to get the server's: serverNow = Date.now() + offsetMs. */
  offsetMs: number;
  /** Half the best round trip: the estimate's error bound. */
  errorMs: number;
}

export function offsetFromSamples(samples: ClockSample[]): ClockOffset | null {
  let best: ClockSample | null = null;
  for (const s of samples) {
    if (!(s.received >= s.sent)) continue;
    if (!best || s.received - s.sent < best.received - best.sent) best = s;
  }
  if (!best) return null;
  return {
    offsetMs: best.server - (best.sent + best.received) / 2,
    errorMs: (best.received - best.sent) / 2,
  };
}

/** Takes `count` samples through `ask` (one request each, one after the other). */
export async function measureOffset(
  ask: () => Promise<number>,
  now: () => number = Date.now,
  count = 5,
): Promise<ClockOffset | null> {
  const samples: ClockSample[] = [];
  for (let i = 0; i < count; i++) {
    const sent = now();
    try {
      const server = await ask();
      samples.push({ sent, server, received: now() });
    } catch {
      // A lost sample only widens the bound; the others still count.
    }
  }
  return offsetFromSamples(samples);
}
