/**
 * Cost of the catalog's structure derivation (task `derive_molecule`, shared/chem/catalog/derive.ts) per
 * molecule, on one thread of this process: over the distinct structures of the shipped LOTUS demo
 * set (what the first-start seeding derives), or over the first N lines of a `.smi` file (the
 * search sets of bench/data/). The first pass also loads the data tables (NP-likeness model, QED
 * parameters, SMARTS) and is reported separately; then PASSES timed passes, each as wall time and
 * as this process's CPU time (user + system: on a machine other work shares, the CPU time is the
 * steadier figure). Prints figures; asserts nothing.
 *
 *   node --import tsx bench/derive.ts [PASSES=5] [SET.smi] [N=2000]
 */
import { readFileSync } from 'node:fs';
import { DEMO_FILES } from '../api/catalog/import/demo.ts';
import { readImportFile } from '../api/catalog/import/parse.ts';
import { deriveMolecule } from '../shared/chem/catalog/derive.ts';
import { loadRDKit } from '../shared/chem/core/rdkit.ts';

const PASSES = Number(process.argv[2] ?? 5);
const SET = process.argv[3];
const N = Number(process.argv[4] ?? 2000);
const rdkit = await loadRDKit();

const smiles = new Set<string>();
if (SET) {
  for (const line of readFileSync(SET, 'utf8').split('\n').slice(0, N)) if (line) smiles.add(line.split('\t')[0]);
} else {
  for (const f of DEMO_FILES.filter((p) => p.includes('lotus_'))) {
    for await (const r of readImportFile(f)) if (r.molecule) smiles.add(r.molecule.canonical_smiles);
  }
}
const inputs = [...smiles];

function pass(): { us: number; cpu: number; failed: number } {
  let failed = 0;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (const structure of inputs) {
    try {
      deriveMolecule(rdkit, { structure });
    } catch {
      failed++;
    }
  }
  const c = process.cpuUsage(c0);
  return { us: Number(process.hrtime.bigint() - t0) / 1000 / inputs.length, cpu: (c.user + c.system) / inputs.length, failed };
}

const first = pass();
console.log(`${inputs.length} distinct structures of ${SET ?? 'the demo set'} (${first.failed} not derivable)`);
console.log(`first pass (tables loaded on first use): ${first.us.toFixed(0)} µs/molecule`);
const runs = Array.from({ length: PASSES }, pass);
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const best = (xs: number[]) => Math.min(...xs);
console.log(`passes: ${runs.map((r) => `${r.us.toFixed(0)} (CPU ${r.cpu.toFixed(0)})`).join(', ')} µs/molecule`);
const wall = runs.map((r) => r.us), cpu = runs.map((r) => r.cpu);
console.log(`derive_molecule: median ${median(wall).toFixed(0)} µs/molecule (CPU ${median(cpu).toFixed(0)}), best ${best(wall).toFixed(0)} (CPU ${best(cpu).toFixed(0)})`);
