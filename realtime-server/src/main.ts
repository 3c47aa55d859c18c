// Starts Tandem from the environment: `npm start`.
import { pino } from 'pino';
import { createApp, UnstoredEditsError } from './app.ts';
import { openBus } from './bus/index.ts';
import { ConfigError, loadConfig, redactUrl } from './config.ts';
import { networkOrigins } from './http/origin.ts';
import { openStore } from './store/index.ts';

/** Exit codes: 0 stopped cleanly; 1 failed to start, failed to stop, or took too long to stop. */
const EXIT_FAILURE = 1;
/** Stopped, but some board's edits could not be stored within SHUTDOWN_TIMEOUT_MS. */
const EXIT_EDITS_UNSTORED = 2;

/** A cause from a library, ended with one full stop (some already end with one, most do not). */
function sentenceEnd(cause: string): string {
  const trimmed = cause.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Set once the app exists, so an unhandled rejection is counted in its /metrics. */
let onUnhandledRejection: (reason: unknown) => void = (reason) => {
  console.error('Tandem: UNHANDLED PROMISE REJECTION (a bug; the process keeps running):', reason);
};
// Node's default for an unhandled rejection is to stop the process, taking every board on it down
// and dropping whatever its persisters had not yet stored. One failed Redis or PostgreSQL call
// must never do that: it is logged loudly and counted (tandem_unhandled_rejections_total), and the
// process keeps running. Uncaught exceptions still stop it: their state may be corrupt.
process.on('unhandledRejection', (reason) => onUnhandledRejection(reason));

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Tandem cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const log = pino({ level: config.logLevel, base: { instance: config.instanceName } });
  let counted: { inc(): void } | null = null;
  onUnhandledRejection = (reason) => {
    counted?.inc();
    log.error({ err: reason }, 'UNHANDLED PROMISE REJECTION (a bug; the process keeps running)');
  };
  // What an operator most often gets wrong at start-up, said as a sentence naming the variable
  // rather than as a stack trace (exit code 1 either way).
  const cannotStart = (message: string): never => {
    log.fatal(message);
    console.error(`Tandem cannot start: ${message}`);
    process.exit(EXIT_FAILURE);
  };
  const store = await openStore({
    databaseUrl: config.databaseUrl ?? undefined,
    dataDir: config.dataDir,
    timeoutMs: config.databaseTimeoutMs,
    schema: config.databaseSchema ?? undefined,
    logger: log,
  }).catch((error: Error) =>
    cannotStart(
      config.databaseUrl
        ? `PostgreSQL at ${redactUrl(config.databaseUrl)} (DATABASE_URL) cannot be used: ${sentenceEnd(error.message)}`
        : `the SQLite database in DATA_DIR ${config.dataDir} cannot be opened: ${sentenceEnd(error.message)}`,
    ),
  );
  const bus = await openBus({
    redisUrl: config.redisUrl ?? undefined,
    prefix: config.redisPrefix,
    logger: log,
  });
  const app = await createApp({ config, store, bus, logger: log });
  counted = app.metrics.unhandledRejections;
  await app.listen().catch(async (error: NodeJS.ErrnoException) => {
    await app.close().catch(() => {});
    cannotStart(
      error.code === 'EADDRINUSE'
        ? `port ${config.port} on ${config.host} is already in use by another program: stop it, or set PORT to a free port.`
        : `listening on ${config.host}:${config.port} (HOST, PORT) failed: ${sentenceEnd(error.message)}`,
    );
  });
  const onNetwork = networkOrigins(config, Number(new URL(config.publicOrigin).port || 80));
  log.info(
    {
      url: config.publicOrigin,
      store: config.databaseUrl ? 'postgres' : `sqlite (${config.dataDir})`,
      bus: config.redisUrl ? 'redis' : 'in-process',
    },
    `Tandem is running at ${config.publicOrigin}${onNetwork.length ? ` (on this network also ${onNetwork.join(', ')})` : ''}`,
  );
  // A parent that started us with an IPC channel (tests, a Node supervisor) learns where we
  // listen, which it cannot know in advance with PORT=0.
  process.send?.({ type: 'listening', url: config.publicOrigin });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: storing pending edits');
    // The budget covers storing the last edits; closing sockets and pools gets a little more.
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(EXIT_FAILURE);
    }, config.shutdownTimeoutMs + 5000);
    force.unref();
    app.close().then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        if (error instanceof UnstoredEditsError) {
          log.fatal(
            { boards: error.boardIds },
            'stopped with edits that could not be stored: they are lost unless a client still has them',
          );
          process.exit(EXIT_EDITS_UNSTORED);
        }
        log.error({ err: error }, 'shutdown failed');
        process.exit(EXIT_FAILURE);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('Tandem failed to start:', error);
  process.exit(1);
});
