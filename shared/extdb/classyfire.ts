/**
 * Client of an external classification service with the upstream (ClassyFire) API, used when
 * CHEMCLASS_URL is set: `POST {base}/queries/?format=json` with
 * `{label, query_input, query_type: "STRUCTURE"}` answers `{id, ...}`; `GET
 * {base}/queries/{id}?format=json` answers `{classification_status, entities, invalid_entities}`
 * and is polled until the status is "Done". Every request has a timeout and is retried with
 * backoff (fetchWithRetry); the whole wait is bounded by the caller's signal (the job's timeout).
 */
import { AppError, UPSTREAM_UNAVAILABLE } from '../errors.ts';
import { fetchWithRetry, pause as sleep, type HttpPolicy } from './http.ts';

export interface RemoteOptions {
  baseUrl: string;
  /** Per-request timeout. */
  timeoutMs: number;
  retries?: number;
  backoffMs?: number;
  /** Pause between polls (doubles up to 8x). */
  pollMs?: number;
  signal?: AbortSignal;
  onProgress?: (p: Record<string, unknown>) => void;
}

export interface RemoteResult {
  remote_id: string | number;
  entities: unknown[];
  invalid_entities: unknown[];
}

interface QueryAnswer {
  id?: string | number;
  classification_status?: string;
  entities?: unknown[];
  invalid_entities?: unknown[];
}

async function json(res: Response, service: string): Promise<QueryAnswer> {
  if (!res.ok) {
    const text = (await res.text()).slice(0, 200);
    throw new AppError(503, `${service} answered HTTP ${res.status}: ${text}`, UPSTREAM_UNAVAILABLE);
  }
  try {
    return (await res.json()) as QueryAnswer;
  } catch {
    throw new AppError(503, `${service} answered something that is not JSON`, UPSTREAM_UNAVAILABLE);
  }
}

export async function classifyRemotely(smiles: string, opts: RemoteOptions): Promise<RemoteResult> {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const service = `Classification service ${base}`;
  const policy: HttpPolicy = {
    service, timeoutMs: opts.timeoutMs, retries: opts.retries ?? 3, backoffMs: opts.backoffMs ?? 500, signal: opts.signal,
  };
  const submitted = await json(await fetchWithRetry(`${base}/queries/?format=json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ label: 'natprod', query_input: smiles, query_type: 'STRUCTURE' }),
  }, policy), service);
  if (submitted.id === undefined || submitted.id === null) throw new AppError(503, `${service} did not return a query id`, UPSTREAM_UNAVAILABLE);
  const id = submitted.id;
  opts.onProgress?.({ stage: 'submitted', remote_id: id });
  let wait = opts.pollMs ?? 1_000;
  for (;;) {
    const answer = await json(await fetchWithRetry(`${base}/queries/${encodeURIComponent(String(id))}?format=json`, {
      headers: { accept: 'application/json' },
    }, policy), service);
    const status = answer.classification_status ?? '';
    opts.onProgress?.({ stage: 'polling', remote_id: id, remote_status: status });
    if (status === 'Done') {
      return { remote_id: id, entities: answer.entities ?? [], invalid_entities: answer.invalid_entities ?? [] };
    }
    await sleep(wait, opts.signal);
    wait = Math.min(wait * 2, (opts.pollMs ?? 1_000) * 8);
  }
}
