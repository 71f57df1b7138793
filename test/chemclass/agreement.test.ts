/**
 * Agreement of the offline classifier with independent labels: the NPClassifier and ClassyFire
 * columns that LOTUS publishes for 902 distinct natural products (test/fixtures/
 * chemclass_lotus_labels.tsv, see test/fixtures/README.md). The floors sit a few points below
 * what bench/classify.ts measures, so a rule change that costs agreement fails here.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { classifyStructure, type ChemclassEntity } from '../../shared/chem/classify/classify.ts';
import { measureAgreement, parseLabels } from '../../shared/chem/classify/agreement.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';

const rows = parseLabels(readFileSync(new URL('../fixtures/chemclass_lotus_labels.tsv', import.meta.url), 'utf8'));
const rdkit = await loadRDKit();

t.test('fixture', async (t) => {
  t.equal(rows.length, 902, 'all distinct structures of the LOTUS sample');
  t.ok(rows.every((r) => /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(r.inchikey) && r.smiles), 'each row has an InChIKey and a SMILES');
  t.equal(new Set(rows.map((r) => r.inchikey)).size, rows.length, 'one row per structure');
});

t.test('agreement with the LOTUS NPClassifier and ClassyFire labels', async (t) => {
  const results: (ChemclassEntity | null)[] = rows.map((r) => {
    try {
      return classifyStructure(rdkit, r.smiles);
    } catch {
      return null;
    }
  });
  const a = measureAgreement(rows, results);
  t.equal(a.failed, 0, 'every structure is classified');
  t.ok(a.npc_pathway.total >= 870, `pathway labels: ${a.npc_pathway.total}`);
  t.ok(a.npc_pathway.rate >= 0.85, `NPClassifier pathway ${a.npc_pathway.agree}/${a.npc_pathway.total}`);
  t.ok(a.npc_superclass.rate >= 0.8, `NPClassifier superclass ${a.npc_superclass.agree}/${a.npc_superclass.total}`);
  t.ok(a.npc_class.rate >= 0.58, `NPClassifier class ${a.npc_class.agree}/${a.npc_class.total}`);
  t.ok(a.cf_superclass.rate >= 0.75, `ClassyFire superclass ${a.cf_superclass.agree}/${a.cf_superclass.total}`);
  t.ok(a.cf_class.rate >= 0.65, `ClassyFire class ${a.cf_class.agree}/${a.cf_class.total}`);
});
