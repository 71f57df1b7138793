/**
 * Quick calls travel several to a BullMQ job (distributed mode). Each call keeps the guarantees
 * of a job of its own: its bad input fails only it and is not retried; an infrastructure fault
 * (its thread died) is retried, and only that call runs again; the answers come back in order.
 * Checked first on the worker's batch runner alone, then through real Redis with the api's
 * runner and a worker process's consumers.
 */
import t from 'tap';
import { QueueEvents, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { AppError } from '../../shared/errors.ts';
import { createBullRunner } from '../../shared/jobs/bullmq.ts';
import { createMetrics } from '../../shared/metrics.ts';
import { QUEUES, encodeFailure, type BatchCall, type CallOutcome } from '../../shared/jobs/queues.ts';
import { createBatchRunner } from '../../workers/batch.ts';
import { startConsumers } from '../../workers/consumer.ts';
import type { ChemPool } from '../../shared/threads/pool.ts';
import { testPrefix, testRedis } from '../helpers/redis.ts';

/**
 * A pool whose task `echo` answers its `value` argument, `bad` fails with 422, and `flaky` fails
 * with a thread crash the first time each value is seen. Counts the runs per value.
 */
function fakePool() {
  const runs = new Map<string, number>();
  const pool = {
    run(task: string, args: { value: string }) {
      const n = (runs.get(args.value) ?? 0) + 1;
      runs.set(args.value, n);
      const p = (async () => {
        await new Promise((r) => setTimeout(r, 5));
        if (task === 'bad') throw new AppError(422, `Error reading SMILES, check again: ${args.value}`, 'invalid_input');
        if (task === 'flaky' && n === 1) throw new AppError(500, 'Worker thread failed while running flaky: exited', 'worker_crash');
        return args.value.toUpperCase();
      })();
      return Object.assign(p, { cancel() {}, started: () => true });
    },
    together: <T>(fn: () => T) => fn(),
  };
  return { pool: pool as unknown as ChemPool, runs };
}

const call = (task: string, value: string): BatchCall => ({ op: task, task, args: { value }, timeoutMs: 10_000 });

t.test('the worker runs a batch: outcomes in order, bad input kept, a fault retried alone', async (t) => {
  const { pool, runs } = fakePool();
  const batches = createBatchRunner({ pool });
  let data: { calls: BatchCall[]; done?: Record<string, unknown> } = { calls: [call('echo', 'a'), call('bad', 'b'), call('flaky', 'c'), call('echo', 'd')] };
  const job = (attemptsMade: number) =>
    ({ id: 'batch-1', data, attemptsMade, opts: { attempts: 3 }, updateData: async (d: typeof data) => { data = d; } }) as unknown as Job;

  const first = await batches.run(job(0)).then(() => undefined, (e: Error) => e);
  t.ok(first, 'the attempt with a thread crash fails, so that BullMQ retries it');
  t.same(AppError.from(JSON.parse(first!.message))?.code, 'worker_crash');
  t.same(Object.keys(data.done ?? {}).sort(), ['0', '1', '3'], 'the other calls kept their outcomes in the job');

  const second = await batches.run(job(1));
  t.same(second, [
    { ok: true, value: 'A' },
    { ok: false, error: { status: 422, detail: 'Error reading SMILES, check again: b', code: 'invalid_input' } },
    { ok: true, value: 'C' },
    { ok: true, value: 'D' },
  ] satisfies CallOutcome[]);
  t.same(Object.fromEntries(runs), { a: 1, b: 1, c: 2, d: 1 }, 'only the faulted call ran again; bad input ran once');

  // On the last attempt a fault is the call's answer, not another retry.
  data = { calls: [call('flaky', 'e'), call('echo', 'f')] };
  t.same(await batches.run(job(2)), [
    { ok: false, error: { status: 500, detail: 'Worker thread failed while running flaky: exited', code: 'worker_crash' } },
    { ok: true, value: 'F' },
  ]);
  t.equal(encodeFailure(new AppError(500, 'x')), '{"status":500,"detail":"x"}');
});

const redis = await testRedis();
t.test('through Redis: many awaited calls, batched, each with its own answer', { skip: !redis && 'no Redis (REDIS_URL, 127.0.0.1:6379, or a redis-server binary)' }, async (t) => {
  t.teardown(() => redis!.stop());
  const prefix = testPrefix();
  const { pool, runs } = fakePool();
  const consumers = await startConsumers({ redisUrl: redis!.url, prefix, pool, concurrency: 2, lockMs: 5_000 });
  t.teardown(() => consumers.close(0));
  const metrics = createMetrics('api', 'test');
  const runner = await createBullRunner({
    redisUrl: redis!.url,
    prefix,
    attempts: 3,
    timeouts: { quickMs: 10_000, longMs: 10_000, waitMs: 20_000, resultTtlSeconds: 60 },
    observer: metrics.jobObserver,
  });
  t.teardown(() => runner.close());
  const conn = new Redis(redis!.url, { maxRetriesPerRequest: null });
  const events = new QueueEvents(QUEUES.batch, { connection: conn, prefix });
  await events.waitUntilReady();
  let batchJobs = 0;
  events.on('completed', () => batchJobs++);
  t.teardown(async () => {
    await events.close();
    conn.disconnect();
  });

  const values = Array.from({ length: 200 }, (_, i) => `m${i}`);
  const task = (i: number) => (i % 10 === 3 ? 'bad' : i % 10 === 7 ? 'flaky' : 'echo');
  const answers = await Promise.all(values.map((v, i) => runner.run(task(i), task(i), { value: v }).then((x) => x, (e: AppError) => e)));
  values.forEach((v, i) => {
    const a = answers[i];
    if (task(i) === 'bad') t.match(a, { status: 422, detail: new RegExp(`${v}$`) }, `${v}: its own 422`);
    else t.equal(a, v.toUpperCase(), `${v}: its own answer`);
  });
  t.ok(values.every((v, i) => runs.get(v) === (task(i) === 'flaky' ? 2 : 1)), 'flaky calls ran twice, all others once');
  await new Promise((r) => setTimeout(r, 200));
  t.ok(batchJobs > 0 && batchJobs <= 40, `200 calls travelled in ${batchJobs} batch jobs`);

  // natprod_batch_calls counts what BullMQ saw: one observation per batch job, 200 calls in all.
  // prom-client names each histogram series (`_bucket`, `_sum`, `_count`) in metricName.
  const hist = (await metrics.registry.getSingleMetric('natprod_batch_calls')!.get()).values as { metricName?: string; labels: Record<string, unknown>; value: number }[];
  const sum = (name: string) => hist.filter((v) => v.metricName === name).reduce((a, v) => a + v.value, 0);
  t.equal(sum('natprod_batch_calls_count'), batchJobs, 'natprod_batch_calls: one observation per batch job BullMQ completed');
  t.equal(sum('natprod_batch_calls_sum'), 200, 'natprod_batch_calls: 200 calls in all');
  t.ok(hist.some((v) => v.labels.in_flight === 'none' && v.metricName === 'natprod_batch_calls_count' && v.value >= 1), 'the first batch left with nothing in flight');
});
