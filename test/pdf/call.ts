/** Calls a PDF operation as the worker does: arguments parsed by the op's schema, then its task. */
import { loadConfig, threadConfig } from '../../shared/config.ts';
import { AppError } from '../../shared/errors.ts';
import { pdfOps } from '../../shared/ops/pdf.ts';
import { pdfTasks } from '../../shared/ops/pdf.tasks.ts';
import type { TaskContext } from '../../shared/ops/types.ts';
import type { PdfJsonDocument } from '../../shared/pdf/document.ts';

export const TEXT_OP = 'extract_pdf_text_tools_extract_text_post';
export const JSON_OP = 'extract_pdf_json_tools_extract_json_post';

export interface CallOptions {
  signal?: AbortSignal;
  progress?: (v: number | Record<string, unknown>) => void;
}

export async function call(name: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<unknown> {
  const op = pdfOps.find((o) => o.name === name);
  if (!op) throw new Error(`no op ${name}`);
  // The configuration is read at each call, so `withEnv` below changes what the task is given.
  const ctx = { rdkit: undefined, signal: opts.signal ?? new AbortController().signal, progress: opts.progress ?? (() => {}), config: threadConfig(loadConfig()) } as unknown as TaskContext;
  return pdfTasks[op.task](op.args.parse(args), ctx);
}

export const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

export const extractText = (bytes: Uint8Array, extra: Record<string, unknown> = {}, opts?: CallOptions) =>
  call(TEXT_OP, { pdf_base64: b64(bytes), ...extra }, opts) as Promise<{ text: string; pdf_filename: string }>;

export const extractJson = (bytes: Uint8Array, extra: Record<string, unknown> = {}, opts?: CallOptions) =>
  call(JSON_OP, { pdf_base64: b64(bytes), ...extra }, opts) as Promise<PdfJsonDocument>;

/** Resolves to the AppError a call rejects with, or fails the caller's assertion with undefined. */
export async function appError(p: Promise<unknown>): Promise<AppError | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return AppError.from(e);
  }
}

/** Runs `fn` with environment variables set (the configuration `call` reads), restoring them afterwards. */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
