/**
 * The BullMQ job catalogue: queue names, the payload schema (validated when enqueued and again in
 * the worker, since Redis holds untyped JSON), job options decided in one place, and how errors
 * travel through BullMQ's string `failedReason`.
 */
import { z } from 'zod';
import { AppError, type SerializedAppError } from '../errors.ts';

/**
 * `quick` and `long` carry jobs with records (polled, or awaited with an idempotency key);
 * `batch` carries the quick calls the api awaits, several to a job. Batches have a queue of their
 * own because BullMQ ages out finished jobs per queue: batches go after a minute, records keep
 * `JOB_RESULT_TTL`.
 */
export const QUEUES = { quick: 'chem-quick', long: 'chem-long', batch: 'chem-batch' } as const;
export type QueueMode = keyof typeof QUEUES;

/** A string argument longer than this is stored beside the job instead of inside it. */
export const BLOB_THRESHOLD = 64 * 1024;

export const blobRef = z.object({ $blob: z.string() }).strict();

export const jobPayload = z.object({
  op: z.string().min(1),
  task: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
  timeoutMs: z.number().int().positive(),
});
export type JobPayload = z.infer<typeof jobPayload>;

/**
 * Quick calls awaited by the api travel several to a job (one BullMQ job per batch: one add, one
 * fetch, one completion for all of them). The job is named `batch`; its value is one outcome
 * per call, in order. `done` holds the outcomes of calls that finished in an earlier attempt (a
 * retry after an infrastructure fault runs only the others).
 */
export const BATCH_JOB = 'batch';

/** A call in a batch carries what a job of its own would. */
export const batchCall = jobPayload;
export type BatchCall = z.infer<typeof batchCall>;

export const batchPayload = z.object({
  calls: z.array(batchCall).min(1),
  done: z.record(z.string(), z.unknown()).optional(),
  /** The channel of the api process that sent the batch: the worker publishes a BatchReply there. */
  reply: z.string().optional(),
});
export type BatchPayload = z.infer<typeof batchPayload>;

export type CallOutcome = { ok: true; value: unknown } | { ok: false; error: SerializedAppError };

/**
 * What a worker publishes on a batch's reply channel when the batch ends: the outcomes, or the
 * error that failed the whole batch for good. Only the api that sent the batch hears it (BullMQ's
 * completion event, which every api would read, is not listened to for batches).
 */
export type BatchReply = { id: string; outcomes: CallOutcome[] } | { id: string; error: SerializedAppError };

/** The id by which a call of a batch can be polled once it outlived its wait. */
export const callId = (batchId: string, index: number) => `${batchId}.${index}`;
export const parseCallId = (id: string): { batchId: string; index: number } | undefined => {
  const m = /^(.+)\.(\d+)$/.exec(id);
  return m ? { batchId: m[1]!, index: Number(m[2]) } : undefined;
};

export function jobOptions(opts: { jobId: string; attempts: number; ttlSeconds: number }) {
  return {
    jobId: opts.jobId,
    attempts: opts.attempts,
    backoff: { type: 'exponential' as const, delay: 1000 },
    removeOnComplete: { age: opts.ttlSeconds },
    removeOnFail: { age: opts.ttlSeconds },
  };
}

/** Keys beside the queues. */
export const keys = {
  blob: (prefix: string, jobId: string, field: string) => `${prefix}:blob:${jobId}:${field}`,
  cancelled: (prefix: string, jobId: string) => `${prefix}:cancelled:${jobId}`,
  cancelChannel: (prefix: string) => `${prefix}:cancel`,
  /** The record of a batch call that outlived its wait, kept for `JOB_RESULT_TTL`. */
  call: (prefix: string, id: string) => `${prefix}:call:${id}`,
  /** Hash of worker processes: field = worker id, value = `<threads>:<unix ms of last heartbeat>`. */
  capacity: (prefix: string) => `${prefix}:capacity`,
  /** api processes that batch quick calls: field = process id, value = heartbeat (ms). */
  producers: (prefix: string) => `${prefix}:producers`,
  /** The pub/sub channel on which an api process hears the ends of its batches (BatchReply). */
  replies: (prefix: string, producer: string) => `${prefix}:replies:${producer}`,
};

/** A Redis failure as the client sees it: 503 at once (an AppError passes through unchanged). */
export function queueUnavailable(e: unknown): AppError {
  return AppError.from(e) ?? new AppError(503, `Job queue (Redis) unavailable: ${(e as Error)?.message ?? e}`, 'unavailable');
}

/** BullMQ's millisecond times as ISO strings. */
export const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : undefined);

/** BullMQ keeps only a message string for a failure: ours is the serialised AppError. */
export function encodeFailure(e: AppError): string {
  return JSON.stringify(e.toJSON());
}

export function decodeFailure(reason: string | undefined): SerializedAppError {
  if (reason) {
    try {
      const v = AppError.from(JSON.parse(reason));
      if (v) return v.toJSON();
    } catch {
      // not ours: BullMQ's own reasons, e.g. "job stalled more than allowable limit"
    }
  }
  return { status: 500, detail: reason || 'Job failed', code: 'internal' };
}
