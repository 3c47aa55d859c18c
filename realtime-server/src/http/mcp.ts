// The MCP endpoint (docs/api.md §15): `POST /mcp` speaks the Model Context Protocol's Streamable
// HTTP transport (the official SDK's server), authenticated by an integration's key like the
// content API. It runs stateless: each request is authenticated again and served by a fresh
// server, so a revoked key is refused on its very next call on every instance, and any instance
// can answer any call. The tools are the content API's writes (integrations/writes.ts): one tool
// call is one change, attributed to the integration and limited to its frame; a refusal is an MCP
// tool error with the same sentence as REST.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  AddPageBody,
  ColorName,
  defaultShapeSize,
  ErrorCode,
  MCP_PATH,
  pageOf,
  roleAtLeast,
  ShapeInput,
  ShapePatch,
  sortResults,
} from '@tandem/shared';
import { clippingFrames, frameMembers, inside, isFrame } from '@tandem/shared/render/frames.ts';
import { center } from '@tandem/shared/render/geometry.ts';
import type * as Y from 'yjs';
import { z } from 'zod';
import { backgroundLane } from '../documents/turns.ts';
import { ContentError, pagesOf, readContent } from '../integrations/content.ts';
import { BoardFullError, type KeyCaller, writerOf } from '../integrations/integrations.ts';
import {
  type Actor,
  addPage,
  addShapes,
  addStickyGrid,
  connectShapes,
  deleteShapes,
  type StickyGrid,
  updateShapes,
} from '../integrations/writes.ts';
import type { HttpDeps, ResourcePlugin } from './deps.ts';
import { ApiError, toErrorBody } from './errors.ts';
import { listedPageKey } from './pageKey.ts';
import { limitedSentence, parseBody } from './request.ts';
import { badKey, bearerKey } from './server.ts';

const SERVER_INFO = { name: 'tandem', version: '1.0.0' };

/** A tool's refusal: the same sentence (and fields) as the content API's answer. */
class ToolRefusal extends Error {}

const text = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
});

