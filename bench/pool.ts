/**
 * What the chemistry pool costs beyond the task itself, and whether it keeps memory flat.
 *
 *   node --import tsx bench/pool.ts            (N tasks per measurement, default 20000)
 *
 * The task is the canonical SMILES of small molecules (a few µs of RDKit), so the pool's own
 * work dominates. Figures:
 * - direct: the task called in this process (RDKit loaded here), µs per call;
 * - one at a time: one task in flight on a one-thread pool, µs per task end to end (posting,
 *   waking the thread, the task, the answer, waking the main thread);
 * - pipelined: 64 in flight on a one-thread pool, µs per task (the thread's throughput), and the
 *   main thread's CPU per task (read from /proc);
 * the overhead is each minus `direct`. Then RSS before and after N more pipelined tasks.
 * Prints figures, asserts nothing.
 */
import { readFileSync } from 'node:fs';
import { loadRDKit } from '../shared/chem/core/rdkit.ts';
import { TASKS } from '../shared/ops/tasks.ts';
import type { TaskContext } from '../shared/ops/types.ts';
import { createPool } from '../workers/pool.ts';
import { loadConfig, threadConfig } from '../shared/config.ts';

const N = Number(process.env.N ?? 20_000);
const inputs = ['CCO', 'CC(=O)O', 'c1ccccc1', 'OCC(O)CO', 'CN', 'C1CCCCC1', 'CC(C)O', 'N#CC'];
const args = (i: number) => ({ smiles: inputs[i % inputs.length], toolkit: 'rdkit' });
const TASK = 'generate_canonical_smiles';

/** CPU seconds of this process's main thread (Linux). */
const mainCpu = () => {
  const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const rssMb = () => process.memoryUsage().rss / 2 ** 20;
const us = (ms: number, n: number) => ((ms * 1000) / n).toFixed(1);

const config = threadConfig(loadConfig());
const ctx: TaskContext = { rdkit: await loadRDKit(), signal: new AbortController().signal, progress: () => {}, config };
for (let i = 0; i < 2000; i++) await TASKS[TASK]!(args(i), ctx);
let t0 = performance.now();
for (let i = 0; i < N; i++) await TASKS[TASK]!(args(i), ctx);
const direct = (performance.now() - t0) / N;

const pool = createPool(1, config);
const run = (i: number) => pool.run(TASK, args(i), { timeoutMs: 60_000 });
for (let i = 0; i < 2000; i++) await run(i);

t0 = performance.now();
for (let i = 0; i < N; i++) await run(i);
const oneAtATime = (performance.now() - t0) / N;

async function pipelined(n: number, depth = 64) {
  let next = 0;
  const lane = async () => {
    while (next < n) await run(next++);
  };
  await Promise.all(Array.from({ length: depth }, lane));
}
const c0 = mainCpu();
t0 = performance.now();
await pipelined(N);
const pipe = (performance.now() - t0) / N;
const mainPer = ((mainCpu() - c0) * 1000) / N;

console.log(`pool overhead, ${N} tasks of ${TASK} on small molecules, Node ${process.version}`);
console.log(`  direct call in this process      ${us(direct, 1)} µs/task`);
console.log(`  pool, one task at a time         ${us(oneAtATime, 1)} µs/task   overhead ${us(oneAtATime - direct, 1)} µs (latency)`);
console.log(`  pool, 64 in flight (1 thread)    ${us(pipe, 1)} µs/task   overhead ${us(pipe - direct, 1)} µs (throughput); main thread CPU ${us(mainPer, 1)} µs/task`);

const before = rssMb();
for (let round = 1; round <= 4; round++) {
  await pipelined(N * 5);
  console.log(`  after ${(round * N * 5).toLocaleString()} more tasks: rss ${rssMb().toFixed(0)} MB (before ${before.toFixed(0)} MB)`);
}
await pool.destroy();
