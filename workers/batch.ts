/**
 * The worker side of batched quick calls (see shared/jobs/batcher.ts): every call of a batch job
 * runs on the pool at once; its outcome (value or error) is its own, so a bad input fails only
 * its call and is never retried. An infrastructure fault of one call (its thread died) fails the
 * job after the other calls finish: their outcomes are saved in the job, and BullMQ's retry runs
 * only the calls without one. A batch whose worker process dies is recovered by BullMQ as any
 * stalled job.
 *
 * The outcomes go back on the reply channel the batch names (the api that sent it, `publish`) as
 * soon as they are known, before BullMQ records the job as completed; they are also the job's
 * value, read by an api that missed the message (shared/jobs/bullmq-batches.ts).
 */
import type { Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import { AppError } from '../shared/errors.ts';
import type { JobObserver } from '../shared/jobs/executor.ts';
import { batchPayload, callId, decodeFailure, encodeFailure, type BatchReply, type CallOutcome } from '../shared/jobs/queues.ts';
import { runTask, type ChemPool, type TaskRun } from '../shared/threads/pool.ts';

/** How long a cancellation heard on the channel is remembered for calls not yet started. */
const CANCEL_MEMORY_MS = 10 * 60_000;

export interface BatchRunnerOptions {
  pool: ChemPool;
  observer?: JobObserver;
  /** Publish a message on a Redis channel (the batch's reply channel). */
  publish?: (channel: string, message: string) => Promise<unknown>;
}

export function createBatchRunner(opts: BatchRunnerOptions) {
  const { pool, observer } = opts;
  const running = new Map<string, TaskRun>();
  const cancelled = new Map<string, number>();

  async function runCall(id: string, task: string, op: string, args: unknown, timeoutMs: number, retryable: boolean): Promise<CallOutcome | AppError> {
    if (cancelled.has(id)) return { ok: false, error: new AppError(499, 'Job cancelled', 'cancelled').toJSON() };
    const started = Date.now();
    const run = runTask(pool, task, args, { timeoutMs });
    running.set(id, run);
    try {
      const value = await run;
      observer?.finished(op, 'succeeded', (Date.now() - started) / 1000);
      return { ok: true, value };
    } catch (e) {
      const app = AppError.from(e) ?? new AppError(500, String((e as Error)?.message ?? e), 'internal');
      observer?.finished(op, app.code === 'cancelled' ? 'cancelled' : 'failed', (Date.now() - started) / 1000);
      // Only an infrastructure fault is worth another attempt (AppError.isRetryable).
      if (retryable && app.isRetryable) return app;
      return { ok: false, error: app.toJSON() };
    } finally {
      running.delete(id);
    }
  }

  /** Tell the api that sent the batch (a lost message is recovered there by reading the job). */
  function reply(job: Job, message: BatchReply) {
    const channel = (job.data as { reply?: unknown } | undefined)?.reply;
    if (typeof channel === 'string' && opts.publish) void opts.publish(channel, JSON.stringify(message)).catch(() => {});
  }

  async function runBatch(job: Job): Promise<CallOutcome[]> {
    const parsed = batchPayload.safeParse(job.data);
    if (!parsed.success) {
      throw new UnrecoverableError(encodeFailure(new AppError(422, `Malformed batch payload: ${parsed.error.issues[0]?.message}`, 'invalid_input')));
    }
    const { calls, done = {} } = parsed.data;
    const retryable = job.attemptsMade + 1 < (job.opts.attempts ?? 1);
    // Started together: the pool sends them to its threads in one message per thread.
    const results = await Promise.all(
      pool.together(() => calls.map((c, i) => (done[i] ? (done[i] as CallOutcome) : runCall(callId(job.id!, i), c.task, c.op, c.args, c.timeoutMs, retryable)))),
    );
    const fault = results.find((r): r is AppError => r instanceof AppError);
    if (fault) {
      const kept: Record<string, CallOutcome> = {};
      results.forEach((r, i) => {
        if (!(r instanceof AppError)) kept[i] = r;
      });
      await job.updateData({ ...parsed.data, done: kept });
      throw new Error(encodeFailure(fault));
    }
    return results as CallOutcome[];
  }

  return {
    async run(job: Job): Promise<CallOutcome[]> {
      try {
        const outcomes = await runBatch(job);
        reply(job, { id: job.id!, outcomes });
        return outcomes;
      } catch (e) {
        // Failed for good (no attempt left): the api's calls fail with this error.
        if (e instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
          reply(job, { id: job.id!, error: decodeFailure((e as Error)?.message) });
        }
        throw e;
      }
    },

    /** A cancellation heard on the channel: stop the call if it runs here, skip it if it comes. */
    cancel(id: string) {
      running.get(id)?.cancel();
      const now = Date.now();
      for (const [k, until] of cancelled) if (until < now) cancelled.delete(k);
      cancelled.set(id, now + CANCEL_MEMORY_MS);
    },
  };
}
