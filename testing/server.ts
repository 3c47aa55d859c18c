// Starts real Tandem instances for tests: the real app on a free port, over a real Store
// (SQLite in a temp dir unless one is given) and a real Bus.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createApp, type TandemApp } from '../realtime-server/src/app.ts';
import type { Bus } from '../realtime-server/src/bus/bus.ts';
import { MemoryBus } from '../realtime-server/src/bus/memory.ts';
import { type Config, type ConfigVariable, loadConfig } from '../realtime-server/src/config.ts';
import { SqliteStore } from '../realtime-server/src/store/sqlite.ts';
import type { Store } from '../realtime-server/src/store/store.ts';

export interface TestServer {
  url: string;
  wsUrl: string;
  origin: string;
  app: TandemApp;
  config: Config;
  store: Store;
  dataDir: string;
  /** Stops the instance (graceful) and, unless keepData, removes its data dir. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface StartOptions {
  env?: Partial<Record<ConfigVariable, string>>;
  /** Reuse a data dir (to restart on the same SQLite file). */
  dataDir?: string;
  store?: Store;
  bus?: Bus;
  port?: number;
  /** A logger of the test's own (to read what the server logs). */
  logger?: Logger;
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tandem-test-'));
  // Port 0: the OS picks a free port as the server binds, so no other process can take it in
  // between; the public origin follows the bound port (config's publicOriginFromListen). A
  // restart on the same data passes the port it had.
  const port = options.port ?? 0;
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CLIENT_DIR: '',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...(port === 0 ? {} : { PUBLIC_ORIGIN: `http://127.0.0.1:${port}` }),
    PERSIST_DEBOUNCE_MS: '50',
    PERSIST_MAX_DELAY_MS: '200',
    // Tests watch rooms unload when everyone has gone; the linger has its own test.
    API_ROOM_LINGER_MS: '0',
    ...options.env,
  });
  let store = options.store;
  if (!store) {
    const sqlite = new SqliteStore({ dataDir });
    await sqlite.migrate();
    store = sqlite;
  }
  const bus = options.bus ?? new MemoryBus();
  const app = await createApp({ config, store, bus, logger: options.logger });
  const url = await app.listen();
  return {
    url,
    wsUrl: url.replace('http:', 'ws:'),
    origin: config.publicOrigin,
    app,
    config,
    store,
    dataDir,
    async close({ keepData = false } = {}) {
      await app.close();
      if (!keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
