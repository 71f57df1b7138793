/**
 * What the chemistry pool costs beyond the task itself, and whether it keeps memory flat.
 *
 *   node --import tsx bench/pool.ts            (N tasks per measurement, default 20000)
 *   N=10000 RSS_ROUNDS=0 node --import tsx bench/pool.ts   (shorter: without the memory rounds)
 *
 * The task is the canonical SMILES of small molecules (tens of µs of RDKit), so the pool's own
 * work weighs. Figures:
 * - direct: the task called in this process (RDKit loaded here), µs per call;
 * - one at a time: one task in flight on a one-thread pool, µs per task end to end (posting,
 *   waking the thread, the task, the answer, waking the main thread);
 * - pipelined: 64 in flight on a one-thread pool, µs per task (the thread's throughput), and the
 *   main thread's CPU per task (read from /proc);
 * the overhead is each minus `direct`.
 * Then one task at a time beside the floors it cannot beat on this machine, all measured in the
 * same run, in ROUNDS rounds (default 3) of N round trips each, alternating, medians printed:
 * - a bare `worker_threads` Worker answering each postMessage with the same message (two thread
 *   wake-ups, one structured clone each way);
 * - a bare Piscina (the installed version, one thread, its default options) whose task returns
 *   its argument (bench/pool-bare.mjs);
 * - a bare Piscina running the same task as the pool, on its own RDKit: shows what the task
 *   itself costs on a thread woken for it (more than `direct`, which runs back to back);
 * - our pool, one task at a time;
 * "beyond the task" is minus `direct` of the same round.
 * Then RSS before and after RSS_ROUNDS × 5N more pipelined tasks (RSS_ROUNDS default 4).
 * Prints figures, asserts nothing.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { loadRDKit } from '../shared/chem/core/rdkit.ts';
import { TASKS } from '../shared/ops/tasks.ts';
import type { TaskContext } from '../shared/ops/types.ts';
import { createPool } from '../shared/threads/pool.ts';
import { loadConfig, threadConfig } from '../shared/config.ts';

const N = Number(process.env.N ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const RSS_ROUNDS = Number(process.env.RSS_ROUNDS ?? 4);
/** Calls before any measurement: RDKit's WebAssembly runs 2-8× slower for its first ~5000 calls on a thread (tier-up). */
const WARM = 10_000;
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
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Milliseconds per call of `step`, called n times one after the other. */
async function perCall(n: number, step: (i: number) => unknown) {
  const t = performance.now();
  for (let i = 0; i < n; i++) await step(i);
  return (performance.now() - t) / n;
}

const config = threadConfig(loadConfig());
const ctx: TaskContext = { rdkit: await loadRDKit(), signal: new AbortController().signal, progress: () => {}, config };
for (let i = 0; i < WARM; i++) await TASKS[TASK]!(args(i), ctx);
let t0 = performance.now();
for (let i = 0; i < N; i++) await TASKS[TASK]!(args(i), ctx);
const direct = (performance.now() - t0) / N;

const pool = createPool(1, config);
const run = (i: number) => pool.run(TASK, args(i), { timeoutMs: 60_000 });
for (let i = 0; i < WARM; i++) await run(i);

const oneAtATime = await perCall(N, run);

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

// The floors of one task at a time, measured in rounds alternating with our pool. Each floor gets
// a message of a pool task's shape.
const message = (i: number) => ({ task: TASK, args: args(i), seq: i + 1, notify: false });
const worker = new Worker("const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage(m));", { eval: true });
let answered: (m: unknown) => void = () => {};
worker.on('message', (m) => answered(m));
const echo = (i: number) =>
  new Promise((resolve) => {
    answered = resolve;
    worker.postMessage(message(i));
  });
const bareOptions = { filename: fileURLToPath(new URL('./pool-bare.mjs', import.meta.url)), minThreads: 1, maxThreads: 1, idleTimeout: 2 ** 31 - 1 };
const bare = new Piscina(bareOptions);
const bareWithTask = new Piscina({ ...bareOptions, workerData: { rdkit: true, config } });
const floors: Record<string, (i: number) => Promise<unknown>> = {
  direct: async (i) => TASKS[TASK]!(args(i), ctx),
  worker: echo,
  piscina: (i) => bare.run(message(i)),
  piscinaTask: (i) => bareWithTask.run(message(i)),
  pool: run,
};
const rounds: Record<string, number[]> = {};
for (const step of Object.values(floors)) await perCall(WARM, step);
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, step] of Object.entries(floors)) (rounds[name] ??= []).push(await perCall(N, step));
  // Beyond the task: minus the direct call of this round (the machine's speed drifts).
  (rounds.piscinaTaskBeyond ??= []).push(rounds.piscinaTask!.at(-1)! - rounds.direct!.at(-1)!);
  (rounds.poolBeyond ??= []).push(rounds.pool!.at(-1)! - rounds.direct!.at(-1)!);
}
await worker.terminate();
await Promise.all([bare.destroy(), bareWithTask.destroy()]);
const m = Object.fromEntries(Object.entries(rounds).map(([name, xs]) => [name, median(xs)])) as Record<string, number>;
const v = piscinaVersion();
const row = (label: string, ms: number, unit: string, extra = '') => console.log(`    ${label.padEnd(38)} ${us(ms, 1).padStart(6)} µs/${unit}${extra}`);
console.log(`  one at a time against its floors: ${ROUNDS} rounds alternating, ${N} round trips each, medians`);
row('direct call in this process', m.direct!, 'task');
row('bare worker_threads Worker, echo', m.worker!, 'round trip');
row(`bare Piscina ${v}, trivial task`, m.piscina!, 'round trip');
row(`bare Piscina ${v}, the same task`, m.piscinaTask!, 'round trip', `   beyond the task ${us(m.piscinaTaskBeyond!, 1)} µs`);
row('our pool', m.pool!, 'round trip', `   beyond the task ${us(m.poolBeyond!, 1)} µs`);
console.log(`    our pool beyond the task: ${us(m.poolBeyond! - m.piscina!, 1)} µs beyond bare Piscina, ${us(m.poolBeyond! - m.worker!, 1)} µs beyond bare worker round trip`);
console.log(`    our pool beyond bare Piscina running the same task: ${us(m.pool! - m.piscinaTask!, 1)} µs`);

const before = rssMb();
for (let round = 1; round <= RSS_ROUNDS; round++) {
  await pipelined(N * 5);
  console.log(`  after ${(round * N * 5).toLocaleString()} more tasks: rss ${rssMb().toFixed(0)} MB (before ${before.toFixed(0)} MB)`);
}
await pool.destroy();

function piscinaVersion() {
  const pkg = new URL('../node_modules/piscina/package.json', import.meta.url);
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}
