// Pages (docs/api.md §17) on the server: each page is its own document and Room
// (`/yjs/:boardId/:pageId`), stored and relayed like a board's, while access stays the board's.
// Real WebsocketProvider clients on two instances sharing Redis and PostgreSQL: edits stay on
// their page; a removed member is cut off from every page at once; a board's deletion closes
// every page; a SIGKILLed instance loses nothing on either page; and a board stored by the code
// from before pages (a saved SQLite file, test/fixtures/pre-pages, made by that code) opens as
// page 1 with its shapes, versions and vote.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  addPageEntry,
  apiPaths,
  CloseCode,
  deletePageEntry,
  docKey,
  MAIN_PAGE_ID,
  META_KEY,
  movePageEntry,
  PAGES_KEY,
  readPages,
  renamePageEntry,
} from '@tandem/shared';
import * as Y from 'yjs';
import {
  ApiClient,
  addShape,
  connectDoc,
  type DocClient,
  storedShapes,
  waitSynced,
  whenStored,
} from '../../testing/clients.ts';
import { withTwoInstances } from '../../testing/cluster.ts';
import { type ServerProcess, startProcess } from '../../testing/process.ts';
import { startServer } from '../../testing/server.ts';
import { dropSchema, postgresUrl, redisUrl, skipUnless, waitUntil } from '../../testing/services.ts';
import { PostgresStore } from '../src/store/postgres.ts';
import { partsOf } from '../src/store/store.ts';

const skip = (await skipUnless('postgres')) ?? (await skipUnless('redis'));
/**
 * Lists pages `ids` on the board (its first document), stored before it returns: the server opens
 * only a page the board lists (docs/api.md §17).
 */
async function listPages(wsUrl: string, cookie: string, board: string, ids: string[]): Promise<void> {
  const first = connectDoc(wsUrl, board, { cookie });
  try {
    await waitSynced(first);
    for (const id of ids) addPageEntry(first.doc, id, '');
    await whenStored(first);
  } finally {
    first.destroy();
  }
}
const shapeIds = (client: DocClient) => [...client.doc.getMap('shapes').keys()].sort();
const storedIds = async (store: PostgresStore, key: string) =>
  Object.keys(JSON.parse(await storedShapes(store, key)) as object).sort();

