// The environment, read once into one typed object. A wrong value stops start-up with a
// sentence that names the variable.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  assetDefaults,
  defaults,
  historyDefaults,
  integrationLimits,
  limits,
  webhookLimits,
} from '@tandem/shared';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL schema to use (isolates test runs); null means the connection's default. */
  databaseSchema: string | null;
  redisUrl: string | null;
  /** Prefix of every Redis channel and key (isolates deployments sharing one Redis). */
  redisPrefix: string;
  /**
   * The origin browsers use. With PORT=0 (the OS picks a free port) and no PUBLIC_ORIGIN, it is
   * only known once the server listens, and `listen()` fills it in.
   */
  publicOrigin: string;
  /** True when PUBLIC_ORIGIN was not given and PORT is 0: the origin comes from the bound port. */
  publicOriginFromListen: boolean;
  /** True when the operator set PUBLIC_ORIGIN: then it is the only origin (http/origin.ts). */
  publicOriginGiven: boolean;
  secret: string;
  logLevel: string;
  maxMessageBytes: number;
  maxDocBytes: number;
  maxConnectionsPerBoard: number;
  /**
   * The `frame-ancestors` sources that may frame `/embed/:token` (docs/api.md §16): `*` (the
   * default) or origins. Every other page keeps refusing to be framed.
   */
  embedOrigins: string;
  messagesPerSecond: number;
  messageBurst: number;
  maxBoardsOpenPerUser: number;
  firstMessageDeadlineMs: number;
  persistDebounceMs: number;
  persistMaxDelayMs: number;
  /** A board a content-API or MCP call opened stays loaded this long after it (0: unloaded at once). */
  apiRoomLingerMs: number;
  /** The longest a room holds presence changes to merge them under load (0: merged per turn only). */
  presenceTickMs: number;
  loginAttemptsPerMinute: number;
  signupsPerMinute: number;
  /** Public-link tokens and drawn images per minute from one IP (docs/api.md §16). */
  publicRequestsPerMinute: number;
  /** Invite-link previews (GET /api/join/:token) per minute from one IP, unknown tokens too (docs/api.md §7). */
  joinLookupsPerMinute: number;
  /** Comments (threads, replies, edits) one user may write per minute on one instance (docs/api.md §18). */
  commentsPerMinute: number;
  /** Where the built client is served from; null serves no client. */
  clientDir: string | null;
  /** A name for this instance in logs and bus messages. */
  instanceName: string;
  /** Set Secure on cookies (PUBLIC_ORIGIN is https). */
  secureCookies: boolean;
  /** Trust X-Forwarded-For from a load balancer. */
  trustProxy: boolean;
  /**
   * Bytes queued for sending on all document connections of the process together; past it the
   * connections with the most queued are cut off (1013). At least MAX_DOC_BYTES.
   */
  maxQueuedBytes: number;
  /**
   * How often each instance compares its connections' access with the Store: the longest a
   * revocation whose bus message was lost (Redis down) can go unnoticed.
   */
  accessCheckMs: number;
  /** PostgreSQL: a query (or a wait for a connection) fails after this long, closing its connection. */
  databaseTimeoutMs: number;
  /** Graceful stop: how long storing the last edits may keep retrying before the process gives up. */
  shutdownTimeoutMs: number;
  /** Largest image one upload may store (docs/api.md §13). */
  maxAssetBytes: number;
  /** Most image bytes one board may hold. */
  maxBoardAssetBytes: number;
  /** Uploads one user may have running at once on this instance (then 429). */
  maxUploadsPerUser: number;
  /** Content-API writes a minute per key or person (docs/api.md §15; then 429). */
  contentWritesPerMinute: number;
  /** Unreferenced images are deleted, and versions thinned to one a day, after this many days. */
  historyDays: number;
  /** A version is recorded after each this long of editing (HISTORY_INTERVAL_S). */
  historyIntervalMs: number;
  /** Webhooks may call http, loopback and private addresses (development and tests only; docs/api.md §15). */
  webhookAllowPrivate: boolean;
  /** The first retry of a failed delivery waits this long; each next one twice as long (capped at an hour). */
  webhookRetryBaseMs: number;
  /** A delivery's request is given up after this long (a timeout counts as a failure). */
  webhookTimeoutMs: number;
  /** A webhook whose deliveries have only failed for this long is turned off (24 h, docs/api.md §15). */
  webhookDisableAfterMs: number;
  /** board.updated: at most one per this long per board (the changes in between are coalesced). */
  webhookUpdateWindowMs: number;
  /** How often each instance looks for deliveries due (and claims that lapsed). */
  webhookPollMs: number;
  /** When set, GET /metrics answers only with `Authorization: Bearer <it>` (else anyone may read it). */
  metricsToken: string | null;
}

