// The error catalogue (SPEC §8): one place maps every REST error code to its HTTP status,
// and every websocket close code to the sentence a person is shown.

export const ErrorCode = {
  BAD_REQUEST: 'BAD_REQUEST',
  AUTH_REQUIRED: 'AUTH_REQUIRED',
  BAD_CREDENTIALS: 'BAD_CREDENTIALS',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  EMAIL_TAKEN: 'EMAIL_TAKEN',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  VALIDATION: 'VALIDATION',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const errorStatus: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  AUTH_REQUIRED: 401,
  BAD_CREDENTIALS: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  EMAIL_TAKEN: 409,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
};

/** The JSON body of every REST error. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields?: Record<string, string>; requestId?: string };
}

export const CloseCode = {
  GOING_AWAY: 1001,
  UNDECODABLE: 1007,
  TOO_BIG: 1009,
  INTERNAL: 1011,
  TOO_SLOW: 1013,
  NOT_AUTHENTICATED: 4401,
  NO_ACCESS: 4403,
  NO_SUCH_BOARD: 4404,
  BOARD_TOO_LARGE: 4413,
  TOO_MANY_MESSAGES: 4429,
} as const;
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

export const closeSentence: Record<CloseCode, string> = {
  1001: 'The server is restarting. Reconnecting…',
  1007: 'Your browser sent a change the server could not read. Reload the page to continue.',
  1009: 'Your last change was too large to send. It was not saved.',
  1011: 'The server hit an internal error. Reconnecting…',
  1013: 'Your connection could not keep up with the board. Reconnecting…',
  4401: 'You are signed out. Sign in again to open this board.',
  4403: 'You no longer have access to this board.',
  4404: 'This board was deleted or does not exist.',
  4413: 'This board has reached its size limit. New changes are not saved.',
  4429: 'Too many changes too fast. Slow down and reload the page.',
};

/** Close codes after which reconnecting can help (SPEC §8); the client stops retrying on the others. */
export const retryableCloseCodes: ReadonlySet<number> = new Set([1001, 1006, 1011, 1013]);