describe('pages on two instances (Redis + PostgreSQL)', { skip, concurrency: false }, () => {
  // The access check's periodic pass is pushed out of the way: only the control path (the bus
  // message that reaches every instance) can close a removed member's pages within the test.
  const { cluster } = withTwoInstances({ ACCESS_CHECK_MS: '3600000' });
  const clients: DocClient[] = [];
  const open = (wsUrl: string, who: ApiClient, key: string) => {
    const client = connectDoc(wsUrl, key, { cookie: who.cookie });
    clients.push(client);
    return client;
  };

  test('edits on two pages stay on their pages, on both instances and in the Store', async () => {
    const [a, b] = cluster.instances as [(typeof cluster.instances)[0], (typeof cluster.instances)[0]];
    const owner = await new ApiClient(a.url).signup('Owner');
    const board = await owner.createBoard();
    const page2 = docKey(board, 'p2');
    const mains = { a: open(a.wsUrl, owner, board), b: open(b.wsUrl, owner, board) };
    await Promise.all([mains.a, mains.b].map((c) => waitSynced(c)));

    // The page list lives in the first document; a page's own edits go to its document only.
    mains.a.doc.transact(() => {
      const pages = new Y.Array<Y.Map<unknown>>();
      mains.a.doc.getMap(META_KEY).set(PAGES_KEY, pages);
      for (const [id, name] of [
        [MAIN_PAGE_ID, 'Retro'],
        ['p2', 'Planning'],
      ])
        pages.push([new Y.Map<unknown>(Object.entries({ id, name }))]);
    });
    // Page 2 opens once the board lists it, on either instance.
    const onA = { main: mains.a, page2: open(a.wsUrl, owner, page2) };
    const onB = { main: mains.b, page2: open(b.wsUrl, owner, page2) };
    await Promise.all([onA.page2, onB.page2].map((c) => waitSynced(c)));
    addShape(onA.main.doc, 'on-main', { type: 'rect', x: 0, y: 0 });
    addShape(onB.page2.doc, 'on-page-2', { type: 'sticky', x: 10, y: 10 }, 'hello');
    await waitUntil('each page’s edit reached the other instance', () => {
      return shapeIds(onB.main).includes('on-main') && shapeIds(onA.page2).includes('on-page-2');
    });
    await Promise.all([whenStored(onA.main), whenStored(onB.page2)]);
    assert.deepEqual(shapeIds(onB.main), ['on-main']);
    assert.deepEqual(shapeIds(onA.page2), ['on-page-2']);
    assert.deepEqual(
      readPages(onB.main.doc).map((p) => p.name),
      ['Retro', 'Planning'],
    );
    assert.equal(onB.page2.doc.getMap(META_KEY).get(PAGES_KEY), undefined, 'the list is the first page’s');
    const store = a.store as unknown as PostgresStore;
    assert.deepEqual(await storedIds(store, board), ['on-main']);
    assert.deepEqual(await storedIds(store, page2), ['on-page-2']);
    // The board's JSON export carries every page: the first as `shapes`, all of them in `pages`.
    const exported = await owner.call<{
      shapes: { id: string }[];
      pages: { id: string; name: string; shapes: { id: string }[] }[];
    }>('GET', apiPaths.boardExport(board));
    assert.deepEqual(
      exported.body.shapes.map((shape) => shape.id),
      ['on-main'],
    );
    assert.deepEqual(
      exported.body.pages.map((page) => [page.id, page.name, page.shapes.map((shape) => shape.id)]),
      [
        [MAIN_PAGE_ID, 'Retro', ['on-main']],
        ['p2', 'Planning', ['on-page-2']],
      ],
    );
  });

  test('two people adding the first pages of a board at the same moment both keep theirs, live and in the Store', async () => {
    const [a, b] = cluster.instances as [(typeof cluster.instances)[0], (typeof cluster.instances)[0]];
    const owner = await new ApiClient(a.url).signup('Owner');
    const board = await owner.createBoard();
    const ana = connectDoc(a.wsUrl, board, { cookie: owner.cookie });
    const ben = connectDoc(b.wsUrl, board, { cookie: owner.cookie });
    await Promise.all([waitSynced(ana), waitSynced(ben)]);
    // In one tick, before either hears of the other: both make the board's page list at once.
    assert.ok(addPageEntry(ana.doc, 'ana-page', 'Ana’s', MAIN_PAGE_ID));
    assert.ok(addPageEntry(ben.doc, 'ben-page', 'Ben’s', MAIN_PAGE_ID));
    const ids = (doc: Y.Doc) => readPages(doc).map((page) => page.id);
    const expected = [MAIN_PAGE_ID, 'ana-page', 'ben-page'];
    await waitUntil('each one sees both pages', () => ids(ana.doc).length === 3 && ids(ben.doc).length === 3);
    assert.deepEqual(ids(ana.doc), expected);
    assert.deepEqual(ids(ben.doc), ids(ana.doc), 'both see one order');
    // …and then rename and delete at once: each change is kept.
    renamePageEntry(ana.doc, 'ben-page', 'Planning');
    assert.ok(deletePageEntry(ben.doc, 'ana-page'));
    await waitUntil('both see the rename and the deletion', () =>
      [ana.doc, ben.doc].every(
        (doc) =>
          JSON.stringify(readPages(doc)) ===
          JSON.stringify([
            { id: MAIN_PAGE_ID, name: '' },
            { id: 'ben-page', name: 'Planning' },
          ]),
      ),
    );
    await Promise.all([whenStored(ana), whenStored(ben)]);
    ana.destroy();
    ben.destroy();
    const store = a.store as unknown as PostgresStore;
    const stored = new Y.Doc();
    for (const part of partsOf(await store.loadDoc(board))) Y.applyUpdate(stored, part);
    assert.deepEqual(readPages(stored), [
      { id: MAIN_PAGE_ID, name: '' },
      { id: 'ben-page', name: 'Planning' },
    ]);
  });

  test('a board of the first page-list format (meta.pages) reads as it was and moves to the map on its first change', () => {
    const doc = new Y.Doc();
    doc.transact(() => {
      const list = new Y.Array<Y.Map<unknown>>();
      doc.getMap(META_KEY).set(PAGES_KEY, list);
      for (const [id, name] of [
        ['p3', 'Third first'],
        [MAIN_PAGE_ID, 'Retro'],
        ['p2', 'Planning'],
      ])
        list.push([new Y.Map<unknown>(Object.entries({ id, name }))]);
    });
    const before = readPages(doc);
    assert.deepEqual(
      before.map((p) => p.id),
      ['p3', MAIN_PAGE_ID, 'p2'],
    );
    assert.ok(addPageEntry(doc, 'p4', 'New', 'p3'));
    assert.equal(doc.getMap(META_KEY).get(PAGES_KEY), undefined, 'the old list is gone');
    assert.deepEqual(readPages(doc), [
      { id: 'p3', name: 'Third first' },
      { id: 'p4', name: 'New' },
      { id: MAIN_PAGE_ID, name: 'Retro' },
      { id: 'p2', name: 'Planning' },
    ]);
    movePageEntry(doc, 'p2', 0);
    assert.deepEqual(
      readPages(doc).map((p) => p.id),
      ['p2', 'p3', 'p4', MAIN_PAGE_ID],
    );
  });

  test('a removed member is cut off from every page at once, on every instance; deletion closes every page', async () => {
    const [a, b] = cluster.instances as [(typeof cluster.instances)[0], (typeof cluster.instances)[0]];
    const owner = await new ApiClient(a.url).signup('Owner');
    const removed = await new ApiClient(a.url).signup('Removed');
    const kept = await new ApiClient(a.url).signup('Kept');
    const board = await owner.createBoard();
    await owner.share(board, removed, 'editor');
    await owner.share(board, kept, 'editor');
    await listPages(a.wsUrl, owner.cookie, board, ['p2', 'p3']);
    const removedPages = [
      open(a.wsUrl, removed, board),
      open(b.wsUrl, removed, docKey(board, 'p2')),
      open(a.wsUrl, removed, docKey(board, 'p3')),
    ];
    const keptPages = [open(b.wsUrl, kept, board), open(a.wsUrl, kept, docKey(board, 'p2'))];
    await Promise.all([...removedPages, ...keptPages].map((c) => waitSynced(c)));

    // Removed through B: A hears of it over the bus.
    const ownerOnB = Object.assign(new ApiClient(b.url), { cookie: owner.cookie });
    assert.equal(
      (await ownerOnB.call('DELETE', `/api/boards/${board}/members/${removed.userId}`)).status,
      204,
    );
    await waitUntil('every page of the removed member is closed with 4403', () =>
      removedPages.every((c) => c.closes.some((close) => close.code === CloseCode.NO_ACCESS)),
    );
    for (const c of keptPages)
      assert.deepEqual(c.closes, [], 'the member who kept access stays on every page');

    assert.equal((await owner.call('DELETE', `/api/boards/${board}`)).status, 204);
    await waitUntil('every page of the deleted board is closed with 4404', () =>
      keptPages.every((c) => c.closes.some((close) => close.code === CloseCode.NO_SUCH_BOARD)),
    );
  });

  test('a page id the board does not list is refused with 4404 and stores nothing; a page just added opens', async () => {
    const [a, b] = cluster.instances as [(typeof cluster.instances)[0], (typeof cluster.instances)[0]];
    const owner = await new ApiClient(a.url).signup('Owner');
    const board = await owner.createBoard();
    const unlisted = open(b.wsUrl, owner, docKey(board, 'unlisted'));
    await waitUntil(
      'refused with 4404',
      () => unlisted.closes.some((c) => c.code === CloseCode.NO_SUCH_BOARD),
      15_000,
    );
    unlisted.destroy();
    assert.equal(unlisted.provider.synced, false, 'it never synced');
    assert.equal(b.app.rooms.get(docKey(board, 'unlisted')), undefined, 'no room was opened for it');
    const store = a.store as unknown as PostgresStore;
    assert.equal(partsOf(await store.loadDoc(docKey(board, 'unlisted'))).length, 0, 'nothing is stored');

    // A page added on A and opened on B at the same moment: B waits for the list to reach it.
    const first = open(a.wsUrl, owner, board);
    await waitSynced(first);
    const added = open(b.wsUrl, owner, docKey(board, 'added'));
    assert.ok(addPageEntry(first.doc, 'added', 'Added'));
    await waitSynced(added);
    addShape(added.doc, 'on-added', { type: 'rect', x: 0, y: 0 });
    await whenStored(added);
    assert.deepEqual(await storedIds(store, docKey(board, 'added')), ['on-added']);
    assert.deepEqual(added.closes, []);
  });

  test('a page id that is not one is refused before anything loads', async () => {
    const [a] = cluster.instances as [(typeof cluster.instances)[0]];
    const owner = await new ApiClient(a.url).signup('Owner');
    const board = await owner.createBoard();
    const client = open(a.wsUrl, owner, `${board}/not%20a%20page`);
    await waitUntil('refused with 4404', () => client.closes.some((c) => c.code === CloseCode.NO_SUCH_BOARD));
    client.destroy();
  });

  test('cleanup', () => {
    for (const client of clients) client.destroy();
  });
});

