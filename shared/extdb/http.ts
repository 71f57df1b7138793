/**
 * HTTP to external services (the compound database, an optional classification service):
 * a timeout on every attempt, retries with exponential backoff on 429, 5xx and network
 * failures, and one clear `AppError(503)` naming the service when it cannot be reached. A
 * caller's abort (job cancelled or timed out) stops at once with the caller's reason.
 *
 * The worst-case wall time is bounded: (retries + 1) * timeoutMs plus the backoff pauses.
 */
import { AppError, UPSTREAM_UNAVAILABLE } from '../errors.ts';

export interface HttpPolicy {
  /** Human name used in error messages, e.g. `External compound database https://...`. */
  service: string;
  timeoutMs: number;
  /** Extra attempts after the first one. */
  retries: number;
  /** First backoff pause; doubles each retry. */
  backoffMs: number;
  /** Longest pause honoured from a Retry-After header. */
  maxBackoffMs?: number;
  signal?: AbortSignal;
}

export const RETRYABLE_STATUS = (status: number): boolean => status === 429 || status >= 500;

/** Wait `ms`, or reject with the signal's reason as soon as it aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function retryAfterMs(res: Response): number | undefined {
  const v = res.headers.get('retry-after');
  if (!v) return undefined;
  const seconds = Number(v);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function describe(err: unknown): string {
  const e = err as { cause?: { code?: string; message?: string }; message?: string };
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}

/**
 * Fetch with the policy. Answers the first response that is not retryable (any 2xx-4xx except
 * 429, so 404 "not found" reaches the caller), or throws AppError(503).
 */
export async function fetchWithRetry(url: string, init: RequestInit, policy: HttpPolicy): Promise<Response> {
  const { service, timeoutMs, retries, backoffMs } = policy;
  const maxBackoff = policy.maxBackoffMs ?? 5_000;
  let failure = '';
  for (let attempt = 0; attempt <= retries; attempt++) {
    policy.signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = policy.signal ? AbortSignal.any([policy.signal, timeout]) : timeout;
    let wait = backoffMs * 2 ** attempt;
    try {
      const res = await fetch(url, { ...init, signal });
      if (!RETRYABLE_STATUS(res.status)) return res;
      failure = `HTTP ${res.status}`;
      wait = Math.max(wait, Math.min(retryAfterMs(res) ?? 0, maxBackoff));
      await res.body?.cancel();
    } catch (err) {
      if (policy.signal?.aborted) throw policy.signal.reason;
      failure = timeout.aborted ? `no answer within ${timeoutMs} ms` : describe(err);
    }
    if (attempt < retries) await pause(wait, policy.signal);
  }
  const attempts = retries + 1;
  throw new AppError(503, `${service} unreachable: ${failure} (${attempts} attempt${attempts > 1 ? 's' : ''})`, UPSTREAM_UNAVAILABLE);
}
