/**
 * Cost of the catalog's structure derivation (task `derive_molecule`, shared/chem/catalog/derive.ts) per
 * molecule, over the distinct structures of the shipped LOTUS demo set (what the first-start
 * seeding derives), on one thread of this process. The first pass also loads the data tables
 * (NP-likeness model, QED parameters, SMARTS) and is reported separately; then PASSES timed passes.
 * Prints figures; asserts nothing.
 *
 *   node --import tsx bench/derive.ts [PASSES=5]
 */
import { DEMO_FILES } from '../api/catalog/import/demo.ts';
import { readImportFile } from '../api/catalog/import/parse.ts';
import { deriveMolecule } from '../shared/chem/catalog/derive.ts';
import { loadRDKit } from '../shared/chem/core/rdkit.ts';

const PASSES = Number(process.argv[2] ?? 5);
const rdkit = await loadRDKit();

const smiles = new Set<string>();
for (const f of DEMO_FILES.filter((p) => p.includes('lotus_'))) {
  for await (const r of readImportFile(f)) if (r.molecule) smiles.add(r.molecule.canonical_smiles);
}
const inputs = [...smiles];

function pass(): { us: number; failed: number } {
  let failed = 0;
  const t0 = process.hrtime.bigint();
  for (const structure of inputs) {
    try {
      deriveMolecule(rdkit, { structure });
    } catch {
      failed++;
    }
  }
  return { us: Number(process.hrtime.bigint() - t0) / 1000 / inputs.length, failed };
}

const first = pass();
console.log(`${inputs.length} distinct demo structures (${first.failed} not derivable)`);
console.log(`first pass (tables loaded on first use): ${first.us.toFixed(0)} µs/molecule`);
const times: number[] = [];
for (let i = 0; i < PASSES; i++) times.push(pass().us);
times.sort((a, b) => a - b);
console.log(`passes: ${times.map((x) => x.toFixed(0)).join(', ')} µs/molecule`);
console.log(`derive_molecule: median ${times[Math.floor(times.length / 2)].toFixed(0)} µs/molecule, best ${times[0].toFixed(0)} µs/molecule`);
