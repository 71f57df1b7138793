/**
 * The typed task boundary below the registry: every worker task by name, with what it takes and
 * what it answers, derived from the task tables with type-only imports (this module and its
 * importers load no chemistry). `JobRunner.runTask` / `submitTask` (shared/jobs/types.ts) take
 * these, so a renamed or mistyped internal task, or a wrong argument shape, fails to compile and
 * callers need no casts. The registry's generic path (`executeOp` with `op.task`) keeps the
 * untyped `run`/`submit`.
 *
 * Arguments: an internal task's are `z.input` of its schema (shared/ops/task-args.ts; the thread
 * parses them, a bad payload is a 422 naming the task); a public operation's task takes the
 * operation's validated arguments (`z.output` of its schema, see OpTasks).
 */
import type { ChemPool, RunHooks, TaskRun } from '../threads/pool.ts';
import type { SearchAnswer, SearchArgs } from '../structure-search/contract.ts';
import type { TaskHandlers } from './tasks.ts';

/**
 * Tasks a pool answers on the api's own thread rather than in a worker thread (ChemPool.registerLocal):
 * `catalog_search`, registered by the structure-search index (shared/structure-search/service.ts),
 * which validates its arguments itself (their types and schema: shared/structure-search/contract.ts).
 */
interface LocalTasks {
  catalog_search(args: SearchArgs): Promise<SearchAnswer>;
}

type Signatures = TaskHandlers & LocalTasks;

/** Every task name a runner or pool accepts. */
export type TaskName = keyof Signatures & string;
/** What a caller passes to task `N`. */
export type TaskArgs<N extends TaskName> = Parameters<Signatures[N]>[0];
/** What task `N` answers (its handler's resolved return value). */
export type TaskResult<N extends TaskName> = Awaited<ReturnType<Signatures[N]>>;

/** A pool's run of task `N`: its typed answer, plus the cancel/started handles of TaskRun. */
export type TypedTaskRun<N extends TaskName> = Promise<TaskResult<N>> & Omit<TaskRun, keyof Promise<unknown>>;

/**
 * `pool.run(task, args, hooks)` checked at compile time: the typed call for code holding a
 * ChemPool rather than a JobRunner (the structure-search index). The answer is the task's, as
 * the thread returned it.
 */
export function runPoolTask<N extends TaskName>(pool: Pick<ChemPool, 'run'>, task: N, args: TaskArgs<N>, hooks: RunHooks): TypedTaskRun<N> {
  return pool.run(task, args, hooks) as TypedTaskRun<N>;
}
