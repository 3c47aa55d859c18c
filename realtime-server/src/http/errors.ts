// Errors are values with codes: route code throws ApiError, and one mapper (toErrorBody, sent by
// sendError in server.ts) turns it, and fastify's own errors, into docs/api.md §8's JSON body.
import { type ErrorBody, ErrorCode, errorStatus } from '@tandem/shared';

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = errorStatus[code];
  }
}

export const notFound = (what = 'board'): ApiError =>
  new ApiError(ErrorCode.NOT_FOUND, `No such ${what}, or you do not have access to it.`);
export const forbidden = (message = 'Your role does not allow this.'): ApiError =>
  new ApiError(ErrorCode.FORBIDDEN, message);
export const authRequired = (): ApiError => new ApiError(ErrorCode.AUTH_REQUIRED, 'Sign in to continue.');

interface FrameworkError {
  statusCode?: number;
  code?: string;
  message?: string;
}

/** Maps any thrown value to a status and body; unknown errors become INTERNAL with the request id. */
export function toErrorBody(error: unknown, requestId: string): { status: number; body: ErrorBody } {
  if (error instanceof ApiError) {
    const body: ErrorBody = { error: { code: error.code, message: error.message } };
    if (error.fields) body.error.fields = error.fields;
    return { status: error.status, body };
  }
  const framework = error as FrameworkError;
  if (framework?.statusCode === 413 || framework?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      status: 413,
      body: { error: { code: ErrorCode.PAYLOAD_TOO_LARGE, message: 'The request body is too large.' } },
    };
  }
  if (framework?.statusCode === 415) {
    return {
      status: 400,
      body: { error: { code: ErrorCode.BAD_REQUEST, message: 'Send the request body as JSON.' } },
    };
  }
  if (framework?.statusCode === 400) {
    return {
      status: 400,
      body: { error: { code: ErrorCode.BAD_REQUEST, message: 'The request body is not valid JSON.' } },
    };
  }
  return {
    status: 500,
    body: {
      error: {
        code: ErrorCode.INTERNAL,
        message: `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
        requestId,
      },
    },
  };
}
