/**
 * The api side of batched quick calls in the distributed mode: the Batcher (shared/jobs/batcher.ts)
 * over the `chem-batch` queue, the reply channel that carries the answers back, the worker
 * processes that set the batches in flight, and the records of calls that outlived their wait
 * (ids `<batch id>.<n>`). The worker side is workers/batch.ts.
 *
 * Answers come back on a pub/sub channel of this api process (`<prefix>:replies:<producer id>`,
 * named in each batch), not through BullMQ's completion events: every api reads every event of a
 * queue's event stream, so with A apis each would parse the answers of all A (measured on 16
 * cores: api main thread 131 µs per call with 1 api, 269 with 4; Redis 74 -> 118 µs). A message
 * lost while the subscriber reconnects is made good by the watchdog, which reads the batch job
 * (its value holds the same outcomes) once it has been out BATCH_CHECK_AFTER_MS; so is a batch
 * that BullMQ failed without a worker to tell (it stalled too often).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.ts';
import { Batcher } from './batcher.ts';
import type { JobObserver, RunnerTimeouts } from './executor.ts';
import { isFinished } from './outcome.ts';
import { BATCH_JOB, type BatchCall, type BatchPayload, type BatchReply, type CallOutcome, callId, decodeFailure, iso, jobOptions, keys, parseCallId, queueUnavailable as unavailable } from './queues.ts';
import type { JobRecord } from './types.ts';

/** Seconds a finished batch job stays in Redis (its answers travel on the reply channel). */
const BATCH_KEEP_SECONDS = 60;
/** A batch with no reply after this long is read back from Redis. */
const BATCH_CHECK_AFTER_MS = 10_000;
/** How often the worker capacity is read and overdue batches are checked. */
const CAPACITY_REFRESH_MS = 5_000;
/** A worker whose heartbeat is older than this is not counted. */
export const CAPACITY_STALE_MS = 30_000;
const LATE = Symbol('late');


/** The record of a call of a batch, from its outcome. */
function callRecord(id: string, op: string, outcome: CallOutcome): JobRecord {
  const t = new Date().toISOString();
  const base = { id, op, attempts: 1, created_at: t, finished_at: t };
  if (outcome.ok) return { ...base, status: 'succeeded', progress: 100, result: outcome.value };
  const cancelled = outcome.error.code === 'cancelled';
  return { ...base, status: cancelled ? 'cancelled' : 'failed', progress: 0, ...(cancelled ? {} : { error: outcome.error }) };
}

/**
 * One api process's places (batches in flight): two per worker process that announced itself
 * (`capacity` hash: `<threads>:<heartbeat ms>` per worker process), divided among the api
 * processes that batch (`producers` hash: heartbeat ms), rounded up; stale entries (older than
 * CAPACITY_STALE_MS) do not count. At least 1.
 */
export function placeShare(capacity: Record<string, string>, producers: Record<string, string>, now: number): number {
  const fresh = now - CAPACITY_STALE_MS;
  const workers = Object.values(capacity).filter((v) => Number(v.split(':')[1]) >= fresh).length;
  const apis = Math.max(1, Object.values(producers).filter((at) => Number(at) >= fresh).length);
  return Math.max(1, Math.ceil((2 * workers) / apis));
}

export interface BatchedCallsOptions {
  redis: Redis;
  queue: Queue;
  /** A connection of its own for the reply channel (it enters subscriber mode). */
  subscriber: Redis;
  prefix: string;
  attempts: number;
  timeouts: RunnerTimeouts;
  observer?: JobObserver;
  /**
   * A queue of its own (a structure-search shard's, RunOptions.queue): these places instead of a
   * share of the worker processes' (this instance then neither counts as a producer nor reads
   * the capacity hash, which counts every worker, not those of this queue).
   */
  places?: () => number;
}

