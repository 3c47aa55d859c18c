// The content API (docs/api.md §15): a board's shapes read and written by scripts, bots and agents
// with an integration's key (or a member's session). Every write is one change through the board's
// Room (integrations/integrations.ts), checked whole first: a malformed shape is a 422 naming its
// index and field, a frame-scoped key's change outside its frame a 422 OUT_OF_SCOPE, and neither
// changes anything. Writes take an Idempotency-Key and count against the key's rate limit.
import {
  AddPageBody,
  type BoardContentAnswer,
  type BoardEventsAnswer,
  DeleteShapesBody,
  ErrorCode,
  eventCursorPattern,
  integrationLimits,
  pageOf,
} from '@tandem/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { backgroundLane } from '../documents/turns.ts';
import { ContentError, pagesOf, readContent } from '../integrations/content.ts';
import { BoardFullError, writerOf } from '../integrations/integrations.ts';
import {
  type Actor,
  addPage,
  addShapes,
  deleteShapes,
  refuseOverLimit,
  updateShapes,
} from '../integrations/writes.ts';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { ApiError } from './errors.ts';
import { listedPageKey } from './pageKey.ts';
import { parseBody, refuseWhenLimited, signedIn } from './request.ts';
import { toBoard } from './serialize.ts';

/** Every call names a board, and may name one of its pages (`?page=`, the first page when not). */
type BoardParams = { Params: { id: string }; Querystring: { page?: string } };

/** What a write answers, kept for a retry with the same Idempotency-Key. */
interface Answer {
  status: number;
  body: unknown;
}

/** The list a write body carries under `field` (a body that is no object is BAD_REQUEST). */
function listIn(body: unknown, field: 'shapes' | 'ids'): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(ErrorCode.BAD_REQUEST, 'Send a JSON object in the request body.');
  }
  return (body as Record<string, unknown>)[field];
}

/** Awaits a write, turning the board's refusals into the catalogue's errors. */
async function mapped<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    throw asApiError(error);
  }
}

/** Maps the board's refusals to the catalogue (docs/api.md §8). */
function asApiError(error: unknown): unknown {
  if (error instanceof ContentError) {
    if (error.code === 'TOO_MANY') return new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, error.message);
    const hasFields = Object.keys(error.fields).length > 0;
    return new ApiError(
      error.code === 'OUT_OF_SCOPE' ? ErrorCode.OUT_OF_SCOPE : ErrorCode.VALIDATION,
      error.message,
      hasFields ? error.fields : undefined,
    );
  }
  if (error instanceof BoardFullError) return new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, error.message);
  return error;
}

/** How often each instance drops the answers kept for Idempotency-Key retries that are past their time. */
export const IDEMPOTENCY_SWEEP_MS = 3_600_000;

