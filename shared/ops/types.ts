/**
 * The shape of an operation-registry entry. One entry drives the REST route, the MCP tool,
 * the OpenAPI document and worker dispatch; see docs/architecture.md.
 */
import type { z } from 'zod';
import type { RDKit } from '../chem/rdkit.ts';

export type MediaType = 'application/json' | 'text/plain' | 'image/svg+xml' | 'text/html';

/** How a POST operation receives its main input besides the query string. */
export type BodySpec =
  /** Raw `text/plain` body (also accepted as JSON `{<field>: ...}` for MCP clients). */
  | { kind: 'text'; field: string }
  /** multipart/form-data upload; the file bytes reach the task base64-encoded in `<field>`. */
  | { kind: 'multipart'; field: string; maxBytes?: number }
  /** JSON object body whose properties are arguments. */
  | { kind: 'json' };

export interface OpDef<S extends z.ZodObject = z.ZodObject> {
  /** Tool name, spelled exactly as in the seed (it is also the OpenAPI operationId). */
  name: string;
  method: 'GET' | 'POST';
  /** Path without version prefix, e.g. `/convert/canonicalsmiles`. */
  path: string;
  summary: string;
  description?: string;
  /** OpenAPI tag (`chem`, `convert`, `depict`, `tools`). */
  tag: string;
  args: S;
  body?: BodySpec;
  output: MediaType;
  /** quick: the HTTP call waits for the result; long: 202 + job id at once. */
  mode: 'quick' | 'long';
  /** Name of the worker task that computes the result. */
  task: string;
}

export interface TaskContext {
  rdkit: RDKit;
  /** Aborted when the job is cancelled or times out; long tasks poll `signal.aborted`. */
  signal: AbortSignal;
  /** Report progress (0..100 or a small JSON object). */
  progress(value: number | Record<string, unknown>): void;
}

export type TaskHandler = (args: any, ctx: TaskContext) => unknown | Promise<unknown>;
export type TaskTable = Record<string, TaskHandler>;

/** Identity helper that keeps the schema type for `args` inference. */
export function defineOp<S extends z.ZodObject>(op: OpDef<S>): OpDef<S> {
  return op;
}
