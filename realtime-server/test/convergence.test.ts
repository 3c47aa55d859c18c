// Seeded randomized convergence, in the spirit of Yjs's own tests: several real clients make
// random edits while randomly disconnecting and reconnecting; afterwards every client, and a
// fresh server reloading the Store, hold identical content. Replay a failure with TEST_SEED.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiClient, connectDoc, type DocClient, shapesJson, waitSynced } from '../../testing/clients.ts';
import { randomEdit } from '../../testing/edits.ts';
import { Random, testSeed } from '../../testing/random.ts';
import { startServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';

const CLIENTS = 5;
const STEPS = 400;

test(`${CLIENTS} clients with random edits, disconnects and reconnects converge, and so does the stored board`, async (t) => {
  const seed = testSeed();
  t.diagnostic(`seed ${seed} (replay with TEST_SEED=${seed})`);
  const random = new Random(seed);
  const server = await startServer();
  const clients: DocClient[] = [];
  try {
    const owner = await new ApiClient(server.url).signup('Owner');
    const boardId = await owner.createBoard();
    for (let i = 0; i < CLIENTS; i++)
      clients.push(connectDoc(server.wsUrl, boardId, { cookie: owner.cookie }));
    await Promise.all(clients.map((c) => waitSynced(c)));
    for (let step = 0; step < STEPS; step++) {
      const index = random.int(CLIENTS);
      const client = clients[index]!;
      if (random.chance(0.04)) {
        if (client.provider.wsconnected || client.provider.wsconnecting) client.provider.disconnect();
        else client.provider.connect();
      } else {
        randomEdit(random, client.doc, `c${index}`, step);
      }
      // Let the network interleave with the edits now and then (kept on purpose: the fuzzing).
      if (random.chance(0.2)) await new Promise((resolve) => setTimeout(resolve, random.int(5)));
    }
    for (const client of clients) if (!client.provider.shouldConnect) client.provider.connect();
    await waitUntil(
      'every client converged',
      () => clients.every((c) => c.provider.synced && shapesJson(c.doc) === shapesJson(clients[0]!.doc)),
      30_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message} (seed ${seed})`);
    });
    const final = shapesJson(clients[0]!.doc);
    const room = server.app.rooms.get(boardId)!;
    assert.equal(shapesJson(room.doc), final, `server replica differs (seed ${seed})`);
    for (const client of clients) client.destroy();
    clients.length = 0;
    await server.close({ keepData: true });

    const fresh = await startServer({ dataDir: server.dataDir });
    try {
      const reader = connectDoc(fresh.wsUrl, boardId, { cookie: owner.cookie });
      await waitSynced(reader);
      assert.equal(shapesJson(reader.doc), final, `stored board differs (seed ${seed})`);
      reader.destroy();
    } finally {
      await fresh.close();
    }
  } finally {
    for (const client of clients) client.destroy();
    await server.close().catch(() => undefined);
  }
});
