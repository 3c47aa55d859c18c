// The MCP endpoint (docs/api.md §15) driven by the official SDK's own Client over Streamable HTTP,
// against a real server: the tools, a board read, a sticky grid in a frame, a connection, what a
// live WebsocketProvider client sees, a refusal as a tool error, and a revoked key.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiPaths, contentPaths, MCP_PATH } from '@tandem/shared';
import type * as Y from 'yjs';
import { ApiClient, connectDoc, type DocClient, waitSynced } from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';
import { waitUntil } from '../../testing/services.ts';

type ToolAnswer = { content: { type: string; text: string }[]; isError?: boolean };

describe('MCP endpoint', () => {
  let server: TestServer;
  let owner: ApiClient;
  let boardId: string;
  let key: string;
  let integrationUserId: string;
  let integrationId: string;
  let agent: Client;
  let live: DocClient;

  const connectAgent = async (withKey: string) => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url + MCP_PATH), {
        requestInit: { headers: { authorization: `Bearer ${withKey}` } },
      }),
    );
    return client;
  };
  const call = async (name: string, args: Record<string, unknown>) => {
    const answer = (await agent.callTool({ name, arguments: args })) as ToolAnswer;
    return { answer, json: answer.isError ? null : JSON.parse(answer.content[0]?.text ?? 'null') };
  };

  before(async () => {
    server = await startServer();
    owner = await new ApiClient(server.url).signup('Olive');
    boardId = await owner.createBoard('Retro');
    // A frame made by the owner's key-less session through the content API (cookie + Origin).
    const frame = await owner.call('POST', contentPaths.shapes(boardId), {
      shapes: [{ id: 'ideas', type: 'frame', x: 0, y: 0, w: 900, h: 700, name: 'Ideas' }],
    });
    assert.equal(frame.status, 201, JSON.stringify(frame.body));
    const created = await owner.call<{ key: string; integration: { id: string; userId: string } }>(
      'POST',
      apiPaths.integrations(boardId),
      { name: 'Clusterer', role: 'editor', frameId: 'ideas' },
    );
    assert.equal(created.status, 201);
    key = created.body.key;
    integrationUserId = created.body.integration.userId;
    integrationId = created.body.integration.id;
    live = connectDoc(server.wsUrl, boardId, { cookie: owner.cookie });
    await waitSynced(live);
    agent = await connectAgent(key);
  });
  after(async () => {
    await agent?.close();
    live?.destroy();
    await server?.close();
  });

  test('lists the tools, each with a description and an input schema', async () => {
    const { tools } = await agent.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'add_page',
      'add_shapes',
      'add_sticky_grid',
      'connect',
      'delete_shapes',
      'list_boards',
      'read_board',
      'read_votes',
      'update_shapes',
    ]);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 20, tool.name);
      assert.equal(tool.inputSchema.type, 'object');
    }
    const readBoard = tools.find((t) => t.name === 'read_board');
    assert.deepEqual(readBoard?.inputSchema.required, ['boardId']);
    // docs/api.md §15's table names the same tools (its first cell: one or two backticked names).
    const apiDoc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const table = apiDoc.slice(apiDoc.indexOf('| tool | arguments | result |'));
    const documented = table
      .split('\n')
      .slice(2)
      .filter((line, i, lines) => line.startsWith('|') && lines.slice(0, i).every((l) => l.startsWith('|')))
      .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1]));
    assert.deepEqual(documented.sort(), tools.map((t) => t.name).sort());
  });

  test('lists its board, adds a sticky grid in its frame, connects two shapes; a live client sees them, attributed to the bot, and read_board shows them', async () => {
    const boards = await call('list_boards', {});
    assert.deepEqual(boards.json, { boards: [{ id: boardId, title: 'Retro', role: 'editor' }] });

    const grid = await call('add_sticky_grid', {
      boardId,
      frameId: 'ideas',
      texts: ['Faster CI', 'Fewer meetings', 'Pair more', 'Write docs'],
    });
    assert.equal(grid.answer.isError, undefined, grid.answer.content[0]?.text);
    const stickies = grid.json.shapes as { id: string; x: number; y: number; createdBy: string }[];
    assert.equal(stickies.length, 4);
    // Three columns of 220 fit in 900 units past the 40-unit margin: a row of three from the
    // frame's corner, then the fourth below the first.
    assert.deepEqual(
      stickies.map((s) => [s.x, s.y]),
      [
        [40, 40],
        [260, 40],
        [480, 40],
        [40, 260],
      ],
    );
    assert.ok(stickies.every((s) => s.createdBy === integrationUserId));

    const arrow = await call('connect', { boardId, from: stickies[0]!.id, to: stickies[1]!.id });
    assert.equal(arrow.answer.isError, undefined, arrow.answer.content[0]?.text);
    assert.equal(arrow.json.arrow.from.shapeId, stickies[0]!.id);

    await waitUntil(
      'the live client sees the grid and the arrow',
      () => live.doc.getMap('shapes').size === 6,
    );
    const first = live.doc.getMap('shapes').get(stickies[0]!.id) as Y.Map<unknown>;
    assert.equal(String(first.get('text')), 'Faster CI');
    await waitUntil('the bot cursor is shown to the live client', () =>
      [...live.provider.awareness.getStates().values()].some((s) => s.user?.name === 'Clusterer (bot)'),
    );

    const read = await call('read_board', { boardId });
    assert.equal(read.json.title, 'Retro');
    assert.deepEqual(read.json.frames, [{ id: 'ideas', name: 'Ideas', x: 0, y: 0, w: 900, h: 700 }]);
    assert.deepEqual(
      (read.json.shapes as { text: string; frame: string }[]).map((s) => [s.text, s.frame]),
      [
        ['Faster CI', 'ideas'],
        ['Fewer meetings', 'ideas'],
        ['Pair more', 'ideas'],
        ['Write docs', 'ideas'],
      ],
    );
    assert.deepEqual(read.json.connections, [
      { id: arrow.json.arrow.id, from: stickies[0]!.id, to: stickies[1]!.id },
    ]);
    assert.ok((read.json.here as string[]).includes('Olive'), JSON.stringify(read.json.here));
  });

  test('a write outside its frame is a tool error with the REST sentence, and changes nothing', async () => {
    const before = live.doc.getMap('shapes').size;
    const outside = await call('add_shapes', { boardId, shapes: [{ type: 'sticky', x: 5000, y: 5000 }] });
    assert.equal(outside.answer.isError, true);
    assert.match(
      outside.answer.content[0]!.text,
      /^This key may only change shapes inside its frame; nothing was changed\./,
    );
    const malformed = await call('add_shapes', { boardId, shapes: [{ type: 'sticky', x: 'left', y: 0 }] });
    assert.equal(malformed.answer.isError, true);
    assert.match(malformed.answer.content[0]!.text, /shapes\[0\]\.x/);
    const otherBoard = await call('read_board', { boardId: 'abcdefghijABCDEFGHIJ_' });
    assert.equal(otherBoard.answer.content[0]?.text, 'No such board, or you do not have access to it.');
    assert.equal(live.doc.getMap('shapes').size, before);
  });

  test('a sticky grid with no frame or point: a frame-scoped key fills its frame, any other goes beside the content, never on it', async () => {
    const board = await owner.createBoard('Placement');
    const seeded = await owner.call('POST', contentPaths.shapes(board), {
      shapes: [
        { type: 'sticky', x: -100, y: 50, text: 'Already here' },
        { type: 'rect', x: 300, y: 400, w: 120, h: 80 },
        { id: 'far', type: 'frame', x: 2000, y: -500, w: 700, h: 500, name: 'Far' },
      ],
    });
    assert.equal(seeded.status, 201, JSON.stringify(seeded.body));
    const keyFor = async (body: Record<string, unknown>) =>
      (await owner.call<{ key: string }>('POST', apiPaths.integrations(board), { role: 'editor', ...body }))
        .body.key;
    const anywhere = await connectAgent(await keyFor({ name: 'Anywhere' }));
    const scoped = await connectAgent(await keyFor({ name: 'Scoped', frameId: 'far' }));
    const grid = async (client: Client) => {
      const answer = (await client.callTool({
        name: 'add_sticky_grid',
        arguments: { boardId: board, texts: ['One', 'Two', 'Three'] },
      })) as ToolAnswer;
      assert.equal(answer.isError, undefined, answer.content[0]?.text);
      return (JSON.parse(answer.content[0]!.text).shapes as { x: number; y: number }[]).map((s) => [
        s.x,
        s.y,
      ]);
    };
    try {
      // The content spans x -100 to 2700 (the frame's right edge) and starts at y -500.
      assert.deepEqual(await grid(anywhere), [
        [2800, -500],
        [3020, -500],
        [2800, -280],
      ]);
      // Three columns of 220 fit in the frame's 700 past its 40 margin: one row from its corner.
      assert.deepEqual(await grid(scoped), [
        [2040, -460],
        [2260, -460],
        [2480, -460],
      ]);
    } finally {
      await anywhere.close();
      await scoped.close();
    }
  });

  test('read_board answers a board of 5,000 shapes in one call under 1 MB', async () => {
    const bigBoard = await owner.createBoard('Big');
    const bigKey = await owner.call<{ key: string }>('POST', apiPaths.integrations(bigBoard), {
      name: 'Reader',
      role: 'editor',
    });
    for (let batch = 0; batch < 5; batch++) {
      const added = await owner.call('POST', contentPaths.shapes(bigBoard), {
        shapes: Array.from({ length: 1000 }, (_, i) => ({
          type: 'sticky',
          x: (i % 50) * 220,
          y: (batch * 20 + Math.floor(i / 50)) * 220,
          text: `Idea number ${batch * 1000 + i}`,
        })),
      });
      assert.equal(added.status, 201);
    }
    const reader = await connectAgent(bigKey.body.key);
    try {
      const answer = (await reader.callTool({
        name: 'read_board',
        arguments: { boardId: bigBoard },
      })) as ToolAnswer;
      const textAnswer = answer.content[0]!.text;
      assert.equal(JSON.parse(textAnswer).shapes.length, 5000);
      assert.ok(Buffer.byteLength(textAnswer) < 1024 * 1024, `${Buffer.byteLength(textAnswer)} bytes`);
    } finally {
      await reader.close();
    }
  });

  test('a revoked key is refused on the next call of an open MCP client', async () => {
    const revoked = await owner.call('DELETE', apiPaths.integration(boardId, integrationId));
    assert.equal(revoked.status, 204);
    await assert.rejects(
      () => agent.callTool({ name: 'read_board', arguments: { boardId } }),
      (error: Error) => /401|not valid|revoked/i.test(error.message),
    );
    const wrong = await fetch(server.url + MCP_PATH, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as { error: { code: string } }).error.code, 'AUTH_REQUIRED');
  });
});

