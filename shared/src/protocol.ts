// The wire facts both ends of a socket agree on (docs/api.md §4, §7, §8), written once: the paths, the
// document message types, and every websocket close code with the sentence a person is shown.

/** The document socket: Yjs sync and awareness on `${DOCUMENT_PATH}/:boardId`. */
export const DOCUMENT_PATH = '/yjs';
/** The workspace socket: socket.io's live events (board list, members, who is where). */
export const WORKSPACE_PATH = '/socket.io';

/** y-websocket's message types: the first varuint of every document message. */
export const DocumentMessageType = { sync: 0, awareness: 1, auth: 2, queryAwareness: 3 } as const;
/** The second varuint of a sync message. */
export const SyncMessageType = { step1: 0, step2: 1, update: 2 } as const;

/**
 * Why a document socket closed, one name per meaning. docs/api.md §8 and §9 fix the numbers; where the contract
 * gives one number several meanings (4429), the names share it on the wire and `closeReason`
 * (the close frame's reason text) tells them apart.
 */
export const CloseCode = {
  GOING_AWAY: 1001,
  /** Never sent: what a browser reports when a socket dropped without a close frame (the network). */
  ABNORMAL: 1006,
  UNDECODABLE: 1007,
  TOO_BIG: 1009,
  INTERNAL: 1011,
  TOO_SLOW: 1013,
  NOT_AUTHENTICATED: 4401,
  NO_ACCESS: 4403,
  NO_SUCH_BOARD: 4404,
  BOARD_TOO_LARGE: 4413,
  TOO_MANY_MESSAGES: 4429,
  /** MAX_CONNECTIONS_PER_BOARD reached on this instance ("then 4429", docs/api.md §9). */
  TOO_MANY_CONNECTIONS: 4429,
  /** The user has MAX_BOARDS_OPEN_PER_USER other boards open on this instance. */
  TOO_MANY_BOARDS: 4429,
} as const;
export type CloseName = keyof typeof CloseCode;
export type CloseCode = (typeof CloseCode)[CloseName];

/** The sentence a person is shown for each close, keyed by meaning. */
export const closeSentence: Record<CloseName, string> = {
  GOING_AWAY: 'The server is restarting. Reconnecting…',
  // The browser's network may be fine (the server is down or restarting): the client says "You are
  // offline" only when the browser itself reports being offline.
  ABNORMAL: 'Cannot reach the server. Your edits are kept on this device and sync when it is back.',
  UNDECODABLE: 'Your browser sent a change the server could not read. Reload the page to continue.',
  TOO_BIG: 'Your last change was too large to send. It was not saved.',
  INTERNAL: 'The server hit an internal error. Reconnecting…',
  TOO_SLOW: 'Your connection could not keep up with the board. Reconnecting…',
  NOT_AUTHENTICATED: 'You are signed out. Sign in again to open this board.',
  NO_ACCESS: 'You no longer have access to this board.',
  NO_SUCH_BOARD: 'This board was deleted or does not exist.',
  BOARD_TOO_LARGE: 'This board has reached its size limit. New changes are not saved.',
  TOO_MANY_MESSAGES: 'Too many changes too fast. Slow down and reload the page.',
  TOO_MANY_CONNECTIONS: 'Too many people have this board open right now. Reload the page in a little while.',
  TOO_MANY_BOARDS: 'You have too many boards open at once. Close some, then reload this page.',
};

/** The reason text sent with the codes that carry several meanings; the client reads it back. */
export const closeReason = {
  TOO_MANY_MESSAGES: 'too many messages',
  TOO_MANY_CONNECTIONS: 'too many connections on this board',
  TOO_MANY_BOARDS: 'too many boards open at once',
} as const satisfies Partial<Record<CloseName, string>>;

const closeNames = Object.keys(CloseCode) as CloseName[];

/** The meaning of a close: by code, and by reason where the code is shared; null for a code we never send. */
export function closeMeaning(code: number, reason = ''): CloseName | null {
  const named = closeNames.filter((name) => CloseCode[name] === code);
  return (
    named.find((name) => (closeReason as Partial<Record<CloseName, string>>)[name] === reason) ??
    named[0] ??
    null
  );
}

/** Closes after which reconnecting can help (docs/api.md §8); the client stops retrying on the others. */
export const retryableCloseCodes: ReadonlySet<number> = new Set<number>([
  CloseCode.GOING_AWAY,
  CloseCode.ABNORMAL,
  CloseCode.INTERNAL,
  CloseCode.TOO_SLOW,
]);

/** Closes that mean this person may not (or no longer) open the board: final, shown as "access lost". */
export const accessLostCloseCodes: ReadonlySet<number> = new Set<number>([
  CloseCode.NOT_AUTHENTICATED,
  CloseCode.NO_ACCESS,
  CloseCode.NO_SUCH_BOARD,
]);
