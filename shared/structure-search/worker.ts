/**
 * Catalog structure search in a worker process (distributed mode): the engine on this process's
 * pool, its index loaded from what the api publishes in Redis and kept current (see
 * redis-feed.ts). With SEARCH_SHARDS > 1 the index holds one shard's molecules and the worker says
 * so in Redis (shards.ts), where the api looks for a worker of every shard. The api side is
 * api/catalog/search/structure/module.ts.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Logger } from '../log.ts';
import type { ChemPool } from '../threads/pool.ts';
import { startWorkerSearch } from './redis-feed.ts';
import { SearchService, type IndexStatus } from './service.ts';
import { announceShard, type ShardSpec } from './shards.ts';

export interface WorkerSearch {
  /** The index's state, with the shard it holds when there are several. */
  status(): IndexStatus & { shard?: ShardSpec };
  close(): Promise<void>;
}

export function createWorkerSearch(deps: { pool: ChemPool; redis: Redis; prefix: string; log: Logger; shard?: ShardSpec }): WorkerSearch {
  const shard = deps.shard && deps.shard.of > 1 ? deps.shard : undefined;
  const service = new SearchService(deps.pool, { shard });
  const stop = startWorkerSearch({ redis: deps.redis, prefix: deps.prefix, service, shard, log: (msg, extra) => deps.log.warn(extra ?? {}, msg) });
  const announced = shard ? announceShard(deps.redis, deps.prefix, `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, shard, () => service.health()) : undefined;
  return {
    status: () => ({ ...service.health(), ...(shard ? { shard } : {}) }),
    async close() {
      stop();
      await announced?.stop();
    },
  };
}