export async function createBatchedCalls(opts: BatchedCallsOptions) {
  const { redis, queue, subscriber, prefix, timeouts, observer } = opts;
  const producerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const replyChannel = keys.replies(prefix, producerId);
  let places = 2;
  const batcher = new Batcher({
    newId: () => randomUUID(),
    places: opts.places ?? (() => places),
    async add(batchId, calls, idle) {
      observer?.batched?.(calls.length, idle);
      const payload: BatchPayload = { calls, reply: replyChannel };
      await queue.add(BATCH_JOB, payload as never, {
        ...jobOptions({ jobId: batchId, attempts: opts.attempts, ttlSeconds: timeouts.resultTtlSeconds }),
        // Nobody polls a batch: its answers travel on the reply channel. The job stays a
        // minute, for a caller that missed the message (see the watchdog below).
        removeOnComplete: { age: BATCH_KEEP_SECONDS },
      });
    },
    keep(id, call, outcome) {
      const rec = callRecord(id, call.op, outcome);
      void redis.set(keys.call(prefix, id), JSON.stringify(rec), 'EX', timeouts.resultTtlSeconds).catch(() => {});
    },
  });
  // Redis gone: calls waiting for a free place answer 503 now, as new calls do (see run).
  redis.on('close', () => batcher.failWaiting(unavailable(new Error('connection lost'))));
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== replyChannel) return;
    let r: BatchReply;
    try {
      r = JSON.parse(message) as BatchReply;
    } catch {
      return;
    }
    if ('outcomes' in r) batcher.complete(r.id, r.outcomes);
    else if (r.error) batcher.fail(r.id, AppError.from(r.error)!);
  });
  // ioredis subscribes again by itself after a reconnect.
  await subscriber.subscribe(replyChannel);

  // The worker processes that announced themselves (shared/jobs/batcher.ts), shared among the api
  // processes that batch: each keeps its share of the places (two batches per worker in all), so
  // that adding apis does not split the same calls into more, smaller batches (each costs BullMQ
  // its Redis scripts: on 16 cores, 3 apis x 10 workers saturated Redis before the threads).
  const readCapacity = async () => {
    if (opts.places) return;
    const now = Date.now();
    const fresh = now - CAPACITY_STALE_MS;
    const [, [, all], [, apis]] = (await redis
      .multi()
      .hset(keys.producers(prefix), producerId, String(now))
      .hgetall(keys.capacity(prefix))
      .hgetall(keys.producers(prefix))
      .exec()) as [unknown, [unknown, Record<string, string>], [unknown, Record<string, string>]];
    for (const [id, at] of Object.entries(apis ?? {})) if (Number(at) < fresh) void redis.hdel(keys.producers(prefix), id).catch(() => {});
    places = placeShare(all ?? {}, apis ?? {}, now);
  };
  await readCapacity().catch(() => {});
  /** Reads back the batches out at least `minAgeMs` whose job ended: their reply may have been missed. */
  const readBack = (minAgeMs: number) => {
    for (const { batchId, sent } of batcher.pendingBatches()) {
      if (Date.now() - sent < minAgeMs) continue;
      void Job.fromId(queue, batchId).then(async (job) => {
        if (!job) return batcher.fail(batchId, new AppError(500, `Batch job ${batchId} was lost`, 'internal'));
        const state = await job.getState();
        if (state === 'completed') batcher.complete(batchId, job.returnvalue);
        else if (state === 'failed') batcher.fail(batchId, AppError.from(decodeFailure(job.failedReason))!);
      }).catch(() => {});
    }
  };
  // A subscriber that reconnects (Redis restarted) missed every reply published while it was
  // away: read back every batch at once, and again a second later for a reply published while it
  // subscribed again, instead of leaving its calls to the watchdog's BATCH_CHECK_AFTER_MS.
  subscriber.on('ready', () => {
    readBack(0);
    setTimeout(() => readBack(0), 1_000).unref();
  });
  // Batches whose reply was missed otherwise (a message lost, a batch BullMQ failed without a worker to tell) are read back.
  const watchdog = setInterval(() => {
    void readCapacity().catch(() => {});
    readBack(BATCH_CHECK_AFTER_MS);
  }, CAPACITY_REFRESH_MS);
  watchdog.unref();

  /** A batch call's record: kept when it outlived its wait, else read from its batch job. */
  async function state(id: string): Promise<JobRecord | undefined> {
    const kept = await redis.get(keys.call(prefix, id));
    if (kept) return JSON.parse(kept) as JobRecord;
    const cancelled = await redis.get(keys.cancelled(prefix, id));
    if (cancelled) return JSON.parse(cancelled) as JobRecord;
    const ref = parseCallId(id);
    const job = ref && (await Job.fromId(queue, ref.batchId));
    if (!ref || !job || job.name !== BATCH_JOB) return undefined;
    const call = (job.data as BatchPayload).calls[ref.index];
    if (!call) return undefined;
    const jobState = await job.getState();
    const base = { id, op: call.op, progress: 0, attempts: job.attemptsStarted ?? 0, created_at: iso(job.timestamp)! };
    if (jobState === 'completed') {
      // Read before it completed (its return value then was null): read it again.
      const done = job.returnvalue ? job : await Job.fromId(queue, ref.batchId);
      const outcome = (done?.returnvalue as CallOutcome[] | null | undefined)?.[ref.index];
      if (!outcome) return undefined;
      return { ...callRecord(id, call.op, outcome), created_at: base.created_at };
    }
    if (jobState === 'failed') return { ...base, status: 'failed', error: decodeFailure(job.failedReason), finished_at: iso(job.finishedOn) };
    return { ...base, status: jobState === 'active' ? 'running' : 'queued', ...(job.processedOn ? { started_at: iso(job.processedOn) } : {}) };
  }

  const calls = {
    /**
     * Run a call in a batch and await its outcome up to `waitMs`. A call still waiting in this
     * process then is handed to `asJob` (an ordinary job); one that left answers 504 with its id.
     */
    async run(call: BatchCall, waitMs: number, asJob: () => Promise<unknown>): Promise<unknown> {
      // Without Redis a call would wait behind the batches in flight (they cannot come back
      // before Redis does) instead of failing fast like every other producer: 503 at once.
      if (redis.status !== 'ready') throw unavailable(new Error(`no connection (${redis.status})`));
      const started = Date.now();
      const pending = batcher.submit(call);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<typeof LATE>((r) => {
        timer = setTimeout(r, waitMs, LATE);
      });
      const outcome = await Promise.race([pending.outcome, late]);
      clearTimeout(timer);
      if (outcome !== LATE) {
        const failed = outcome.ok ? undefined : AppError.from(outcome.error)!;
        observer?.finished(call.op, !failed ? 'succeeded' : failed.code === 'cancelled' ? 'cancelled' : 'failed', (Date.now() - started) / 1000);
        if (!failed) return (outcome as { value: unknown }).value;
        // A server-side failure names its call, so operators can find it in the logs.
        if (failed.status >= 500 && typeof failed.detail === 'string' && pending.batchId) {
          throw new AppError(failed.status, `${failed.detail} (job ${callId(pending.batchId, pending.index!)})`, failed.code);
        }
        throw failed;
      }
      if (batcher.withdraw(pending)) return asJob();
      pending.late = true;
      const id = callId(pending.batchId!, pending.index!);
      throw new AppError(504, `Job ${id} (${call.op}) did not finish within ${waitMs} ms; it is still running: poll GET /jobs/${id}`, 'timeout');
    },

    state: (id: string) => state(id).catch((e) => {
      throw unavailable(e);
    }),

    /** Rare (a call that outlived its first wait): polled. */
    async wait(id: string, timeoutMs: number): Promise<JobRecord> {
      const deadline = Date.now() + timeoutMs;
      let rec = await calls.state(id);
      while (rec && !isFinished(rec) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        rec = await calls.state(id);
      }
      if (!rec) throw new AppError(404, `Job ${id} not found`, 'not_found');
      return rec;
    },

    async cancel(id: string): Promise<JobRecord | undefined> {
      const rec = await calls.state(id);
      if (!rec || isFinished(rec)) return rec;
      // Every worker process hears it: the one running the call stops it; a call not yet
      // started is skipped when its batch reaches a worker.
      const cancelled: JobRecord = { ...rec, status: 'cancelled', finished_at: new Date().toISOString() };
      try {
        await redis.set(keys.cancelled(prefix, id), JSON.stringify(cancelled), 'EX', timeouts.resultTtlSeconds);
        await redis.publish(keys.cancelChannel(prefix), id);
      } catch (e) {
        throw unavailable(e);
      }
      return calls.wait(id, 5_000);
    },

    /** Stops the watchdog and withdraws this api from the producers (its share goes back to the others at once). */
    async close() {
      clearInterval(watchdog);
      // Never waits on a Redis that is gone: its entry then lapses after CAPACITY_STALE_MS.
      if (opts.places || redis.status !== 'ready') return;
      const done = redis.hdel(keys.producers(prefix), producerId).catch(() => {});
      await Promise.race([done, new Promise((r) => setTimeout(r, 500).unref())]);
    },
  };
  return calls;
}
