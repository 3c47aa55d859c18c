// A PostgreSQL Store that a test can cut off and bring back: the server under test talks to it
// through a CuttableProxy, while the test reads what is really stored through a direct store on
// the same schema. Used by the "saved" confirmation tests (server and browser).
import { randomBytes } from 'node:crypto';
import { PostgresStore } from '../realtime-server/src/store/postgres.ts';
import { CuttableProxy } from './proxy.ts';
import { dropSchema, postgresUrl } from './services.ts';

export interface CutStore {
  /** The store to give the server (through the proxy). */
  store: PostgresStore;
  /** The same schema, straight to PostgreSQL: what is stored whatever the proxy does. */
  direct: PostgresStore;
  proxy: CuttableProxy;
  close(): Promise<void>;
}

export async function cuttablePostgres(): Promise<CutStore> {
  const url = new URL(postgresUrl());
  const proxy = await CuttableProxy.start(url.hostname, Number(url.port || 5432));
  const viaProxy = new URL(url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const schema = `test_saved_${randomBytes(6).toString('hex')}`;
  const store = new PostgresStore({
    connectionString: viaProxy.toString(),
    schema,
    max: 4,
    timeoutMs: 2000,
  });
  await store.migrate();
  const direct = new PostgresStore({ connectionString: url.toString(), schema, max: 2 });
  return {
    store,
    direct,
    proxy,
    async close() {
      await proxy.close();
      await store.close().catch(() => undefined);
      await direct.close();
      await dropSchema(schema);
    },
  };
}
