/**
 * BullMQ consumers of a worker process: one Worker per queue, each feeding the process's Piscina
 * pool. The BullMQ side only does I/O (locks, progress, blobs); chemistry runs on the threads, so
 * lock renewal never starves behind a long task.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { AppError } from '../shared/errors.ts';
import { silentLogger, type Logger } from '../shared/log.ts';
import { redisClient } from '../shared/redis.ts';
import { type JobObserver } from '../shared/jobs/executor.ts';
import { BATCH_JOB, QUEUES, type QueueMode, blobRef, encodeFailure, jobPayload, keys } from '../shared/jobs/queues.ts';
import { createBatchRunner } from './batch.ts';
import { runTask, type ChemPool } from '../shared/threads/pool.ts';

export interface ConsumerOptions {
  redisUrl: string;
  prefix: string;
  pool: ChemPool;
  /** Jobs processed at once per queue (the thread count: Piscina queues the rest). */
  concurrency: number;
  /** Threads announced to the api processes (its entry counts as one worker process; the thread count is informative); default `concurrency`. */
  threads?: number;
  lockMs: number;
  observer?: JobObserver;
  log?: Logger;
  /**
   * Queues of batched calls for this process alone beside the common ones: the structure-search
   * shard it holds (shared/structure-search/shards.ts), whose searches no other worker can answer.
   */
  queues?: string[];
}

export interface Consumers {
  workers: Worker[];
  /** Stop taking jobs; wait up to graceMs for running ones, then hand them back to the queue. */
  close(graceMs: number): Promise<void>;
}

export async function startConsumers(opts: ConsumerOptions): Promise<Consumers> {
  const { prefix, pool, observer } = opts;
  const log = opts.log ?? silentLogger;
  const redis = redisClient(opts.redisUrl, 'blocking', 'consumer', log);
  const subscriber = redisClient(opts.redisUrl, 'blocking', 'consumer-cancel', log);
  const workers: Worker[] = [];
  // BullMQ does not close connections it was given: keep them to close them ourselves.
  const connections: Redis[] = [redis, subscriber];

  async function resolveBlobs(args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(args)) {
      const ref = blobRef.safeParse(v);
      if (!ref.success) {
        out[k] = v;
        continue;
      }
      const value = await redis.get(ref.data.$blob);
      if (value === null) throw new AppError(410, `The uploaded ${k} of this job has expired`, 'expired');
      out[k] = value;
    }
    return out;
  }

  async function dropBlobs(job: Job): Promise<void> {
    const args = (job.data?.args ?? {}) as Record<string, unknown>;
    const refs = Object.values(args).flatMap((v) => (blobRef.safeParse(v).success ? [(v as { $blob: string }).$blob] : []));
    if (refs.length) await redis.del(...refs);
  }

  const batches = createBatchRunner({ pool, observer, publish: (channel, message) => redis.publish(channel, message) });

  // While long jobs hold every thread, this process takes no quick work: a quick call fetched then
  // would wait behind them (minutes) while another worker may be idle. Calls already fetched still
  // wait; the api hands their place over after HELD_MS (shared/jobs/batcher.ts).
  let longRunning = 0;
  let closing = false;
  const quickWorkers = () => workers.filter((w) => w.name !== QUEUES.long);
  const longStarted = () => {
    if (++longRunning >= opts.concurrency) for (const w of quickWorkers()) w.pause(true).catch(() => {});
  };
  const longEnded = () => {
    if (--longRunning < opts.concurrency && !closing) for (const w of quickWorkers()) if (w.isPaused()) w.resume();
  };

  const processor = async (job: Job, _token?: string, signal?: AbortSignal) => {
    if (job.name === BATCH_JOB) return batches.run(job);
    if (job.queueName !== QUEUES.long) return run(job, signal);
    longStarted();
    try {
      return await run(job, signal);
    } finally {
      longEnded();
    }
  };

  const run = async (job: Job, signal?: AbortSignal) => {
    const started = Date.now();
    const parsed = jobPayload.safeParse(job.data);
    try {
      if (!parsed.success) throw new AppError(422, `Malformed job payload: ${parsed.error.issues[0]?.message}`, 'invalid_input');
      if (await redis.exists(keys.cancelled(prefix, job.id!))) throw new AppError(499, 'Job cancelled', 'cancelled');
      const { task, args, timeoutMs } = parsed.data;
      const value = await runTask(pool, task, await resolveBlobs(args), {
        timeoutMs,
        signal,
        onProgress: (v) => void job.updateProgress(v).catch(() => {}),
      });
      observer?.finished(parsed.data.op, 'succeeded', (Date.now() - started) / 1000);
      await dropBlobs(job);
      return value;
    } catch (e) {
      const app = AppError.from(e) ?? new AppError(500, String((e as Error)?.message ?? e), 'internal');
      const op = parsed.success ? parsed.data.op : 'unknown';
      // Only infrastructure faults are retried (AppError.isRetryable); the rest fail once.
      const final = !app.isRetryable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      observer?.finished(op, app.code === 'cancelled' ? 'cancelled' : 'failed', (Date.now() - started) / 1000);
      if (final) {
        await dropBlobs(job);
        throw new UnrecoverableError(encodeFailure(app));
      }
      throw new Error(encodeFailure(app));
    }
  };

  // Each queue with its connection's name and whether it carries batches (a shard's queue does).
  const consumed = [
    ...(Object.keys(QUEUES) as QueueMode[]).map((mode) => ({ name: QUEUES[mode], label: mode as string, batched: mode === 'batch' })),
    ...(opts.queues ?? []).map((q) => ({ name: q, label: q, batched: true })),
  ];
  for (const { name, label, batched } of consumed) {
    const connection = redisClient(opts.redisUrl, 'blocking', `consumer-${label}`, log);
    connections.push(connection);
    const worker = new Worker(name, processor, {
      connection,
      prefix,
      // Batches: the one this process's threads run (a batch's calls go to all of them) and the next
      // one, already here when the first is done; the apis send two per worker process
      // (shared/jobs/batcher.ts). More would only add idle consumers racing for each batch.
      concurrency: batched ? 2 : opts.concurrency,
      lockDuration: opts.lockMs,
      stalledInterval: opts.lockMs,
      maxStalledCount: 2,
    });
    worker.on('error', (err) => log.warn({ queue: name, err: err.message }, 'worker error'));
    workers.push(worker);
  }

  await subscriber.subscribe(keys.cancelChannel(prefix));
  subscriber.on('message', (_channel, jobId: string) => {
    for (const w of workers) w.cancelJob(jobId, 'cancelled');
    batches.cancel(jobId);
  });

  // Announce this process: the api processes keep two batches per worker process in flight.
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const announce = () =>
    redis.hset(keys.capacity(prefix), workerId, `${opts.threads ?? opts.concurrency}:${Date.now()}`).catch(() => {});
  await announce();
  const heartbeat = setInterval(() => void announce(), 10_000);
  heartbeat.unref();

  return {
    workers,
    async close(graceMs) {
      closing = true;
      clearInterval(heartbeat);
      await redis.hdel(keys.capacity(prefix), workerId).catch(() => {});
      await subscriber.quit().catch(() => {});
      const graceful = Promise.all(workers.map((w) => w.close()));
      const deadline = new Promise<'late'>((r) => setTimeout(() => r('late'), graceMs).unref());
      if ((await Promise.race([graceful.then(() => 'ok' as const), deadline])) === 'late') {
        // Hand the running jobs back: their locks lapse and another worker takes them over.
        await Promise.all(workers.map((w) => w.close(true)));
      }
      for (const c of connections) c.disconnect();
    },
  };
}
