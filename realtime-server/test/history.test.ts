// Version history end to end (docs/api.md §12): an owner and an editor edit through real
// WebsocketProvider clients with their own tokens, a viewer watches; named versions, listing with
// authors, export.json at a version, revert one person since a time, restore live, the versions
// that restore and revert record, the 403s, a restart; and the same on two instances behind
// Redis and PostgreSQL with the calls made on one instance while the clients sit on the other.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Version } from '@tandem/shared';
import * as Y from 'yjs';
import {
  ApiClient,
  connectDoc,
  type DocClient,
  type StoredParts,
  storedDoc,
  waitSynced,
  whenStored,
} from '../../testing/clients.ts';
import { TestCluster } from '../../testing/cluster.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { skipUnless, waitUntil } from '../../testing/services.ts';

const shape = (createdBy: string, x: number, z: string) => ({
  type: 'sticky',
  x,
  y: 0,
  w: 100,
  h: 100,
  rotation: 0,
  color: 'yellow',
  z,
  createdBy,
});

function add(client: DocClient, id: string, fields: Record<string, unknown>, text = id): void {
  client.doc.transact(() => {
    const m = new Y.Map<unknown>();
    for (const [k, v] of Object.entries(fields)) m.set(k, v);
    m.set('text', new Y.Text(text));
    client.doc.getMap('shapes').set(id, m);
  });
}

const shapesOf = (doc: Y.Doc) => doc.getMap<Y.Map<unknown>>('shapes');

/** id → x (and y when not 0), the board in a form easy to compare. */
function board(doc: Y.Doc): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, m] of shapesOf(doc).entries()) out[id] = `${m.get('x')},${m.get('y')},${m.get('color')}`;
  return out;
}

function boardOfExport(exported: { shapes: { id: string; x: number; y: number; color: string }[] }) {
  return Object.fromEntries(exported.shapes.map((s) => [s.id, `${s.x},${s.y},${s.color}`]));
}

const sorted = (o: Record<string, string>) => JSON.stringify(Object.entries(o).sort());

async function converge(clients: DocClient[], expected: Record<string, string>, what: string) {
  await waitUntil(what, () => clients.every((c) => sorted(board(c.doc)) === sorted(expected)), 10_000);
}

interface Setup {
  /** Where REST calls go. */
  api: string;
  /** Where the document clients connect. */
  ws: string;
  origin: string;
}

/** Waits until each client's instance confirms that what it sent is in the Store (the saved message). */
const stored = (clients: DocClient[]) => Promise.all(clients.map((client) => whenStored(client)));

