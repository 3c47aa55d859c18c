// Starts real Tandem instances for tests: the real app on a free port, over a real Store
// (SQLite in a temp dir unless one is given) and a real Bus.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createApp, type TandemApp } from '../../src/app.ts';
import type { Bus } from '../../src/bus/bus.ts';
import { MemoryBus } from '../../src/bus/memory.ts';
import { type Config, type ConfigVariable, loadConfig } from '../../src/config.ts';
import { SqliteStore } from '../../src/store/sqlite.ts';
import type { Store } from '../../src/store/store.ts';
import { freePort } from './services.ts';

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
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CLIENT_DIR: '',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_ORIGIN: origin,
    PERSIST_DEBOUNCE_MS: '50',
    PERSIST_MAX_DELAY_MS: '200',
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
    origin,
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
