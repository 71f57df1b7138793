/**
 * Cost of the CM 3.11 chem and tools operations (issue 42) on one thread, over the LOTUS demo
 * molecules: fix_radicals, filter_molecules_detailed (one molecule per call, every filter),
 * extract_aglycone_and_sugars (defaults, and with post_process_sugars) and
 * get_aglycone_and_sugar_indices (defaults), and the RDKit
 * column of descriptors toolkit=all (internal task rdkit_all_descriptors). Per operation: calls,
 * mean and p99 ms, and the WASM heap before and after (it must stay flat). Prints figures;
 * asserts nothing.
 *
 *   node --import tsx bench/chem-311.ts
 *   LIMIT=200 node --import tsx bench/chem-311.ts
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { loadRDKit, wasmMemoryBytes } from '../shared/chem/core/rdkit.ts';
import { TASKS } from '../shared/ops/tasks.ts';
import { OPERATIONS_BY_NAME } from '../shared/ops/index.ts';
import { taskContext } from '../test/helpers/task.ts';

const LIMIT = Number(process.env.LIMIT ?? 1000);

function lotusSmiles(): string[] {
  const file = new URL('../api/catalog/data/lotus_sample_1000.tsv.gz', import.meta.url);
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n').filter((l) => l.trim() !== '');
  const head = lines[0].split('\t');
  const col = head.indexOf('structure_smiles');
  const col2D = head.indexOf('structure_smiles_2D');
  return lines.slice(1).map((l) => {
    const f = l.split('\t');
    return f[col] || f[col2D];
  });
}

const rdkit = await loadRDKit();
const ctx = taskContext(rdkit);
const smiles = lotusSmiles().slice(0, LIMIT);

function run(name: string, call: (s: string) => unknown): void {
  const times: number[] = [];
  let failed = 0;
  const before = wasmMemoryBytes();
  for (const s of smiles) {
    const t0 = performance.now();
    try {
      call(s);
    } catch {
      failed++;
    }
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const p99 = times[Math.floor(times.length * 0.99)];
  const mb = (x: number) => (x / 2 ** 20).toFixed(0);
  console.log(`${name.padEnd(32)} ${String(times.length).padStart(5)} calls  mean ${mean.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  4xx ${failed}  heap ${mb(before)} -> ${mb(wasmMemoryBytes())} MB`);
}

const op = (name: string) => {
  const o = OPERATIONS_BY_NAME.get(name)!;
  return (query: Record<string, unknown>) => TASKS[o.task](o.args.parse(query), ctx);
};
const task = (name: string) => (args: Record<string, unknown>) => (TASKS as Record<string, (a: unknown, c: typeof ctx) => unknown>)[name](args, ctx);

console.log(`${smiles.length} LOTUS molecules, one thread (in process)`);
run('fix_radicals', (s) => op('fix_radicals')({ smiles: s }));
run('filter_molecules_detailed', (s) => op('filter_molecules_detailed')({ smiles: s }));
run('extract_aglycone_and_sugars', (s) => op('extract_aglycone_and_sugars')({ smiles: s }));
run('get_aglycone_and_sugar_indices', (s) => op('get_aglycone_and_sugar_indices')({ smiles: s }));
run('extract (post_process_sugars)', (s) => op('extract_aglycone_and_sugars')({ smiles: s, post_process_sugars: 'true' }));
run('rdkit_all_descriptors', (s) => task('rdkit_all_descriptors')({ smiles: s }));
