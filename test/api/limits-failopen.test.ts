/**
 * The limits plugin when its Redis cannot be reached: requests and long submissions go through
 * (fail-open), each pass is counted in natprod_limiter_errors_total, and nothing waits for Redis.
 * Redis here is a port where nothing listens, so the test needs no Redis server.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { Registry } from 'prom-client';
import limits from '../../api/plugins/limits.ts';
import identity from '../../api/plugins/identity.ts';
import { redisClient } from '../../shared/redis.ts';
import { silentLogger } from '../../shared/log.ts';
import { openStore } from '../../api/catalog/store/open.ts';
import { loadConfig } from '../../shared/config.ts';
import type { JobRecord, JobRunner } from '../../shared/jobs/types.ts';

const closedPort = await new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});

const dir = await mkdtemp(join(tmpdir(), 'natprod-failopen-'));
const store = await openStore({ dataDir: dir });
const config = loadConfig({ DATA_DIR: dir, REDIS_URL: `redis://127.0.0.1:${closedPort}`, RATE_LIMIT_WRITES: '1', RATE_LIMIT_QUICK: '1', LONG_JOBS_PER_CLIENT: '1', RATE_LIMIT_EXEMPT: '' });
const submitted: string[] = [];
const record = (id: string): JobRecord => ({ id, op: 'op', status: 'running', progress: 0, attempts: 1, created_at: new Date().toISOString() });
const runner = {
  kind: 'bullmq',
  async submit(op: string) {
    submitted.push(op);
    return record(String(submitted.length));
  },
  async get(id: string) {
    return record(id);
  },
} as unknown as JobRunner;
const registry = new Registry();

const app = Fastify();
await app.register(identity, { store });
// The limiter's connection as the composition root builds it (shared/redis.ts, failFast).
const redis = redisClient(config.REDIS_URL!, 'failFast', 'limits', silentLogger);
await app.register(limits, { config, runner, registry, redis });
app.post('/api/auth/login', { config: { budget: 'writes' } }, async () => ({ ok: true }));
app.get('/tools/generate-structures', { config: { budget: 'long' } }, async (req) => app.clientRunner(req).submit('generate_structures', 'structgen', {}, { mode: 'long' }));
await app.ready();
t.teardown(async () => {
  await app.close();
  redis.disconnect();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

t.test('Redis down: budgets and the long-job cap let requests through and count it', async (t) => {
  for (let i = 0; i < 3; i++) {
    t.equal((await app.inject({ method: 'POST', url: '/api/auth/login' })).statusCode, 200, `write ${i + 1} passes (budget 1)`);
  }
  for (let i = 0; i < 3; i++) {
    t.equal((await app.inject({ url: '/tools/generate-structures' })).statusCode, 200, `long job ${i + 1} passes (cap 1)`);
  }
  t.equal(submitted.length, 3, 'every submission reached the runner');
  const text = await registry.metrics();
  // 3 writes + 3 long-budget checks + 3 cap checks
  t.match(text, /natprod_limiter_errors_total 9/, 'each pass counted');
});
