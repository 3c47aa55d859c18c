// One contract suite for every Bus (in-process and Redis), plus what only Redis can do wrong:
// lose its connection and come back.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import pino from 'pino';
import { PrivateRedis, redisUrl, skipUnless, waitUntil } from '../../testing/services.ts';
import type { Bus } from '../src/bus/bus.ts';
import { openBus } from '../src/bus/index.ts';
import { MemoryBus, MemoryHub } from '../src/bus/memory.ts';
import { RedisBus } from '../src/bus/redis.ts';

const redisSkip = await skipUnless('redis');

/** Log lines kept in memory, so a test can check what was said and nothing reaches the console. */
function memoryLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

interface BusFixture {
  name: string;
  skip?: string | undefined;
  /** A bus in `space`: buses of one space see each other's messages, other spaces never. */
  bus(space?: string): Promise<Bus>;
  tearDown(): Promise<void>;
}

function memoryFixture(): BusFixture {
  const hubs = new Map<string, MemoryHub>();
  return {
    name: 'MemoryBus',
    async bus(space = 'main') {
      let hub = hubs.get(space);
      if (!hub) {
        hub = new MemoryHub();
        hubs.set(space, hub);
      }
      return hub.createBus();
    },
    async tearDown() {},
  };
}

function redisFixture(): BusFixture {
  const run = `test-bus-${randomBytes(6).toString('hex')}`;
  const buses: Bus[] = [];
  return {
    name: 'RedisBus',
    skip: redisSkip,
    async bus(space = 'main') {
      const bus = await RedisBus.open({
        url: redisUrl(),
        prefix: `${run}-${space}`,
        logger: memoryLogger().logger,
      });
      buses.push(bus);
      return bus;
    },
    async tearDown() {
      // Pub/sub keeps no keys, so closing the clients leaves nothing behind.
      await Promise.all(buses.map((b) => b.close()));
    },
  };
}

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** Collects what a subscription receives, as text. */
async function collect(bus: Bus, channel: string) {
  const got: string[] = [];
  const unsubscribe = await bus.subscribe(channel, (m) => got.push(text(m)));
  return { got, unsubscribe };
}

function busContract(fixture: BusFixture): void {
  describe(`Bus contract: ${fixture.name}`, { skip: fixture.skip }, () => {
    after(() => fixture.tearDown());

    test('a message of every byte value arrives intact, and so does an empty one', async () => {
      const bus = await fixture.bus();
      const got: Uint8Array[] = [];
      await bus.subscribe('binary', (m) => got.push(Uint8Array.from(m)));
      const all = Uint8Array.from({ length: 256 }, (_, i) => i);
      // A view into a larger buffer, as Yjs hands them out.
      const padded = new Uint8Array(300);
      padded.set(all, 20);
      bus.publish('binary', padded.subarray(20, 276));
      bus.publish('binary', new Uint8Array(0));
      await waitUntil('both messages arrive', () => got.length === 2);
      assert.deepEqual(got[0], all);
      assert.deepEqual(got[1], new Uint8Array(0));
      assert.ok(bus.isHealthy());
    });

    test('a message reaches the subscribers of its channel only', async () => {
      const bus = await fixture.bus();
      const x = await collect(bus, 'chan-x');
      const y = await collect(bus, 'chan-y');
      bus.publish('chan-z', bytes('to-z'));
      bus.publish('chan-y', bytes('to-y'));
      bus.publish('chan-x', bytes('to-x'));
      await waitUntil('x and y got theirs', () => x.got.length > 0 && y.got.length > 0);
      assert.deepEqual(x.got, ['to-x']);
      assert.deepEqual(y.got, ['to-y']);
    });

    test('after unsubscribing, a handler hears nothing; other subscriptions keep theirs', async () => {
      const bus = await fixture.bus();
      const gone = await collect(bus, 'unsub');
      const kept = await collect(bus, 'unsub');
      bus.publish('unsub', bytes('one'));
      await waitUntil('both heard one', () => gone.got.length === 1 && kept.got.length === 1);
      await gone.unsubscribe();
      bus.publish('unsub', bytes('two'));
      await waitUntil('the kept one heard two', () => kept.got.length === 2);
      assert.deepEqual(gone.got, ['one']);
      assert.deepEqual(kept.got, ['one', 'two']);
    });

    test('two buses in one space see each other, in publishing order', async () => {
      const a = await fixture.bus();
      const b = await fixture.bus();
      const atA = await collect(a, 'pair');
      const atB = await collect(b, 'pair');
      for (let i = 0; i < 20; i++) a.publish('pair', bytes(`a${i}`));
      b.publish('pair', bytes('b0'));
      const fromA = Array.from({ length: 20 }, (_, i) => `a${i}`);
      await waitUntil('both heard all', () => atA.got.length === 21 && atB.got.length === 21);
      for (const got of [atA.got, atB.got]) {
        assert.deepEqual(
          got.filter((m) => m.startsWith('a')),
          fromA,
        );
        assert.ok(got.includes('b0'));
      }
    });

    test('buses in different spaces (hubs, prefixes) never hear each other', async () => {
      const main = await fixture.bus('main');
      const other = await fixture.bus('other');
      const atMain = await collect(main, 'shared-name');
      const atOther = await collect(other, 'shared-name');
      other.publish('shared-name', bytes('from-other'));
      main.publish('shared-name', bytes('from-main'));
      await waitUntil('each heard its own', () => atMain.got.length > 0 && atOther.got.length > 0);
      // A second round trip on each side: anything leaked in the first would have arrived by now.
      other.publish('shared-name', bytes('from-other-2'));
      main.publish('shared-name', bytes('from-main-2'));
      await waitUntil('each heard its second', () => atMain.got.length > 1 && atOther.got.length > 1);
      assert.deepEqual(atMain.got, ['from-main', 'from-main-2']);
      assert.deepEqual(atOther.got, ['from-other', 'from-other-2']);
    });

    test('close stops delivery and is safe to repeat', async () => {
      const bus = await fixture.bus();
      const watcher = await fixture.bus();
      const closed = await collect(bus, 'closing');
      const open = await collect(watcher, 'closing');
      await bus.close();
      await bus.close();
      assert.equal(bus.isHealthy(), false);
      watcher.publish('closing', bytes('after'));
      await waitUntil('the open bus heard it', () => open.got.length === 1);
      assert.deepEqual(closed.got, []);
    });
  });
}

