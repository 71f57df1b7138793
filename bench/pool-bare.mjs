// The task file of bench/pool.ts's bare Piscina floors: answers each message unchanged (the
// trivial task) or, given `workerData.rdkit`, runs the message's task on this thread's own RDKit
// with the task table's handler, as a pool thread does but without the pool around it.
// Plain JavaScript, registering the TypeScript loader itself, as shared/threads/thread-entry.mjs does.
import { workerData } from 'node:worker_threads';

let answer = (message) => message;
if (workerData?.rdkit) {
  const { register } = await import('tsx/esm/api');
  const unregister = register();
  const { configureRDKit, loadRDKit } = await import('../shared/chem/core/rdkit.ts');
  const { TASKS } = await import('../shared/ops/tasks.ts');
  await unregister();
  const config = workerData.config;
  configureRDKit({ maxHeavyAtoms: config.MAX_HEAVY_ATOMS });
  const ctx = { rdkit: await loadRDKit(), config, signal: new AbortController().signal, progress: () => {} };
  answer = ({ task, args }) => TASKS[task](args, ctx);
}
export default (message) => answer(message);
