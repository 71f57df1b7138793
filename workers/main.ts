/**
 * Worker process (distributed mode): BullMQ consumers over a Piscina pool of `WORKERS` threads,
 * plus its own small HTTP server for /health and /metrics. SIGTERM: stop taking jobs, let running
 * ones finish within SHUTDOWN_GRACE_MS, hand the rest back, close the pool.
 */
import { createServer } from 'node:http';
import { loadConfigOrExit } from '../shared/config.ts';
import { createMetrics } from '../shared/metrics.ts';
import { startConsumers } from './consumer.ts';
import { createPool } from './pool.ts';
import { Redis } from 'ioredis';
import { SearchService } from './search/service.ts';
import { startWorkerSearch } from './search/redis-feed.ts';

const config = loadConfigOrExit();
if (!config.REDIS_URL) {
  console.error('Invalid configuration:\n  REDIS_URL: required by the worker process (it consumes the BullMQ queues)');
  process.exit(2);
}

const log = (msg: string, extra: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ time: new Date().toISOString(), role: 'worker', pid: process.pid, msg, ...extra }));

const pool = createPool(config.WORKERS);
const metrics = createMetrics('worker', config.RELEASE_VERSION);
metrics.watchPool(() => pool.utilization, () => pool.threads.length);

// Catalog structure search: this process's own index, followed from what the api publishes.
const search = new SearchService(pool);
const searchRedis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
searchRedis.on('error', () => {});
const stopSearch = startWorkerSearch({ redis: searchRedis, prefix: config.QUEUE_PREFIX, service: search, log });

const consumers = await startConsumers({
  redisUrl: config.REDIS_URL,
  prefix: config.QUEUE_PREFIX,
  pool,
  concurrency: config.WORKERS,
  lockMs: config.JOB_LOCK_MS,
  observer: metrics.jobObserver,
  log,
});

const server = createServer(async (req, res) => {
  if (req.url === '/health') {
    const ready = consumers.workers.every((w) => w.isRunning());
    res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: ready ? 'OK' : 'STARTING', version: config.RELEASE_VERSION, threads: pool.threads.length, structure_search: search.health() }));
  } else if (req.url === '/metrics') {
    res.writeHead(200, { 'content-type': metrics.registry.contentType });
    res.end(await metrics.registry.metrics());
  } else {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ detail: 'Not Found' }));
  }
});
server.listen(config.WORKER_METRICS_PORT, config.HOST, () => {
  const addr = server.address();
  log('worker ready', { threads: config.WORKERS, metrics_port: typeof addr === 'object' && addr ? addr.port : undefined });
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log('shutting down', { signal });
  stopSearch();
  await consumers.close(config.SHUTDOWN_GRACE_MS);
  searchRedis.disconnect();
  await pool.destroy();
  server.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
