// Picks the Bus for a deployment: Redis pub/sub when REDIS_URL is set, else in-process.
// The Redis bus (with the redis client and socket.io's Redis adapter) is imported only then.
import { type Logger, pino } from 'pino';
import type { Bus } from './bus.ts';
import { MemoryBus } from './memory.ts';

export interface OpenBusOptions {
  redisUrl?: string | undefined;
  /** Channel namespace on a shared Redis. */
  prefix: string;
  logger?: Logger | undefined;
}

export async function openBus(options: OpenBusOptions): Promise<Bus> {
  const logger = options.logger ?? pino({ level: 'silent' });
  if (!options.redisUrl) return new MemoryBus(undefined, options.logger);
  const { RedisBus } = await import('./redis.ts');
  const bus = await RedisBus.open({ url: options.redisUrl, prefix: options.prefix, logger });
  logger.info({ prefix: options.prefix }, 'redis bus ready');
  return bus;
}

export type { Bus, BusHandler } from './bus.ts';
