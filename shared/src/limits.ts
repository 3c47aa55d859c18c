// Defaults of docs/api.md §9. The server reads the overridable ones from the environment in config.ts;
// both sides import these so a number is written once.

export const MiB = 1024 * 1024;

/**
 * docs/api.md §16: the board's updates reach its anonymous viewers merged, at most once per this
 * window (one frame per room per window, written to every anonymous viewer there), instead of one
 * write per viewer per update: 500 watchers of a board with 10 editors made every update 510
 * writes. Editors and signed-in members are never delayed.
 */
export const ANONYMOUS_VIEWER_WINDOW_MS = 100;

/**
 * The longest alt text an image shape carries (docs/api.md §10 `alt`): a description a screen
 * reader says in one go, not a caption to read a page of. Longer is refused by the schema.
 */
export const MAX_ALT_TEXT = 1000;

export const defaults = {
  port: 8080,
  dataDir: './data',
  logLevel: 'info',
  maxMessageBytes: 2 * MiB,
  maxDocBytes: 64 * MiB,
  maxConnectionsPerBoard: 500,
  /** Bytes queued for sending, across all document connections of one server process. */
  maxQueuedBytes: 256 * MiB,
} as const;

export const limits = {
  /**
   * Per-connection message rate: sustained per second, and the burst allowed above it. Past it
   * the server stops reading the socket until the budget refills (the sender is slowed, not cut off).
   */
  messagesPerSecond: 200,
  messageBurst: 1000,
  /** 4429 only for a connection that gets over this many times the rate to the server… */
  abuseRateFactor: 10,
  /** …sustained over this long (docs/api.md §9: "over 10× the rate for 10 s"). */
  abuseWindowMs: 10_000,
  /** A client sends its cursor at most this often. */
  cursorPerSecond: 30,
  /**
   * The longest the server holds a room's presence changes to merge them (PRESENCE_TICK_MS). A
   * change in a quiet room goes out at once; under load the wait is what the room's last presence
   * write cost, times a factor (realtime-server's fanout.ts), and never more than this.
   */
  presenceTickMs: 25,
  /** An edit is persisted within this debounce, and at most this long under constant load. */
  persistDebounceMs: 1000,
  persistMaxDelayMs: 5000,
  /** The update log of a board is compacted past this many entries or bytes. */
  compactEntries: 500,
  compactBytes: 1 * MiB,
  /** A presence is shown idle after this long without input. */
  idleAfterMs: 60_000,
  /** Login attempts per minute, per email and per IP. */
  loginAttemptsPerMinute: 10,
  /** Accounts (including guests) created per minute from one IP: a whole office behind one NAT may join a retro. */
  signupsPerMinute: 60,
  /**
   * Public-link calls that do work (a viewer token, a drawn board.svg/board.png) per minute from
   * one IP (PUBLIC_REQUESTS_PER_MINUTE): a whole office behind one NAT opening a shared board, or
   * a wiki page with a few live images, stays well under it. A 304 is not counted.
   */
  publicRequestsPerMinute: 120,
  /**
   * Invite-link previews (`GET /api/join/:token`) per minute from one IP (JOIN_LOOKUPS_PER_MINUTE),
   * an unknown token counted as a known one: a whole office opening one invite stays under it, a
   * script guessing tokens gets 60 guesses a minute.
   */
  joinLookupsPerMinute: 60,
  /**
   * Image bytes one board.svg/board.png embeds (docs/api.md §16), each image at the kept width
   * nearest above its drawn size (at most 1024 px): past it, an image is drawn as the grey
   * placeholder, so a board of many big photos does not become a 100 MB SVG. Below 7.5 MB: as a
   * data URL (4/3 of its bytes) one image must stay under the 10 MB that librsvg's XML parser
   * takes in one attribute, or board.png could not be drawn at all.
   */
  publicImageEmbedBytes: 6 * MiB,
  sessionDays: 30,
  accessTokenMinutes: 15,
  /** REST JSON bodies. */
  maxJsonBodyBytes: 1 * MiB,
  /** Import of a board's JSON. */
  maxImportBytes: 16 * MiB,
  /**
   * How deep a value in a board may nest (objects and arrays in a shape's field, an embed, a
   * format attribute). A board's own values nest two or three deep; a value nested thousands
   * deep was stored and then broke what reads it (a version's export answered 500), so an update
   * carrying one is refused (1007) before it is applied.
   */
  maxValueDepth: 64,
  /** Awareness states over this size are dropped by the server. */
  maxAwarenessStateBytes: 8 * 1024,
  /**
   * How much of a presence state the selected ids may take, as JSON characters: about 170 ids of
   * 21 characters. A client sends the first ids of a larger selection only (the others outline
   * those), so its state stays under maxAwarenessStateBytes with a full laser trail and chat; a
   * 2,000-id selection was 46 KB, and the server dropped every state of its sender, cursor and all.
   */
  maxPresenceSelectionChars: 4 * 1024,
  /** Awareness client ids one connection may own. */
  maxClientIdsPerConnection: 8,
  /** Boards one user may have open at once over the document gateway. */
  maxBoardsOpenPerUser: 50,
  /** A connection must complete its first message within this many ms. */
  firstMessageDeadlineMs: 10_000,
  /**
   * Zoom 0.02–8. docs/api.md §10 says 0.1; we go lower on purpose (the editor issue): a 5,000-note board
   * is about 26,000 units wide, 2,600 px at 10 %, and people expect "Zoom to fit" to show all of
   * it, as in tldraw and Miro. The presence schema checks the same range.
   */
  zoomMin: 0.02,
  /** docs/api.md §18: a comment's body, in characters. */
  commentBodyMax: 2000,
  /**
   * Comments (new threads, replies, edits) one user may write per minute on one instance (then
   * 429): far above anyone typing, far below a script flooding a board's members.
   */
  commentsPerMinute: 30,
  /**
   * Searches of a board's other pages (docs/api.md §17) one user may ask per minute on one
   * instance (then 429): each reads every page. The Find bar asks once per pause in typing, so a
   * person searching stays far below it; a script looping on it does not.
   */
  boardSearchesPerMinute: 60,
  zoomMax: 8,
} as const;
