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

const families: TaskTable[] = [
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
];

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
for (const family of families) {
  for (const [name, handler] of Object.entries(family)) {
    if (TASKS[name]) throw new Error(`Task table: two handlers named ${name}`);
    TASKS[name] = handler;
  }
}
