// Find on every page (docs/api.md §17, GET /api/boards/:id/search): pages the server has not
// opened since it restarted are read from the Store, a page open in a Room with edits not yet
// stored is read from the Room, and each page's matches are the Find bar's (shared/src/find.ts:
// case and accents ignored, a frame's name, an image's alt text). Real server, real Store, real
// y-websocket clients.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addPageEntry,
  apiPaths,
  type BoardSearchResult,
  docKey,
  ErrorCode,
  limits,
  renamePageEntry,
} from '@tandem/shared';
import * as Y from 'yjs';
import { ApiClient, connectDoc, storedDoc, waitSynced, whenStored } from '../../testing/clients.ts';
import { assertError } from '../../testing/rest.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';
import type { HttpDeps } from '../src/http/deps.ts';
import { SearchTexts } from '../src/http/searchTexts.ts';

const base = (z: string) => ({
  x: 0,
  y: 0,
  w: 100,
  h: 80,
  rotation: 0,
  color: 'yellow',
  z,
  createdBy: 'someone',
});

/** Adds a shape whose words (`text`, or a frame's `name`) are Y.Texts, as the editor writes them. */
function add(doc: Y.Doc, id: string, type: string, words: Record<string, string>, fields = {}): void {
  doc.transact(() => {
    const shape = new Y.Map<unknown>();
    for (const [key, value] of Object.entries({ ...base(id), ...fields, type })) shape.set(key, value);
    for (const [key, value] of Object.entries(words))
      shape.set(key, key === 'alt' ? value : new Y.Text(value));
    doc.getMap('shapes').set(id, shape);
  });
}

