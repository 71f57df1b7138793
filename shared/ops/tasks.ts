/**
 * Every worker task by name: the dispatch table of a worker thread. Only worker threads (and
 * tests) import this module, because it pulls in all chemistry.
 */
import type { OpTasks, TaskTable } from './types.ts';
import type { RegisteredOp } from './index.ts';
import { descriptorsTasks } from './descriptors.tasks.ts';
import { catalogTasks } from './catalog.tasks.ts';
import { classifyTasks } from './classify.tasks.ts';
import { convertInternalTasks, convertTasks } from './convert.tasks.ts';
import { extdbTasks } from './extdb.tasks.ts';
import { fragmentsTasks } from './fragments.tasks.ts';
import { hoseTasks } from './hose.tasks.ts';
import { pdfTasks } from './pdf.tasks.ts';
import { selfiesTasks } from './selfies.tasks.ts';
import { similarityTasks } from './similarity.tasks.ts';
import { standardizeTasks } from './standardize.tasks.ts';
import { stereoTasks } from './stereo.tasks.ts';
import { structgenTasks } from './structgen.tasks.ts';
import { tautomerTasks } from './tautomer.tasks.ts';
import { sugarsTasks } from './sugars.tasks.ts';
import { depict3dTasks } from './depict3d.tasks.ts';

const families = [
  descriptorsTasks,
  catalogTasks,
  classifyTasks,
  convertTasks,
  convertInternalTasks,
  extdbTasks,
  fragmentsTasks,
  hoseTasks,
  pdfTasks,
  selfiesTasks,
  similarityTasks,
  standardizeTasks,
  stereoTasks,
  structgenTasks,
  tautomerTasks,
  sugarsTasks,
  depict3dTasks,
] as const satisfies readonly TaskTable[];

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
const _everyOperationHandled: OpTasks<readonly RegisteredOp[]> = {
  ...descriptorsTasks,
  ...convertTasks,
  ...fragmentsTasks,
  ...hoseTasks,
  ...pdfTasks,
  ...selfiesTasks,
  ...similarityTasks,
  ...standardizeTasks,
  ...stereoTasks,
  ...structgenTasks,
  ...tautomerTasks,
  ...sugarsTasks,
  ...depict3dTasks,
};
void _everyOperationHandled;

export const TASKS: TaskTable = {};
// Every family's table by name; a name declared twice fails at import (not only at compile time).
for (const family of families) {
  for (const [name, handler] of Object.entries(family)) {
    if (TASKS[name]) throw new Error(`Task table: two handlers named ${name}`);
    TASKS[name] = handler;
  }
}
