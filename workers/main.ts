/**
 * Worker process (distributed mode): BullMQ consumers over a Piscina pool of `WORKERS` threads,
 * plus its own small HTTP server (workers/health.ts: liveness, readiness, metrics). SIGTERM: stop
 * taking jobs, let running ones finish within SHUTDOWN_GRACE_MS, hand the rest back, close the pool.
 */
import closeWithGrace from 'close-with-grace';
import { graceOptions } from '../shared/shutdown.ts';
import { healthServer } from './health.ts';
import { loadConfigOrExit, threadConfig } from '../shared/config.ts';
import { createMetrics } from '../shared/metrics.ts';
import { startConsumers, type Consumers } from './consumer.ts';
import { createPool } from '../shared/threads/pool.ts';
import { Redis } from 'ioredis';
import { SearchService } from '../shared/structure-search/service.ts';
import { startWorkerSearch } from '../shared/structure-search/redis-feed.ts';

const config = loadConfigOrExit();
if (!config.REDIS_URL) {
  console.error('Invalid configuration:\n  REDIS_URL: required by the worker process (it consumes the BullMQ queues)');
  process.exit(2);
}

const log = (msg: string, extra: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ time: new Date().toISOString(), role: 'worker', pid: process.pid, msg, ...extra }));

const pool = createPool(config.WORKERS, threadConfig(config));
const metrics = createMetrics('worker', config.RELEASE_VERSION);
metrics.watchPool(() => pool.utilization, () => pool.threads.length, () => pool.wasmMemory());

// Catalog structure search: this process's own index, followed from what the api publishes.
const search = new SearchService(pool);
const searchRedis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
searchRedis.on('error', () => {});
const stopSearch = startWorkerSearch({ redis: searchRedis, prefix: config.QUEUE_PREFIX, service: search, log });

// The health server answers from the start: a worker waiting for Redis is alive (liveness),
// only not ready, and must not be restarted by its orchestrator for that.
const started: { consumers?: Consumers } = {};
const server = healthServer({
  version: config.RELEASE_VERSION,
  redis: searchRedis,
  consumersRunning: () => !!started.consumers?.workers.every((w) => w.isRunning()),
  threads: () => pool.threads.length,
  registry: metrics.registry,
  details: () => ({ structure_search: search.health() }),
});
const listening = new Promise<void>((resolve) => server.listen(config.WORKER_METRICS_PORT, config.HOST, resolve));

// Waits for Redis as long as it takes (the clients reconnect by themselves).
const consumers = await startConsumers({
  redisUrl: config.REDIS_URL,
  prefix: config.QUEUE_PREFIX,
  pool,
  concurrency: config.WORKERS,
  lockMs: config.JOB_LOCK_MS,
  observer: metrics.jobObserver,
  log,
});
started.consumers = consumers;
await listening;
const addr = server.address();
log('worker ready', { threads: config.WORKERS, metrics_port: typeof addr === 'object' && addr ? addr.port : undefined });

// SIGTERM/SIGINT: stop taking jobs, let running ones finish within the grace period, hand the
// rest back. An uncaught error is logged and takes the same path.
closeWithGrace(graceOptions(config.SHUTDOWN_GRACE_MS + 5_000), async ({ signal, err }) => {
  if (err) log('fatal error, shutting down', { err: err.message, stack: err.stack });
  else log('shutting down', { signal });
  stopSearch();
  await consumers.close(config.SHUTDOWN_GRACE_MS);
  searchRedis.disconnect();
  await pool.destroy();
  server.close();
});