describe('MCP endpoint: the write limit', () => {
  test('tool writes count against the key’s content-API writes a minute, with REST writes: past it a tool error with the sentence, and nothing changes', async () => {
    const server = await startServer({ env: { CONTENT_WRITES_PER_MINUTE: '3' } });
    const owner = await new ApiClient(server.url).signup('Olive');
    const boardId = await owner.createBoard('Limited');
    const created = await owner.call<{ key: string }>('POST', apiPaths.integrations(boardId), {
      name: 'Busy bot',
      role: 'editor',
    });
    const agent = new Client({ name: 'test-agent', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(server.url + MCP_PATH), {
        requestInit: { headers: { authorization: `Bearer ${created.body.key}` } },
      }),
    );
    try {
      const addSticky = async (text: string) =>
        (await agent.callTool({
          name: 'add_shapes',
          arguments: { boardId, shapes: [{ type: 'sticky', x: 0, y: 0, text }] },
        })) as ToolAnswer;
      const rest = await fetch(server.url + contentPaths.shapes(boardId), {
        method: 'POST',
        headers: { authorization: `Bearer ${created.body.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ shapes: [{ type: 'sticky', x: 0, y: 0, text: 'rest' }] }),
      });
      assert.equal(rest.status, 201);
      assert.equal((await addSticky('one')).isError, undefined);
      assert.equal((await addSticky('two')).isError, undefined);
      const over = await addSticky('three');
      assert.equal(over.isError, true, 'the fourth write of the minute is refused');
      assert.match(over.content[0]?.text ?? '', /^Too many attempts\. Try again in \d+ seconds\.$/);
      const read = (await agent.callTool({ name: 'read_board', arguments: { boardId } })) as ToolAnswer;
      assert.equal(read.isError, undefined, 'reads are not counted');
      const texts = (JSON.parse(read.content[0]?.text ?? '{}') as { shapes: { text?: string }[] }).shapes.map(
        (s) => s.text,
      );
      assert.deepEqual(texts.sort(), ['one', 'rest', 'two']);
    } finally {
      await agent.close();
      await server.close();
    }
  });
});
