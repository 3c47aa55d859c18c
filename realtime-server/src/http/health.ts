// For operators and load balancers: liveness, readiness and Prometheus metrics (docs/operations.md).
import { createHash, timingSafeEqual } from 'node:crypto';
import { ErrorCode } from '@tandem/shared';
import type { Store } from '../store/store.ts';
import type { ResourcePlugin } from './deps.ts';
import { ApiError } from './errors.ts';

/**
 * How long a write probe's verdict stands. Balancers poll /readyz every few seconds on every
 * instance; with this, each instance writes at most one probe row every 5 s however often it is
 * asked, and readiness follows a store that stops taking writes within about 5 s.
 */
export const WRITE_PROBE_MS = 5000;

/** Whether the Store takes writes, asked at most once per WRITE_PROBE_MS (callers share one probe). */
class WriteProbe {
  private verdict: { ok: boolean; at: number } | null = null;
  private pending: Promise<boolean> | null = null;

  constructor(private readonly store: Store) {}

  check(now = Date.now()): Promise<boolean> {
    if (this.verdict && now - this.verdict.at < WRITE_PROBE_MS) return Promise.resolve(this.verdict.ok);
    this.pending ??= this.store
      .probeWrite()
      .then(
        () => true,
        () => false,
      )
      .then((ok) => {
        this.verdict = { ok, at: Date.now() };
        this.pending = null;
        return ok;
      });
    return this.pending;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether an Authorization header carries METRICS_TOKEN (compared in constant time). */
export const carriesMetricsToken = (header: string | undefined, token: string): boolean =>
  header !== undefined && timingSafeEqual(digest(header), digest(`Bearer ${token}`));

export const healthRoutes: ResourcePlugin = async (app, { config, store, bus, rooms, metrics }) => {
  const writes = new WriteProbe(store);

  // `instance` names the process that answered, so an operator (or a test) can see which
  // instance behind a load balancer a connection reached.
  app.get('/healthz', async () => ({ status: 'ok', instance: config.instanceName }));

  app.get('/readyz', async (_request, reply) => {
    const storeOk = await store.ping().then(
      () => true,
      () => false,
    );
    // A store that answers reads but refuses every write (disk full, read-only, a standby after
    // failover) would lose every edit sent here: not ready, so the balancer sends clients elsewhere.
    // On a full disk the probe (one row rewritten in place) still fits while saving edits does
    // not: saves that have failed for as long as a probe's verdict stands count as well.
    const writesOk = storeOk && !rooms.saves.failing(WRITE_PROBE_MS) && (await writes.check());
    const busOk = bus.isHealthy();
    // A stopping instance tells the balancer at once, so new clients go elsewhere. Without the
    // bus the instance still serves its boards from the Store (degraded mode, docs/architecture.md):
    // still ready, so that a Redis outage does not take every instance out of the balancer.
    const ready = storeOk && writesOk && !rooms.stopping;
    return reply.code(ready ? 200 : 503).send({
      status: rooms.stopping ? 'stopping' : !ready ? 'unavailable' : busOk ? 'ready' : 'degraded',
      store: !storeOk ? 'unreachable' : writesOk ? 'ok' : 'not writable',
      bus: busOk ? 'ok' : 'unreachable',
    });
  });

  app.get('/metrics', async (request, reply) => {
    // Connection, board and error counts are the operator's: with METRICS_TOKEN set, a server
    // reachable from the internet shows them only to the scraper that holds it.
    if (
      config.metricsToken !== null &&
      !carriesMetricsToken(request.headers.authorization, config.metricsToken)
    )
      throw new ApiError(ErrorCode.AUTH_REQUIRED, 'Metrics need the METRICS_TOKEN as a bearer token.');
    metrics.busUp.set(bus.isHealthy() ? 1 : 0);
    reply.header('Content-Type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
};
