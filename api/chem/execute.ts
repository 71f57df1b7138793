/**
 * One code path for an operation, whoever calls it: the REST route and the MCP tool both come
 * here with validated arguments. An operation either has an api-side handler (flagged
 * `handler: 'api'` in the registry, found by name in api/chem/handlers/), or its task is
 * submitted to the job runner and (for quick operations) awaited.
 */
import type { MediaType, OpDef } from '../../shared/ops/types.ts';
import { AnnotatedResult, BINARY_MEDIA, isMediaResult, mediaTypeOf } from '../../shared/ops/types.ts';
import type { JobRecord } from '../../shared/jobs/types.ts';
import { isFinished, resultOf } from '../../shared/jobs/outcome.ts';
import type { ApiContext } from './context.ts';
import { apiHandlerOf } from './handlers/index.ts';
import { floatJson } from './float-json.ts';
import { resolveAutoDetect } from './auto-detect.ts';

export interface Submission {
  job_id: string;
  status: JobRecord['status'];
  status_url: string;
}

export type Outcome =
  | { kind: 'value'; status: number; mediaType: MediaType; value: unknown; headers?: Record<string, string>; note?: string }
  | { kind: 'job'; status: 202; submission: Submission; record: JobRecord };

export interface ExecOptions {
  /** Answer 202 with the job instead of waiting, whatever the operation's mode. */
  async?: boolean;
  /** Wait for long operations too (MCP, whose clients cannot poll our job routes). */
  waitForLong?: boolean;
  /** How long to wait for a long operation when waitForLong is set. */
  longWaitMs: number;
  onProgress?: (rec: JobRecord) => void;
}

export function jobStatusUrl(ctx: ApiContext, id: string): string {
  return `${ctx.baseUrl}${ctx.prefix}/jobs/${encodeURIComponent(id)}`;
}

export async function executeOp(op: OpDef, rawArgs: Record<string, unknown>, ctx: ApiContext, opts: ExecOptions): Promise<Outcome> {
  // auto_detect=true: the structure argument is read from any supported format first (auto-detect.ts).
  const args = await resolveAutoDetect(rawArgs, ctx);
  const handler = apiHandlerOf(op);
  if (handler) {
    return wrap(op, args, await handler(args, ctx), op.successStatus ?? 200);
  }
  const waitLong = op.mode === 'long' && opts.waitForLong;
  if (opts.async || (op.mode === 'long' && !waitLong)) {
    const record = await ctx.runner.submit(op.name, op.task, args, { mode: op.mode });
    return { kind: 'job', status: 202, record, submission: { job_id: record.id, status: record.status, status_url: jobStatusUrl(ctx, record.id) } };
  }
  if (waitLong) {
    const record = await ctx.runner.submit(op.name, op.task, args, { mode: 'long' });
    return wrap(op, args, await waitWithProgress(ctx, record, opts), 200);
  }
  return wrap(op, args, await ctx.runner.run(op.name, op.task, args, { mode: op.mode }), 200);
}

async function waitWithProgress(ctx: ApiContext, record: JobRecord, opts: ExecOptions): Promise<unknown> {
  const deadline = Date.now() + opts.longWaitMs;
  let rec = record;
  while (!isFinished(rec) && Date.now() < deadline) {
    rec = await ctx.runner.wait(rec.id, Math.min(1000, Math.max(1, deadline - Date.now())));
    opts.onProgress?.(rec);
  }
  return resultOf(rec, opts.longWaitMs);
}

function wrap(op: OpDef, args: Record<string, unknown>, value: unknown, status: number): Outcome {
  if (value instanceof AnnotatedResult) {
    const inner = wrap(op, args, value.value, status);
    return inner.kind === 'value' ? { ...inner, headers: value.headers, ...(value.note ? { note: value.note } : {}) } : inner;
  }
  if (isMediaResult(value)) return { kind: 'value', status, mediaType: value.mediaType, value: value.body };
  return { kind: 'value', status, mediaType: mediaTypeOf(op, args), value };
}

/**
 * The HTTP body of a value: JSON media types are JSON-encoded (strings too, as FastAPI does);
 * binary ones (`image/png`), which travel base64-encoded, are sent as their bytes. With `floats`
 * (the operation's registry flag), JSON numbers are written as Python writes floats.
 */
export function encodeBody(mediaType: MediaType, value: unknown, floats = false): string | Buffer {
  if (mediaType === 'application/json') return floats ? floatJson(value) : JSON.stringify(value ?? null);
  if (BINARY_MEDIA.has(mediaType)) {
    if (typeof value !== 'string') throw new Error(`A ${mediaType} result must be base64 text`);
    return Buffer.from(value, 'base64');
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The Content-Type header of a media type: text is UTF-8, binary media have no charset. */
export function contentType(mediaType: MediaType): string {
  return BINARY_MEDIA.has(mediaType) ? mediaType : `${mediaType}; charset=utf-8`;
}
