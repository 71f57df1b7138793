/**
 * The worker process's health server: liveness always, readiness only while Redis answers, the
 * consumers run and the pool has threads.
 */
import type { Teardown as Tap } from '../helpers/task.ts';
import t from 'tap';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { healthServer } from '../../workers/health.ts';
import { testRedis } from '../helpers/redis.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';

async function serve(t: Tap, redis: Redis, running = true, threads = 2) {
  const server = healthServer({ version: 'test', redis, consumersRunning: () => running, threads: () => threads, registry: new Registry() });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (path: string) => {
    const res = await fetch(base + path);
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, any> };
  };
}

t.test('ready with Redis, consumers and threads', async (t) => {
  const r = await testRedis();
  if (!r) return skipAll(t, NO_REDIS);
  const redis = new Redis(r.url);
  t.teardown(async () => {
    redis.disconnect();
    await r.stop();
  });
  const get = await serve(t, redis);
  t.equal((await get('/health/live')).status, 200);
  const ready = await get('/health/ready');
  t.equal(ready.status, 200);
  t.same(ready.body.checks, { redis: true, consumers: true, threads: true });
  t.equal((await get('/health')).status, 200, '/health is readiness');
  t.equal((await get('/nope')).status, 404);
  const stopped = await serve(t, redis, false);
  t.equal((await stopped('/health/ready')).status, 503, 'consumers stopped: not ready');
});

t.test('not ready without Redis, still live', async (t) => {
  // A port nothing listens on: the client keeps retrying in the background.
  const redis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => 1_000 });
  redis.on('error', () => {});
  redis.connect().catch(() => {});
  t.teardown(() => redis.disconnect());
  const get = await serve(t, redis);
  t.equal((await get('/health/live')).status, 200);
  const ready = await get('/health/ready');
  t.equal(ready.status, 503);
  t.equal(ready.body.checks.redis, false);
  t.equal(ready.body.status, 'NOT_READY');
});
