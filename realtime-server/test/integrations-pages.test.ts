// Integrations on a board of several pages (docs/api.md §15, §17): the content API's `?page=` and
// the MCP tools' `pageId` read and write one page, seen live by the people on that page only and
// stored in that page's document; the board's pages are listed; a page the board does not list
// is 404 (422 when the id is malformed) and no document is made for it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type AddPageAnswer,
  addPageEntry,
  apiPaths,
  type BoardContentAnswer,
  type BoardEventsAnswer,
  contentPaths,
  docKey,
  ErrorCode,
  MAX_PAGES,
  MCP_PATH,
  pageLabel,
  readPages,
  type ShapeRecord,
} from '@tandem/shared';
import {
  ApiClient,
  connectDoc,
  type DocClient,
  storedDoc,
  storedShapes,
  waitSynced,
  whenStored,
  withKey,
} from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';

type ToolAnswer = { content: { type: string; text: string }[]; isError?: boolean };

describe('integrations on pages', () => {
  let server: TestServer;
  let owner: ApiClient;
  let boardId: string;
  let key: string;
  let main: DocClient;
  let second: DocClient;
  let agent: Client;
  const shapeIds = (client: DocClient) => [...client.doc.getMap('shapes').keys()].sort();

  before(async () => {
    server = await startServer();
    owner = await new ApiClient(server.url).signup('Olive');
    boardId = await owner.createBoard('Planning');
    main = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    await waitSynced(main);
    addPageEntry(main.doc, 'second', 'Budget');
    await whenStored(main);
    second = connectDoc(server.wsUrl, docKey(boardId, 'second'), { cookie: owner.cookie });
    await waitSynced(second);
    const created = await owner.call<{ key: string }>('POST', apiPaths.integrations(boardId), {
      name: 'Planner',
      role: 'editor',
    });
    assert.equal(created.status, 201);
    key = created.body.key;
    agent = new Client({ name: 'test-agent', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(server.url + MCP_PATH), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
  });
  after(async () => {
    await agent?.close();
    main?.destroy();
    second?.destroy();
    await server?.close();
  });

  test('the content API reads and writes the page ?page= names, and lists the pages', async () => {
    const onPage = (path: string) => `${path}?page=second`;
    const cursor = (
      await withKey<BoardEventsAnswer>(server.url, key, 'GET', onPage(contentPaths.events(boardId)))
    ).body.cursor;

    const added = await withKey<{ shapes: { id: string }[] }>(
      server.url,
      key,
      'POST',
      onPage(contentPaths.shapes(boardId)),
      {
        shapes: [{ id: 'cost', type: 'sticky', x: 10, y: 10, text: 'Cost per seat' }],
      },
    );
    assert.equal(added.status, 201, JSON.stringify(added.body));
    await waitUntil("the page's people see the shape", () => second.doc.getMap('shapes').has('cost'));
    assert.deepEqual(shapeIds(main), [], 'the first page is untouched');

    const read = await withKey<BoardContentAnswer>(
      server.url,
      key,
      'GET',
      onPage(contentPaths.board(boardId)),
    );
    assert.equal(read.status, 200);
    assert.equal(read.body.page, 'second');
    assert.deepEqual(read.body.pages, [
      { id: 'main', name: 'Page 1' },
      { id: 'second', name: 'Budget' },
    ]);
    assert.deepEqual(
      read.body.shapes.map((s) => s.id),
      ['cost'],
    );
    const first = await withKey<BoardContentAnswer>(server.url, key, 'GET', contentPaths.board(boardId));
    assert.equal(first.body.page, 'main');
    assert.deepEqual(first.body.shapes, []);

    const events = await withKey<BoardEventsAnswer>(
      server.url,
      key,
      'GET',
      `${contentPaths.events(boardId)}?page=second&since=${cursor}&wait=5`,
    );
    assert.equal(events.status, 200);
    assert.deepEqual(
      events.body.events.flatMap((e) => e.changed),
      ['cost'],
    );
    assert.equal(events.body.events[0]?.by?.name, 'Planner');

    const patched = await withKey(server.url, key, 'PATCH', onPage(contentPaths.shapes(boardId)), {
      shapes: [{ id: 'cost', text: 'Cost per seat, yearly' }],
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    await waitUntil(
      'the change is seen',
      () =>
        String(second.doc.getMap<{ get(k: string): unknown }>('shapes').get('cost')?.get('text')) ===
        'Cost per seat, yearly',
    );
    // On the first page the shape is not there: the same call without ?page= names nothing.
    const elsewhere = await withKey<{ error: { code: string } }>(
      server.url,
      key,
      'DELETE',
      contentPaths.shapes(boardId),
      {
        ids: ['cost'],
      },
    );
    assert.equal(elsewhere.status, 422);
    assert.equal(second.doc.getMap('shapes').has('cost'), true);
  });

  test('a page the board does not list is 404, a malformed one 422, and no document is made for either', async () => {
    for (const [page, status, code] of [
      ['gone', 404, ErrorCode.NOT_FOUND],
      ['not%20a%20page', 422, ErrorCode.VALIDATION],
    ] as const) {
      for (const [method, path, body] of [
        ['GET', contentPaths.board(boardId), undefined],
        ['GET', contentPaths.events(boardId), undefined],
        ['POST', contentPaths.shapes(boardId), { shapes: [{ type: 'sticky', x: 0, y: 0 }] }],
      ] as const) {
        const answer = await withKey<{ error: { code: string } }>(
          server.url,
          key,
          method,
          `${path}?page=${page}`,
          body,
        );
        assert.equal(
          answer.status,
          status,
          `${method} ${path} ?page=${page}: ${JSON.stringify(answer.body)}`,
        );
        assert.equal(answer.body.error.code, code);
      }
    }
    const stored = await server.store.loadDoc(docKey(boardId, 'gone'));
    assert.equal(stored.snapshot, null);
    assert.deepEqual(stored.updates, []);
  });

  test('the MCP tools take a pageId: read_board lists the pages, writes land on that page', async () => {
    const call = async (name: string, args: Record<string, unknown>) => {
      const answer = (await agent.callTool({ name, arguments: args })) as ToolAnswer;
      return { answer, json: answer.isError ? null : JSON.parse(answer.content[0]?.text ?? 'null') };
    };
    const { tools } = await agent.listTools();
    // add_page works on the board's list of pages: its `after` names a page.
    for (const tool of tools.filter((t) => !['list_boards', 'read_votes', 'add_page'].includes(t.name)))
      assert.ok('pageId' in (tool.inputSchema.properties ?? {}), `${tool.name} takes a pageId`);

    const grid = await call('add_sticky_grid', { boardId, pageId: 'second', texts: ['Rent', 'Travel'] });
    assert.equal(grid.answer.isError, undefined, JSON.stringify(grid.answer));
    const ids = (grid.json.shapes as { id: string }[]).map((s) => s.id);
    await waitUntil('the page shows the grid', () => ids.every((id) => second.doc.getMap('shapes').has(id)));
    assert.deepEqual(shapeIds(main), []);
    const arrow = await call('connect', { boardId, pageId: 'second', from: ids[0], to: ids[1] });
    assert.equal(arrow.answer.isError, undefined, JSON.stringify(arrow.answer));

    const read = await call('read_board', { boardId, pageId: 'second' });
    assert.equal(read.json.page, 'second');
    assert.deepEqual(read.json.pages, [
      { id: 'main', name: 'Page 1' },
      { id: 'second', name: 'Budget' },
    ]);
    assert.deepEqual((read.json.shapes as { text?: string }[]).map((s) => s.text).sort(), [
      'Cost per seat, yearly',
      'Rent',
      'Travel',
    ]);
    assert.equal(read.json.connections.length, 1);
    // Who is on that page: the person there, and the bot's cursor where it just worked.
    assert.deepEqual([...read.json.here].sort(), ['Olive', 'Planner (bot)']);
    const firstPage = await call('read_board', { boardId });
    assert.equal(firstPage.json.page, 'main');
    assert.deepEqual(firstPage.json.shapes, []);

    const missing = await call('add_shapes', {
      boardId,
      pageId: 'gone',
      shapes: [{ type: 'sticky', x: 0, y: 0 }],
    });
    assert.equal(missing.answer.isError, true);
    assert.match(missing.answer.content[0]?.text ?? '', /No such page/);
  });

  test("after everyone has gone, the page's document holds the bot's shapes and the first page none", async () => {
    const before = JSON.parse(await storedShapes(server.store, docKey(boardId, 'second'))) as Record<
      string,
      unknown
    >;
    second.destroy();
    main.destroy();
    await waitUntil(
      'the rooms unload',
      () =>
        server.app.rooms.get(boardId) === undefined &&
        server.app.rooms.get(docKey(boardId, 'second')) === undefined,
    );
    const stored = JSON.parse(await storedShapes(server.store, docKey(boardId, 'second'))) as Record<
      string,
      unknown
    >;
    assert.deepEqual(stored, before);
    assert.equal(Object.keys(stored).length, 4, 'the sticky, the grid of two and the arrow');
    assert.equal(await storedShapes(server.store, boardId), '{}');
  });
  test('an arrow between two shapes needs no coordinates: its ends sit at their centres, live and stored', async () => {
    const ownBoard = await owner.createBoard('Arrows');
    const made = await owner.call<{ key: string }>('POST', apiPaths.integrations(ownBoard), {
      name: 'Linker',
      role: 'editor',
    });
    const live = connectDoc(server.wsUrl, ownBoard, { cookie: owner.cookie });
    try {
      await waitSynced(live);
      const post = (shapes: unknown[]) =>
        withKey<{ shapes: ShapeRecord[]; error?: { code: string; fields?: Record<string, string> } }>(
          server.url,
          made.body.key,
          'POST',
          contentPaths.shapes(ownBoard),
          { shapes },
        );
      const first = await post([{ id: 'idea', type: 'sticky', x: 0, y: 0, w: 200, h: 200 }]);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      // One on the board already, one added in the same call, an arrow between them given ids only.
      const linked = await post([
        { id: 'plan', type: 'rect', x: 600, y: 100, w: 100, h: 50 },
        { id: 'link', type: 'arrow', from: { shapeId: 'idea' }, to: { shapeId: 'plan' }, text: 'leads to' },
      ]);
      assert.equal(linked.status, 201, JSON.stringify(linked.body));
      const arrow = linked.body.shapes.find((shape) => shape.id === 'link');
      assert.deepEqual(arrow?.from, { shapeId: 'idea', x: 100, y: 100 });
      assert.deepEqual(arrow?.to, { shapeId: 'plan', x: 650, y: 125 });
      assert.deepEqual([arrow?.x, arrow?.y], [100, 100], 'it starts at its from end');
      await waitUntil('the person sees the arrow', () => live.doc.getMap('shapes').has('link'));

      // An end bound to a shape that is nowhere: refused, naming it; nothing added.
      const nowhere = await post([{ type: 'arrow', from: { shapeId: 'idea' }, to: { shapeId: 'gone' } }]);
      assert.equal(nowhere.status, 422);
      assert.equal(nowhere.body.error?.code, ErrorCode.VALIDATION);
      assert.equal(nowhere.body.error?.fields?.['shapes[0].to.shapeId'], 'No such shape on this page.');
      assert.equal(live.doc.getMap('shapes').size, 3);
      await whenStored(live);
    } finally {
      live.destroy();
    }
    const stored = JSON.parse(await storedShapes(server.store, ownBoard)) as Record<string, ShapeRecord>;
    assert.deepEqual(stored.link?.to, { shapeId: 'plan', x: 650, y: 125 });
  });

  test("undoing a bot's changes on the first page takes back the page it added, and keeps a person's", async () => {
    const ownBoard = await owner.createBoard('Undo pages');
    const made = await owner.call<{ key: string; integration: { userId: string } }>(
      'POST',
      apiPaths.integrations(ownBoard),
      { name: 'Paginator', role: 'editor' },
    );
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const live = connectDoc(server.wsUrl, ownBoard, { cookie: owner.cookie });
    try {
      await waitSynced(live);
      const since = new Date(Date.now() - 1000).toISOString();
      const added = await withKey<AddPageAnswer>(
        server.url,
        made.body.key,
        'POST',
        contentPaths.pages(ownBoard),
        {
          name: 'Bot page',
        },
      );
      assert.equal(added.status, 201, JSON.stringify(added.body));
      addPageEntry(live.doc, 'mine', 'My page');
      await whenStored(live);
      await waitUntil('both pages are listed', () => readPages(live.doc).length === 3);

      const reverted = await owner.call('POST', apiPaths.revert(ownBoard), {
        userId: made.body.integration.userId,
        since,
      });
      assert.equal(reverted.status, 200, JSON.stringify(reverted.body));
      await waitUntil("the bot's page is gone from the person's list", () =>
        readPages(live.doc).every((p) => p.id !== added.body.page.id),
      );
      assert.deepEqual(readPages(live.doc).map(pageLabel), ['Page 1', 'My page']);
      const doc = await storedDoc(server.store, ownBoard);
      assert.deepEqual(
        readPages(doc).map((p) => p.id),
        ['main', 'mine'],
      );
      doc.destroy();
    } finally {
      live.destroy();
    }
  });
  test('a key adds pages through REST and MCP: listed live and in the Store, written with ?page=; bad ones change nothing', async () => {
    const ownBoard = await owner.createBoard('Agent pages');
    const keyFor = async (body: Record<string, unknown>) => {
      const made = await owner.call<{ key: string }>('POST', apiPaths.integrations(ownBoard), body);
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return made.body.key;
    };
    const editorKey = await keyFor({ name: 'Scribe', role: 'editor' });
    const live = connectDoc(server.wsUrl, ownBoard, { cookie: owner.cookie });
    try {
      await waitSynced(live);
      const added = await withKey<AddPageAnswer>(
        server.url,
        editorKey,
        'POST',
        contentPaths.pages(ownBoard),
        {
          name: 'Agent notes',
        },
      );
      assert.equal(added.status, 201, JSON.stringify(added.body));
      const notes = added.body.page;
      assert.equal(notes.name, 'Agent notes');
      assert.deepEqual(
        added.body.pages.map((p) => p.name),
        ['Page 1', 'Agent notes'],
      );
      await waitUntil('the person sees the new page listed', () =>
        readPages(live.doc).some((p) => p.id === notes.id),
      );
      const written = await withKey(
        server.url,
        editorKey,
        'POST',
        `${contentPaths.shapes(ownBoard)}?page=${notes.id}`,
        {
          shapes: [{ id: 'summary', type: 'sticky', x: 0, y: 0, text: 'Summary' }],
        },
      );
      assert.equal(written.status, 201, JSON.stringify(written.body));

      // MCP: after the first page, named "Page N" when no name is given.
      const mcp = new Client({ name: 'page-agent', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(server.url + MCP_PATH), {
          requestInit: { headers: { authorization: `Bearer ${editorKey}` } },
        }),
      );
      const tool = (await mcp.callTool({
        name: 'add_page',
        arguments: { boardId: ownBoard, after: 'main' },
      })) as ToolAnswer;
      // A name too long is our sentence naming the field, not the SDK's schema refusal.
      const tooLong = (await mcp.callTool({
        name: 'add_page',
        arguments: { boardId: ownBoard, name: 'x'.repeat(101) },
      })) as ToolAnswer;
      await mcp.close();
      assert.equal(tooLong.isError, true);
      assert.match(tooLong.content[0]?.text ?? '', /^Some fields need attention\.\nname: /);
      assert.equal(tool.isError, undefined, JSON.stringify(tool));
      const viaMcp = JSON.parse(tool.content[0]?.text ?? 'null') as AddPageAnswer;
      assert.deepEqual(
        viaMcp.pages.map((p) => p.name),
        ['Page 1', viaMcp.page.name, 'Agent notes'],
      );
      assert.match(viaMcp.page.name, /^Page \d+$/);

      // Refusals, each with its code, and no page added by any of them.
      const viewerKey = await keyFor({ name: 'Reader', role: 'viewer' });
      const frame = await withKey(server.url, editorKey, 'POST', contentPaths.shapes(ownBoard), {
        shapes: [{ id: 'box', type: 'frame', x: 0, y: 0, w: 400, h: 400, name: 'Box' }],
      });
      assert.equal(frame.status, 201);
      const scopedKey = await keyFor({ name: 'Boxed', role: 'editor', frameId: 'box' });
      for (const [what, key, body, status, code, field] of [
        ['a viewer key', viewerKey, { name: 'No' }, 403, ErrorCode.FORBIDDEN, undefined],
        ['a key limited to a frame', scopedKey, {}, 422, ErrorCode.OUT_OF_SCOPE, undefined],
        ['after a page that is not there', editorKey, { after: 'nope' }, 422, ErrorCode.VALIDATION, 'after'],
        ['a name too long', editorKey, { name: 'x'.repeat(101) }, 422, ErrorCode.VALIDATION, 'name'],
      ] as const) {
        const refused = await withKey<{ error: { code: string; fields?: Record<string, string> } }>(
          server.url,
          key,
          'POST',
          contentPaths.pages(ownBoard),
          body,
        );
        assert.equal(refused.status, status, `${what}: ${JSON.stringify(refused.body)}`);
        assert.equal(refused.body.error.code, code, what);
        if (field) assert.ok(refused.body.error.fields?.[field], `${what} names ${field}`);
      }

      // The Store holds the three pages in order, and the note on the agent's page.
      const doc = await storedDoc(server.store, ownBoard);
      assert.deepEqual(
        readPages(doc).map((p) => p.id),
        ['main', viaMcp.page.id, notes.id],
      );
      doc.destroy();
      assert.match(await storedShapes(server.store, docKey(ownBoard, notes.id)), /Summary/);

      // A full board: the person fills it to MAX_PAGES, and the key's page is the limit's sentence.
      for (let i = readPages(live.doc).length; i < MAX_PAGES; i++) addPageEntry(live.doc, `p${i}`, '');
      await whenStored(live);
      const full = await withKey<{ error: { code: string; message: string } }>(
        server.url,
        editorKey,
        'POST',
        contentPaths.pages(ownBoard),
        { name: 'One more' },
      );
      assert.equal(full.status, 422, JSON.stringify(full.body));
      assert.equal(full.body.error.code, ErrorCode.VALIDATION);
      assert.equal(
        full.body.error.message,
        `A board has at most ${MAX_PAGES} pages. Delete one to add another.`,
      );
      assert.equal(readPages(live.doc).length, MAX_PAGES);
    } finally {
      live.destroy();
    }
  });
});

describe('integrations on pages: the first page is read once, not on every call', () => {
  let server: TestServer;
  after(() => server?.close());

  test('calls on another page of a board nobody has open load its first document once', async () => {
    // API_ROOM_LINGER_MS as shipped (the suites' servers set 0 to watch rooms unload).
    server = await startServer({ env: { API_ROOM_LINGER_MS: '60000' } });
    const owner = await new ApiClient(server.url).signup('Olive');
    const boardId = await owner.createBoard('Quiet');
    const main = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    await waitSynced(main);
    addPageEntry(main.doc, 'second', 'Budget');
    await whenStored(main);
    main.destroy();
    await waitUntil('the board is unloaded', () => server.app.rooms.get(boardId) === undefined);
    const created = await owner.call<{ key: string }>('POST', apiPaths.integrations(boardId), {
      name: 'Planner',
      role: 'editor',
    });
    const key = created.body.key;

    // The Store's own loads of the first document, counted (the real Store, read through).
    const store = server.store;
    const load = store.loadDoc.bind(store);
    let firstPageLoads = 0;
    store.loadDoc = (docKey: string) => {
      if (docKey === boardId) firstPageLoads += 1;
      return load(docKey);
    };
    for (const n of [1, 2, 3]) {
      const added = await withKey(server.url, key, 'POST', `${contentPaths.shapes(boardId)}?page=second`, {
        shapes: [{ type: 'sticky', x: n * 220, y: 0, text: `Line ${n}` }],
      });
      assert.equal(added.status, 201, JSON.stringify(added.body));
    }
    const read = await withKey<BoardContentAnswer>(
      server.url,
      key,
      'GET',
      `${contentPaths.board(boardId)}?page=second`,
    );
    assert.equal(read.body.shapes.length, 3);
    assert.equal(read.body.pages.length, 2);
    assert.equal(firstPageLoads, 1, 'the first document was loaded once for four calls');
  });
});
