// The server's clock, for clients to measure their offset from it (docs/api.md §14: the shared timer
// counts down to a server epoch, and every client corrects for its own clock's error). Cheap
// and unauthenticated: it tells nobody anything but the time.
import type { ServerTime } from '@tandem/shared';
import type { FastifyInstance } from 'fastify';

export async function timeRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/time', async (): Promise<ServerTime> => ({ now: Date.now() }));
}