export const contentRoutes: ResourcePlugin = async (app, deps) => {
  const { store, integrations, events, rooms } = deps;
  // The page a call names; the first page's room, which says which pages there are, kept loaded
  // as the room of any content-API call is (API_ROOM_LINGER_MS).
  const pageKeyOf = (boardId: string, query: unknown) =>
    listedPageKey(rooms, boardId, query, deps.config.apiRoomLingerMs);
  const writes = deps.limits.contentWrites;
  // Answers kept for Idempotency-Key retries are dropped once past their 24 h, every hour on
  // every instance (the sweep is one indexed delete): kept until the next keyed write, a burst of
  // keyed writes stayed in the Store for as long as nobody sent another.
  const sweep = () =>
    void store.integrations
      .sweepIdempotency(new Date(Date.now() - integrationLimits.idempotencyMs))
      .catch(() => undefined);
  const sweeper = setInterval(sweep, IDEMPOTENCY_SWEEP_MS);
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));

  /**
   * Runs a write once per Idempotency-Key (docs/api.md §15): a retry within 24 h gets the first
   * answer and changes nothing. The key is claimed in the Store, so a retry that reaches another
   * instance is answered the same; a write that failed releases its key.
   */
  const idempotent = async (
    request: FastifyRequest,
    reply: FastifyReply,
    write: () => Promise<Answer>,
  ): Promise<FastifyReply> => {
    const userId = signedIn(request).id;
    const header = request.headers['idempotency-key'];
    const key = typeof header === 'string' ? header.trim() : undefined;
    const send = (answer: Answer) =>
      answer.status === 204 ? reply.code(204).send() : reply.code(answer.status).send(answer.body);
    const counted = async () => refuseWhenLimited(await writes.hit(userId), reply);
    if (!key) {
      await counted();
      return send(await write());
    }
    if (key.length > integrationLimits.idempotencyKeyMax) {
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        `An Idempotency-Key has at most ${integrationLimits.idempotencyKeyMax} characters.`,
      );
    }
    const now = Date.now();
    const since = new Date(now - integrationLimits.idempotencyMs);
    const earlier = await store.integrations.claimIdempotency(userId, key, since);
    if (earlier) {
      if (earlier.status === null) {
        throw new ApiError(
          ErrorCode.CONFLICT,
          'A call with this Idempotency-Key is still running. Try again in a moment.',
        );
      }
      reply.header('Idempotent-Replayed', 'true');
      return send({ status: earlier.status, body: earlier.body ? JSON.parse(earlier.body) : null });
    }
    try {
      await counted();
      const answer = await write();
      await store.integrations.answerIdempotency(userId, key, {
        status: answer.status,
        body: answer.body === undefined ? null : JSON.stringify(answer.body),
      });
      return send(answer);
    } catch (error) {
      await store.integrations
        .answerIdempotency(userId, key, { status: null, body: null })
        .catch(() => undefined);
      throw error;
    }
  };

  /** The board, for a caller with at least `need`; a key only reaches its own board. */
  const boardFor = async (request: FastifyRequest<BoardParams>, need: 'viewer' | 'editor') =>
    (await requireRole(store, request.params.id, signedIn(request).id, need)).board;

  /**
   * Who writes, for an editor or better: a key's writes are limited to its frame. A write's checks
   * start its pieces of the background lane (documents/turns.ts): they wait for the turn's I/O.
   */
  const actorFor = async (request: FastifyRequest<BoardParams>): Promise<Actor> => {
    await backgroundLane.turn();
    const board = await boardFor(request, 'editor');
    return {
      boardId: board.id,
      pageKey: await pageKeyOf(board.id, request.query),
      writer: writerOf(signedIn(request), request.integration),
      frameId: request.integration?.frameId ?? null,
    };
  };

  app.get<BoardParams>('/api/v1/boards/:id', async (request): Promise<BoardContentAnswer> => {
    const board = await boardFor(request, 'viewer');
    const key = await pageKeyOf(board.id, request.query);
    const pages = await integrations.read(board.id, pagesOf);
    const content = await integrations.read(key, readContent);
    return { board: toBoard(board), page: pageOf(key).pageId, pages, ...content };
  });

  /**
   * The changes after `since` to the page (docs/api.md §15), waiting up to `wait` seconds (at most
   * 25) for one; without `since`, the cursor of the page now, at once. A cursor is a page's own.
   */
  app.get<BoardParams & { Querystring: { since?: string; wait?: string } }>(
    '/api/v1/boards/:id/events',
    async (request, reply): Promise<BoardEventsAnswer> => {
      const board = await boardFor(request, 'viewer');
      const { since, wait } = request.query;
      const key = await pageKeyOf(board.id, request.query);
      const maxWait = integrationLimits.eventsWaitMs / 1000;
      const fields: Record<string, string> = {};
      if (since !== undefined && !eventCursorPattern.test(since))
        fields.since = 'Pass back the cursor of an earlier answer, or leave since out to start now.';
      const seconds = wait === undefined ? maxWait : Number(wait);
      if (wait !== undefined && !(wait.trim() !== '' && seconds >= 0 && seconds <= maxWait))
        fields.wait = `Seconds to wait for a change, from 0 to ${maxWait}.`;
      if (Object.keys(fields).length > 0)
        throw new ApiError(ErrorCode.VALIDATION, 'Some fields need attention.', fields);
      if (since === undefined) return { events: [], shapes: [], cursor: await events.head(key), more: false };
      // The caller hung up: stop waiting and let the board's room go.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      return events.poll(key, Number(since), { waitMs: seconds * 1000, signal: gone.signal });
    },
  );

  app.post<BoardParams>('/api/v1/boards/:id/shapes', async (request, reply) => {
    const actor = await actorFor(request);
    return idempotent(request, reply, async () => ({
      status: 201,
      body: { shapes: await mapped(addShapes(integrations, actor, listIn(request.body, 'shapes'))) },
    }));
  });

  app.patch<BoardParams>('/api/v1/boards/:id/shapes', async (request, reply) => {
    const actor = await actorFor(request);
    return idempotent(request, reply, async () => ({
      status: 200,
      body: { shapes: await mapped(updateShapes(integrations, actor, listIn(request.body, 'shapes'))) },
    }));
  });

  // A page (docs/api.md §17), so that a script or an agent can put its work on a page of its own.
  app.post<BoardParams>('/api/v1/boards/:id/pages', async (request, reply) => {
    const actor = await actorFor(request);
    const body = parseBody(AddPageBody, request.body ?? {});
    return idempotent(request, reply, async () => ({
      status: 201,
      body: await mapped(addPage(integrations, actor, body)),
    }));
  });

  app.delete<BoardParams>('/api/v1/boards/:id/shapes', async (request, reply) => {
    const actor = await actorFor(request);
    return idempotent(request, reply, async () => {
      const list = listIn(request.body, 'ids');
      await mapped(
        (async () => {
          refuseOverLimit(list);
          await deleteShapes(integrations, actor, parseBody(DeleteShapesBody, request.body).ids);
        })(),
      );
      return { status: 204, body: undefined };
    });
  });
};
