/**
 * The distributed job runner (api side): jobs go to BullMQ queues in Redis and are run by worker
 * processes (workers/main.ts). Producers fail fast: with Redis down a submission answers 503 at
 * once instead of hanging. Cancellation of a running job is published on a Redis channel that
 * every worker process listens to.
 */
import { randomUUID } from 'node:crypto';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { silentLogger, type Logger } from '../log.ts';
import { redisClient } from '../redis.ts';
import { AppError } from '../errors.ts';
import type { JobObserver, RunnerTimeouts } from './executor.ts';
import { isFinished, isReusable, resultOf } from './outcome.ts';
import { createBatchedCalls } from './bullmq-batches.ts';
import { BLOB_THRESHOLD, QUEUES, type JobPayload, type QueueMode, decodeFailure, iso, jobOptions, keys, parseCallId, queueUnavailable as unavailable } from './queues.ts';
import type { JobRecord, JobRunner, JobStatus, SubmitOptions } from './types.ts';
import { typedCalls } from './typed.ts';

/** The queues whose jobs have records of their own (batches are answered on a reply channel). */
type JobMode = Exclude<QueueMode, 'batch'>;

export interface BullRunnerOptions {
  redisUrl: string;
  prefix: string;
  attempts: number;
  timeouts: RunnerTimeouts;
  observer?: JobObserver;
  /** Told about BullMQ errors (throttled: once per source every 10 s). */
  log?: (msg: string, extra: Record<string, unknown>) => void;
  /** The process's logger, for its Redis connections (shared/redis.ts). */
  logger?: Logger;
}

/** An `error` listener that logs, at most once per 10 s per source (a Redis outage repeats them fast). */
export function errorLogger(log: BullRunnerOptions['log'], source: string): (err: Error) => void {
  let last = 0;
  return (err) => {
    const now = Date.now();
    if (!log || now - last < 10_000) return;
    last = now;
    log('job queue error', { source, err: err?.message ?? String(err) });
  };
}


