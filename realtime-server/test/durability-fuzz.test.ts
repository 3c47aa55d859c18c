// The durability harness (test/harness/). Thousands of seeded scenarios of real Rooms
// on several in-memory instances, with crashes, restarts, outages, drops and client moves; after
// each, every replica has converged and the Store holds everything a survivor held. A failure
// prints its seed; every seed that ever failed is kept below and runs on every `npm test`.
// Replay one: TEST_SEED=<seed> npm test -- durability-fuzz
import { after, before, describe, test } from 'node:test';
import { testSeed } from '../../testing/random.ts';
import { VirtualClock } from './harness/clock.ts';
import { createShared, type Instance, type Plan, runScenario } from './harness/harness.ts';

/**
 * Seeds that once failed, with what they caught. Keep them; add every new one. A seed that failed
 * before Math.random was seeded with the scenario (it drives the persister's retry jitter) carries
 * the Math.random seed that replays the failure.
 */
const REGRESSIONS: Record<number, { what: string; jitterSeed?: number }> = {
  5: { what: 'the receiving instance died; the survivors never stored what it had relayed' },
  8: { what: 'the receiving instance died; the survivors never stored what it had relayed' },
  25: { what: 'the receiving instance died; the survivors never stored what it had relayed' },
  27: { what: 'the receiving instance died; the survivors never stored what it had relayed' },
  32: { what: 'a new instance published nothing before it heard the others; its first edits reached nobody' },
  1960582646: {
    what: 'a room answered "stored" while what another instance relayed first was not (a false "All changes saved")',
  },
  1704792921: {
    what: 'an edit published while its instance had lost the bus, which then unloaded the board, never reached a client of another instance (stored, but never caught up from the Store)',
  },
  77000144: {
    what: 'a connection joined a room that unloaded between its load and the join: its edits went into a closed room, never stored, and were answered "saved"',
  },
  1335781114: {
    what: "an instance started while another was cut from the bus, so never heard of it; that one stored edits and died, and the newcomer's room never read them from the Store",
  },
  1151612846: {
    jitterSeed: 1151612855,
    what: 'an instance cut from the bus stored edits after the others presumed it dead, then died; the instance that opened the board next read them from the Store but gave them to nobody, so a room open elsewhere all along never had them',
  },
};

/**
 * Two instances, a writer on the first and a watcher on the second, each editing once; at 1 s the
 * first loses the bus for `outageMs`, for good in these plans.
 */
async function writerCutFromTheBus(
  { instances, startInstance, addClient, connect, after, note }: Parameters<Plan>[0],
  outageMs: number,
) {
  for (let i = 0; i < 2; i++) await startInstance();
  const [cut, survivor] = instances as [Instance, Instance];
  const writer = addClient(true);
  const watcher = addClient(false);
  connect(writer, cut);
  connect(watcher, survivor);
  after(200, () => writer.edit());
  after(300, () => watcher.edit());
  after(1000, () => {
    note(`${cut.id} loses the bus for good`);
    cut.bus.outage(outageMs);
  });
  return { cut, writer, watcher };
}

/**
 * Written out by hand: cases the seeded scenarios reach too rarely to rely on. Each runs with the
 * harness's checks (replicas converge, every live room holds what the Store holds, the Store holds
 * what every survivor held).
 */
