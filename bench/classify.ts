/**
 * Compound classification: molecules per second on one thread and agreement with the
 * independent LOTUS labels (test/fixtures/chemclass_lotus_labels.tsv: NPClassifier and ClassyFire
 * columns of Adafede/LOTUSfiller data/test.tsv, 902 distinct structures).
 *
 *   node --import tsx bench/classify.ts            # summary
 *   node --import tsx bench/classify.ts --misses   # also list disagreements (pathway/superclass)
 */
import { readFileSync } from 'node:fs';
import { classifyStructure, type ChemclassEntity } from '../shared/chem/classify/classify.ts';
import { measureAgreement, parseLabels, type Rate } from '../shared/chem/classify/agreement.ts';
import { loadRDKit } from '../shared/chem/core/rdkit.ts';

const rows = parseLabels(readFileSync(new URL('../test/fixtures/chemclass_lotus_labels.tsv', import.meta.url), 'utf8'));
const rdkit = await loadRDKit();
// Warm the compiled SMARTS cache so the rate is the steady state of a worker thread.
classifyStructure(rdkit, 'CC(C)=CCCC(C)=CCO');

const results: (ChemclassEntity | null)[] = [];
const t0 = performance.now();
for (const row of rows) {
  try {
    results.push(classifyStructure(rdkit, row.smiles));
  } catch {
    results.push(null);
  }
}
const seconds = (performance.now() - t0) / 1000;
const a = measureAgreement(rows, results);
const pct = (r: Rate) => `${r.agree}/${r.total} = ${(100 * r.rate).toFixed(1)}%`;

console.log(`structures: ${rows.length}, failed: ${a.failed}`);
console.log(`rate: ${(rows.length / seconds).toFixed(1)} molecules/s (one thread, ${seconds.toFixed(1)} s)`);
console.log(`NPClassifier pathway:            ${pct(a.npc_pathway)}`);
console.log(`NPClassifier pathway (any of ours): ${pct(a.npc_pathway_any)}`);
console.log(`NPClassifier superclass:         ${pct(a.npc_superclass)}`);
console.log(`NPClassifier class:              ${pct(a.npc_class)}`);
console.log(`ClassyFire superclass:           ${pct(a.cf_superclass)}`);
console.log(`ClassyFire class:                ${pct(a.cf_class)}`);

if (process.argv.includes('--misses')) {
  rows.forEach((row, i) => {
    const e = results[i];
    const np = e?.npclassifier;
    if (np?.pathway !== row.npc_pathway || np?.superclass !== row.npc_superclass || e?.superclass?.name !== row.cf_superclass) {
      console.log([row.inchikey.slice(0, 14), `${row.npc_pathway}|${row.npc_superclass}`, `=> ${np?.pathway}|${np?.superclass}|${np?.class}`,
        `CF ${row.cf_superclass}/${row.cf_class} => ${e?.superclass?.name}/${e?.class?.name}`, row.smiles].join('\t'));
    }
  });
}
