/**
 * The api as tests use it: real services (Piscina pool with RDKit threads, or BullMQ on a real
 * Redis with in-process consumers feeding their own pool), an embedded store in a temp dir, torn
 * down with the test. `build(t, 'bullmq')` resolves to undefined when no Redis can be had.
 */
import type { Teardown as Tap } from './task.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.ts';
import { createServices, type Services } from '../../api/services.ts';
import { loadConfig, threadConfig, type Config } from '../../shared/config.ts';
import { startConsumers, type Consumers } from '../../workers/consumer.ts';
import { Toolkits } from '../../shared/toolkits/index.ts';
import { createPool, type ChemPool } from '../../shared/threads/pool.ts';
import { testPrefix, testRedis } from './redis.ts';
import { Redis } from 'ioredis';
import { SearchService } from '../../shared/structure-search/service.ts';
import { startWorkerSearch } from '../../shared/structure-search/redis-feed.ts';
import { checkAnswers } from './openapi-check.ts';

export type Mode = 'inline' | 'bullmq';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  config: Config;
  /** bullmq mode: the worker side's pool and consumers. */
  worker?: { pool: ChemPool; consumers: Consumers; toolkits: Toolkits; stopSearch: () => void };
}


export async function build(t: Tap, mode: Mode, env: Record<string, string> = {}): Promise<TestApp | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'natprod-test-'));
  const redis = mode === 'bullmq' ? await testRedis() : undefined;
  if (mode === 'bullmq' && !redis) {
    await rm(dir, { recursive: true, force: true });
    return undefined;
  }
  const config = loadConfig({
    DATA_DIR: dir,
    SEED_DEMO: 'false',
    WORKERS: '1',
    LOG_LEVEL: 'silent',
    QUEUE_PREFIX: testPrefix(),
    JOB_LOCK_MS: '5000',
    // Suites fire many requests from one address: limits are off here; test/api/limits*.test.ts sets them.
    RATE_LIMIT_QUICK: '0',
    RATE_LIMIT_LONG: '0',
    RATE_LIMIT_WRITES: '0',
    LONG_JOBS_PER_CLIENT: '0',
    ...(redis ? { REDIS_URL: redis.url } : {}),
    ...env,
  });
  const services = await createServices(config);
  let worker: TestApp['worker'];
  if (redis) {
    const pool = createPool(config.WORKERS, threadConfig(config));
    // As workers/main.ts: toolkit=cdk|openbabel (and native RDKit's 3D) go to sidecars beside the threads.
    const toolkits = new Toolkits(config).attach(pool);
    const consumers = await startConsumers({ redisUrl: redis.url, prefix: config.QUEUE_PREFIX, pool, concurrency: config.WORKERS, lockMs: config.JOB_LOCK_MS });
    const searchRedis = new Redis(redis.url, { maxRetriesPerRequest: 2 });
    const stopSearch = startWorkerSearch({ redis: searchRedis, prefix: config.QUEUE_PREFIX, service: new SearchService(pool) });
    worker = { pool, consumers, toolkits, stopSearch: () => (stopSearch(), searchRedis.disconnect()) };
  }
  const app = await buildApp({ services });
  const violations = checkAnswers(app);
  await app.ready();
  t.teardown(async () => {
    await app.close();
    if (worker) {
      worker.stopSearch();
      await worker.consumers.close(0);
      await worker.toolkits.close();
      await worker.pool.destroy();
    }
    await services.close(0);
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
    if (violations.length) throw new Error(`answers the OpenAPI document does not describe (test/helpers/openapi-check.ts):\n${violations.join('\n')}`);
  });
  return { app, services, config, worker };
}

/** Both modes, bullmq only where Redis is available (said loudly otherwise). */
export const MODES: Mode[] = ['inline', 'bullmq'];
