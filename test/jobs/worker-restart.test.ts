/**
 * Distributed mode with real worker processes: a worker killed (SIGKILL) in the middle of a
 * structure-generation job; once a worker runs again the job completes exactly once, with the
 * full, correct result (C7H7NO has 528 227 constitutional isomers without restrictions:
 * nauty pipeline of test/fixtures/tools/structgen_reference.sh, see bench/structgen.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import t from 'tap';
import { QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { createBullRunner } from '../../shared/jobs/bullmq.ts';
import type { JobRecord } from '../../shared/jobs/types.ts';
import { QUEUES } from '../../shared/jobs/queues.ts';
import { testPrefix, testRedis } from '../helpers/redis.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';

const redis = await testRedis();
if (!redis) {
  skipAll(t, NO_REDIS);
  process.exit(0);
}
t.teardown(() => redis.stop());

const prefix = testPrefix();
const LOCK_MS = 2000;

interface Started {
  child: ChildProcess;
  metricsPort: number;
}

function startWorker(): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/main.ts'], {
    env: { ...process.env, REDIS_URL: redis!.url, QUEUE_PREFIX: prefix, WORKERS: '1', WORKER_METRICS_PORT: '0', JOB_LOCK_MS: String(LOCK_MS), SHUTDOWN_GRACE_MS: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const line = d.toString().split('\n').find((l) => l.includes('worker ready'));
      if (line) resolve({ child, metricsPort: JSON.parse(line).metrics_port });
    });
    child.on('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
}

const runner = await createBullRunner({
  redisUrl: redis.url,
  prefix,
  attempts: 3,
  timeouts: { quickMs: 60_000, longMs: 300_000, waitMs: 30_000, resultTtlSeconds: 600 },
});
t.teardown(() => runner.close());

// Count every completion event of the long queue: a duplicate result would show up here.
const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
const events = new QueueEvents(QUEUES.long, { connection: conn, prefix });
await events.waitUntilReady();
const completions: string[] = [];
events.on('completed', ({ jobId }) => completions.push(jobId));
t.teardown(async () => {
  await events.close();
  conn.disconnect();
});

t.test('a job whose worker process dies completes once after a restart', async (t) => {
  const { child: first } = await startWorker();
  const args = { molecular_formula: 'C7H7NO', limit: 5, max_heavy_atoms: 10, planar: false, allow_triple_bonds: true, bad_substructures: 'none', allow_3_rings: true, allow_4_cycles: true };
  const sub = await runner.submit('generate_structures', 'generate_structures', args, { mode: 'long' });
  let rec: JobRecord | undefined;
  for (let i = 0; i < 600; i++) {
    rec = await runner.get(sub.id);
    if (rec?.status === 'running' && ((rec.progress as { generated?: number }).generated ?? 0) > 20_000) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  t.equal(rec?.status, 'running', 'the first worker was generating');
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));

  const { child: second, metricsPort } = await startWorker();
  t.teardown(async () => {
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
  });
  const done = await runner.wait(sub.id, 240_000);
  t.equal(done.status, 'succeeded', JSON.stringify(done.error));
  t.match(done.result, { total_count: 528_227, formula: 'C7H7NO', generated_count: 5 });
  t.equal(done.attempts, 2, 'the job was started twice: once per worker');
  await new Promise((r) => setTimeout(r, 500));
  t.same(completions.filter((id) => id === sub.id), [sub.id], 'completed exactly once');

  // The worker's own health and metrics server.
  const health = await fetch(`http://127.0.0.1:${metricsPort}/health`);
  t.equal(health.status, 200);
  t.match(await health.json(), { status: 'OK', threads: 1 });
  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  t.match(metrics, /natprod_jobs_total\{op="generate_structures",outcome="succeeded",role="worker"\} 1/);
  t.match(metrics, /natprod_pool_threads\{role="worker"\} 1/);
});
