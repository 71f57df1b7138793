/**
 * Fault (issue 15.2c): a worker process started before Redis is up waits for it (it does not
 * exit), and joins once Redis starts: the api, started after Redis, gets its calls answered by
 * that worker, which was never restarted.
 */
import t from 'tap';
import { MOLECULES, OwnRedis, canonicalUrl, freePort, haveRedisServer, ready, request, serviceEnv, sleep, startApi, startWorker, tempDir, uniquePrefix } from './procs.ts';
import { NO_REDIS_SERVER, skipAll } from '../helpers/skip.ts';

if (!haveRedisServer()) {
  skipAll(t, NO_REDIS_SERVER);
  process.exit(0);
}

t.test('a worker started before Redis waits and joins', async (t) => {
  const redis = await OwnRedis.create(t, await freePort());
  const env = serviceEnv({ REDIS_URL: redis.url, QUEUE_PREFIX: uniquePrefix('early'), DATA_DIR: tempDir(t, 'data') });
  const healthPort = await freePort();
  const worker = startWorker(t, 'worker', { ...env, WORKER_METRICS_PORT: String(healthPort) });
  // Long enough for its threads to load RDKit and for its Redis clients to fail several times.
  await sleep(5_000);
  t.ok(worker.alive, 'the worker waits for Redis instead of exiting');
  t.notOk(worker.lines.some((l) => l.includes('"worker ready"')), 'and is not ready without it');
  // Alive but not ready: an orchestrator must not restart it for waiting.
  // Its health server listens once its modules are loaded, which a busy machine (a parallel
  // suite under tsx) can stretch past the pause above: asked until it answers, for up to 30 s.
  let live = await request(`http://127.0.0.1:${healthPort}/health/live`, { timeoutMs: 5_000 });
  for (let i = 0; i < 60 && live.status === 0; i++) {
    await sleep(500);
    live = await request(`http://127.0.0.1:${healthPort}/health/live`, { timeoutMs: 5_000 });
  }
  t.match(live, { status: 200 }, 'live while waiting');
  t.match(await request(`http://127.0.0.1:${healthPort}/health/ready`, { timeoutMs: 5_000 }), { status: 503, body: { checks: { redis: false, consumers: false } } }, 'not ready while waiting');

  await redis.start();
  const upAt = Date.now();
  await ready(worker, 30_000);
  t.comment(`worker ready ${Date.now() - upAt} ms after Redis started`);
  const api = startApi(t, 'api', env);
  await ready(api);
  const base = `http://127.0.0.1:${api.port}`;

  // The api has no chemistry threads in the distributed mode: a 200 is the worker's work.
  for (const smi of MOLECULES.slice(0, 4)) {
    const a = await request(canonicalUrl(base, smi), { timeoutMs: 30_000 });
    t.equal(a.status, 200, `${smi} answered (${a.ms} ms)`);
  }
  const job = await request(`${base}/tools/generate-structures?molecular_formula=C6H6`);
  t.equal(job.status, 202, 'a long operation is accepted');
  let rec: Record<string, any> = {};
  for (let i = 0; i < 100 && rec.status !== 'succeeded'; i++) {
    await sleep(100);
    rec = (await request(`${base}/jobs/${(job.body as { job_id: string }).job_id}`)).body as Record<string, any>;
  }
  t.match(rec, { status: 'succeeded', result: { total_count: 2 } }, 'a long job runs on it too (C6H6: fulvene and benzene)');
  const health = await request(`http://127.0.0.1:${worker.port}/health/ready`);
  t.match(health, { status: 200, body: { checks: { redis: true, consumers: true, threads: true } } }, 'the worker is ready');
  t.ok(worker.alive, 'the same worker process');
});