const SCRIPTED: Record<string, Plan> = {
  // An instance cut from the bus stays up past its lapse and stores its client's edits, which
  // nobody hears of; then it dies and its client vanishes with it. No instance opens the board
  // anew, so only the room open elsewhere all along can give those edits to anyone: it must read
  // them from the Store (LapseCatchUp) rather than lack them until it unloads.
  'an instance cut from the bus stores edits after its lapse, then dies with its client; the room open elsewhere all along reads them from the Store':
    async (run) => {
      const { after, crash } = run;
      const { cut, writer, watcher } = await writerCutFromTheBus(run, 600_000);
      // The survivor presumes it dead 3.5 s after its last heartbeat (by 5 s); these come after.
      after(6000, () => writer.edit());
      after(6500, () => writer.edit());
      after(8000, () => crash(cut, () => true));
      after(9000, () => watcher.edit());
      return 10_000;
    },
  // The same, but the cut instance lives on for minutes (past LAPSE_CATCH_UP_MS) and its client
  // keeps editing all along, with a long quiet spell before the last edits. The reads must go on
  // for as long as it stays lapsed, not stop a minute after its lapse.
  "an instance cut from the bus keeps storing its client's edits for minutes after its lapse, then dies with its client; the room open elsewhere all along reads them from the Store":
    async (run) => {
      const { after, crash } = run;
      const { cut, writer, watcher } = await writerCutFromTheBus(run, 3_600_000);
      for (const at of [6000, 30_000, 70_000, 90_000, 200_000, 420_000, 421_000])
        after(at, () => writer.edit());
      after(423_000, () => crash(cut, () => true));
      after(500_000, () => watcher.edit());
      return 501_000;
    },
  // An instance starts while another is already cut from the bus: it never hears that one, so
  // never sees it lapse. The cut one stores its client's edits for minutes, then dies with its
  // client. The newcomer's room, opened by a watcher, must still read them (UNHEARD_AT_START).
  'an instance that starts after another was cut from the bus reads what that one stores for minutes and dies with':
    async ({ startInstance, addClient, connect, after, note, crash }) => {
      const cut = await startInstance();
      const writer = addClient(true);
      const watcher = addClient(false);
      connect(writer, cut);
      after(200, () => writer.edit());
      after(1000, () => {
        note(`${cut.id} loses the bus for good`);
        cut.bus.outage(3_600_000);
      });
      after(3000, () => {
        void startInstance().then((newcomer) => {
          connect(watcher, newcomer);
          after(500, () => watcher.edit());
        });
      });
      for (const at of [6000, 30_000, 90_000, 200_000]) after(at, () => writer.edit());
      after(201_000, () => crash(cut, () => true));
      after(260_000, () => watcher.edit());
      return 261_000;
    },
};

const SCENARIOS = Number(process.env.HARNESS_SCENARIOS ?? 2000);
/** Read before the clock is installed: while it is, Math.random is the scenarios' seeded one. */
const base = testSeed();

describe('durability harness', () => {
  const clock = new VirtualClock();
  const shared = createShared();
  before(() => clock.install());
  after(() => clock.uninstall());

  const run = async (seed: number, jitterSeed = seed) => {
    try {
      return await runScenario(seed, clock, shared, jitterSeed);
    } finally {
      clock.clear();
    }
  };

  for (const [seed, { what, jitterSeed }] of Object.entries(REGRESSIONS)) {
    const jitter = jitterSeed === undefined ? '' : ` (Math.random seed ${jitterSeed})`;
    test(`regression seed ${seed}${jitter}: ${what}`, async () => {
      await run(Number(seed), jitterSeed);
    });
  }

  for (const [what, plan] of Object.entries(SCRIPTED)) {
    test(`scripted: ${what}`, async () => {
      try {
        await runScenario(1, clock, shared, 1, plan);
      } finally {
        clock.clear();
      }
    });
  }

  test(`${SCENARIOS} seeded scenarios: replicas converge and the Store holds what every survivor held`, async (t) => {
    const count = process.env.TEST_SEED ? 1 : SCENARIOS;
    t.diagnostic(`seeds ${base}…${base + count - 1} (replay one with TEST_SEED=<seed>)`);
    for (let i = 0; i < count; i++) {
      const seed = base + i;
      try {
        await run(seed);
      } catch (error) {
        console.error(`\nharness scenario failed: seed ${seed} (replay with TEST_SEED=${seed})`);
        throw error;
      }
    }
  });
});
