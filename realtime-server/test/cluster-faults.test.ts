// Faults across real server processes: an instance killed with SIGKILL mid-edit, and seeded
// random convergence across three instances with random instance choice, disconnects and
// restarts. Real Redis and PostgreSQL.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import * as Y from 'yjs';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  presence,
  shapesJson,
  waitSynced,
} from '../../testing/clients.ts';
import { randomEdit } from '../../testing/edits.ts';
import { clusterEnv, type ServerProcess, startProcess } from '../../testing/process.ts';
import { Random, testSeed } from '../../testing/random.ts';
import { dropSchema, skipUnless, waitUntil } from '../../testing/services.ts';

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

describe('instance faults', { skip }, () => {
  const schema = `test_faults_${randomBytes(5).toString('hex')}`;
  const env = {
    ...clusterEnv(schema),
    PERSIST_DEBOUNCE_MS: '100',
    PERSIST_MAX_DELAY_MS: '500',
  };
  const processes: ServerProcess[] = [];
  const clients: DocClient[] = [];
  const start = async (port?: number) => {
    const server = await startProcess(env, port);
    processes.push(server);
    return server;
  };
  after(async () => {
    for (const client of clients) client.destroy();
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    await dropSchema(schema);
  });

  test('kill -9 of an instance mid-edit: its clients reconnect to another and lose nothing; its presences vanish from the others within seconds', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    const owner = await new ApiClient(a.url).signup('Owner');
    const boardId = await owner.createBoard();
    const writer = connectDoc(a.wsUrl, boardId, { cookie: owner.cookie });
    const observer = connectDoc(b.wsUrl, boardId, { cookie: owner.cookie });
    clients.push(writer, observer);
    await Promise.all([waitSynced(writer), waitSynced(observer)]);
    writer.provider.awareness.setLocalState(
      presence({ id: owner.userId, name: 'Owner', color: '#000000' }, 4242, 0),
    );
    const seesWriter = () =>
      [...observer.provider.awareness.getStates().values()].some((s) => s.cursor?.x === 4242);
    await waitUntil('observer sees the writer', seesWriter);
    for (let i = 0; i < 30; i++) addShape(writer.doc, `before-${i}`, { type: 'rect', x: i, y: 0 });
    await a.stop('SIGKILL');
    // Edits the writer makes while its instance is gone stay in its doc.
    for (let i = 0; i < 10; i++) addShape(writer.doc, `after-${i}`, { type: 'rect', x: i, y: 1 });
    await waitUntil(
      'the dead instance’s presence vanished (heartbeat lapse, well before the 30 s awareness timeout)',
      () => !seesWriter(),
      // Generous for a loaded machine, yet well below the 30 s after which clients drop it anyway.
      20_000,
    );
    // The writer's client reconnects to the surviving instance, as behind a load balancer.
    writer.provider.destroy();
    const reconnected = connectDoc(b.wsUrl, boardId, { cookie: owner.cookie }, { doc: writer.doc });
    clients.push(reconnected);
    await waitSynced(reconnected);
    await waitUntil(
      'nothing the writer held is lost',
      () => shapesJson(observer.doc) === shapesJson(writer.doc),
    );
    assert.equal(observer.doc.getMap('shapes').size, 40);
  });

  test('seeded random convergence across three instances with random instance choice, disconnects and restarts', async (t) => {
    const seed = testSeed();
    t.diagnostic(`seed ${seed} (replay with TEST_SEED=${seed})`);
    const random = new Random(seed);
    const instances = await Promise.all([start(), start(), start()]);
    const owner = await new ApiClient(instances[0]!.url).signup('Owner');
    const boardId = await owner.createBoard();
    const docs = Array.from({ length: 5 }, () => new Y.Doc());
    const connections: (DocClient | null)[] = docs.map((doc) => {
      const client = connectDoc(random.pick(instances).wsUrl, boardId, { cookie: owner.cookie }, { doc });
      clients.push(client);
      return client;
    });
    for (let step = 0; step < 300; step++) {
      const index = random.int(docs.length);
      const roll = random.next();
      if (roll < 0.04) {
        // Move this client to a random instance.
        connections[index]?.provider.destroy();
        const instance = random.pick(instances.filter((i) => i.child.exitCode === null));
        const client = connectDoc(instance.wsUrl, boardId, { cookie: owner.cookie }, { doc: docs[index]! });
        clients.push(client);
        connections[index] = client;
      } else if (roll < 0.05) {
        // Restart a random instance (graceful), on the same port.
        const position = random.int(instances.length);
        const old = instances[position]!;
        await old.stop('SIGTERM');
        instances[position] = await start(old.port);
      } else {
        randomEdit(random, docs[index]!, `c${index}`, step);
      }
      // Kept on purpose: random pauses let the network interleave with the edits (the fuzzing).
      if (random.chance(0.2)) await new Promise((resolve) => setTimeout(resolve, random.int(5)));
    }
    // Everyone reconnects to a live instance; every replica must end identical.
    for (let i = 0; i < docs.length; i++) {
      connections[i]?.provider.destroy();
      const client = connectDoc(
        random.pick(instances).wsUrl,
        boardId,
        { cookie: owner.cookie },
        { doc: docs[i]! },
      );
      clients.push(client);
      connections[i] = client;
    }
    await waitUntil(
      `replicas converge (seed ${seed})`,
      () => connections.every((c) => c?.provider.synced && shapesJson(c.doc) === shapesJson(docs[0]!)),
      30_000,
    );
    // A fresh instance loading the board from the Store (after the others stored it) agrees.
    const expected = shapesJson(docs[0]!);
    for (const instance of instances) await instance.stop('SIGTERM');
    const fresh = await start();
    const reader = connectDoc(fresh.wsUrl, boardId, { cookie: owner.cookie });
    clients.push(reader);
    await waitSynced(reader);
    assert.equal(shapesJson(reader.doc), expected, `stored board differs (seed ${seed})`);
  });
});