/** Every variable config reads, for docs and the compose-file check. */
export const configVariables = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_SCHEMA',
  'REDIS_URL',
  'REDIS_PREFIX',
  'PUBLIC_ORIGIN',
  'SECRET',
  'LOG_LEVEL',
  'MAX_MESSAGE_BYTES',
  'MAX_DOC_BYTES',
  'MAX_CONNECTIONS_PER_BOARD',
  'MESSAGES_PER_SECOND',
  'MESSAGE_BURST',
  'MAX_BOARDS_OPEN_PER_USER',
  'FIRST_MESSAGE_DEADLINE_MS',
  'PERSIST_DEBOUNCE_MS',
  'PERSIST_MAX_DELAY_MS',
  'API_ROOM_LINGER_MS',
  'PRESENCE_TICK_MS',
  'LOGIN_ATTEMPTS_PER_MINUTE',
  'SIGNUPS_PER_MINUTE',
  'PUBLIC_REQUESTS_PER_MINUTE',
  'JOIN_LOOKUPS_PER_MINUTE',
  'COMMENTS_PER_MINUTE',
  'CLIENT_DIR',
  'INSTANCE_NAME',
  'TRUST_PROXY',
  'MAX_QUEUED_BYTES',
  'ACCESS_CHECK_MS',
  'DATABASE_TIMEOUT_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'MAX_ASSET_BYTES',
  'MAX_BOARD_ASSET_BYTES',
  'MAX_UPLOADS_PER_USER',
  'CONTENT_WRITES_PER_MINUTE',
  'HISTORY_DAYS',
  'HISTORY_INTERVAL_S',
  'WEBHOOK_ALLOW_PRIVATE',
  'WEBHOOK_RETRY_BASE_MS',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_DISABLE_AFTER_MS',
  'WEBHOOK_UPDATE_WINDOW_MS',
  'WEBHOOK_POLL_MS',
  'EMBED_ORIGINS',
  'METRICS_TOKEN',
] as const;
export type ConfigVariable = (typeof configVariables)[number];
type Env = Partial<Record<ConfigVariable, string | undefined>>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function integer(env: Env, name: ConfigVariable, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; it is "${raw}".`);
  }
  return value;
}

/**
 * A URL as it may be quoted in an error: its password hidden. The sentence goes to the log (and
 * from there to whoever reads the logs), and DATABASE_URL or REDIS_URL usually carry one.
 */
export function redactUrl(raw: string): string {
  return raw.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

function url(env: Env, name: ConfigVariable, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')}); it is "${redactUrl(raw)}".`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(
      `${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}; it is "${redactUrl(raw)}".`,
    );
  }
  return raw;
}

/** A true/false variable: unset is false. */
function flag(env: Env, name: ConfigVariable): boolean {
  const raw = env[name] ?? '';
  if (!['', 'true', 'false', '1', '0'].includes(raw)) {
    throw new ConfigError(`${name} must be true or false; it is "${raw}".`);
  }
  return raw === 'true' || raw === '1';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * What the server keeps in DATA_DIR, by name: the SQLite store's file (with its -wal and -shm
 * beside it while open), the generated secret, and the disk AssetStore's folder. The backup and
 * restore scripts copy exactly these.
 */