describe('GET /api/boards/:id/search', { concurrency: false }, () => {
  let dataDir = '';
  let server: TestServer;
  let owner: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;
  let board = '';

  before(async () => {
    // The board is written on a first run of the server, through real clients; the test then
    // restarts it, so pages it does not open again can only come from the Store.
    const first = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '10000' } });
    dataDir = first.dataDir;
    const firstOwner = await new ApiClient(first.url).signup('Owner');
    board = await firstOwner.createBoard('Plans');
    const firstViewer = await new ApiClient(first.url).signup('Viewer');
    await firstOwner.share(board, firstViewer, 'viewer');
    const firstStranger = await new ApiClient(first.url).signup('Stranger');
    const write = async (key: string, fill: (doc: Y.Doc) => void) => {
      const client = connectDoc(first.wsUrl, key, { cookie: firstOwner.cookie });
      try {
        await waitSynced(client);
        fill(client.doc);
        await whenStored(client);
      } finally {
        client.destroy();
      }
    };
    // Board order: main, "Ideas" (p3, added after main), "Budget" (p2), "Live" (p4), "Empty" (p5).
    await write(board, (doc) => {
      addPageEntry(doc, 'p2', 'Budget');
      addPageEntry(doc, 'p4', 'Live');
      addPageEntry(doc, 'p5', 'Empty');
      addPageEntry(doc, 'p3', 'Ideas', 'main');
      add(doc, 'm1', 'sticky', { text: 'Review the BUDGET' });
      add(doc, 'm2', 'sticky', { text: 'Hiring plan' });
    });
    await write(docKey(board, 'p2'), (doc) => {
      add(doc, 'b1', 'sticky', { text: 'budgét\nfor Q3' });
      add(doc, 'b2', 'frame', { name: 'Budget lines' });
      add(doc, 'b3', 'image', { alt: 'Chart of the budget' }, { assetId: 'a'.repeat(64) });
      add(doc, 'b4', 'rect', { text: 'Roadmap' });
    });
    await write(docKey(board, 'p3'), (doc) => add(doc, 'i1', 'sticky', { text: 'Cut the budget?' }));
    await write(docKey(board, 'p5'), (doc) => add(doc, 'e1', 'sticky', { text: 'Nothing here' }));
    await first.close({ keepData: true });
    // Edits are stored only long after they are made, so the live page's edit below is in its
    // Room alone while the test searches.
    server = await startServer({
      dataDir,
      env: {
        LOGIN_ATTEMPTS_PER_MINUTE: '10000',
        PERSIST_DEBOUNCE_MS: '60000',
        PERSIST_MAX_DELAY_MS: '60000',
      },
    });
    const again = (client: ApiClient) => Object.assign(new ApiClient(server.url), { cookie: client.cookie });
    owner = again(firstOwner);
    viewer = again(firstViewer);
    stranger = again(firstStranger);
  });
  after(async () => {
    await server?.close();
  });

  const search = (who: ApiClient, q: string) =>
    who.call<BoardSearchResult>('GET', apiPaths.boardSearch(board, q));

  test('every page with a match, in the board’s order, read from the Store after a restart and from open Rooms', async () => {
    const live = connectDoc(server.wsUrl, docKey(board, 'p4'), { cookie: owner.cookie });
    try {
      await waitSynced(live);
      add(live.doc, 'l1', 'sticky', { text: 'Live budget note' });
      let answer = await search(owner, 'budget');
      for (let tries = 0; answer.body.pages?.every((p) => p.pageId !== 'p4') && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        answer = await search(owner, 'budget');
      }
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.deepEqual(answer.body, {
        pages: [
          { pageId: 'main', name: '', count: 1, shapeIds: ['m1'] },
          { pageId: 'p3', name: 'Ideas', count: 1, shapeIds: ['i1'] },
          { pageId: 'p2', name: 'Budget', count: 3, shapeIds: ['b1', 'b2', 'b3'] },
          { pageId: 'p4', name: 'Live', count: 1, shapeIds: ['l1'] },
        ],
      });
      // The live page's edit is not in the Store yet: the answer came from its Room.
      const doc = await storedDoc(server.store, docKey(board, 'p4'));
      assert.equal(doc.getMap('shapes').size, 0);
      doc.destroy();
    } finally {
      live.destroy();
    }
  });

  test('export.json, which reads pages by the same path, still carries every page in order', async () => {
    const answer = await viewer.call<{ pages?: { id: string; name: string; shapes: { id: string }[] }[] }>(
      'GET',
      apiPaths.boardExport(board),
    );
    assert.equal(answer.status, 200);
    assert.deepEqual(
      answer.body.pages?.map((p) => [p.id, p.name, p.shapes.map((s) => s.id).sort()]),
      [
        ['main', '', ['m1', 'm2']],
        ['p3', 'Ideas', ['i1']],
        ['p2', 'Budget', ['b1', 'b2', 'b3', 'b4']],
        // The live page's edit, made in the first test (from its Room, or stored as the Room closed).
        ['p4', 'Live', ['l1']],
        ['p5', 'Empty', ['e1']],
      ],
    );
  });

  test('matching is the Find bar’s: case, accents and line breaks ignored; none is an empty list', async () => {
    const folded = await search(viewer, '  BUDGET FOR q3 ');
    assert.equal(folded.status, 200);
    assert.deepEqual(folded.body, { pages: [{ pageId: 'p2', name: 'Budget', count: 1, shapeIds: ['b1'] }] });
    const none = await search(viewer, 'nowhere on this board');
    assert.deepEqual(none.body, { pages: [] });
  });

  test('a viewer may search; someone not on the board is 404, and without a session 401', async () => {
    const answer = await search(viewer, 'roadmap');
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { pages: [{ pageId: 'p2', name: 'Budget', count: 1, shapeIds: ['b4'] }] });
    assertError(await search(stranger, 'roadmap'), 404, ErrorCode.NOT_FOUND);
    assertError(await search(new ApiClient(server.url), 'roadmap'), 401, ErrorCode.AUTH_REQUIRED);
  });

  test('q of 1–200 characters, else 422 VALIDATION naming q', async () => {
    assertError(await search(owner, ''), 422, ErrorCode.VALIDATION, ['q'], 'empty');
    assertError(await search(owner, 'b'.repeat(201)), 422, ErrorCode.VALIDATION, ['q'], 'too long');
    assertError(
      await owner.call('GET', `/api/boards/${board}/search`),
      422,
      ErrorCode.VALIDATION,
      ['q'],
      'missing',
    );
    const longest = await search(owner, 'b'.repeat(200));
    assert.equal(longest.status, 200);
    assert.deepEqual(longest.body, { pages: [] });
  });

  test('past 60 searches a minute a user is refused with 429 and Retry-After; others are still answered', async () => {
    let refused: Awaited<ReturnType<typeof search>> | null = null;
    // The owner searched a few times above: the limit is met within 60 more.
    for (let i = 0; i < limits.boardSearchesPerMinute && !refused; i++) {
      const answer = await search(owner, 'roadmap');
      if (answer.status !== 200) refused = answer;
    }
    assert.ok(refused, 'refused within a minute’s allowance');
    assertError(refused, 429, ErrorCode.RATE_LIMITED);
    assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After says when');
    assert.equal((await search(viewer, 'roadmap')).status, 200, 'another person is not held back');
  });
});

