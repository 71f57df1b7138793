/**
 * Worker process (distributed mode), and its composition root: a Piscina pool of `WORKERS`
 * threads, BullMQ consumers feeding it, this process's copy of the structure-search index
 * (followed from what the api publishes), and its own small HTTP server (workers/health.ts:
 * liveness, readiness, metrics). Every resource is built here once and closed here, in reverse
 * order, each step even when one before it fails (shared/lifecycle.ts). SIGTERM: stop taking jobs,
 * let running ones finish within SHUTDOWN_GRACE_MS, hand the rest back, close the pool.
 */
import closeWithGrace from 'close-with-grace';
import { graceOptions } from '../shared/shutdown.ts';
import { healthServer } from './health.ts';
import { loadConfigOrExit, threadConfig } from '../shared/config.ts';
import { Resources } from '../shared/lifecycle.ts';
import { createLogger } from '../shared/log.ts';
import { createMetrics } from '../shared/metrics.ts';
import { redisClient } from '../shared/redis.ts';
import { createWorkerSearch } from '../shared/structure-search/worker.ts';
import { shardQueue } from '../shared/structure-search/shards.ts';
import { createPool } from '../shared/threads/pool.ts';
import { Toolkits } from '../shared/toolkits/index.ts';
import { startConsumers, type Consumers } from './consumer.ts';

const config = loadConfigOrExit();
const log = createLogger({ level: config.LOG_LEVEL, role: 'worker' });
if (!config.REDIS_URL) {
  log.fatal('Invalid configuration: REDIS_URL is required by the worker process (it consumes the BullMQ queues)');
  log.flush();
  process.exit(2);
}
const resources = new Resources(log);

const pool = resources.add('chemistry pool', createPool(config.WORKERS, threadConfig(config), log), (p) => p.destroy());
const metrics = createMetrics('worker', config.RELEASE_VERSION);
metrics.watchPool(() => pool.utilization, () => pool.threads.length, () => pool.wasmMemory());
// CDK and Open Babel sidecars beside the threads (toolkit=cdk|openbabel, shared/toolkits), closed after the consumers.
const toolkits = resources.add('toolkits', new Toolkits(config), (tk) => tk.close()).attach(pool);

// One `commands` connection for the search follower and the readiness PING.
const redis = resources.add('redis', redisClient(config.REDIS_URL, 'commands', 'worker', log), (r) => r.disconnect());
void redis.connect().catch(() => {});
// Catalog structure search: this process's own index (of its shard, with SEARCH_SHARDS > 1), followed from what the api publishes.
const shard = { index: config.SEARCH_SHARD, of: config.SEARCH_SHARDS };
const search = resources.add('structure search', createWorkerSearch({ pool, redis, prefix: config.QUEUE_PREFIX, log, shard }), (s) => s.close());

// The health server answers from the start: a worker waiting for Redis is alive (liveness),
// only not ready, and must not be restarted by its orchestrator for that.
const started: { consumers?: Consumers } = {};
const server = healthServer({
  version: config.RELEASE_VERSION,
  redis,
  consumersRunning: () => !!started.consumers?.workers.every((w) => w.isRunning()),
  threads: () => pool.threads.length,
  registry: metrics.registry,
  details: () => ({ structure_search: search.status(), toolkits: toolkits.health() }),
});
resources.add('health server', server, (s) => {
  const closed = new Promise<void>((resolve) => s.close(() => resolve()));
  s.closeAllConnections();
  return closed;
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
  // With shards, this shard's searches come on a queue of their own (shared/structure-search/shards.ts).
  queues: shard.of > 1 ? [shardQueue(shard)] : [],
});
started.consumers = consumers;
// Closed first: stop taking jobs, let running ones finish within the grace period, hand the rest back.
resources.add('consumers', consumers, (c) => c.close(config.SHUTDOWN_GRACE_MS));
await listening;
const addr = server.address();
log.info({ threads: config.WORKERS, metrics_port: typeof addr === 'object' && addr ? addr.port : undefined, ...(shard.of > 1 ? { search_shard: `${shard.index} of ${shard.of}` } : {}) }, 'worker ready');

// SIGTERM/SIGINT, or an uncaught error (logged): close everything, each step even if one fails.
closeWithGrace(graceOptions(config.SHUTDOWN_GRACE_MS + 5_000), async ({ signal, err }) => {
  if (err) log.error({ err }, 'fatal error, shutting down');
  else log.info({ signal }, 'shutting down');
  await resources.closeAll(config.SHUTDOWN_GRACE_MS + 2_000);
  log.flush();
});
