/**
 * The classifier measured on structures its rules were not written from: agreement per level with
 * the published NPClassifier labels of test/fixtures/npclassifier_heldout.tsv (1,500 structures
 * drawn from NPClassifier's own labelled data set, mwang87/NP-Classifier
 * training/Data/NPClassifier_dataset.xlsx; provenance in test/fixtures/README.md), next to the
 * figures on the LOTUS development set the rules were written from
 * (test/fixtures/chemclass_lotus_labels.tsv). Kept apart: the held-out file leaves out the
 * development set's SMILES, and this script leaves out every held-out structure whose InChIKey
 * connectivity block (stereo and protonation ignored) is one of the development set's.
 * Also prints the classifier's cost per molecule on one thread. Prints figures; asserts nothing.
 *
 *   node --import tsx bench/classify-heldout.ts            # the table
 *   node --import tsx bench/classify-heldout.ts --misses   # also each held-out disagreement
 */
import { readFileSync } from 'node:fs';
import { classifyStructure, type ChemclassEntity } from '../shared/chem/classify/classify.ts';
import { measureAgreement, parseLabels, type LabelRow, type Rate } from '../shared/chem/classify/agreement.ts';
import { loadRDKit } from '../shared/chem/core/rdkit.ts';

const fixture = (name: string) => readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8');
const dev = parseLabels(fixture('chemclass_lotus_labels.tsv'));
const devBlocks = new Set(dev.map((r) => r.inchikey.slice(0, 14)));
const heldRaw = parseLabels(fixture('npclassifier_heldout.tsv'));

const rdkit = await loadRDKit();
classifyStructure(rdkit, 'CC(C)=CCCC(C)=CCO'); // compiled SMARTS cached: the steady state of a thread

function classifyAll(rows: LabelRow[]): { results: (ChemclassEntity | null)[]; ms: number } {
  const t0 = performance.now();
  const results = rows.map((r) => {
    try {
      return classifyStructure(rdkit, r.smiles);
    } catch {
      return null;
    }
  });
  return { results, ms: performance.now() - t0 };
}

const h = classifyAll(heldRaw);
const keep = heldRaw.map((_, i) => !devBlocks.has(h.results[i]?.inchikey?.slice(0, 14) ?? ''));
const held = heldRaw.filter((_, i) => keep[i]);
const heldResults = h.results.filter((_, i) => keep[i]);
const d = classifyAll(dev);

const a = measureAgreement(held, heldResults);
const b = measureAgreement(dev, d.results);
const pct = (r: Rate) => (r.total ? `${r.agree}/${r.total} = ${(100 * r.rate).toFixed(1)}%` : 'no labels');
const row = (label: string, x: Rate, y: Rate) => console.log(`| ${label} | ${pct(x)} | ${pct(y)} |`);

console.log(`held out: ${heldRaw.length} structures, ${heldRaw.length - held.length} left out (connectivity in the development set), ${a.failed} not classified`);
console.log(`development (LOTUS, rules written from it): ${dev.length} structures, ${b.failed} not classified\n`);
console.log('| level | held out: NPClassifier data set | development: LOTUS labels |');
console.log('|---|---|---|');
row('NPClassifier pathway', a.npc_pathway, b.npc_pathway);
row('NPClassifier pathway, label among ours', a.npc_pathway_any, b.npc_pathway_any);
row('NPClassifier superclass', a.npc_superclass, b.npc_superclass);
row('NPClassifier class', a.npc_class, b.npc_class);
row('ClassyFire superclass', a.cf_superclass, b.cf_superclass);
row('ClassyFire class', a.cf_class, b.cf_class);
const n = heldRaw.length + dev.length;
console.log(`\nclassifier cost: ${((h.ms + d.ms) / n).toFixed(2)} ms/molecule on one thread (${n} structures, ${((h.ms + d.ms) / 1000).toFixed(1)} s)`);

if (process.argv.includes('--misses')) {
  held.forEach((r, i) => {
    const np = heldResults[i]?.npclassifier;
    if (np?.superclass !== r.npc_superclass) console.log([`${r.npc_pathway}|${r.npc_superclass}|${r.npc_class}`, `=> ${np?.pathway}|${np?.superclass}|${np?.class}`, r.smiles].join('\t'));
  });
}