function refusal(error: unknown): CallToolResult {
  let message: string;
  if (error instanceof ContentError) {
    const fields = Object.entries(error.fields).map(([field, why]) => `${field}: ${why}`);
    message = [error.message, ...fields].join('\n');
  } else if (error instanceof ApiError) {
    const fields = Object.entries(error.fields ?? {}).map(([field, why]) => `${field}: ${why}`);
    message = [error.message, ...fields].join('\n');
  } else if (error instanceof BoardFullError || error instanceof ToolRefusal) {
    message = error.message;
  } else throw error;
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/**
 * The compact board an agent reasons about: short keys, rounded numbers, arrows as connections.
 * A shape's `frame` is the frame that holds it as the canvas shows it (clippingFrames: the
 * smallest holding its centre, so a note in a column of a bigger frame is the column's). With
 * `frameId`, only that frame: itself and the frames inside it, its members (frameMembers, as a
 * move or an export takes them) and the connections among them, so an agent reads a big board a
 * frame at a time. A `frameId` that names no frame of the page is refused, naming it.
 */
export function compactBoard(doc: Y.Doc, title: string, here: { name: string }[], frameId?: string) {
  const content = readContent(doc);
  let { shapes, frames } = content;
  if (frameId !== undefined) {
    const frame = shapes.find((s) => s.id === frameId && isFrame(s));
    if (!frame)
      throw new ContentError('VALIDATION', 'Some fields need attention.', {
        frameId: 'No frame with this id on this page (read_board without frameId lists them).',
      });
    const members = new Set(frameMembers(frame, shapes));
    const area = { x: frame.x, y: frame.y, w: frame.w, h: frame.h };
    frames = frames.filter((f) => f.id === frameId || inside(area, center(f)));
    shapes = shapes.filter((s) => members.has(s.id));
  }
  const holder = clippingFrames(content.shapes);
  const round = (n: number) => Math.round(n);
  const connections: { id: string; from?: string | undefined; to?: string | undefined; text?: string }[] = [];
  const items: Record<string, unknown>[] = [];
  for (const s of shapes) {
    if (s.type === 'frame') continue;
    if (s.type === 'arrow') {
      // A connector's label is what the arrow says ("yes", "fixes"): part of the diagram.
      connections.push({
        id: s.id,
        from: s.from?.shapeId,
        to: s.to?.shapeId,
        ...(s.text ? { text: s.text } : {}),
      });
      continue;
    }
    const item: Record<string, unknown> = {
      id: s.id,
      type: s.type,
      x: round(s.x),
      y: round(s.y),
      w: round(s.w),
      h: round(s.h),
    };
    if (s.text) item.text = s.text;
    // An image's words are its alt text: without it an agent sees only an image's box.
    if (s.alt) item.alt = s.alt;
    if (s.color) item.color = s.color;
    const frame = holder.get(s.id)?.id;
    if (frame) item.frame = frame;
    items.push(item);
  }
  return {
    title,
    frames: frames.map((f) => ({
      id: f.id,
      name: f.name,
      x: round(f.x),
      y: round(f.y),
      w: round(f.w),
      h: round(f.h),
    })),
    shapes: items,
    connections,
    here: here.map((u) => u.name),
  };
}

const boardId = z.string().describe('The board id (list_boards gives it).');
const pageId = z
  .string()
  .optional()
  .describe('The page (read_board lists the pages); the first page when omitted.');
/** The page a tool call names: its `pageId` is the content API's `?page=`. */
type OnPage = { boardId: string; pageId?: string | undefined };
/** Each type's default width or height (shared defaultShapeSize), for the types that have one. */
const defaultSizes = (side: 'w' | 'h') =>
  Object.entries(defaultShapeSize)
    .filter(([, size]) => size[side] > 0)
    .map(([type, size]) => `${type} ${size[side]}`)
    .join(', ');
/** What a shape's fields mean, for an agent that sees only the tool's schema. */
const fieldHelp: Record<string, string> = {
  id: 'The shape id (read_board gives them). Leave it out on add and the board makes one.',
  type: 'What the shape is. A sticky, rect, ellipse, diamond or text carries text; a frame groups the shapes whose centre lies inside it; an arrow joins two points or shapes.',
  x: 'Left edge in board units (the top-left corner of the shape; y grows downwards).',
  y: 'Top edge in board units.',
  w: `Width. Default per type: ${defaultSizes('w')}.`,
  h: `Height. Default per type: ${defaultSizes('h')}.`,
  rotation: 'Rotation in radians about its centre (default 0).',
  color: 'The named colour: the fill of a sticky, the line and tint of a shape or an arrow.',
  z: 'Paint order key; leave it out (a new shape goes on top).',
  text: "The words on a sticky, rect, ellipse, diamond or text shape, or an arrow's label; it replaces the whole text.",
  name: "A frame's name.",
  points: 'Freehand only: [x0, y0, x1, y1, …] relative to x, y.',
  from: "An arrow's start {x, y} in board units; with shapeId it is attached to that shape and follows it (connect does this for you).",
  to: "An arrow's end, as from.",
  assetId: 'Image only: an uploaded asset of this board.',
  alt: 'Image only: its alt text.',
  fontSize: 'Text size: s, m, l or xl.',
  stroke: 'Line colour: a named colour or #rrggbb.',
  fill: 'Fill colour: a named colour or #rrggbb.',
  groupId: 'Shapes with the same groupId move together in the editor.',
  locked: 'A locked shape cannot be changed in the editor.',
};

/**
 * The JSON Schema of one shape as a tool publishes it: the shared schema's own (every field, its
 * type and its choices), with what each field means. Only published: the writes check each shape
 * themselves (integrations/writes.ts), so a refusal names the shape by index and says what to fix
 * with the REST sentence, and a call over the per-call limit is refused as one.
 */
function shapeJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const properties = json.properties as Record<string, Record<string, unknown>>;
  for (const [field, help] of Object.entries(fieldHelp))
    if (properties[field]) properties[field] = { description: help, ...properties[field] };
  // The record that checks nothing at the SDK's door publishes no names of its own.
  return { ...json, propertyNames: undefined };
}
/** A tool's list of shapes: published as the shared schema, checked by the write (above). */
const shapeList = (schema: z.ZodType, description: string) =>
  z.array(z.record(z.string(), z.unknown()).meta(shapeJsonSchema(schema))).describe(description);