describe('kill -9 of an instance loses nothing on either page', { skip }, () => {
  test('the instance that received edits on two pages dies inside its debounce: the Store holds both pages once everyone has gone', async (t) => {
    const schema = `test_pages_${randomBytes(5).toString('hex')}`;
    const env = {
      DATABASE_URL: postgresUrl(),
      DATABASE_SCHEMA: schema,
      REDIS_URL: redisUrl(),
      REDIS_PREFIX: `test:${randomBytes(5).toString('hex')}:`,
      SECRET: randomBytes(32).toString('base64url'),
      DATA_DIR: '/tmp',
      PERSIST_DEBOUNCE_MS: '1000',
      PERSIST_MAX_DELAY_MS: '5000',
    };
    const processes: ServerProcess[] = [];
    const clients: DocClient[] = [];
    const store = new PostgresStore({ connectionString: postgresUrl(), schema });
    try {
      const a = await startProcess(env);
      processes.push(a);
      const b = await startProcess(env);
      processes.push(b);
      const owner = await new ApiClient(a.url).signup('Owner');
      const board = await owner.createBoard();
      await listPages(a.wsUrl, owner.cookie, board, ['p2']);
      const keys = [board, docKey(board, 'p2')];
      const connect = (server: ServerProcess, key: string) => {
        const client = connectDoc(server.wsUrl, key, { cookie: owner.cookie });
        clients.push(client);
        return client;
      };
      const writers = keys.map((key) => connect(a, key));
      const observers = keys.map((key) => connect(b, key));
      await Promise.all([...writers, ...observers].map((c) => waitSynced(c)));

      const BURST = 30;
      for (const [page, writer] of writers.entries())
        for (let i = 0; i < BURST; i++)
          addShape(writer.doc, `page${page}-${i}`, { type: 'rect', x: i, y: page });
      await waitUntil('both bursts reached the other instance', () =>
        observers.every((o) => o.doc.getMap('shapes').size === BURST),
      );
      a.child.kill('SIGKILL');
      for (const writer of writers) writer.destroy();
      const atDeath = await Promise.all(keys.map(async (key) => (await storedIds(store, key)).length));
      t.diagnostic(`the Store held ${atDeath.join(' and ')} shapes when the instance died`);
      await a.exited;
      // Kept on purpose: the survivor runs on a moment, as it would, before everyone leaves.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      for (const observer of observers) observer.destroy();
      assert.equal(await b.stop('SIGTERM'), 0);

      for (const [page, key] of keys.entries()) {
        const stored = await storedIds(store, key);
        assert.equal(stored.length, BURST, `page ${page + 1} is whole in the Store`);
        assert.ok(
          stored.every((id) => id.startsWith(`page${page}-`)),
          `page ${page + 1} holds only its own shapes`,
        );
      }
    } finally {
      for (const client of clients) client.destroy();
      await Promise.all(processes.map((p) => p.stop('SIGKILL')));
      await store.close();
      await dropSchema(schema);
    }
  });
});

