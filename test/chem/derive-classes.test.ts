/**
 * The class fields of the catalog's derivation (`derive_molecule`, shared/chem/catalog/classes.ts):
 * NPClassifier levels as lists of every label, ClassyFire-style levels as strings, checked against
 * published labels, not against natprod's own output: NPClassifier's labelled data set
 * (test/fixtures/npclassifier_heldout.tsv, structures the rules were not written from) and the
 * NPClassifier and ClassyFire labels LOTUS publishes (test/fixtures/chemclass_lotus_labels.tsv).
 * The molecules are ones where natprod agrees with the publication; bench/classify-heldout.ts
 * measures how often it does.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { parseLabels, type LabelRow } from '../../shared/chem/classify/agreement.ts';
import { classifyStructure } from '../../shared/chem/classify/classify.ts';
import { deriveMolecule } from '../../shared/chem/catalog/derive.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';

const labels = (name: string) => parseLabels(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));
const heldOut = labels('npclassifier_heldout.tsv');
const lotus = labels('chemclass_lotus_labels.tsv');
const rdkit = await loadRDKit();

const row = (rows: LabelRow[], smiles: string) => {
  const r = rows.find((x) => x.smiles === smiles);
  if (!r) throw new Error(`no published labels for ${smiles}`);
  return r;
};

const CASES = [
  // [SMILES, what it is]
  ['C=C1CCC=C(O)CCC2C1CC2(C)C', 'a caryophyllane sesquiterpenoid'],
  ['O=C(O)CCCCCCC(=O)O', 'a dicarboxylic fatty acid'],
  ['CCC(C)C(NC(=O)C(N)CCC(=O)O)C(=O)O', 'a dipeptide'],
  ['COc1cc(-c2oc3cc(O)cc(O)c3c(=O)c2OC2OCC(O)C(O)C2O)cc(OC)c1O', 'a flavonol glycoside'],
  ['CC(=O)OC1(C)CC(O)C2(O)C=COC(OC3OC(CO)C(O)C(O)C3O)C12', 'an iridoid glycoside'],
  ['Cc1c(Cl)c(O)c(Cl)c2oc3cc(O)c(Cl)c(O)c3c(=O)c12', 'a xanthone (two pathways)'],
] as const;

t.test('NPClassifier levels are lists holding the published label', async (t) => {
  for (const [smiles, what] of CASES) {
    const r = row(heldOut, smiles);
    const p = deriveMolecule(rdkit, { structure: smiles }).properties;
    for (const [field, label] of [['np_classifier_pathway', r.npc_pathway], ['np_classifier_superclass', r.npc_superclass], ['np_classifier_class', r.npc_class]] as const) {
      const v = p[field];
      t.ok(Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'), `${what}: ${field} is a list (${JSON.stringify(v)})`);
      t.ok(v?.includes(label), `${what}: ${field} holds the published ${label}`);
    }
  }
});

t.test('every label: a superclass of two pathways lists both, the primary first', async (t) => {
  const smiles = 'Cc1c(Cl)c(O)c(Cl)c2oc3cc(O)c(Cl)c(O)c3c(=O)c12';
  const p = deriveMolecule(rdkit, { structure: smiles }).properties;
  const np = classifyStructure(rdkit, smiles).npclassifier;
  t.ok(np.pathways.length > 1, 'the classifier gives the xanthones more than one pathway');
  t.strictSame(p.np_classifier_pathway, np.pathways, 'all of them are stored');
  t.equal(p.np_classifier_pathway![0], row(heldOut, smiles).npc_pathway, 'the published one first');
});

t.test('glycoside flag', async (t) => {
  t.equal(deriveMolecule(rdkit, { structure: CASES[3][0] }).properties.np_classifier_is_glycoside, true, 'a flavonol glycoside');
  t.equal(deriveMolecule(rdkit, { structure: CASES[0][0] }).properties.np_classifier_is_glycoside, false, 'a sesquiterpenoid');
});

t.test('ClassyFire-style levels are strings: the LOTUS labels of a flavonol', async (t) => {
  const r = lotus.find((x) => x.inchikey.startsWith('IYRMWMYZ'))!;
  t.match(r, { npc_superclass: 'Flavonoids', npc_class: 'Flavonols', cf_superclass: 'Phenylpropanoids and polyketides', cf_class: 'Flavonoids' }, 'the published labels');
  const p = deriveMolecule(rdkit, { structure: r.smiles }).properties;
  t.equal(p.chemical_super_class, r.cf_superclass, 'chemical_super_class');
  t.equal(p.chemical_class, r.cf_class, 'chemical_class');
  t.equal(typeof p.direct_parent_classification, 'string', 'direct parent: a string');
  t.ok(p.np_classifier_superclass?.includes(r.npc_superclass) && p.np_classifier_class?.includes(r.npc_class), 'NPClassifier labels in the lists');
});

t.test('nothing to say is null, never an empty list', async (t) => {
  const p = deriveMolecule(rdkit, { structure: '[Na+].[Cl-]' }).properties;
  for (const f of ['np_classifier_pathway', 'np_classifier_superclass', 'np_classifier_class'] as const) {
    t.ok(p[f] === null || (Array.isArray(p[f]) && p[f]!.length > 0), `${f}: ${JSON.stringify(p[f])}`);
  }
  t.equal(p.np_classifier_superclass, null, 'sodium chloride has no NPClassifier superclass');
});