async function scenario(setup: Setup, restart?: () => Promise<Setup>) {
  const ada = await new ApiClient(setup.api, setup.origin).signup('Ada');
  const ben = await new ApiClient(setup.api, setup.origin).signup('Ben');
  const vic = await new ApiClient(setup.api, setup.origin).signup('Vic');
  const boardId = await ada.createBoard('History');
  await ada.share(boardId, ben, 'editor');
  await ada.share(boardId, vic, 'viewer');

  const adaDoc = connectDoc(setup.ws, boardId, { token: await ada.token(boardId) });
  const benDoc = connectDoc(setup.ws, boardId, { token: await ben.token(boardId) });
  const clients = [adaDoc, benDoc];
  try {
    await Promise.all(clients.map((c) => waitSynced(c)));
    add(adaDoc, 'a1', shape(ada.userId, 10, 'a'));
    add(adaDoc, 'a2', shape(ada.userId, 20, 'b'));
    add(benDoc, 'b1', shape(ben.userId, 30, 'c'));
    const planA = { a1: '10,0,yellow', a2: '20,0,yellow', b1: '30,0,yellow' };
    await converge(clients, planA, 'first edits everywhere');
    await stored(clients);

    // A named version, listed with both authors, also for the viewer.
    const named = await ada.call<{ version: Version }>('POST', `/api/boards/${boardId}/versions`, {
      label: 'Plan A',
    });
    assert.equal(named.status, 201, JSON.stringify(named.body));
    assert.equal(named.body.version.label, 'Plan A');
    const listed = await vic.call<{ versions: Version[]; unrecordedAuthors?: string[] }>(
      'GET',
      `/api/boards/${boardId}/versions`,
    );
    assert.equal(listed.status, 200);
    const planAListed = listed.body.versions.find((v) => v.id === named.body.version.id);
    assert.ok(planAListed, 'the viewer sees the named version');
    assert.deepEqual(planAListed.authors.map((a) => a.name).sort(), ['Ada', 'Ben']);
    assert.deepEqual(planAListed.stats, { added: 3, changed: 0, removed: 0 });
    assert.deepEqual(listed.body.unrecordedAuthors, [], 'every edit is in a version');

    // Its export.json is the board at that time.
    const exported = await vic.call<{ shapes: { id: string; x: number; y: number; color: string }[] }>(
      'GET',
      `/api/boards/${boardId}/versions/${named.body.version.id}/export.json`,
    );
    assert.equal(exported.status, 200);
    assert.equal(sorted(boardOfExport(exported.body)), sorted(planA));

    // Later edits: Ben's (to be reverted) and Ada's (kept).
    // Kept on purpose: `since` must fall strictly between the stored times of the edits before and
    // after it, so a little real time has to pass on each side (no event marks it).
    await new Promise((resolve) => setTimeout(resolve, 20));
    const since = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    add(benDoc, 'b2', shape(ben.userId, 40, 'd'));
    benDoc.doc.transact(() => shapesOf(benDoc.doc).get('a1')?.set('x', 100));
    benDoc.doc.transact(() => shapesOf(benDoc.doc).delete('a2'));
    add(adaDoc, 'a3', shape(ada.userId, 50, 'e'));
    const edited = { a1: '100,0,yellow', b1: '30,0,yellow', b2: '40,0,yellow', a3: '50,0,yellow' };
    await converge(clients, edited, 'later edits everywhere');
    adaDoc.doc.transact(() => shapesOf(adaDoc.doc).get('b1')?.set('color', 'blue'));
    const edited2 = { ...edited, b1: '30,0,blue' };
    await converge(clients, edited2, "Ada's colour change everywhere");
    await stored(clients);

    // No version holds these edits yet: the first page of the list names their authors (the
    // History panel's People), a later page does not.
    const pending = await vic.call<{ versions: Version[]; unrecordedAuthors?: string[] }>(
      'GET',
      `/api/boards/${boardId}/versions`,
    );
    assert.deepEqual(pending.body.unrecordedAuthors?.sort(), [ada.userId, ben.userId].sort());
    const later = await vic.call<{ unrecordedAuthors?: string[] }>(
      'GET',
      `/api/boards/${boardId}/versions?before=${named.body.version.id}`,
    );
    assert.equal(later.body.unrecordedAuthors, undefined);

    // Roles: an editor may not revert, a viewer may not restore.
    const benReverts = await ben.call('POST', `/api/boards/${boardId}/revert`, {
      userId: ada.userId,
      since: since.toISOString(),
    });
    assert.equal(benReverts.status, 403);
    const vicRestores = await vic.call(
      'POST',
      `/api/boards/${boardId}/versions/${named.body.version.id}/restore`,
    );
    assert.equal(vicRestores.status, 403);
    const vicSaves = await vic.call('POST', `/api/boards/${boardId}/versions`, { label: 'x' });
    assert.equal(vicSaves.status, 403);

    // A dry run says how many changes the revert would undo (the confirmation's count), and
    // changes nothing: Ben's three edits since `since`, none of Ada's.
    const count = await ada.call<{ changes: number }>('POST', `/api/boards/${boardId}/revert`, {
      userId: ben.userId,
      since: since.toISOString(),
      dryRun: true,
    });
    assert.equal(count.status, 200, JSON.stringify(count.body));
    assert.deepEqual(count.body, { changes: 3 });
    const adaCount = await ada.call<{ changes: number }>('POST', `/api/boards/${boardId}/revert`, {
      userId: ada.userId,
      since: since.toISOString(),
      dryRun: true,
    });
    assert.deepEqual(adaCount.body, { changes: 2 });
    await converge(clients, edited2, 'a dry run changes nothing');

    // The owner reverts Ben since `since`: his edits go, Ada's stay, on both live clients.
    const reverted = await ada.call<{ version: Version }>('POST', `/api/boards/${boardId}/revert`, {
      userId: ben.userId,
      since: since.toISOString(),
    });
    assert.equal(reverted.status, 200, JSON.stringify(reverted.body));
    const afterRevert = { a1: '10,0,yellow', a2: '20,0,yellow', b1: '30,0,blue', a3: '50,0,yellow' };
    await converge(clients, afterRevert, 'revert seen live by both');

    // The editor restores Plan A live.
    const restored = await ben.call<{ version: Version }>(
      'POST',
      `/api/boards/${boardId}/versions/${named.body.version.id}/restore`,
    );
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    await converge(clients, planA, 'restore seen live by both');

    // Restore and revert are versions themselves, and one was recorded before each.
    const all = await vic.call<{ versions: Version[] }>('GET', `/api/boards/${boardId}/versions`);
    const labels = all.body.versions.map((v) => v.label ?? '');
    assert.ok(labels[0]?.startsWith('Restored Plan A'), labels.join(' | '));
    assert.ok(
      labels.some((l) => l.startsWith("Undid Ben's changes since")),
      labels.join(' | '),
    );
    // Named, before the revert, the revert, the restore (the revert's version is already the
    // board as it was before the restore, so no second one is recorded for it).
    assert.equal(all.body.versions.length, 4, labels.join(' | '));
    const beforeRestore = await vic.call<{ shapes: { id: string; x: number; y: number; color: string }[] }>(
      'GET',
      `/api/boards/${boardId}/versions/${all.body.versions[1]?.id}/export.json`,
    );
    assert.equal(sorted(boardOfExport(beforeRestore.body)), sorted(afterRevert));
    const beforeRevert = await vic.call<{ shapes: { id: string; x: number; y: number; color: string }[] }>(
      'GET',
      `/api/boards/${boardId}/versions/${all.body.versions[2]?.id}/export.json`,
    );
    assert.equal(sorted(boardOfExport(beforeRevert.body)), sorted(edited2));
    const revertVersion = all.body.versions.find((v) => v.id === reverted.body.version.id);
    assert.deepEqual(
      revertVersion?.authors.map((a) => a.name),
      ['Ada'],
    );
    // Paging: `before` continues after the last one seen.
    const page1 = await vic.call<{ versions: Version[] }>('GET', `/api/boards/${boardId}/versions?limit=2`);
    assert.equal(page1.body.versions.length, 2);
    const page2 = await vic.call<{ versions: Version[] }>(
      'GET',
      `/api/boards/${boardId}/versions?limit=2&before=${page1.body.versions[1]?.id}`,
    );
    assert.deepEqual(
      page2.body.versions.map((v) => v.id),
      all.body.versions.slice(2, 4).map((v) => v.id),
    );
    await stored(clients);

    if (restart) {
      for (const c of clients) c.destroy();
      clients.length = 0;
      const again = await restart();
      const vic2 = new ApiClient(again.api, again.origin);
      vic2.cookie = vic.cookie;
      const list2 = await vic2.call<{ versions: Version[] }>('GET', `/api/boards/${boardId}/versions`);
      assert.deepEqual(
        list2.body.versions.map((v) => [v.id, v.label, v.authors.map((a) => a.id)]),
        all.body.versions.map((v) => [v.id, v.label, v.authors.map((a) => a.id)]),
      );
      const exported2 = await vic2.call<{ shapes: { id: string; x: number; y: number; color: string }[] }>(
        'GET',
        `/api/boards/${boardId}/versions/${named.body.version.id}/export.json`,
      );
      assert.equal(sorted(boardOfExport(exported2.body)), sorted(planA));
      const viewer = connectDoc(again.ws, boardId, { token: await vic2.token(boardId) });
      clients.push(viewer);
      await waitSynced(viewer);
      await converge([viewer], planA, 'the restored board after a restart');
    }
  } finally {
    for (const c of clients) c.destroy();
  }
}