describe('a board stored before pages', () => {
  test('opens as page 1 with its shapes, versions and vote; a new page starts empty', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tandem-pre-pages-'));
    const fixture = new URL('./fixtures/pre-pages/', import.meta.url).pathname;
    cpSync(fixture, dataDir, { recursive: true });
    const saved = JSON.parse(readFileSync(join(fixture, 'fixture.json'), 'utf8')) as {
      boardId: string;
      email: string;
      password: string;
      shapes: number;
      versions: string;
    };
    const server = await startServer({ dataDir });
    const clients: DocClient[] = [];
    try {
      const owner = new ApiClient(server.url);
      const login = await owner.call('POST', '/api/auth/login', {
        email: saved.email,
        password: saved.password,
      });
      assert.equal(login.status, 200);
      const first = connectDoc(server.wsUrl, saved.boardId, { cookie: owner.cookie });
      clients.push(first);
      await waitSynced(first);
      assert.equal(first.doc.getMap('shapes').size, saved.shapes, 'every shape is on page 1');
      assert.deepEqual(readPages(first.doc), [{ id: MAIN_PAGE_ID, name: '' }], 'the board has one page');
      const versions = await owner.call<{ versions: { label: string | null }[] }>(
        'GET',
        `/api/boards/${saved.boardId}/versions`,
      );
      assert.equal(versions.status, 200);
      assert.ok(
        versions.body.versions.some((v) => v.label === saved.versions),
        'its named version is listed',
      );
      const vote = await owner.call<{ session: { open: boolean } | null }>(
        'GET',
        `/api/boards/${saved.boardId}/votes/current`,
      );
      assert.equal(vote.body.session?.open, true, 'its vote is still open');

      addPageEntry(first.doc, 'p2', 'New');
      const second = connectDoc(server.wsUrl, docKey(saved.boardId, 'p2'), { cookie: owner.cookie });
      clients.push(second);
      await waitSynced(second);
      assert.equal(second.doc.getMap('shapes').size, 0, 'a new page starts empty');
      addShape(second.doc, 'new', { type: 'rect', x: 0, y: 0 });
      await whenStored(second);
      assert.equal(
        Object.keys(JSON.parse(await storedShapes(server.store, saved.boardId)) as object).length,
        saved.shapes,
        'page 1 is untouched by page 2',
      );
    } finally {
      for (const client of clients) client.destroy();
      await server.close();
    }
  });
});

