/**
 * Catalog structure search in a worker process (distributed mode): the engine on this process's
 * pool, its index loaded from what the api publishes in Redis and kept current (see
 * redis-feed.ts). The api side is api/catalog/search/structure/module.ts.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../log.ts';
import type { ChemPool } from '../threads/pool.ts';
import { startWorkerSearch } from './redis-feed.ts';
import { SearchService, type IndexStatus } from './service.ts';

export interface WorkerSearch {
  status(): IndexStatus;
  close(): void;
}

export function createWorkerSearch(deps: { pool: ChemPool; redis: Redis; prefix: string; log: Logger }): WorkerSearch {
  const service = new SearchService(deps.pool);
  const stop = startWorkerSearch({ redis: deps.redis, prefix: deps.prefix, service, log: (msg, extra) => deps.log.warn(extra ?? {}, msg) });
  return { status: () => service.health(), close: stop };
}