/**
 * A person's edits undone twice: the second revert undoes only what came after the first. A
 * text Ben rewrote in place came back twice ("Ship itShip it") when his edits were undone again.
 */
async function revertAgain(setup: Setup, storeOf: () => { loadDoc(id: string): Promise<StoredParts> }) {
  const ada = await new ApiClient(setup.api, setup.origin).signup('Ada');
  const ben = await new ApiClient(setup.api, setup.origin).signup('Ben');
  const boardId = await ada.createBoard('Twice');
  await ada.share(boardId, ben, 'editor');
  const adaDoc = connectDoc(setup.ws, boardId, { token: await ada.token(boardId) });
  const benDoc = connectDoc(setup.ws, boardId, { token: await ben.token(boardId) });
  const clients = [adaDoc, benDoc];
  const textOf = (doc: Y.Doc, id: string) =>
    (shapesOf(doc).get(id)?.get('text') as Y.Text | undefined)?.toString();
  const revert = (since: string, dryRun?: boolean) =>
    ada.call<{ changes?: number }>('POST', `/api/boards/${boardId}/revert`, {
      userId: ben.userId,
      since,
      ...(dryRun ? { dryRun } : {}),
    });
  try {
    await Promise.all(clients.map((c) => waitSynced(c)));
    add(adaDoc, 'note', shape(ada.userId, 10, 'a'), 'Ship it');
    await waitUntil('Ben has the note', () => textOf(benDoc.doc, 'note') === 'Ship it');
    await stored(clients);
    const since = new Date(Date.now() - 500).toISOString();

    // Ben rewrites the note in place, as the editor (and the content API's PATCH) does.
    benDoc.doc.transact(() => {
      const text = shapesOf(benDoc.doc).get('note')?.get('text') as Y.Text;
      text.delete(0, text.length);
      text.insert(0, 'Ship it (Ben)');
    });
    await stored(clients);
    assert.equal((await revert(since)).status, 200);
    await waitUntil('the first revert', () => clients.every((c) => textOf(c.doc, 'note') === 'Ship it'));

    // Ben adds a note; undoing his changes since the same time again takes only that back.
    add(benDoc, 'later', shape(ben.userId, 200, 'b'));
    await waitUntil("Ada has Ben's later note", () => shapesOf(adaDoc.doc).has('later'));
    await stored(clients);
    assert.equal((await revert(since, true)).body.changes, 1, 'the dry run counts the later note only');
    assert.equal((await revert(since)).status, 200);
    await waitUntil('the second revert', () => clients.every((c) => !shapesOf(c.doc).has('later')));
    for (const c of clients) assert.equal(textOf(c.doc, 'note'), 'Ship it', 'the text is not put back twice');
    assert.equal((await revert(since, true)).body.changes, 0, 'nothing left to undo');
  } finally {
    for (const c of clients) c.destroy();
  }
  // The Store holds the same once everyone has gone.
  const doc = await storedDoc(storeOf(), boardId);
  assert.equal(textOf(doc, 'note'), 'Ship it');
  assert.equal(shapesOf(doc).has('later'), false);
  doc.destroy();
}

