/**
 * What chemistry tests share: a task context for calling task handlers directly, a call of an
 * operation by its tool name (validated arguments, then its task, as the worker does), and the
 * structural type of a test that can register teardowns.
 */
import type { RDKit } from '../../shared/chem/core/rdkit.ts';
import { loadConfig, threadConfig, type ThreadConfig } from '../../shared/config.ts';
import { OPERATIONS_BY_NAME } from '../../shared/ops/index.ts';
import { TASKS } from '../../shared/ops/tasks.ts';
import type { TaskContext } from '../../shared/ops/types.ts';

/** A test (or subtest) that can register teardowns. */
export type Teardown = { teardown: (fn: () => unknown) => void };

/** The configuration a thread would get, read now from the environment (tests are process entries too). */
export const testThreadConfig = (overrides: Partial<ThreadConfig> = {}): ThreadConfig => ({ ...threadConfig(loadConfig()), ...overrides });

export function taskContext(
  rdkit: RDKit,
  signal: AbortSignal = new AbortController().signal,
  onProgress: (v: unknown) => void = () => {},
  config: ThreadConfig = testThreadConfig(),
): TaskContext {
  return { rdkit, signal, progress: onProgress, config };
}

/** Runs an operation by tool name: its schema validates `query` (defaults applied), its task runs. */
export function callOp(name: string, query: Record<string, unknown>, ctx: TaskContext): unknown {
  const op = OPERATIONS_BY_NAME.get(name);
  if (!op) throw new Error(`no operation named ${name}`);
  return TASKS[op.task](op.args.parse(query), ctx);
}