export const dataDirFiles = { database: 'tandem.db', secret: 'secret', assets: 'assets' } as const;

/**
 * The mode of a DATA_DIR the server (or a restore) creates: only its user may enter it. It holds
 * password and session hashes and the secret; created with the umask's 0755, any local user could
 * read tandem.db (itself 0644). A DATA_DIR that already exists keeps the mode it has.
 */
export const DATA_DIR_MODE = 0o700;

/** Shortest secret accepted, from SECRET or from DATA_DIR/secret: 32 characters. */
const MIN_SECRET_LENGTH = 32;

/** Shortest METRICS_TOKEN accepted: one a scraper's config holds, not a word to guess. */
const MIN_METRICS_TOKEN_LENGTH = 16;

function metricsToken(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  if (raw.length < MIN_METRICS_TOKEN_LENGTH)
    throw new ConfigError(`METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters long.`);
  return raw;
}

/** The secret from SECRET, else one generated once into DATA_DIR (embedded mode only). */
function readSecret(env: Env, dataDir: string, shared: boolean): string {
  const raw = env.SECRET;
  if (raw) {
    if (raw.length < MIN_SECRET_LENGTH)
      throw new ConfigError(`SECRET must be at least ${MIN_SECRET_LENGTH} characters long.`);
    return raw;
  }
  if (shared) {
    throw new ConfigError(
      'SECRET is required when DATABASE_URL is set: every instance must sign access tokens with the same secret.',
    );
  }
  return readSecretFile(join(dataDir, dataDirFiles.secret));
}

/** DATA_DIR/secret, created when missing; a short or unreadable one stops start-up. */
function readSecretFile(file: string): string {
  let stored: string;
  try {
    stored = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new ConfigError(`The secret file ${file} cannot be read: ${(error as Error).message}`);
    }
    return createSecretFile(file);
  }
  // An empty or truncated file (a crash while writing it, fsck after a filesystem error) would
  // sign access tokens with a key anyone can guess: a removed member could forge an owner's token.
  // Never regenerate it silently either: that would invalidate every token without a word.
  if (stored.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      `The secret file ${file} holds ${stored.length} characters; it needs at least ${MIN_SECRET_LENGTH}. ` +
        'Restore it from a backup, or delete it to have a new one generated (outstanding access tokens stop working).',
    );
  }
  return stored;
}

/**
 * Writes a new secret atomically and durably: to a temporary file, fsynced, moved into place,
 * then the directory fsynced, so a crash leaves either no file or the whole secret, never an
 * empty one. Mode 0600: only the server's user reads it. The move is a hard link rather than a
 * rename so that it never replaces a secret another process created meanwhile (it then uses that).
 */
function createSecretFile(file: string): string {
  const secret = randomBytes(32).toString('base64url');
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  let createdMeanwhile = false;
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, secret);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      createdMeanwhile = true;
    }
    rmSync(temp, { force: true });
    const dir = openSync(dirname(file), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch (error) {
    rmSync(temp, { force: true });
    throw new ConfigError(`The secret file ${file} cannot be written: ${(error as Error).message}`);
  }
  return createdMeanwhile ? readSecretFile(file) : secret;
}

/** Where a deployment keeps its data: what `npm run backup` and `npm run restore` need. */
export interface StorageConfig {
  /** Absolute DATA_DIR. */
  dataDir: string;
  databaseUrl: string | null;
  databaseSchema: string | null;
  /** SECRET is set: DATA_DIR/secret is neither read nor written. */
  secretFromEnv: boolean;
}

/**
 * The storage half of the configuration, read exactly as loadConfig reads it but without its
 * side effects (creating DATA_DIR, generating a secret): the backup and restore scripts must find
 * the server's DATA_DIR, and must not create a fresh secret where a backup's is to go.
 */
