// Prometheus metrics on a registry per app (not the global one), so several instances can run
// in one test process.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** A counter whose value is a field of `traffic`, read when scraped. */
function trafficCounter(
  registry: Registry,
  traffic: Traffic,
  field: keyof Traffic,
  name: string,
  help: string,
) {
  let reported = 0;
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.inc(traffic[field] - reported);
      reported = traffic[field];
    },
  });
}

export interface Traffic {
  messagesIn: number;
  messagesOut: number;
  bytesIn: number;
  bytesOut: number;
}

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const traffic: Traffic = { messagesIn: 0, messagesOut: 0, bytesIn: 0, bytesOut: 0 };
  trafficCounter(
    registry,
    traffic,
    'messagesIn',
    'tandem_messages_in_total',
    'Document messages received from clients',
  );
  trafficCounter(
    registry,
    traffic,
    'messagesOut',
    'tandem_messages_out_total',
    'Document messages sent to clients',
  );
  trafficCounter(registry, traffic, 'bytesIn', 'tandem_bytes_in_total', 'Document bytes received');
  trafficCounter(registry, traffic, 'bytesOut', 'tandem_bytes_out_total', 'Document bytes sent');
  return {
    registry,
    connections: new Gauge({
      name: 'tandem_connections',
      help: 'Open document connections',
      registers: [registry],
    }),
    rooms: new Gauge({ name: 'tandem_rooms', help: 'Boards loaded in memory', registers: [registry] }),
    // Per-message traffic is counted in plain numbers on the hot path and read at scrape time.
    traffic,
    closes: new Counter({
      name: 'tandem_connection_closes_total',
      help: 'Document connections closed by the server, by close code',
      labelNames: ['code'],
      registers: [registry],
    }),
    storeLatency: new Histogram({
      name: 'tandem_store_seconds',
      help: 'Store operation latency',
      labelNames: ['op'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [registry],
    }),
    storeErrors: new Counter({
      name: 'tandem_store_errors_total',
      help: 'Store operations that failed',
      labelNames: ['op'],
      registers: [registry],
    }),
    busMessagesIn: new Counter({
      name: 'tandem_bus_messages_in_total',
      help: 'Bus messages received from other instances',
      registers: [registry],
    }),
    busMessagesOut: new Counter({
      name: 'tandem_bus_messages_out_total',
      help: 'Bus messages published',
      registers: [registry],
    }),
    unhandledRejections: new Counter({
      name: 'tandem_unhandled_rejections_total',
      help: 'Promise rejections nothing handled (each one is a bug; the process keeps running)',
      registers: [registry],
    }),
    busResyncs: new Counter({
      name: 'tandem_bus_resyncs_total',
      help: 'Sync requests sent to other instances (board opened, gap seen, bus reconnected)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    throttled: new Counter({
      name: 'tandem_connections_throttled_total',
      help: 'Times a document connection over its message rate had its socket no longer read until its budget refilled (docs/api.md §9)',
      registers: [registry],
    }),
    docSizeMeasures: new Counter({
      name: 'tandem_doc_size_measures_total',
      help: 'Times an open board near MAX_DOC_BYTES had its encoded size measured again before an edit was refused',
      registers: [registry],
    }),
    storeCatchUps: new Counter({
      name: 'tandem_store_catchups_total',
      help: 'Open boards read back from the Store for edits that never reached this instance over the bus (reason: reconnect, lapsed, lapse window, hint)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    adoptedUpdates: new Counter({
      name: 'tandem_adopted_updates_total',
      help: 'Updates relayed by another instance and stored by this one because their origin did not confirm them (reason: lapsed, held too long, flush)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    degradedRooms: new Gauge({
      name: 'tandem_degraded_rooms',
      help: 'Boards open without the bus (served from the Store alone until it returns)',
      registers: [registry],
    }),
    sendQueueBytes: new Gauge({
      name: 'tandem_send_queue_bytes',
      help: 'Bytes queued for sending on document connections with 64 KiB or more queued (bounded by MAX_QUEUED_BYTES)',
      registers: [registry],
    }),
    busUp: new Gauge({
      name: 'tandem_bus_up',
      help: '1 while the bus (Redis) is reachable, else 0',
      registers: [registry],
    }),
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
