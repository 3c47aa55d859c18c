// Starts Tandem from the environment: `npm start`.
import { pino } from 'pino';
import { createApp } from './app.ts';
import { openBus } from './bus/index.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openStore } from './store/index.ts';

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
  const store = await openStore({
    databaseUrl: config.databaseUrl ?? undefined,
    dataDir: config.dataDir,
    schema: config.databaseSchema ?? undefined,
    logger: log,
  });
  const bus = await openBus({
    redisUrl: config.redisUrl ?? undefined,
    prefix: config.redisPrefix,
    logger: log,
  });
  const app = await createApp({ config, store, bus, logger: log });
  await app.listen();
  log.info(
    {
      url: config.publicOrigin,
      store: config.databaseUrl ? 'postgres' : `sqlite (${config.dataDir})`,
      bus: config.redisUrl ? 'redis' : 'in-process',
    },
    `Tandem is running at ${config.publicOrigin}`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: storing pending edits');
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 25_000);
    force.unref();
    app.close().then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
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