describe('history per page', () => {
  test('a page’s versions are its own: saved, listed and exported with ?page=, not on the first page', async () => {
    const server = await startServer();
    const clients: DocClient[] = [];
    try {
      const owner = await new ApiClient(server.url).signup('Owner');
      const board = await owner.createBoard();
      await listPages(server.wsUrl, owner.cookie, board, ['p2']);
      const page2 = connectDoc(server.wsUrl, docKey(board, 'p2'), { cookie: owner.cookie });
      clients.push(page2);
      await waitSynced(page2);
      addShape(page2.doc, 'on-page-2', { type: 'rect', x: 0, y: 0 });
      await whenStored(page2);
      const saved = await owner.call<{ version: { id: string } }>(
        'POST',
        apiPaths.versions(board, undefined, 'p2'),
        { label: 'Page two' },
      );
      assert.equal(saved.status, 201);
      type Listed = { versions: { id: string; label: string | null }[] };
      const onPage2 = await owner.call<Listed>('GET', apiPaths.versions(board, { limit: 50 }, 'p2'));
      assert.ok(onPage2.body.versions.some((v) => v.label === 'Page two'));
      const onFirst = await owner.call<Listed>('GET', apiPaths.versions(board));
      assert.equal(
        onFirst.body.versions.some((v) => v.label === 'Page two'),
        false,
        'not in page 1’s history',
      );
      const exported = await owner.call<{ shapes: { id: string }[] }>(
        'GET',
        apiPaths.versionExport(board, saved.body.version.id, 'p2'),
      );
      assert.deepEqual(
        exported.body.shapes.map((s) => s.id),
        ['on-page-2'],
      );
      assert.equal(
        (await owner.call('GET', apiPaths.versionExport(board, saved.body.version.id))).status,
        404,
      );
      assert.equal((await owner.call('GET', `/api/boards/${board}/versions?page=not%20one`)).status, 422);

      // A page the board does not list: saving, restoring or reverting it writes nothing (404).
      const onUnlisted = await owner.call('POST', apiPaths.versions(board, undefined, 'unlisted'), {
        label: 'Nowhere',
      });
      assert.equal(onUnlisted.status, 404);
      const restored = await owner.call(
        'POST',
        apiPaths.versionRestore(board, saved.body.version.id, 'unlisted'),
      );
      assert.equal(restored.status, 404);
      assert.equal(
        partsOf(await server.store.loadDoc(docKey(board, 'unlisted'))).length,
        0,
        'no stored document for an unlisted page',
      );
      assert.equal(server.app.rooms.get(docKey(board, 'unlisted')), undefined, 'no room for it');
    } finally {
      for (const client of clients) client.destroy();
      await server.close();
    }
  });
});
