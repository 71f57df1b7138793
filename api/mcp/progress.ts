/**
 * Progress notifications (`notifications/progress`) for a tool call whose request carried a
 * `progressToken` in `_meta`: registry jobs (structure generation, PDF extraction, classification
 * while waited for), bulk look-ups, export submissions. The protocol wants the progress to
 * increase with each notification, so a report that does not move it is dropped; sending never
 * fails the call (a client that went away simply misses it).
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { JobRecord } from '../../shared/jobs/types.ts';

/** Reports how far a call is: `progress` of `total` (when known), with a short message. */
export type Progress = (progress: number, total?: number, message?: string) => void;

/** A call's reporter; `settle()` before answering (see SETTLE_MS). */
export type CallProgress = Progress & { settle(): Promise<void> };

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The gap left between a call's last progress notification and its answer. The SDK's client (v1)
 * handles a notification a microtask late but an answer at once: when both arrive in one read
 * (an answer right after a job's final notification), the answer retires the progress handler
 * first, the notification is lost and the client reports "Received a progress notification for an
 * unknown token" (modelcontextprotocol/typescript-sdk#2580). A few milliseconds apart, they
 * arrive in separate reads. Only a call that asked for progress, and was sent some, waits.
 */
export const SETTLE_MS = 25;

/** The progress reporter of a call: a no-op without a progressToken. */
export function progressOf(extra: Extra, token: string | number | undefined): CallProgress {
  let last = -Infinity;
  let sentAt = 0;
  let pending: Promise<unknown> = Promise.resolve();
  const report: Progress = (progress, total, message) => {
    if (token === undefined || !Number.isFinite(progress) || progress <= last) return;
    last = progress;
    sentAt = Date.now();
    const params = { progressToken: token, progress, ...(total !== undefined && Number.isFinite(total) ? { total } : {}), ...(message ? { message } : {}) };
    pending = Promise.all([pending, extra.sendNotification({ method: 'notifications/progress', params }).catch(() => {})]);
  };
  const settle = async () => {
    if (!sentAt) return;
    await pending;
    const wait = sentAt + SETTLE_MS - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  };
  return Object.assign(report, { settle });
}

/** A job record as progress: a percentage (of 100), or `{rows, total}`-like counts. */
export function reportJob(progress: Progress, rec: JobRecord): void {
  const p = rec.progress;
  if (typeof p === 'number') return progress(p, 100, rec.status);
  const done = Number(p.rows ?? p.done ?? Object.values(p)[0]);
  const total = Number(p.total);
  progress(Number.isFinite(done) ? done : 0, Number.isFinite(total) ? total : undefined, rec.status);
}
