// Seeded randomized convergence, in the spirit of Yjs's own tests: several real clients make
// random edits while randomly disconnecting and reconnecting; afterwards every client, and a
// fresh server reloading the Store, hold identical content. Replay a failure with TEST_SEED.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiPaths, type LinkAnswer, type PublicTokenAnswer } from '@tandem/shared';
import * as Y from 'yjs';
import { ApiClient, connectDoc, type DocClient, shapesJson, waitSynced } from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { randomEdit } from '../../testing/edits.ts';
import { Random, testSeed } from '../../testing/random.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { skipUnless, waitUntil } from '../../testing/services.ts';

const STEPS = 400;

/** What a client holds, for a failure's message: connection, sync, waiting updates, state vector. */
function clientState(client: DocClient): string {
  const { store } = client.doc as unknown as { store: { pendingStructs: unknown; pendingDs: unknown } };
  return JSON.stringify({
    connected: client.provider.wsconnected,
    synced: client.provider.synced,
    closes: client.closes,
    pendingStructs: store.pendingStructs !== null,
    pendingDeletes: store.pendingDs !== null,
    stateVector: Object.fromEntries(Y.decodeStateVector(Y.encodeStateVector(client.doc))),
    shapes: client.doc.getMap('shapes').size,
  });
}

/**
 * `editors` clients make random edits (and `viewers` only watch), each randomly disconnecting and
 * reconnecting, spread over `servers` in turn; then everyone must hold what the first editor holds.
 * Returns that board, as JSON.
 */
async function fuzz(
  random: Random,
  seed: number,
  servers: TestServer[],
  auth: { boardId: string; cookie: string; viewerToken?: () => Promise<string> },
  counts: { editors: number; viewers: number },
): Promise<{ final: string; clients: DocClient[] }> {
  const clients: DocClient[] = [];
  const editors: DocClient[] = [];
  for (let i = 0; i < counts.editors; i++)
    editors.push(connectDoc(servers[i % servers.length]!.wsUrl, auth.boardId, { cookie: auth.cookie }));
  clients.push(...editors);
  for (let i = 0; i < counts.viewers; i++) {
    const token = await auth.viewerToken!();
    clients.push(connectDoc(servers[(i + 1) % servers.length]!.wsUrl, auth.boardId, { token }));
  }
  try {
    await Promise.all(clients.map((c) => waitSynced(c)));
    for (let step = 0; step < STEPS; step++) {
      const index = random.int(clients.length);
      const client = clients[index]!;
      if (random.chance(0.04)) {
        if (client.provider.wsconnected || client.provider.wsconnecting) client.provider.disconnect();
        else client.provider.connect();
      } else if (index < editors.length) {
        randomEdit(random, client.doc, `c${index}`, step);
      }
      // Let the network interleave with the edits now and then (kept on purpose: the fuzzing).
      if (random.chance(0.2)) await new Promise((resolve) => setTimeout(resolve, random.int(5)));
    }
    for (const client of clients) if (!client.provider.shouldConnect) client.provider.connect();
    await waitUntil(
      'every client converged',
      () => clients.every((c) => c.provider.synced && shapesJson(c.doc) === shapesJson(editors[0]!.doc)),
      30_000,
    ).catch((error: Error) => {
      const differ = clients.flatMap((c, i) =>
        shapesJson(c.doc) === shapesJson(editors[0]!.doc) ? [] : [i],
      );
      // A seed does not replay the network's timing: say what each differing client holds.
      const states = differ.map((i) => `client ${i}: ${clientState(clients[i]!)}`);
      throw new Error(
        `${error.message} (seed ${seed}; clients differing from the first: ${differ.join(', ')}; ` +
          `first: ${clientState(editors[0]!)}; ${states.join('; ')})`,
      );
    });
    for (const client of clients) assert.deepEqual(client.closes, [], `nobody was cut off (seed ${seed})`);
    return { final: shapesJson(editors[0]!.doc), clients };
  } catch (error) {
    for (const client of clients) client.destroy();
    throw error;
  }
}

test('5 clients with random edits, disconnects and reconnects converge, and so does the stored board', async (t) => {
  const seed = testSeed();
  t.diagnostic(`seed ${seed} (replay with TEST_SEED=${seed})`);
  const random = new Random(seed);
  const server = await startServer();
  try {
    const owner = await new ApiClient(server.url).signup('Owner');
    const boardId = await owner.createBoard();
    const { final, clients } = await fuzz(
      random,
      seed,
      [server],
      { boardId, cookie: owner.cookie },
      {
        editors: 5,
        viewers: 0,
      },
    );
    const room = server.app.rooms.get(boardId)!;
    assert.equal(shapesJson(room.doc), final, `server replica differs (seed ${seed})`);
    for (const client of clients) client.destroy();
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
    await server.close().catch(() => undefined);
  }
});

test('on two instances, 4 editors and 2 anonymous viewers with random edits, disconnects and reconnects converge, and so does the stored board', {
  skip: (await skipUnless('postgres')) ?? (await skipUnless('redis')),
}, async (t) => {
  // Each instance relays the other's updates as they come over the bus, and sends its anonymous
  // viewers a window's updates joined into one (documents/fanout.ts): both paths that send on
  // updates the server joined, to replicas that may lack what they delete.
  const seed = testSeed();
  t.diagnostic(`seed ${seed} (replay with TEST_SEED=${seed})`);
  const random = new Random(seed);
  const cluster = new TestCluster();
  try {
    const servers = [await cluster.start(), await cluster.start()];
    const owner = await new ApiClient(servers[0]!.url).signup('Owner');
    const boardId = await owner.createBoard();
    const link = await owner.call<LinkAnswer>('POST', apiPaths.links(boardId), { role: 'public-viewer' });
    assert.equal(link.status, 201);
    const viewerToken = async () => {
      const answer = await new ApiClient(servers[1]!.url).call<PublicTokenAnswer>(
        'POST',
        apiPaths.publicToken(link.body.link.token),
      );
      assert.equal(answer.status, 200);
      return answer.body.token;
    };
    const { final, clients } = await fuzz(
      random,
      seed,
      servers,
      { boardId, cookie: owner.cookie, viewerToken },
      {
        editors: 4,
        viewers: 2,
      },
    );
    for (const [i, server] of servers.entries())
      assert.equal(
        shapesJson(server.app.rooms.get(boardId)!.doc),
        final,
        `instance ${i} differs (seed ${seed})`,
      );
    for (const client of clients) client.destroy();
    // Both rooms store what they hold and close once everyone has gone.
    await waitUntil('both rooms closed', () => servers.every((s) => !s.app.rooms.get(boardId)), 15_000);

    const reader = connectDoc(servers[1]!.wsUrl, boardId, { cookie: owner.cookie });
    try {
      await waitSynced(reader);
      assert.equal(shapesJson(reader.doc), final, `stored board differs (seed ${seed})`);
    } finally {
      reader.destroy();
    }
  } finally {
    await cluster.close();
  }
});
