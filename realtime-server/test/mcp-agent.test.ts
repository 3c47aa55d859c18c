// An agent's first hour with the MCP endpoint, driven by the official SDK's Client over
// Streamable HTTP against a real server: what it can learn from the tools' schemas alone (the
// fields of a shape, what an update may send), clustering stickies into a frame in two calls, and
// a flow diagram whose connectors carry labels it can read back and correct.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiPaths, contentPaths, MCP_PATH, shapeTypes } from '@tandem/shared';
import { ApiClient } from '../../testing/clients.ts';
import { startServer, type TestServer } from '../../testing/server.ts';

type ToolAnswer = { content: { type: string; text: string }[]; isError?: boolean };
type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
  enum?: string[];
  description?: string;
  additionalProperties?: unknown;
};
type Box = { id: string; x: number; y: number; w: number; h: number; text?: string; frame?: string };

describe('MCP: what an agent needs to act without guessing', () => {
  let server: TestServer;
  let owner: ApiClient;
  let boardId: string;
  let agent: Client;

  const call = async (name: string, args: Record<string, unknown>) => {
    const answer = (await agent.callTool({ name, arguments: args })) as ToolAnswer;
    assert.equal(answer.isError, undefined, `${name}: ${answer.content[0]?.text}`);
    return JSON.parse(answer.content[0]?.text ?? 'null');
  };

  before(async () => {
    server = await startServer();
    owner = await new ApiClient(server.url).signup('Olive');
    boardId = await owner.createBoard('Retro');
    const created = await owner.call<{ key: string }>('POST', apiPaths.integrations(boardId), {
      name: 'Clusterer',
      role: 'editor',
    });
    assert.equal(created.status, 201);
    agent = new Client({ name: 'test-agent', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(server.url + MCP_PATH), {
        requestInit: { headers: { authorization: `Bearer ${created.body.key}` } },
      }),
    );
  });
  after(async () => {
    await agent?.close();
    await server?.close();
  });

  test("add_shapes and update_shapes publish a shape's fields, their types and choices; an update sends no type", async () => {
    const { tools } = await agent.listTools();
    const item = (name: string) =>
      (tools.find((t) => t.name === name)?.inputSchema.properties?.shapes as JsonSchema | undefined)
        ?.items as JsonSchema;

    const add = item('add_shapes');
    assert.equal(add.type, 'object');
    assert.deepEqual(add.required, ['type', 'x', 'y']);
    assert.equal(add.additionalProperties, false);
    assert.deepEqual(add.properties?.type?.enum, [...shapeTypes]);
    assert.deepEqual(add.properties?.fontSize?.enum, ['s', 'm', 'l', 'xl']);
    assert.ok(add.properties?.color?.enum?.includes('green'));
    // What a field means, and the sizes a new shape gets, so the agent can place without overlap.
    assert.match(add.properties?.w?.description ?? '', /sticky 200/);
    assert.match(add.properties?.from?.description ?? '', /shapeId/);

    const update = item('update_shapes');
    assert.deepEqual(update.required, ['id']);
    assert.equal(update.properties?.type, undefined, 'an update cannot send a type');
    assert.ok(update.properties?.x && update.properties?.color && update.properties?.text);
    const updateTool = tools.find((t) => t.name === 'update_shapes');
    assert.match(updateTool?.description ?? '', /Moving a frame moves the shapes inside it/);

    // It says what the tool does: an unknown id is refused, not ignored.
    const deleteTool = tools.find((t) => t.name === 'delete_shapes');
    assert.doesNotMatch(deleteTool?.description ?? '', /ignored/);
    const gone = (await agent.callTool({
      name: 'delete_shapes',
      arguments: { boardId, ids: ['never-was'] },
    })) as ToolAnswer;
    assert.equal(gone.isError, true);
    assert.match(gone.content[0]?.text ?? '', /ids\[0\]: No such shape\./);

    // The schema is published, not enforced at the SDK's door: a bad shape is still the REST
    // refusal naming it by index.
    const bad = (await agent.callTool({
      name: 'add_shapes',
      arguments: {
        boardId,
        shapes: [
          { type: 'sticky', x: 0, y: 0 },
          { type: 'note', x: 0, y: 0 },
        ],
      },
    })) as ToolAnswer;
    assert.equal(bad.isError, true);
    assert.match(
      bad.content[0]?.text ?? '',
      /^Some shapes need attention\.\nshapes\[1\]\.type: The type is one of/,
    );
  });

  test('a second sticky grid into a frame goes below the stickies the frame holds, not on them', async () => {
    const seeded = await owner.call('POST', contentPaths.shapes(boardId), {
      shapes: [{ id: 'ci', type: 'frame', x: 0, y: 1000, w: 900, h: 1200, name: 'CI' }],
    });
    assert.equal(seeded.status, 201, JSON.stringify(seeded.body));
    const first = (await call('add_sticky_grid', {
      boardId,
      frameId: 'ci',
      texts: ['CI is slow', 'Flaky e2e', 'Cache npm', 'Shard tests'],
    })) as { shapes: Box[] };
    const second = (await call('add_sticky_grid', {
      boardId,
      frameId: 'ci',
      texts: ['More runners', 'Quarantine flaky tests'],
    })) as { shapes: Box[] };
    // The first fills three columns from the corner (+40): rows at 1040 and 1260; the second
    // starts one step below its last row.
    assert.deepEqual(
      second.shapes.map((s) => [s.x, s.y]),
      [
        [40, 1480],
        [260, 1480],
      ],
    );
    const overlaps = (a: Box, b: Box) =>
      a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    for (const s of second.shapes)
      for (const f of first.shapes) assert.ok(!overlaps(s, f), `${s.text} on ${f.text}`);
    const read = (await call('read_board', { boardId })) as { shapes: Box[] };
    assert.equal(read.shapes.filter((s) => s.frame === 'ci').length, 6, 'all six are in the frame');
  });

  test('a flow diagram: connect takes a label, read_board answers it, update_shapes corrects it', async () => {
    const added = (await call('add_shapes', {
      boardId,
      shapes: [
        { id: 'start', type: 'ellipse', x: 2000, y: 0, text: 'Push' },
        { id: 'green', type: 'diamond', x: 2300, y: 0, text: 'Tests green?' },
        { id: 'ship', type: 'rect', x: 2600, y: 0, text: 'Ship' },
      ],
    })) as { shapes: Box[] };
    assert.equal(added.shapes.length, 3);
    await call('connect', { boardId, from: 'start', to: 'green' });
    const labelled = (await call('connect', { boardId, from: 'green', to: 'ship', text: 'no' })) as {
      arrow: { id: string; text?: string };
    };
    assert.equal(labelled.arrow.text, 'no');
    // The mistake fixed: the arrow to Ship is the "yes" branch.
    await call('update_shapes', { boardId, shapes: [{ id: labelled.arrow.id, text: 'yes' }] });
    const read = (await call('read_board', { boardId })) as {
      connections: { id: string; from?: string; to?: string; text?: string }[];
    };
    const flow = read.connections.filter((c) => ['start', 'green'].includes(c.from ?? ''));
    assert.deepEqual(
      flow.map((c) => [c.from, c.to, c.text]),
      [
        ['start', 'green', undefined],
        ['green', 'ship', 'yes'],
      ],
    );
  });

  test("a page named by its name instead of its id: the refusal lists the board's pages with their ids", async () => {
    for (const pageId of ['Budget', 'Page 1']) {
      const answer = (await agent.callTool({
        name: 'add_shapes',
        arguments: { boardId, pageId, shapes: [{ type: 'sticky', x: 0, y: 0 }] },
      })) as ToolAnswer;
      assert.equal(answer.isError, true);
      assert.match(
        answer.content[0]?.text ?? '',
        /\nThis board's pages are main \("Page 1"\): pass one of these ids as pageId\.$/,
        pageId,
      );
    }
  });
  test("read_board with frameId reads one frame: its frames, its shapes and their connections; a note is its smallest frame's", async () => {
    const seeded = await owner.call('POST', contentPaths.shapes(boardId), {
      shapes: [
        { id: 'retro', type: 'frame', x: 5000, y: 0, w: 1000, h: 600, name: 'Retro' },
        { id: 'glad', type: 'frame', x: 5020, y: 20, w: 300, h: 560, name: 'Glad' },
        { id: 'happy', type: 'sticky', x: 5050, y: 60, text: 'Shipped pages' },
        { id: 'loose', type: 'sticky', x: 5600, y: 300, text: 'Loose idea' },
        { id: 'far', type: 'sticky', x: 9000, y: 0, text: 'Elsewhere' },
        {
          id: 'both',
          type: 'arrow',
          x: 0,
          y: 0,
          from: { shapeId: 'happy', x: 0, y: 0 },
          to: { shapeId: 'loose', x: 0, y: 0 },
        },
        {
          id: 'out',
          type: 'arrow',
          x: 0,
          y: 0,
          from: { shapeId: 'loose', x: 0, y: 0 },
          to: { shapeId: 'far', x: 0, y: 0 },
        },
      ],
    });
    assert.equal(seeded.status, 201, JSON.stringify(seeded.body));
    type Read = { frames: { id: string }[]; shapes: Box[]; connections: { id: string }[] };
    const whole = (await call('read_board', { boardId })) as Read;
    const frameOf = (read: Read, id: string) => read.shapes.find((s) => s.id === id)?.frame;
    assert.equal(frameOf(whole, 'happy'), 'glad', 'in Glad, which lies in Retro');
    assert.equal(frameOf(whole, 'loose'), 'retro');
    assert.equal(frameOf(whole, 'far'), undefined);

    const one = (await call('read_board', { boardId, frameId: 'retro' })) as Read;
    assert.deepEqual(one.frames.map((f) => f.id).sort(), ['glad', 'retro']);
    assert.deepEqual(one.shapes.map((s) => s.id).sort(), ['happy', 'loose']);
    assert.deepEqual(
      one.connections.map((c) => c.id),
      ['both'],
    );

    const unknown = (await agent.callTool({
      name: 'read_board',
      arguments: { boardId, frameId: 'happy' },
    })) as ToolAnswer;
    assert.equal(unknown.isError, true);
    assert.match(unknown.content[0]?.text ?? '', /frameId: No frame with this id on this page/);
  });
});
