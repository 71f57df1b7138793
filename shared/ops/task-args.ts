/**
 * Internal tasks: worker tasks that no registry operation submits with its own arguments (the
 * catalog's derivation and search tasks, and what api-side handlers submit: generate_smiles,
 * extdb_lookup, chemclass_key, chemclass_classify). Their payloads arrive as untyped JSON (a
 * Piscina message, a Redis job), so each declares a zod schema and is checked in the thread
 * before it runs: the handler receives the parsed value, and a bad payload is a 422 naming the
 * task. The callers' argument type (`TaskArgs`, shared/ops/task-types.ts) is `z.input` of the
 * schema, so api code and the thread agree on one declaration.
 */
import type { z } from 'zod';
import { AppError } from '../errors.ts';
import type { TaskContext } from './types.ts';

/** One internal task before it is named: its argument schema and what it does with the parsed value. */
export interface InternalTaskSpec<S extends z.ZodType, R> {
  args: S;
  run(args: z.output<S>, ctx: TaskContext): R;
}

/** An internal task as the thread calls it: checks its payload, then runs. */
export type InternalTask<S extends z.ZodType, R> = ((args: z.input<S>, ctx: TaskContext) => R) & { readonly args: S };

/** Declares one internal task (keeps the schema's and the result's types for the table). */
export function internalTask<S extends z.ZodType, R>(args: S, run: (args: z.output<S>, ctx: TaskContext) => R): InternalTaskSpec<S, R> {
  return { args, run };
}

/** The parsed payload of `task`, or a 422 naming the task and what is wrong. */
export function parseTaskArgs<S extends z.ZodType>(task: string, schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new AppError(422, `Invalid arguments for task ${task}: ${where}${issue?.message ?? 'invalid'}`, 'invalid_input');
}

/**
 * A family's internal tasks, named by their keys: `internalTasks({name: internalTask(schema, run)})`.
 * Each handler checks its payload against its schema first (parseTaskArgs).
 */
export function internalTasks<T extends Record<string, InternalTaskSpec<any, any>>>(
  specs: T,
): { [K in keyof T]: InternalTask<T[K]['args'], ReturnType<T[K]['run']>> } {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    out[name] = Object.assign((raw: unknown, ctx: TaskContext) => spec.run(parseTaskArgs(name, spec.args, raw), ctx), { args: spec.args });
  }
  return out as { [K in keyof T]: InternalTask<T[K]['args'], ReturnType<T[K]['run']>> };
}
