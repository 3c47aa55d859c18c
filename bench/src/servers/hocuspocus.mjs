// Hocuspocus as the bench runs it: no auth, no persistence; with REDIS_URL, the Redis extension so two
// instances share documents (the way Hocuspocus scales out).
import { Redis } from '@hocuspocus/extension-redis';
import { Server } from '@hocuspocus/server';

const extensions = [];
if (process.env.REDIS_URL) {
  const url = new URL(process.env.REDIS_URL);
  extensions.push(
    new Redis({
      host: url.hostname,
      port: Number(url.port || 6379),
      prefix: process.env.REDIS_PREFIX ?? 'hocuspocus',
      identifier: process.env.INSTANCE_ID,
    }),
  );
}

const server = new Server({
  address: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 1234),
  quiet: true,
  extensions,
});
await server.listen();
