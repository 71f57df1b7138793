/**
 * Every worker task by name: the dispatch table of a worker thread. Only worker threads (and
 * tests) import this module, because it pulls in all chemistry.
 */
import type { TaskTable } from './types.ts';
import { analysisTasks } from './analysis.tasks.ts';
import { catalogTasks } from './catalog.tasks.ts';
import { chemclassTasks } from './chemclass.tasks.ts';
import { convertTasks } from './convert.tasks.ts';
import { extdbTasks } from './extdb.tasks.ts';
import { fgroupsTasks } from './fgroups.tasks.ts';
import { hoseTasks } from './hose.tasks.ts';
import { pdfTasks } from './pdf.tasks.ts';
import { selfiesTasks } from './selfies.tasks.ts';
import { similarityTasks } from './similarity.tasks.ts';
import { standardizeTasks } from './standardize.tasks.ts';
import { stereoTasks } from './stereo.tasks.ts';
import { structgenTasks } from './structgen.tasks.ts';
import { structureTasks } from './structure.tasks.ts';
import { sugarsTasks } from './sugars.tasks.ts';
import { threedTasks } from './threed.tasks.ts';

const families: TaskTable[] = [
  analysisTasks,
  catalogTasks,
  chemclassTasks,
  convertTasks,
  extdbTasks,
  fgroupsTasks,
  hoseTasks,
  pdfTasks,
  selfiesTasks,
  similarityTasks,
  standardizeTasks,
  stereoTasks,
  structgenTasks,
  structureTasks,
  sugarsTasks,
  threedTasks,
];

export const TASKS: TaskTable = {};
for (const family of families) {
  for (const [name, handler] of Object.entries(family)) {
    if (TASKS[name]) throw new Error(`Task table: two handlers named ${name}`);
    TASKS[name] = handler;
  }
}
