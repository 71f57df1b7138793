/**
 * The catalog derivation's shortcuts (shared/chem/catalog/derive.ts, docs/performance.md "Catalog
 * derivation") give what the long way gives: the Morgan search fingerprint folded from the
 * JavaScript environment ids equals RDKit's own bit vector; the framework stays the molblock
 * route's where the JSON route could differ (bridged systems with stereocentres); the
 * sugar-free SMILES and the classes computed on the derivation's own molecule equal those from
 * the canonical SMILES read again. Reference for the fingerprint: RDKit (MinimalLib's
 * `get_morgan_fp`); for the others, the functions the derivation called before the shortcuts.
 */
import t from 'tap';
import { loadRDKit, withMol } from '../../shared/chem/core/rdkit.ts';
import { MolView } from '../../shared/chem/core/mol-view.ts';
import { morganCounts, morganGraph } from '../../shared/chem/core/morgan-env.ts';
import { deriveMolecule, sugarFreeSmiles } from '../../shared/chem/catalog/derive.ts';
import { foldedMorganBits, morganBytes, onBits, searchFingerprints } from '../../shared/chem/catalog/fingerprints.ts';
import { bridgedStereo, murckoFramework } from '../../shared/chem/descriptors/murcko.ts';
import { classifyMol, RULES } from '../../shared/chem/classify/classify.ts';
import { readMolJson } from '../../shared/chem/core/commonchem.ts';

const rdkit = await loadRDKit();

const GLYCOSIDES = [
  'COc1cc(-c2oc3cc(O)cc(O)c3c(=O)c2OC2OCC(O)C(O)C2O)cc(OC)c1O',
  'CC(=O)OC1(C)CC(O)C2(O)C=COC(OC3OC(CO)C(O)C(O)C3O)C12',
  'OC[C@H]1O[C@@H](Oc2ccccc2)[C@H](O)[C@@H](O)[C@@H]1O',
  'C[C@@H]1O[C@@H](O[C@H]2[C@@H](O)[C@H](O)[C@@H](CO)O[C@H]2Oc2cc(O)c3c(c2)O[C@@H](c2ccc(O)cc2)CC3=O)[C@H](O)[C@H](O)[C@H]1O',
];
const CAGE = 'C=C1C[C@]23C[C@H]4[C@H]5[C@]67C[C@@H](OC(=O)[C@H](C)CC)[C@@H](OC(C)=O)[C@@]5(C)CN4[C@@H]6[C@@]2(OC(C)=O)[C@H](O)[C@H]1[C@@H](O)[C@@H]73';

t.test('Morgan bits folded from the JavaScript environment ids equal RDKit\'s bit vector', async (t) => {
  const set = [
    ...GLYCOSIDES, CAGE, 'CCO', 'c1ccccc1', 'C[N+](C)(C)C', 'CC(=O)[O-]', '[2H]C([2H])([2H])O', 'C[13C](=O)O',
    '[H]C([H])([H])C', '*CC', 'O=[N+]([O-])c1ccccc1', 'CCO[Si](C)(C)C', 'B(O)O', 'C/C=C/C(=O)O', 'C1CC2CCC1C2', 'Clc1ccc(Br)cc1I',
  ];
  for (const s of set) {
    withMol(rdkit, s, (mol) => {
      const ids = morganCounts(morganGraph(rdkit, mol, readMolJson(mol)), 2).keys();
      t.strictSame([...foldedMorganBits(ids)], [...onBits(morganBytes(mol))], s);
    });
  }
});

t.test('a molecule whose aromatic bond is a triple bond gets RDKit\'s own fingerprint', async (t) => {
  const s = 'CCc1nc#cn1CC1CC(c2ccccc2)(c2ccccc2)C(=O)O1';
  const derived = deriveMolecule(rdkit, { structure: s }).fingerprints;
  t.strictSame(derived, withMol(rdkit, s, (mol) => searchFingerprints(mol)));
});

t.test('the framework stays the molblock route\'s in a bridged system with stereocentres', async (t) => {
  const want = withMol(rdkit, CAGE, (mol) => murckoFramework(rdkit, mol));
  t.equal(deriveMolecule(rdkit, { structure: CAGE }).murcko_framework, want, 'the cage: the molblock route');
  withMol(rdkit, CAGE, (mol) => {
    const view = new MolView(rdkit, mol, true);
    t.ok(bridgedStereo(view.json, view.json.atoms.map(() => true)), 'the cage is bridged with centres');
    t.not(murckoFramework(rdkit, mol, view), want, 'where the JSON route answers otherwise');
  });
  for (const s of GLYCOSIDES) {
    const want2 = withMol(rdkit, s, (mol) => murckoFramework(rdkit, mol));
    t.equal(deriveMolecule(rdkit, { structure: s }).murcko_framework, want2, `${s}: the same framework by the JSON route`);
  }
});

t.test('sugar-free SMILES and classes from the derivation\'s own molecule', async (t) => {
  for (const s of [...GLYCOSIDES, CAGE, 'CCCCCCCCCCCCCCCC(=O)O']) {
    const canonical = withMol(rdkit, s, (mol) => mol.get_smiles());
    for (const given of [s, canonical]) {
      const d = deriveMolecule(rdkit, { structure: given });
      t.equal(d.sugar_free_smiles, sugarFreeSmiles(rdkit, canonical), `${given}: sugar-free SMILES`);
      const long = withMol(rdkit, given, (mol) => classifyMol(rdkit, mol, RULES, {}));
      const p = d.properties;
      t.strictSame(
        [p.chemical_super_class, p.chemical_class, p.chemical_sub_class, p.direct_parent_classification, p.np_classifier_is_glycoside],
        [long.superclass?.name ?? null, long.class?.name ?? null, long.subclass?.name ?? null, long.direct_parent?.name ?? null, long.npclassifier.is_glycoside],
        `${given}: classes`,
      );
      t.strictSame(p.np_classifier_pathway ?? [], [...new Set(long.npclassifier.pathways.length ? long.npclassifier.pathways : [long.npclassifier.pathway].filter(Boolean))], `${given}: pathways`);
    }
  }
});