busContract(memoryFixture());
busContract(redisFixture());

describe('MemoryBus', () => {
  test('delivers asynchronously, never inside publish', async () => {
    const bus = new MemoryBus();
    const got: string[] = [];
    await bus.subscribe('async', (m) => got.push(text(m)));
    bus.publish('async', bytes('hi'));
    assert.deepEqual(got, []);
    await waitUntil('delivered', () => got.length === 1);
  });

  test('buses on their own private hubs do not share messages', async () => {
    const a = new MemoryBus();
    const b = new MemoryBus();
    const atB = await collect(b, 'private');
    const atA = await collect(a, 'private');
    a.publish('private', bytes('mine'));
    await waitUntil('a heard itself', () => atA.got.length === 1);
    assert.deepEqual(atB.got, []);
  });
});

describe('RedisBus faults', { skip: redisSkip }, () => {
  let redis: PrivateRedis | undefined;
  const buses: Bus[] = [];
  after(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await redis?.stop();
  });

  test('survives Redis being killed and restarted: healthy again, subscriptions restored', async () => {
    redis = await PrivateRedis.start();
    const { logger, lines } = memoryLogger();
    const bus = await RedisBus.open({ url: redis.url, prefix: 'fault', logger });
    buses.push(bus);
    let reconnects = 0;
    let healthyAtReconnect: boolean | undefined;
    bus.onReconnect(() => {
      reconnects++;
      healthyAtReconnect = bus.isHealthy();
    });
    const sub = await collect(bus, 'board');
    bus.publish('board', bytes('before'));
    await waitUntil('the first message arrives', () => sub.got.length === 1);
    assert.ok(bus.isHealthy());

    await redis.kill();
    await waitUntil('the bus notices Redis is gone', () => !bus.isHealthy());
    // Dropped, not queued: it must not turn up late after the reconnect.
    bus.publish('board', bytes('while-down'));

    await redis.start();
    await waitUntil('the bus reconnects', () => reconnects === 1, 30_000);
    assert.equal(healthyAtReconnect, true);
    assert.ok(bus.isHealthy());

    bus.publish('board', bytes('after'));
    await waitUntil('the restored subscription hears again', () => sub.got.includes('after'));
    assert.deepEqual(sub.got, ['before', 'after']);
    assert.equal(reconnects, 1);
    const warnings = lines.filter((l) => l.level === 40);
    assert.equal(warnings.length, 1, 'one warning for the outage, however many retries');
    assert.ok(lines.some((l) => l.msg === 'redis bus reconnected'));
  });
});

describe('openBus', () => {
  test('in-process without a Redis URL', async () => {
    const bus = await openBus({ prefix: 'x', logger: memoryLogger().logger });
    assert.ok(bus instanceof MemoryBus);
    await bus.close();
  });

  test('Redis with one', { skip: redisSkip }, async () => {
    const prefix = `test-bus-${randomBytes(6).toString('hex')}`;
    const bus = await openBus({ redisUrl: redisUrl(), prefix, logger: memoryLogger().logger });
    assert.ok(bus instanceof RedisBus);
    const got = await collect(bus, 'hello');
    bus.publish('hello', bytes('world'));
    await waitUntil('it arrives', () => got.got.length === 1);
    await bus.close();
  });
});
