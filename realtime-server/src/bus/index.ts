// Picks the Bus for a deployment: Redis pub/sub when REDIS_URL is set, else in-process.
import { type Logger, pino } from 'pino';
import type { Bus } from './bus.ts';
import { MemoryBus } from './memory.ts';
import { RedisBus } from './redis.ts';

export interface OpenBusOptions {
  redisUrl?: string | undefined;
  /** Channel namespace on a shared Redis. */
  prefix: string;
  logger?: Logger | undefined;
}

export async function openBus(options: OpenBusOptions): Promise<Bus> {
  const logger = options.logger ?? pino({ level: 'silent' });
  if (!options.redisUrl) return new MemoryBus(undefined, options.logger);
  const bus = await RedisBus.open({ url: options.redisUrl, prefix: options.prefix, logger });
  logger.info({ prefix: options.prefix }, 'redis bus ready');
  return bus;
}

export type { Bus, BusHandler } from './bus.ts';
