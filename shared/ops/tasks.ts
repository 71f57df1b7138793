/**
 * Every worker task by name: the dispatch table of a worker thread. Only worker threads (and
 * tests) import this module, because it pulls in all chemistry. The family tables come from
 * task-families.ts, which `npm run docs:tables` writes from shared/ops/*.tasks.ts.
 */
import type { OpTasks, TaskTable } from './types.ts';
import type { RegisteredOp } from './index.ts';
import { families } from './task-families.ts';

type Family = (typeof families)[number];
type NamesOf<F> = F extends unknown ? keyof F & string : never;
type HandlerIn<F, N extends string> = F extends unknown ? (N extends keyof F ? F[N] : never) : never;

/**
 * Every worker task's handler type by name, as the family tables declare it (the family tables
 * are `{...} satisfies TaskTable`, so their names and types survive). Only types leave this
 * module for the api: TaskName, TaskArgs and TaskResult (task-types.ts) are derived from it.
 */
export type TaskHandlers = { [N in NamesOf<Family>]: HandlerIn<Family, N> };

// Compile-time: every registered operation without an api-side handler has its task handler,
// taking that operation's validated arguments (a registry entry whose family forgot it fails here).
type Complete<T extends OpTasks<readonly RegisteredOp[]>> = T;
export type _EveryOperationHandled = Complete<TaskHandlers>;

export const TASKS: TaskTable = {};
// Every family's table by name; a name declared twice fails at import (not only at compile time).
for (const family of families) {
  for (const [name, handler] of Object.entries(family)) {
    if (TASKS[name]) throw new Error(`Task table: two handlers named ${name}`);
    TASKS[name] = handler;
  }
}