/** Built on the first MCP call, then kept (the schemas never change while the server runs). */
let shapeLists: { add: ReturnType<typeof shapeList>; update: ReturnType<typeof shapeList> } | null = null;
const shapeListsOf = () =>
  (shapeLists ??= {
    add: shapeList(
      ShapeInput,
      'The shapes to add (at most 1,000): each needs type, x and y; the rest is optional.',
    ),
    update: shapeList(
      ShapePatch,
      "The changes (at most 1,000): each names a shape's id and only the fields to set; a shape's type cannot change.",
    ),
  });

/**
 * The SDK, loaded on the first MCP call: it brings a JSON-schema validator (ajv) with it, which a
 * deployment whose agents never call /mcp should not load at start (realtime-server/test/bundle.test.ts).
 */
type Sdk = {
  McpServer: typeof import('@modelcontextprotocol/sdk/server/mcp.js').McpServer;
  StreamableHTTPServerTransport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
};
const loadSdk = async (): Promise<Sdk> => {
  const [mcp, http] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  return { McpServer: mcp.McpServer, StreamableHTTPServerTransport: http.StreamableHTTPServerTransport };
};

/** One MCP server per request, with the tools bound to the caller. */
function toolsFor(McpServer: Sdk['McpServer'], caller: KeyCaller, deps: HttpDeps): McpServer {
  const { store, integrations, rooms } = deps;
  const { integration, user } = caller;
  const server = new McpServer(SERVER_INFO, {
    instructions:
      'Tandem is a collaborative whiteboard. Your key opens one board: call list_boards for its id, read_board to see it, then add, update, connect or delete shapes. A board may have several pages: read_board lists them, and every tool works on the first page unless given a pageId. Each call is one change that everyone on the page sees live, attributed to you.',
  });

  /** The caller's board, checked: a key reaches only its own, with its role. */
  const boardFor = async (id: string, need: 'viewer' | 'editor') => {
    if (id !== integration.boardId) throw new ToolRefusal('No such board, or you do not have access to it.');
    const board = await store.getBoard(id);
    const role = await store.getRole(id, user.id);
    if (!board || !role) throw new ToolRefusal('No such board, or you do not have access to it.');
    if (!roleAtLeast(role, need)) throw new ToolRefusal('Your role does not allow this.');
    return board;
  };
  const pageKeyOf = async (board: { id: string }, page: string | undefined) => {
    try {
      return await listedPageKey(rooms, board.id, { page }, deps.config.apiRoomLingerMs);
    } catch (error) {
      // An agent often passes a page's name ("Roadmap", "Page 1"): the refusal says which ids there are.
      if (!(error instanceof ApiError) || page === undefined) throw error;
      if (error.code !== ErrorCode.NOT_FOUND && error.code !== ErrorCode.VALIDATION) throw error;
      const pages = await integrations.read(board.id, pagesOf);
      const listed = pages.map((p) => `${p.id} ("${p.name}")`).join(', ');
      const fields = Object.entries(error.fields ?? {}).map(([field, why]) => `${field}: ${why}`);
      throw new ToolRefusal(
        [error.message, ...fields, `This board's pages are ${listed}: pass one of these ids as pageId.`].join(
          '\n',
        ),
      );
    }
  };
  const actorFor = async ({ boardId: id, pageId: page }: OnPage): Promise<Actor> => {
    // A write's checks are its first piece of the background lane, as for the REST door.
    await backgroundLane.turn();
    const board = await boardFor(id, 'editor');
    const key = await pageKeyOf(board, page);
    // The content API's limit, counted with the REST writes: a key gets no more through /mcp.
    const retryAfter = await deps.limits.contentWrites.hit(user.id);
    if (retryAfter > 0) throw new ToolRefusal(limitedSentence(retryAfter));
    return {
      boardId: board.id,
      pageKey: key,
      writer: writerOf(user, integration),
      frameId: integration.frameId,
    };
  };
  const guarded =
    <A>(run: (args: A) => Promise<CallToolResult>) =>
    async (args: A): Promise<CallToolResult> => {
      try {
        return await run(args);
      } catch (error) {
        return refusal(error);
      }
    };

  server.registerTool(
    'list_boards',
    {
      description: 'Lists the boards this key can open (one: keys are board-scoped), with your role on each.',
      inputSchema: {},
    },
    guarded(async () => {
      const board = await store.getBoard(integration.boardId);
      const role = await store.getRole(integration.boardId, user.id);
      return text({ boards: board && role ? [{ id: board.id, title: board.title, role }] : [] });
    }),
  );

  server.registerTool(
    'read_board',
    {
      description:
        "Reads one page of a board compactly: the board's pages (id, name), then the page's frames (id, name, box), shapes (id, type, box, text, alt text of an image, colour, the frame holding them), connections (arrows between shape ids, with their label) and who is on that page now. The first page unless pageId names another. With frameId, only that frame: itself, the frames inside it, the shapes whose centre is inside it and the connections among them (read a big board a frame at a time).",
      inputSchema: {
        boardId,
        pageId,
        frameId: z
          .string()
          .optional()
          .describe('Read only this frame of the page (read_board without it lists the frames).'),
      },
    },
    guarded(async (args: OnPage & { frameId?: string }) => {
      const board = await boardFor(args.boardId, 'viewer');
      const key = await pageKeyOf(board, args.pageId);
      const pages = await integrations.read(board.id, pagesOf);
      const page = await integrations.read(key, (doc) =>
        compactBoard(doc, board.title, rooms.get(key)?.presence.users() ?? [], args.frameId),
      );
      const { title, ...rest } = page;
      return text({ title, page: pageOf(key).pageId, pages, ...rest });
    }),
  );

  server.registerTool(
    'add_shapes',
    {
      description:
        'Adds shapes in one change, on top of what is there; answers the created shapes with their ids and sizes. To find free space, read_board first: every shape and frame has its box (x, y, w, h).',
      inputSchema: { boardId, pageId, shapes: shapeListsOf().add },
    },
    guarded(async (args: OnPage & { shapes: unknown[] }) =>
      text({ shapes: await addShapes(integrations, await actorFor(args), args.shapes) }),
    ),
  );

  server.registerTool(
    'update_shapes',
    {
      description:
        'Changes shapes in one change: each {id, ...only the fields to set}, e.g. {id, x, y} moves a shape, {id, color} restyles it, {id, text} replaces its text, {id, name} renames a frame. The type cannot change (delete the shape and add another). Moving a frame moves the shapes inside it by the same amount (not other frames or locked shapes); a shape the same call also moves goes where the call says. Resizing a frame moves nothing.',
      inputSchema: { boardId, pageId, shapes: shapeListsOf().update },
    },
    guarded(async (args: OnPage & { shapes: unknown[] }) =>
      text({ shapes: await updateShapes(integrations, await actorFor(args), args.shapes) }),
    ),
  );

  server.registerTool(
    'delete_shapes',
    {
      description:
        'Deletes shapes by id in one change. Every id must name a shape on the page: an unknown one is refused by its index and nothing is deleted. Deleting a frame leaves the shapes in it.',
      inputSchema: {
        boardId,
        pageId,
        ids: z.array(z.string().min(1).max(64)).min(1).describe('The shape ids.'),
      },
    },
    guarded(async (args: OnPage & { ids: string[] }) => {
      await deleteShapes(integrations, await actorFor(args), args.ids);
      return text({ deleted: args.ids.length });
    }),
  );

  server.registerTool(
    'connect',
    {
      description:
        'Draws an arrow from one shape to another, with an optional label; its ends stay attached when the shapes move. update_shapes {id, text} changes the label later.',
      inputSchema: {
        boardId,
        pageId,
        from: z.string().describe('The id of the shape the arrow starts at.'),
        to: z.string().describe('The id of the shape the arrow points to.'),
        text: z.string().max(10_000).optional().describe('A label shown on the arrow ("yes", "depends on").'),
        color: ColorName.optional(),
      },
    },
    guarded(
      async (
        args: OnPage & { from: string; to: string; text?: string | undefined; color?: ColorName | undefined },
      ) => text({ arrow: await connectShapes(integrations, await actorFor(args), args) }),
    ),
  );

  server.registerTool(
    'add_sticky_grid',
    {
      description:
        'Adds sticky notes laid out in a grid, in one change: inside a frame (from its top-left corner, as many columns as fit) or from a point. Given neither, a key limited to a frame fills that frame, and any other key puts the grid to the right of everything on the board. Use it to cluster ideas.',
      inputSchema: {
        boardId,
        pageId,
        texts: z.array(z.string().max(10_000)).min(1).describe('One sticky per text, in reading order.'),
        frameId: z.string().optional().describe('The frame to fill (read_board lists frames).'),
        x: z
          .number()
          .optional()
          .describe('Top-left corner when no frame is given (omit to place it beside the content).'),
        y: z.number().optional(),
        columns: z.number().int().min(1).max(100).optional(),
        color: ColorName.optional(),
      },
    },
    guarded(async (args: StickyGrid & OnPage) =>
      text({ shapes: await addStickyGrid(integrations, await actorFor(args), args) }),
    ),
  );

  server.registerTool(
    'add_page',
    {
      description:
        "Adds a page to the board, at the end or after the page `after` names, so your work can have a page of its own; answers the new page's id and every page in order. Write on it by passing its id as pageId to the other tools. A key limited to a frame cannot add pages.",
      inputSchema: {
        boardId,
        // No .max here: the SDK would refuse a long name before our sentence; AddPageBody says it.
        name: z
          .string()
          .optional()
          .describe('The page\'s name, as the Pages panel shows it; "Page N" when omitted.'),
        after: z.string().optional().describe('The id of the page it goes after (read_board lists them).'),
      },
    },
    guarded(async (args: { boardId: string; name?: string; after?: string }) => {
      const actor = await actorFor({ boardId: args.boardId });
      const body = parseBody(AddPageBody, { name: args.name, after: args.after });
      return text(await addPage(integrations, actor, body));
    }),
  );

  server.registerTool(
    'read_votes',
    {
      description:
        'Reads the board’s dot-voting session: whether one is open, and once it is closed the votes per shape, most-voted first.',
      inputSchema: { boardId },
    },
    guarded(async (args: { boardId: string }) => {
      const board = await boardFor(args.boardId, 'viewer');
      const session = await store.currentVoteSession(board.id);
      if (!session) return text({ session: null });
      const closed = session.closedAt !== null;
      return text({
        session: { id: session.id, open: !closed, votesPerPerson: session.votesPerPerson },
        voters: await store.countVoters(session.id),
        ...(closed ? { results: sortResults(await store.voteTotals(session.id)) } : {}),
      });
    }),
  );
  return server;
}

export const mcpRoutes: ResourcePlugin = async (app, deps) => {
  let sdk: Promise<Sdk> | null = null;
  app.post(MCP_PATH, async (request, reply) => {
    const key = bearerKey(request.headers.authorization);
    const caller = key === undefined ? null : await deps.integrations.resolve(key);
    if (!caller) {
      const { status, body } = toErrorBody(badKey(), request.id);
      return reply.code(status).header('WWW-Authenticate', 'Bearer').send(body);
    }
    // A failed load is not kept: the next call tries again.
    sdk ??= loadSdk().catch((error: unknown) => {
      sdk = null;
      throw error;
    });
    const { McpServer, StreamableHTTPServerTransport } = await sdk;
    const server = toolsFor(McpServer, caller, deps);
    // Stateless: no session id, JSON answers; the SDK writes the answer on the raw response.
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  // Streams and sessions are not offered (stateless server): say so in the catalogue's shape.
  const notHere = async () => {
    throw new ApiError(ErrorCode.BAD_REQUEST, 'This MCP endpoint is stateless: send each request with POST.');
  };
  app.get(MCP_PATH, notHere);
  app.delete(MCP_PATH, notHere);
};
