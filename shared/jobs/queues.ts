/**
 * The BullMQ job catalogue: queue names, the payload schema (validated when enqueued and again in
 * the worker, since Redis holds untyped JSON), job options decided in one place, and how errors
 * travel through BullMQ's string `failedReason`.
 */
import { z } from 'zod';
import { AppError, type SerializedAppError } from '../errors.ts';

export const QUEUES = { quick: 'chem-quick', long: 'chem-long' } as const;
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
};

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
