// Chooses the Bus from the configuration: Redis when a URL is given, else in-process.
import type { Logger } from 'pino';
import type { Bus } from './bus.ts';
import { MemoryBus } from './memory.ts';

export interface OpenBusOptions {
  redisUrl?: string;
  prefix: string;
  logger?: Logger;
}

export async function openBus(options: OpenBusOptions): Promise<Bus> {
  if (options.redisUrl) throw new Error('Redis bus not available yet');
  return new MemoryBus();
}
