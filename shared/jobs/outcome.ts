/** Turning job records into answers: shared by both runners so they fail identically. */
import { AppError } from '../errors.ts';
import type { JobRecord } from './types.ts';

/** The value of a finished job, or the AppError that explains why there is none. */
export function resultOf(rec: JobRecord, waitedMs: number): unknown {
  if (rec.status === 'succeeded') return rec.result;
  if (rec.status === 'failed') {
    const e = AppError.from(rec.error) ?? new AppError(500, `Job ${rec.id} failed`);
    // A server-side failure names its job, so operators can find it in the logs and metrics.
    if (e.status >= 500 && typeof e.detail === 'string') throw new AppError(e.status, `${e.detail} (job ${rec.id})`, e.code);
    throw e;
  }
  if (rec.status === 'cancelled') throw new AppError(409, `Job ${rec.id} was cancelled`, 'cancelled');
  throw new AppError(
    504,
    `Job ${rec.id} (${rec.op}) did not finish within ${waitedMs} ms; it is still ${rec.status}: poll GET /jobs/${rec.id}`,
    'timeout',
  );
}

export function isFinished(rec: JobRecord): boolean {
  return rec.status === 'succeeded' || rec.status === 'failed' || rec.status === 'cancelled';
}

/** A job that may be reused for an idempotency key: anything but a failure or a cancellation. */
export function isReusable(rec: JobRecord): boolean {
  return rec.status !== 'failed' && rec.status !== 'cancelled';
}
