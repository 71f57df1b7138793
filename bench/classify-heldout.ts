/**
 * The classifier measured on structures its rules were not written from: agreement per level with
 * the published NPClassifier labels of test/fixtures/npclassifier_heldout.tsv (1,500 structures
 * drawn from NPClassifier's own labelled data set, mwang87/NP-Classifier
 * training/Data/NPClassifier_dataset.xlsx; provenance in test/fixtures/README.md), next to the
 * figures on the LOTUS development set the rules were written from
 * (test/fixtures/chemclass_lotus_labels.tsv). Kept apart: the held-out file leaves out the
 * development set's SMILES, and this script leaves out every held-out structure whose InChIKey
 * connectivity block (stereo and protonation ignored) is one of the development set's.
 * ClassyFire levels are measured on test/fixtures/classyfire_heldout.tsv.gz (6,856 structures with
 * the ClassyFire lineage that MassBank records carry, openly licensed records of
 * MassBank/MassBank-data; provenance in test/fixtures/README.md), kept apart the same way (its
 * generator also leaves out the structures written in the classifier's hand-tuning tests).
 * Also prints the classifier's cost per molecule on one thread. Prints figures; asserts nothing.
 *
 *   node --import tsx bench/classify-heldout.ts            # the table
 *   node --import tsx bench/classify-heldout.ts --misses   # also each held-out disagreement
 *   node --import tsx bench/classify-heldout.ts --cf-misses  # also each ClassyFire class disagreement
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
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

// ClassyFire levels on the MassBank held-out set.
type CfRow = Record<'inchikey' | 'smiles' | 'cf_kingdom' | 'cf_superclass' | 'cf_class' | 'cf_subclass' | 'cf_direct_parent' | 'np_collection', string>;
const cfRaw = parseLabels(gunzipSync(readFileSync(new URL('../test/fixtures/classyfire_heldout.tsv.gz', import.meta.url))).toString('utf8')) as unknown as CfRow[];
const c = classifyAll(cfRaw as unknown as LabelRow[]);
const cfKeep = cfRaw.map((_, i) => !devBlocks.has(c.results[i]?.inchikey?.slice(0, 14) ?? ''));
const cfRows = cfRaw.filter((_, i) => cfKeep[i]);
const cfResults = c.results.filter((_, i) => cfKeep[i]);
const LEVELS = [
  ['kingdom', 'cf_kingdom', (e: ChemclassEntity) => e.kingdom?.name],
  ['superclass (chemical_super_class)', 'cf_superclass', (e: ChemclassEntity) => e.superclass?.name],
  ['class (chemical_class)', 'cf_class', (e: ChemclassEntity) => e.class?.name],
  ['subclass (chemical_sub_class)', 'cf_subclass', (e: ChemclassEntity) => e.subclass?.name],
  ['direct parent (direct_parent_classification)', 'cf_direct_parent', (e: ChemclassEntity) => e.direct_parent?.name],
] as const;
/** Agreement at one level: rows carrying a label there; `none` = of those, natprod gave no name at that level. */
function cfRate(rows: Record<string, string>[], results: (ChemclassEntity | null)[], col: string, pick: (e: ChemclassEntity) => string | undefined) {
  let agree = 0, total = 0, none = 0;
  rows.forEach((r, i) => {
    if (!r[col]) return;
    total++;
    const ours = results[i] ? pick(results[i]) : undefined;
    if (!ours) none++;
    else if (ours === r[col]) agree++;
  });
  return total ? `${agree}/${total} = ${((100 * agree) / total).toFixed(1)}% (${none} unnamed)` : 'no labels';
}
const isNp = cfRows.map((r) => r.np_collection === 'yes');
const npRows = cfRows.filter((_, i) => isNp[i]);
const npResults = cfResults.filter((_, i) => isNp[i]);
const devRows = dev as unknown as Record<string, string>[];
console.log(`\nClassyFire held out (MassBank lineages): ${cfRaw.length} structures, ${cfRaw.length - cfRows.length} left out (connectivity in the development set), ${cfResults.filter((e) => !e).length} not classified; ${npRows.length} from natural-product collections`);
console.log('| ClassyFire level (natprod field) | held out: MassBank, all | held out: MassBank, NP collections | development: LOTUS labels |');
console.log('|---|---|---|---|');
for (const [label, col, pick] of LEVELS) {
  console.log(`| ${label} | ${cfRate(cfRows as unknown as Record<string, string>[], cfResults, col, pick)} | ${cfRate(npRows as unknown as Record<string, string>[], npResults, col, pick)} | ${cfRate(devRows, d.results, col, pick)} |`);
}

const n = heldRaw.length + dev.length + cfRaw.length;
const ms = h.ms + d.ms + c.ms;
console.log(`\nclassifier cost: ${(ms / n).toFixed(2)} ms/molecule on one thread (${n} structures, ${(ms / 1000).toFixed(1)} s)`);

if (process.argv.includes('--misses')) {
  held.forEach((r, i) => {
    const np = heldResults[i]?.npclassifier;
    if (np?.superclass !== r.npc_superclass) console.log([`${r.npc_pathway}|${r.npc_superclass}|${r.npc_class}`, `=> ${np?.pathway}|${np?.superclass}|${np?.class}`, r.smiles].join('\t'));
  });
}

if (process.argv.includes('--cf-misses')) {
  cfRows.forEach((r, i) => {
    const e = cfResults[i];
    if (r.cf_class && e?.class?.name !== r.cf_class) console.log([`${r.cf_superclass}|${r.cf_class}|${r.cf_subclass}`, `=> ${e?.superclass?.name}|${e?.class?.name}|${e?.subclass?.name}`, r.smiles].join('\t'));
  });
}