describe('the board search keeps each page’s words by its document’s version', { concurrency: false }, () => {
  let server: TestServer;
  after(async () => {
    await server?.close();
  });

  test('a repeat search on an unchanged board loads nothing; an edit to one page loads that page alone', async () => {
    server = await startServer({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '10000' } });
    const owner = await new ApiClient(server.url).signup('Owner');
    const board = await owner.createBoard('Cached');
    const write = async (key: string, fill: (doc: Y.Doc) => void) => {
      const client = connectDoc(server.wsUrl, key, { cookie: owner.cookie });
      try {
        await waitSynced(client);
        fill(client.doc);
        await whenStored(client);
      } finally {
        client.destroy();
      }
      await waitUntil(`${key} unloaded`, () => server.app.rooms.get(key) === undefined);
    };
    await write(board, (doc) => {
      addPageEntry(doc, 'p2', 'Budget');
      addPageEntry(doc, 'p3', 'Ideas');
      add(doc, 'm1', 'sticky', { text: 'Plan the budget' });
    });
    await write(docKey(board, 'p2'), (doc) => add(doc, 'b1', 'sticky', { text: 'Budget for Q3' }));
    await write(docKey(board, 'p3'), (doc) => add(doc, 'i1', 'sticky', { text: 'An idea' }));

    // The Store's loads of each document, counted (the real Store, read through).
    const store = server.store;
    const load = store.loadDocAsStored.bind(store);
    let loads: string[] = [];
    store.loadDocAsStored = (key: string) => {
      loads.push(key);
      return load(key);
    };
    const search = async (q: string) => {
      const answer = await owner.call<BoardSearchResult>('GET', apiPaths.boardSearch(board, q));
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body;
    };

    assert.deepEqual(await search('budget'), {
      pages: [
        { pageId: 'main', name: '', count: 1, shapeIds: ['m1'] },
        { pageId: 'p2', name: 'Budget', count: 1, shapeIds: ['b1'] },
      ],
    });
    assert.deepEqual(
      loads.sort(),
      [board, docKey(board, 'p2'), docKey(board, 'p3')].sort(),
      'each page once',
    );

    loads = [];
    assert.deepEqual(await search('idea'), {
      pages: [{ pageId: 'p3', name: 'Ideas', count: 1, shapeIds: ['i1'] }],
    });
    assert.deepEqual(await search('budget'), {
      pages: [
        { pageId: 'main', name: '', count: 1, shapeIds: ['m1'] },
        { pageId: 'p2', name: 'Budget', count: 1, shapeIds: ['b1'] },
      ],
    });
    assert.deepEqual(loads, [], 'two more searches of the unchanged board loaded nothing');

    // One page edited (stored, its Room gone): that page alone is read again, and its new words are found.
    await write(docKey(board, 'p2'), (doc) => {
      add(doc, 'b2', 'frame', { name: 'New budget lines' });
      (doc.getMap('shapes').get('b1') as Y.Map<Y.Text>).get('text')?.delete(0, 'Budget '.length);
    });
    loads = [];
    assert.deepEqual(await search('budget'), {
      pages: [
        { pageId: 'main', name: '', count: 1, shapeIds: ['m1'] },
        { pageId: 'p2', name: 'Budget', count: 1, shapeIds: ['b2'] },
      ],
    });
    assert.deepEqual(loads, [docKey(board, 'p2')], 'only the edited page was loaded');

    // A page renamed in the first document: the first document alone is read again.
    await write(board, (doc) => renamePageEntry(doc, 'p3', 'Ideas, kept'));
    loads = [];
    assert.deepEqual(await search('an idea'), {
      pages: [{ pageId: 'p3', name: 'Ideas, kept', count: 1, shapeIds: ['i1'] }],
    });
    assert.deepEqual(loads, [board], 'only the first document was loaded');
  });

  test('a shape deleted on a page open here is no longer found (a deletion moves no state vector)', async () => {
    const server = await startServer();
    const owner = await new ApiClient(server.url).signup('Owner');
    const board = await owner.createBoard('Open');
    const client = connectDoc(server.wsUrl, board, { cookie: owner.cookie });
    try {
      await waitSynced(client);
      add(client.doc, 'd1', 'sticky', { text: 'Delete me soon' });
      await whenStored(client);
      const search = async (q: string) =>
        (await owner.call<BoardSearchResult>('GET', apiPaths.boardSearch(board, q))).body;
      assert.deepEqual(await search('delete me'), {
        pages: [{ pageId: 'main', name: '', count: 1, shapeIds: ['d1'] }],
      });
      client.doc.getMap('shapes').delete('d1');
      const room = server.app.rooms.get(board);
      assert.ok(room, 'the page is open here');
      await waitUntil('the deletion reached the server', () => !room.doc.getMap('shapes').has('d1'));
      assert.deepEqual(await search('delete me'), { pages: [] });
    } finally {
      client.destroy();
      await server.close();
    }
  });

  test('the words kept are bounded: past the bound the least recently searched page goes', async () => {
    const docs = new Map<string, string>();
    const decoded: string[] = [];
    const shapes = (key: string) => [{ id: 's1', type: 'sticky', text: docs.get(key) ?? '' }];
    const deps = {
      rooms: { get: () => undefined },
      store: {
        logHeads: async (keys: readonly string[]) => new Map(keys.map((k) => [k, 1])),
        loadDocAsStored: async (key: string) => ({ snapshot: new TextEncoder().encode(key), updates: [] }),
      },
      history: {
        versions: {
          compute: {
            exportJson: async (parts: Uint8Array[]) => {
              const key = new TextDecoder().decode(parts[0]);
              decoded.push(key);
              return { json: JSON.stringify({ shapes: shapes(key) }), invalid: [] };
            },
          },
        },
      },
    } as unknown as Pick<HttpDeps, 'store' | 'rooms' | 'history'>;
    for (const key of ['a', 'b', 'c']) docs.set(key, key.repeat(1000));
    // Room for two boards' words (and what each page costs beside them), not three.
    const texts = new SearchTexts(deps, 2600);
    for (const key of ['a', 'b', 'c']) await texts.read(key);
    assert.ok(texts.size.chars <= 2600, `${texts.size.chars} characters kept`);
    assert.equal(texts.size.pages, 2);
    decoded.length = 0;
    await texts.read('c');
    await texts.read('b');
    assert.deepEqual(decoded, [], 'the two most recent are kept');
    await texts.read('a');
    assert.deepEqual(decoded, ['a'], 'the least recent was let go, and is read again');
    assert.equal((await texts.read('a'))[0]?.texts[0]?.text, 'a'.repeat(1000));
  });
});
