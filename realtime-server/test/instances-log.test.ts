// What an operator reads when another instance dies or comes back: the log line names this
// instance as `instance` (every line does) and the other one as `peer`. Both were `instance`, and a
// JSON parser keeps the last duplicate key: "instance heartbeat lapsed; presuming it dead" read as
// if the dead instance had written it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { waitUntil } from '../../testing/services.ts';
import { HEARTBEAT_LAPSE_MS, Instances } from '../src/bus/instances.ts';
import { MemoryBus, MemoryHub } from '../src/bus/memory.ts';

test('a lapsed or returning instance is logged as peer, under this instance’s own name', async () => {
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { level: 'warn', base: { instance: 'tandem-1' } },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const instances = new Instances(new MemoryBus(new MemoryHub()), 'tandem-1', log);
  await instances.start();
  try {
    instances.heard('tandem-2');
    // tandem-2 went silent: its last heartbeat is older than the lapse.
    const internals = instances as unknown as { lastHeard: Map<string, number>; tick(): void };
    internals.lastHeard.set('tandem-2', Date.now() - HEARTBEAT_LAPSE_MS - 1000);
    internals.tick();
    instances.heard('tandem-2');
    const lapsed = lines.find((l) => String(l.msg).includes('presuming it dead'));
    const returned = lines.find((l) => String(l.msg).includes('heard from again'));
    for (const line of [lapsed, returned]) {
      assert.ok(line, `logged: ${JSON.stringify(lines)}`);
      assert.equal(line.instance, 'tandem-1', 'the line is this instance’s');
      assert.equal(line.peer, 'tandem-2', 'and names the other one');
    }
  } finally {
    await instances.stop();
  }
});

// A graceful stop says goodbye once its rooms are stored: the others forget it at once, as
// "left", and do not treat it as a lapse (which would start reading the Store for what it might
// have stored while cut off from the bus, every few seconds for as long as it stays away).
test('an instance that stops gracefully is forgotten at once as left, not lapsed; one that stops without a goodbye lapses', async () => {
  const silent = pino({ level: 'silent' });
  const hub = new MemoryHub();
  const a = new Instances(new MemoryBus(hub), 'tandem-a', silent);
  const b = new Instances(new MemoryBus(hub), 'tandem-b', silent);
  const c = new Instances(new MemoryBus(hub), 'tandem-c', silent);
  const departures: string[] = [];
  a.onLapse((instance, how) => departures.push(`${instance} ${how}`));
  await a.start();
  await b.start();
  await c.start();
  try {
    await waitUntil('a hears b and c', () => a.aliveCount() === 2);
    await b.stop(true);
    await waitUntil('b is forgotten', () => departures.length === 1);
    assert.deepEqual(departures, ['tandem-b left']);
    assert.equal(a.aliveCount(), 1, 'c is still there');
    // c stops without a goodbye (its rooms not all stored): a presumes it dead after the lapse.
    await c.stop(false);
    const internals = a as unknown as { lastHeard: Map<string, number>; tick(): void };
    internals.lastHeard.set('tandem-c', Date.now() - HEARTBEAT_LAPSE_MS - 1000);
    internals.tick();
    assert.deepEqual(departures, ['tandem-b left', 'tandem-c lapsed']);
  } finally {
    await a.stop();
    await b.stop();
    await c.stop();
  }
});