describe('version history (SQLite, one instance)', () => {
  let server: TestServer | null = null;
  after(async () => server?.close());

  test('named version, authors, export, revert, restore, 403s, and a restart', async () => {
    server = await startServer();
    const dataDir = server.dataDir;
    const first = server;
    await scenario({ api: first.url, ws: first.wsUrl, origin: first.origin }, async () => {
      await first.close({ keepData: true });
      server = await startServer({ dataDir });
      return { api: server.url, ws: server.wsUrl, origin: server.origin };
    });
  });

  test("undoing a person's changes again undoes only what came after the first revert", async () => {
    const own = await startServer();
    try {
      await revertAgain({ api: own.url, ws: own.wsUrl, origin: own.origin }, () => own.store);
    } finally {
      await own.close();
    }
  });
});

const clusterSkip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));

describe('version history (two instances, PostgreSQL and Redis)', { skip: clusterSkip }, () => {
  const cluster = new TestCluster();
  after(async () => cluster.close());

  test('calls on one instance, clients on the other, everyone converges; survives a restart', async () => {
    const one = await cluster.start();
    const two = await cluster.start();
    // One public origin for both (as behind a balancer): cookies and tokens work on either.
    await scenario({ api: one.url, ws: two.wsUrl, origin: one.origin }, async () => {
      await cluster.stop(two);
      const three = await cluster.start();
      return { api: one.url, ws: three.wsUrl, origin: one.origin };
    });
  });

  test("undoing a person's changes again, called on one instance while the clients sit on another", async () => {
    const one = await cluster.start();
    const two = await cluster.start();
    await revertAgain({ api: one.url, ws: two.wsUrl, origin: one.origin }, () => one.store);
  });
});

test('a board closing as the server stops still gets its version: shutdown waits for rooms being unloaded', async () => {
  const first = await startServer();
  const dataDir = first.dataDir;
  const owner = await new ApiClient(first.url, first.origin).signup('Owner');
  const boardId = await owner.createBoard('Closing');
  const client = connectDoc(first.wsUrl, boardId, { cookie: owner.cookie, origin: first.origin });
  await waitSynced(client);
  client.doc.getMap('shapes').set('a', new Y.Map([['kind', 'rect']]));
  await whenStored(client);
  client.destroy();
  // The last person left: the room leaves the map and, closing, records the board's version.
  await waitUntil('the room is unloading', () => first.app.rooms.get(boardId) === undefined, 10_000, 1);
  await first.close({ keepData: true });

  const again = await startServer({ dataDir });
  try {
    const versions = await again.store.listVersions(boardId, null, 10);
    assert.equal(versions.length, 1, 'the version recorded as the board closed');
    assert.equal(versions[0]?.kind, 'auto');
  } finally {
    await again.close();
  }
});
