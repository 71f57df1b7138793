/**
 * Task throughput for the family benchmarks: molecules per second of a task on one thread
 * (called directly in this process, RDKit loaded here) and on the Piscina pool (`WORKERS`
 * threads, default 2), plus the process memory after the run.
 */
import { loadRDKit } from '../shared/chem/core/rdkit.ts';
import { loadConfig, threadConfig } from '../shared/config.ts';
import { OPERATIONS_BY_NAME } from '../shared/ops/index.ts';
import { TASKS } from '../shared/ops/tasks.ts';
import type { TaskContext } from '../shared/ops/types.ts';
import { createPool, runTask, type ChemPool } from '../shared/threads/pool.ts';

export interface Case {
  task: string;
  args: Record<string, unknown>;
}

const THREADS = Number(process.env.WORKERS ?? 2);
let pool: ChemPool | undefined;
const ctx = async (): Promise<TaskContext> => ({ rdkit: await loadRDKit(), signal: new AbortController().signal, progress: () => {}, config: threadConfig(loadConfig()) });

async function single(cases: Case[]): Promise<{ rate: number; errors: number }> {
  const c = await ctx();
  let errors = 0;
  const t0 = performance.now();
  for (const k of cases) {
    try {
      await TASKS[k.task](k.args, c);
    } catch {
      errors++;
    }
  }
  return { rate: cases.length / ((performance.now() - t0) / 1000), errors };
}

async function pooled(cases: Case[]): Promise<{ rate: number; errors: number }> {
  pool ??= createPool(THREADS, threadConfig(loadConfig()));
  await Promise.all(Array.from({ length: THREADS }, () => runTask(pool!, 'generate_canonical_smiles', { smiles: 'C', toolkit: 'rdkit' }, { timeoutMs: 60_000 })));
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(cases.map((k) => runTask(pool!, k.task, k.args, { timeoutMs: 600_000 }).catch(() => void errors++)));
  return { rate: cases.length / ((performance.now() - t0) / 1000), errors };
}

export async function header(title: string): Promise<void> {
  console.log(`\n${title}\n${'operation'.padEnd(40)} ${'1 thread'.padStart(12)} ${`pool (${THREADS})`.padStart(12)}   errors   rss`);
}

export async function throughput(label: string, cases: Case[]): Promise<void> {
  const s = await single(cases);
  const p = await pooled(cases);
  const rss = process.memoryUsage().rss / 2 ** 20;
  console.log(`${label.padEnd(40)} ${s.rate.toFixed(1).padStart(8)} mol/s ${p.rate.toFixed(1).padStart(8)} mol/s   ${String(s.errors + p.errors).padStart(6)}   ${rss.toFixed(0)} MB`);
}

export async function done(): Promise<void> {
  await pool?.destroy();
}

/** Cases for an operation with its arguments parsed (defaults filled) as the api would. */
export function cases(name: string, args: Record<string, unknown>[]): Case[] | string {
  const op = OPERATIONS_BY_NAME.get(name);
  if (!op) return 'not in the registry (shared/ops/index.ts)';
  if (!TASKS[op.task]) return 'not in the task table (shared/ops/tasks.ts)';
  return args.map((a) => ({ task: op.task, args: op.args.parse(a) as Record<string, unknown> }));
}

/** Throughput of an operation over argument sets, or a line saying why it cannot run. */
export async function measure(name: string, args: Record<string, unknown>[], label = name): Promise<void> {
  const c = cases(name, args);
  if (typeof c === 'string') console.log(`${label.padEnd(40)} ${c}`);
  else await throughput(label, c);
}
