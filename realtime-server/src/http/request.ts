// What every REST plugin needs from a request: the signed-in user, a body read through a shared
// schema, and the rate limits. Failures are ApiErrors, turned into docs/api.md §8's body by the one mapper.
import { ErrorCode, fieldMessages } from '@tandem/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Limiter } from '../auth/rateLimit.ts';
import type { IntegrationRow, UserRow } from '../store/store.ts';
import { ApiError, authRequired } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved from the session cookie for every /api/ request (server.ts). */
    user: UserRow | null;
    /** Set when the caller authenticated with an integration's key (docs/api.md §15). */
    integration: IntegrationRow | null;
  }
}

/** The signed-in user, or AUTH_REQUIRED. */
export function signedIn(request: FastifyRequest): UserRow {
  if (!request.user) throw authRequired();
  return request.user;
}

/** The body, checked against a shared schema: BAD_REQUEST when it is not an object, VALIDATION with field messages. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(ErrorCode.BAD_REQUEST, 'Send a JSON object in the request body.');
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new ApiError(ErrorCode.VALIDATION, 'Some fields need attention.', fieldMessages(result.error));
  }
  return result.data;
}

/** Counts one attempt against a limiter; RATE_LIMITED with Retry-After once it is spent. */
export async function rateLimit(limiter: Limiter, key: string, reply: FastifyReply): Promise<void> {
  refuseWhenLimited(await limiter.hit(key), reply);
}

/** What a caller over a limit is told (REST 429, or an MCP tool's refusal). */
export const limitedSentence = (retryAfter: number): string =>
  `Too many attempts. Try again in ${retryAfter} seconds.`;

/** RATE_LIMITED with Retry-After when `retryAfter` (seconds, from a limiter's hit) is above 0. */
export function refuseWhenLimited(retryAfter: number, reply: FastifyReply): void {
  if (retryAfter > 0) {
    reply.header('Retry-After', String(retryAfter));
    throw new ApiError(ErrorCode.RATE_LIMITED, limitedSentence(retryAfter));
  }
}