export async function createBullRunner(opts: BullRunnerOptions): Promise<JobRunner> {
  const { prefix, timeouts, observer } = opts;
  // Commands fail at once while disconnected (no offline queue): the HTTP answer is a quick 503.
  // Connection errors are logged by shared/redis.ts (throttled); BullMQ's own below.
  const redis = redisClient(opts.redisUrl, 'commands', 'jobs', opts.logger ?? silentLogger);
  await redis.connect().catch((e) => {
    throw new Error(`Cannot reach Redis at ${opts.redisUrl}: ${(e as Error).message}`);
  });
  const queues = {} as Record<QueueMode, Queue>;
  // Completion events of the job queues (awaited jobs); batches answer on a reply channel instead.
  const events = {} as Record<JobMode, QueueEvents>;
  const log = opts.logger ?? silentLogger;
  // BullMQ does not close connections it was given: keep them to close them ourselves.
  const blocking: Redis[] = [];
  for (const mode of Object.keys(QUEUES) as QueueMode[]) {
    queues[mode] = new Queue(QUEUES[mode], { connection: redis, prefix });
    // Every request awaiting its job adds a short-lived 'closing' listener (waitUntilFinished).
    queues[mode].setMaxListeners(0);
    queues[mode].on('error', errorLogger(opts.log, `queue ${QUEUES[mode]}`));
    if (mode === 'batch') continue;
    const conn = redisClient(opts.redisUrl, 'blocking', `jobs-events-${mode}`, log);
    blocking.push(conn);
    events[mode] = new QueueEvents(QUEUES[mode], { connection: conn, prefix });
    events[mode].on('error', errorLogger(opts.log, `events ${QUEUES[mode]}`));
  }
  await Promise.all(Object.values(events).map((e) => e.waitUntilReady()));

  const subscriber = redisClient(opts.redisUrl, 'blocking', 'jobs-replies', log);
  blocking.push(subscriber);
  const batches = await createBatchedCalls({ redis, queue: queues.batch, subscriber, prefix, attempts: opts.attempts, timeouts, observer });

  /**
   * Queues of their own (RunOptions.queue: a structure-search shard's), opened at their first call.
   * Their calls leave at once, one to a batch job (unbounded places): each is a whole scan on the
   * worker, and the shard's workers take two at a time from the queue.
   */
  const lanes = new Map<string, Promise<{ queue: Queue; calls: Awaited<ReturnType<typeof createBatchedCalls>> }>>();
  const lane = (name: string) => {
    let l = lanes.get(name);
    if (!l) {
      l = (async () => {
        const queue = new Queue(name, { connection: redis, prefix });
        queue.setMaxListeners(0);
        queue.on('error', errorLogger(opts.log, `queue ${name}`));
        const calls = await createBatchedCalls({ redis, queue, subscriber, prefix, attempts: opts.attempts, timeouts, observer, places: () => Infinity });
        return { queue, calls };
      })();
      lanes.set(name, l);
      // Opened again by the next call after a failure (Redis away).
      void l.catch(() => lanes.delete(name));
    }
    return l;
  };

  async function find(id: string): Promise<{ job: Job; mode: JobMode } | undefined> {
    // Batches are not jobs of their own to clients: their calls are (see callState).
    for (const mode of ['quick', 'long'] as const) {
      const job = await Job.fromId(queues[mode], id);
      // BullMQ removes aged jobs only when a later job of the queue finishes: an expired record
      // is not served meanwhile.
      if (job && job.finishedOn && Date.now() - job.finishedOn > timeouts.resultTtlSeconds * 1000) return undefined;
      if (job) return { job, mode };
    }
    return undefined;
  }

  async function toRecord(fetched: Job, mode: QueueMode): Promise<JobRecord> {
    const state = await fetched.getState();
    // The state is read live but the job's fields were read earlier: a job that finished in
    // between must be read again, or its result would be missing.
    const job = (state === 'completed' || state === 'failed') && !fetched.finishedOn
      ? ((await Job.fromId(queues[mode], fetched.id!)) ?? fetched)
      : fetched;
    const data = job.data as JobPayload;
    let status: JobStatus;
    let error;
    if (state === 'completed') status = 'succeeded';
    else if (state === 'active') status = 'running';
    else if (state === 'failed') {
      error = decodeFailure(job.failedReason);
      status = error.code === 'cancelled' ? 'cancelled' : 'failed';
    } else status = 'queued';
    return {
      id: job.id!,
      op: data.op,
      status,
      progress: (job.progress as JobRecord['progress']) ?? 0,
      attempts: job.attemptsStarted ?? 0,
      ...(status === 'succeeded' ? { result: job.returnvalue } : {}),
      ...(status === 'failed' ? { error } : {}),
      created_at: iso(job.timestamp)!,
      ...(job.processedOn ? { started_at: iso(job.processedOn) } : {}),
      ...(job.finishedOn && status !== 'running' && status !== 'queued' ? { finished_at: iso(job.finishedOn) } : {}),
    };
  }

  async function cancelledRecord(id: string): Promise<JobRecord | undefined> {
    const raw = await redis.get(keys.cancelled(prefix, id));
    return raw ? (JSON.parse(raw) as JobRecord) : undefined;
  }

  /** Large string arguments (uploads) are stored beside the job and fetched by the worker. */
  async function offloadBlobs(jobId: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(args)) {
      if (typeof v === 'string' && v.length > BLOB_THRESHOLD) {
        const key = keys.blob(prefix, jobId, k);
        await redis.set(key, v, 'EX', timeouts.resultTtlSeconds);
        out[k] = { $blob: key };
      } else out[k] = v;
    }
    return out;
  }

  const runner: JobRunner = {
    kind: 'bullmq',
    ...typedCalls,

    async submit(op, task, args, so: SubmitOptions = {}) {
      const mode: QueueMode = so.mode === 'long' ? 'long' : 'quick';
      try {
        if (so.jobId) {
          const existing = await Job.fromId(queues[mode], so.jobId);
          if (existing) {
            const rec = await toRecord(existing, mode);
            if (isReusable(rec)) return rec;
            await existing.remove();
          }
          await redis.del(keys.cancelled(prefix, so.jobId));
        }
        const jobId = so.jobId ?? randomUUID();
        const payload: JobPayload = {
          op,
          task,
          args: await offloadBlobs(jobId, (args ?? {}) as Record<string, unknown>),
          timeoutMs: so.timeoutMs ?? (mode === 'long' ? timeouts.longMs : timeouts.quickMs),
        };
        const job = await queues[mode].add(op, payload, jobOptions({ jobId, attempts: opts.attempts, ttlSeconds: timeouts.resultTtlSeconds }));
        return await toRecord(job, mode);
      } catch (e) {
        throw unavailable(e);
      }
    },

    async wait(id, timeoutMs) {
      if (parseCallId(id)) return batches.wait(id, timeoutMs);
      const found = await find(id).catch((e) => {
        throw unavailable(e);
      });
      if (!found) {
        const c = await cancelledRecord(id);
        if (c) return c;
        throw new AppError(404, `Job ${id} not found`, 'not_found');
      }
      const { job, mode } = found;
      let rec = await toRecord(job, mode);
      if (!isFinished(rec)) {
        await job.waitUntilFinished(events[mode], timeoutMs).catch(() => {});
        const again = await Job.fromId(queues[mode], id);
        rec = again ? await toRecord(again, mode) : (await cancelledRecord(id)) ?? rec;
      }
      if (isFinished(rec) && observer && rec.finished_at) {
        observer.finished(rec.op, rec.status as 'succeeded', (Date.parse(rec.finished_at) - Date.parse(rec.started_at ?? rec.created_at)) / 1000);
      }
      return rec;
    },

    async get(id) {
      try {
        if (parseCallId(id)) return await batches.state(id);
        const found = await find(id);
        if (found) return await toRecord(found.job, found.mode);
        return await cancelledRecord(id);
      } catch (e) {
        throw unavailable(e);
      }
    },

    async cancel(id) {
      if (parseCallId(id)) return batches.cancel(id);
      const found = await find(id).catch((e) => {
        throw unavailable(e);
      });
      if (!found) return cancelledRecord(id);
      const rec = await toRecord(found.job, found.mode);
      if (isFinished(rec)) return rec;
      const cancelled: JobRecord = { ...rec, status: 'cancelled', finished_at: new Date().toISOString() };
      // The marker stops a worker that picks the job up in the meantime; a queued job is removed,
      // a running one is told to stop through the channel every worker process subscribes to.
      await redis.set(keys.cancelled(prefix, id), JSON.stringify(cancelled), 'EX', timeouts.resultTtlSeconds);
      if (rec.status === 'queued') {
        try {
          await found.job.remove();
          return cancelled;
        } catch {
          // it became active meanwhile: cancel it as a running job
        }
      }
      await redis.publish(keys.cancelChannel(prefix), id);
      return runner.wait(id, 5_000);
    },

    async run(op, task, args, so = {}) {
      const waitMs = so.waitMs ?? timeouts.waitMs;
      const plain = (args ?? {}) as Record<string, unknown>;
      if (so.queue) {
        const { calls } = await lane(so.queue).catch((e: unknown) => {
          throw unavailable(e);
        });
        // With unbounded places a call never waits in this process, so it is never handed back here.
        return calls.run({ op, task, args: plain, timeoutMs: so.timeoutMs ?? timeouts.quickMs }, waitMs, () => {
          throw new AppError(504, `${op} did not leave for queue ${so.queue} within ${waitMs} ms`, 'timeout');
        });
      }
      // Idempotent, long and upload-sized calls are ordinary jobs with their own records.
      if (so.jobId || so.mode === 'long' || Object.values(plain).some((v) => typeof v === 'string' && v.length > BLOB_THRESHOLD)) {
        const rec = await runner.submit(op, task, args, so);
        return resultOf(await runner.wait(rec.id, waitMs), waitMs);
      }
      return batches.run({ op, task, args: plain, timeoutMs: so.timeoutMs ?? timeouts.quickMs }, waitMs, async () => {
        // It never left this process: from now on it is an ordinary job, and the 504 names it.
        const rec = await runner.submit(op, task, args, so);
        return resultOf(rec, waitMs);
      });
    },

    async depth() {
      const opened = await Promise.all([...lanes.values()].map((l) => l.then((x) => x.queue, () => undefined)));
      const all = [...(Object.keys(QUEUES) as QueueMode[]).map((mode) => queues[mode]), ...opened.filter((q): q is Queue => !!q)];
      return Promise.all(
        all.map(async (q) => {
          const c = await q.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
          return { queue: q.name, waiting: (c.waiting ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0), active: c.active ?? 0 };
        }),
      );
    },

    async close() {
      const opened = await Promise.all([...lanes.values()].map((l) => l.catch(() => undefined)));
      for (const l of opened) {
        await l?.calls.close();
        await l?.queue.close();
      }
      await batches.close();
      await Promise.all(Object.values(events).map((e) => e.close()));
      await Promise.all(Object.values(queues).map((q) => q.close()));
      for (const c of blocking) c.disconnect();
      redis.disconnect();
    },
  };
  return runner;
}
