/**
 * The typed calls of a JobRunner (runTask, submitTask), the same for every implementation: they
 * are its own `run` and `submit` (through `this`, so a wrapper that replaces `submit`, such as the
 * per-client cap of long jobs, applies to them too), typed by shared/ops/task-types.ts.
 */
import type { JobRunner } from './types.ts';

export const typedCalls: Pick<JobRunner, 'runTask' | 'submitTask'> = {
  runTask(this: JobRunner, op, task, args, opts) {
    // The one place a task's answer is given its type: the thread returned what the handler did.
    return this.run(op, task, args, opts) as Promise<never>;
  },
  submitTask(this: JobRunner, op, task, args, opts) {
    return this.submit(op, task, args, opts);
  },
};
