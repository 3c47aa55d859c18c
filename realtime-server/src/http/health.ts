// For operators and load balancers: liveness, readiness and Prometheus metrics (docs/operations.md).
import type { ResourcePlugin } from './deps.ts';

export const healthRoutes: ResourcePlugin = async (app, { config, store, bus, rooms, metrics }) => {
  // `instance` names the process that answered, so an operator (or a test) can see which
  // instance behind a load balancer a connection reached.
  app.get('/healthz', async () => ({ status: 'ok', instance: config.instanceName }));

  app.get('/readyz', async (_request, reply) => {
    const storeOk = await store.ping().then(
      () => true,
      () => false,
    );
    const busOk = bus.isHealthy();
    // A stopping instance tells the balancer at once, so new clients go elsewhere. Without the
    // bus the instance still serves its boards from the Store (degraded mode, docs/architecture.md):
    // still ready, so that a Redis outage does not take every instance out of the balancer.
    const ready = storeOk && !rooms.stopping;
    return reply.code(ready ? 200 : 503).send({
      status: rooms.stopping ? 'stopping' : !ready ? 'unavailable' : busOk ? 'ready' : 'degraded',
      store: storeOk ? 'ok' : 'unreachable',
      bus: busOk ? 'ok' : 'unreachable',
    });
  });

  app.get('/metrics', async (_request, reply) => {
    metrics.busUp.set(bus.isHealthy() ? 1 : 0);
    reply.header('Content-Type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
};
