// The content API (docs/api.md §15): a board's shapes read and written by scripts, bots and agents
// with an integration's key (or a member's session). Every write is one change through the board's
// Room (integrations/integrations.ts), checked whole first: a malformed shape is a 422 naming its
// index and field, a frame-scoped key's change outside its frame a 422 OUT_OF_SCOPE, and neither
// changes anything. Writes take an Idempotency-Key and count against the key's rate limit.
import {
  AddShapesBody,
  checkShapes,
  DeleteShapesBody,
  ErrorCode,
  integrationLimits,
  ShapeInput,
  ShapePatch,
} from '@tandem/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { WindowLimiter } from '../auth/rateLimit.ts';
import {
  applyAdd,
  applyDelete,
  applyPatch,
  ContentError,
  focusOf,
  planAdd,
  planDelete,
  planPatch,
  readContent,
} from '../integrations/content.ts';
import { BoardFullError, writerOf } from '../integrations/integrations.ts';
import { requireRole } from './access.ts';
import type { ResourcePlugin } from './deps.ts';
import { ApiError } from './errors.ts';
import { parseBody, rateLimit, signedIn } from './request.ts';
import { toBoard } from './serialize.ts';

type BoardParams = { Params: { id: string } };

/** What a write answers, kept for a retry with the same Idempotency-Key. */
interface Answer {
  status: number;
  body: unknown;
}

/** Over the per-call limit: 413, whatever else is wrong with the body. */
function refuseOverLimit(list: unknown): void {
  if (Array.isArray(list) && list.length > integrationLimits.shapesPerCall) {
    throw new ApiError(
      ErrorCode.PAYLOAD_TOO_LARGE,
      `At most ${integrationLimits.shapesPerCall.toLocaleString('en')} shapes in one call. Split the write into several.`,
    );
  }
}

/** Maps the board's refusals to the catalogue (docs/api.md §8). */
function asApiError(error: unknown): unknown {
  if (error instanceof ContentError) {
    return new ApiError(
      error.code === 'OUT_OF_SCOPE' ? ErrorCode.OUT_OF_SCOPE : ErrorCode.VALIDATION,
      error.message,
      error.fields,
    );
  }
  if (error instanceof BoardFullError) return new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, error.message);
  return error;
}

export const contentRoutes: ResourcePlugin = async (app, deps) => {
  const { store, integrations } = deps;
  const writes = new WindowLimiter(integrationLimits.writesPerMinute, 60_000);
  let sweptAt = 0;

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
    const counted = () => rateLimit(writes, userId, reply);
    if (!key) {
      counted();
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
    if (now - sweptAt > 3_600_000) {
      sweptAt = now;
      void store.integrations.sweepIdempotency(since).catch(() => undefined);
    }
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
      counted();
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
  const boardFor = async (request: FastifyRequest<BoardParams>, need: 'viewer' | 'editor') => {
    const { board } = await requireRole(store, request.params.id, signedIn(request).id, need);
    const frameId = request.integration?.frameId ?? null;
    const user = signedIn(request);
    return { board, frameId, userId: user.id, writer: writerOf(user, request.integration) };
  };

  /** Checks each shape of a body; 422 naming the first bad one's index and field. */
  const shapesOf = <S>(schema: z.ZodType<S>, body: unknown): { shapes: S[]; bytes: number } => {
    refuseOverLimit((body as { shapes?: unknown } | null)?.shapes);
    const { shapes } = parseBody(AddShapesBody, body);
    const checked = checkShapes(schema, shapes);
    if (!checked.ok) throw new ApiError(ErrorCode.VALIDATION, 'Some shapes need attention.', checked.fields);
    return { shapes: checked.shapes, bytes: JSON.stringify(shapes).length };
  };

  app.get<BoardParams>('/api/v1/boards/:id', async (request) => {
    const { board } = await boardFor(request, 'viewer');
    const content = await integrations.read(board.id, readContent);
    return { board: toBoard(board), ...content };
  });

  app.post<BoardParams>('/api/v1/boards/:id/shapes', async (request, reply) => {
    const { board, frameId, userId, writer } = await boardFor(request, 'editor');
    return idempotent(request, reply, async () => {
      const { shapes, bytes } = shapesOf(ShapeInput, request.body);
      try {
        const created = await integrations.write(board.id, writer, bytes, (doc) => {
          planAdd(doc, shapes, frameId);
          const records = applyAdd(doc, shapes, userId);
          return { result: records, touched: records.map((r) => r.id) };
        });
        return { status: 201, body: { shapes: created } };
      } catch (error) {
        throw asApiError(error);
      }
    });
  });

  app.patch<BoardParams>('/api/v1/boards/:id/shapes', async (request, reply) => {
    const { board, frameId, writer } = await boardFor(request, 'editor');
    return idempotent(request, reply, async () => {
      const { shapes, bytes } = shapesOf(ShapePatch, request.body);
      try {
        const changed = await integrations.write(board.id, writer, bytes, (doc) => {
          planPatch(doc, shapes, frameId);
          const records = applyPatch(doc, shapes);
          return { result: records, touched: records.map((r) => r.id) };
        });
        return { status: 200, body: { shapes: changed } };
      } catch (error) {
        throw asApiError(error);
      }
    });
  });

  app.delete<BoardParams>('/api/v1/boards/:id/shapes', async (request, reply) => {
    const { board, frameId, writer } = await boardFor(request, 'editor');
    return idempotent(request, reply, async () => {
      refuseOverLimit((request.body as { ids?: unknown } | null)?.ids);
      const { ids } = parseBody(DeleteShapesBody, request.body);
      try {
        await integrations.write(board.id, writer, 0, (doc) => {
          planDelete(doc, ids, frameId);
          const focus = focusOf(doc, ids);
          applyDelete(doc, ids);
          return { result: undefined, touched: [], focus };
        });
        return { status: 204, body: undefined };
      } catch (error) {
        throw asApiError(error);
      }
    });
  });
};