export function loadStorageConfig(env: Env = process.env as Env): StorageConfig {
  const schema = env.DATABASE_SCHEMA || null;
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new ConfigError(`DATABASE_SCHEMA must be a lower-case SQL identifier; it is "${schema}".`);
  }
  return {
    dataDir: resolve(env.DATA_DIR || defaults.dataDir),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseSchema: schema,
    secretFromEnv: Boolean(env.SECRET),
  };
}

/** EMBED_ORIGINS: `*`, or origins separated by spaces or commas, as a frame-ancestors source list. */
function embedOrigins(value: string | undefined): string {
  const given = (value ?? '').split(/[\s,]+/).filter(Boolean);
  if (given.length === 0 || given.includes('*')) return '*';
  for (const origin of given) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {}
    if (
      !parsed ||
      !['http:', 'https:'].includes(parsed.protocol) ||
      parsed.origin !== origin.replace(/\/$/, '')
    )
      throw new ConfigError(
        `EMBED_ORIGINS must be * or origins (scheme, host, port) like https://wiki.example.com; "${origin}" is not one.`,
      );
  }
  return given.map((o) => o.replace(/\/$/, '')).join(' ');
}

export function loadConfig(env: Env = process.env as Env): Config {
  const port = integer(env, 'PORT', defaults.port, 0, 65535);
  const { dataDir, databaseUrl, databaseSchema: schema } = loadStorageConfig(env);
  try {
    mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  } catch (error) {
    throw new ConfigError(`DATA_DIR "${dataDir}" cannot be created: ${(error as Error).message}`);
  }
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const givenOrigin = url(env, 'PUBLIC_ORIGIN', ['http:', 'https:']);
  const publicOrigin = givenOrigin ?? `http://localhost:${port}`;
  if (new URL(publicOrigin).origin !== publicOrigin.replace(/\/$/, '')) {
    throw new ConfigError(
      `PUBLIC_ORIGIN must be an origin only (scheme, host, port), like http://localhost:8080; it is "${publicOrigin}".`,
    );
  }
  const logLevel = env.LOG_LEVEL || defaults.logLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; it is "${logLevel}".`);
  }
  const trustProxy = flag(env, 'TRUST_PROXY');
  const MiB = 1024 * 1024;
  const maxDocBytes = integer(env, 'MAX_DOC_BYTES', defaults.maxDocBytes, 1024, 16 * 1024 * MiB);
  // One whole board must fit, with room for several joiners of the largest board at once.
  const maxQueuedBytes = integer(
    env,
    'MAX_QUEUED_BYTES',
    Math.max(defaults.maxQueuedBytes, 4 * maxDocBytes),
    1024,
    64 * 1024 * MiB,
  );
  if (maxQueuedBytes < maxDocBytes) {
    throw new ConfigError(
      `MAX_QUEUED_BYTES must be at least MAX_DOC_BYTES (${maxDocBytes}), or one board could never be sent; it is ${maxQueuedBytes}.`,
    );
  }
  return {
    embedOrigins: embedOrigins(env.EMBED_ORIGINS),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl,
    databaseSchema: schema,
    redisUrl,
    redisPrefix: env.REDIS_PREFIX || 'tandem:',
    publicOrigin: publicOrigin.replace(/\/$/, ''),
    publicOriginFromListen: givenOrigin === null && port === 0,
    publicOriginGiven: givenOrigin !== null,
    secret: readSecret(env, dataDir, databaseUrl !== null),
    logLevel,
    maxMessageBytes: integer(env, 'MAX_MESSAGE_BYTES', defaults.maxMessageBytes, 1024, 256 * MiB),
    maxDocBytes,
    maxQueuedBytes,
    accessCheckMs: integer(env, 'ACCESS_CHECK_MS', 2000, 100, 3_600_000),
    maxConnectionsPerBoard: integer(
      env,
      'MAX_CONNECTIONS_PER_BOARD',
      defaults.maxConnectionsPerBoard,
      1,
      1_000_000,
    ),
    messagesPerSecond: integer(env, 'MESSAGES_PER_SECOND', limits.messagesPerSecond, 1, 1_000_000),
    messageBurst: integer(env, 'MESSAGE_BURST', limits.messageBurst, 1, 10_000_000),
    maxBoardsOpenPerUser: integer(env, 'MAX_BOARDS_OPEN_PER_USER', limits.maxBoardsOpenPerUser, 1, 1_000_000),
    firstMessageDeadlineMs: integer(
      env,
      'FIRST_MESSAGE_DEADLINE_MS',
      limits.firstMessageDeadlineMs,
      100,
      600_000,
    ),
    persistDebounceMs: integer(env, 'PERSIST_DEBOUNCE_MS', limits.persistDebounceMs, 0, 60_000),
    persistMaxDelayMs: integer(env, 'PERSIST_MAX_DELAY_MS', limits.persistMaxDelayMs, 0, 600_000),
    apiRoomLingerMs: integer(env, 'API_ROOM_LINGER_MS', integrationLimits.roomLingerMs, 0, 3_600_000),
    presenceTickMs: integer(env, 'PRESENCE_TICK_MS', limits.presenceTickMs, 0, 600_000),
    loginAttemptsPerMinute: integer(
      env,
      'LOGIN_ATTEMPTS_PER_MINUTE',
      limits.loginAttemptsPerMinute,
      1,
      1_000_000,
    ),
    signupsPerMinute: integer(env, 'SIGNUPS_PER_MINUTE', limits.signupsPerMinute, 1, 1_000_000),
    publicRequestsPerMinute: integer(
      env,
      'PUBLIC_REQUESTS_PER_MINUTE',
      limits.publicRequestsPerMinute,
      1,
      1_000_000,
    ),
    joinLookupsPerMinute: integer(env, 'JOIN_LOOKUPS_PER_MINUTE', limits.joinLookupsPerMinute, 1, 1_000_000),
    commentsPerMinute: integer(env, 'COMMENTS_PER_MINUTE', limits.commentsPerMinute, 1, 1_000_000),
    clientDir:
      env.CLIENT_DIR === ''
        ? null
        : resolve(env.CLIENT_DIR || new URL('../../client/dist', import.meta.url).pathname),
    instanceName: env.INSTANCE_NAME || `${process.pid}-${randomBytes(3).toString('hex')}`,
    secureCookies: publicOrigin.startsWith('https:'),
    trustProxy,
    databaseTimeoutMs: integer(env, 'DATABASE_TIMEOUT_MS', 5000, 100, 600_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 20_000, 0, 600_000),
    maxAssetBytes: integer(env, 'MAX_ASSET_BYTES', assetDefaults.maxAssetBytes, 1024, 1024 * MiB),
    maxBoardAssetBytes: integer(
      env,
      'MAX_BOARD_ASSET_BYTES',
      assetDefaults.maxBoardAssetBytes,
      1024,
      Number.MAX_SAFE_INTEGER,
    ),
    maxUploadsPerUser: integer(env, 'MAX_UPLOADS_PER_USER', assetDefaults.maxUploadsPerUser, 1, 1000),
    contentWritesPerMinute: integer(
      env,
      'CONTENT_WRITES_PER_MINUTE',
      integrationLimits.writesPerMinute,
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    historyDays: integer(env, 'HISTORY_DAYS', assetDefaults.historyDays, 0, 36_500),
    historyIntervalMs:
      integer(env, 'HISTORY_INTERVAL_S', historyDefaults.intervalSeconds, 1, 7 * 86_400) * 1000,
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE'),
    webhookRetryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', 10_000, 1, 3_600_000),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000),
    webhookDisableAfterMs: integer(
      env,
      'WEBHOOK_DISABLE_AFTER_MS',
      webhookLimits.disableAfterMs,
      1000,
      webhookLimits.disableAfterMs * 30,
    ),
    webhookUpdateWindowMs: integer(env, 'WEBHOOK_UPDATE_WINDOW_MS', 10_000, 100, 3_600_000),
    webhookPollMs: integer(env, 'WEBHOOK_POLL_MS', 1000, 10, 600_000),
  };
}
