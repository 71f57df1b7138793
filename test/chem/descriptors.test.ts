/**
 * COCONUT descriptors against native references: RDKit 2022.09.3 for the RDKit-defined
 * values and the Murcko framework (test/fixtures/scripts/descriptors_reference.py), CDK 2.8
 * VABCDescriptor for the van der Waals volume (test/fixtures/scripts/VabcReference.java).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { descriptorsTasks } from '../../shared/ops/descriptors.tasks.ts';
import type { MediaResult } from '../../shared/ops/types.ts';
import { descriptorsOps } from '../../shared/ops/descriptors.ts';
import { taskContext } from '../helpers/task.ts';

const rdkit = await loadRDKit();
const ctx = taskContext(rdkit);
type Values = Record<string, number | string | boolean | null>;
const describe = (smiles: string) =>
  descriptorsTasks.generate_descriptors({ smiles, format: 'json', toolkit: 'rdkit' }, ctx) as Values;
const failure = (fn: () => unknown) =>
  Promise.resolve()
    .then(fn)
    .then(() => undefined, (e: unknown) => e);

function table(name: string): Record<string, string>[] {
  const lines = readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
  const head = lines[0].split('\t');
  return lines.slice(1).map((l) => {
    const f = l.split('\t');
    return Object.fromEntries(head.map((h, i) => [h, f[i]]));
  });
}

const KEYS = [
  'atom_count', 'heavy_atom_count', 'molecular_weight', 'exact_molecular_weight', 'alogp', 'rotatable_bond_count',
  'topological_polar_surface_area', 'hydrogen_bond_acceptors', 'hydrogen_bond_donors',
  'hydrogen_bond_acceptors_lipinski', 'hydrogen_bond_donors_lipinski', 'lipinski_rule_of_five_violations',
  'aromatic_rings_count', 'qed_drug_likeliness', 'formal_charge', 'fractioncsp3', 'number_of_minimal_rings',
  'van_der_waals_volume', 'linear_sugars', 'circular_sugars', 'murcko_framework', 'nplikeness', 'molecular_formula',
];

t.test('keys in the upstream order; spec examples', async (t) => {
  const caffeine = describe('Cn1cnc2c1c(=O)n(C)c(=O)n2C');
  t.same(Object.keys(caffeine), KEYS, '23 keys in order');
  t.equal(caffeine.atom_count, 24);
  t.equal(caffeine.molecular_formula, 'C8H10N4O2');
  t.equal(caffeine.nplikeness, -1.09);
  t.equal(caffeine.topological_polar_surface_area, 61.82);
  t.equal(describe('CCC').atom_count, 11);
  t.equal(describe('CCCC').murcko_framework, 'None');
  // Sugar flags come from the Sugar Removal Utility (shared/chem/sugars/sugars.ts), default settings.
  const phenylGlucoside = describe('OC[C@H]1O[C@@H](Oc2ccccc2)[C@H](O)[C@@H](O)[C@@H]1O');
  t.equal(phenylGlucoside.circular_sugars, true);
  t.equal(phenylGlucoside.murcko_framework, 'c1ccc(O[C@H]2CCCCO2)cc1');
  t.equal(describe('OCC(O)C(O)C(O)C(O)CO').linear_sugars, true, 'sorbitol');
  t.equal(caffeine.linear_sugars, false);
  t.equal(caffeine.circular_sugars, false);
});

// [reference column, response key, decimals the response is rounded to]
const NUMERIC: [string, string, number][] = [
  ['atom_count', 'atom_count', 0],
  ['heavy_atom_count', 'heavy_atom_count', 0],
  ['molecular_weight', 'molecular_weight', 2],
  ['exact_molecular_weight', 'exact_molecular_weight', 5],
  ['alogp', 'alogp', 2],
  ['rotatable_bond_count', 'rotatable_bond_count', 0],
  ['topological_polar_surface_area', 'topological_polar_surface_area', 2],
  ['hba', 'hydrogen_bond_acceptors', 0],
  ['hbd', 'hydrogen_bond_donors', 0],
  ['hba', 'hydrogen_bond_acceptors_lipinski', 0],
  ['hbd', 'hydrogen_bond_donors_lipinski', 0],
  ['ro5', 'lipinski_rule_of_five_violations', 0],
  ['aromatic_rings_count', 'aromatic_rings_count', 0],
  ['qed', 'qed_drug_likeliness', 2],
  ['formal_charge', 'formal_charge', 0],
  ['fractioncsp3', 'fractioncsp3', 3],
  ['sssr', 'number_of_minimal_rings', 0],
];

t.test('RDKit-defined values, formula and Murcko framework match RDKit on 300 molecules', async (t) => {
  const rows = table('descriptors_reference.tsv');
  t.equal(rows.length, 300);
  const canonical = (s: string) => {
    const m = rdkit.get_mol(s);
    try {
      return m?.get_smiles() ?? s;
    } finally {
      m?.delete();
    }
  };
  const noEZ = (s: string) => s.replace(/[/\\]/g, '');
  let murckoSame = 0;
  let murckoEZOnly = 0;
  for (const ref of rows) {
    const got = describe(ref.smiles);
    for (const [col, key, dp] of NUMERIC) {
      // Rounded values may differ from the exact reference by at most half a unit in the last place.
      const tol = dp === 0 ? 0 : 0.5 * 10 ** -dp + 1e-9;
      const dev = Math.abs((got[key] as number) - Number(ref[col]));
      if (!(dev <= tol)) t.fail(`${ref.smiles} ${key}: ${got[key]} vs ${ref[col]}`);
    }
    if (got.molecular_formula !== ref.formula) t.fail(`${ref.smiles} formula ${got.molecular_formula} vs ${ref.formula}`);
    const want = ref.murcko === '' ? 'None' : canonical(ref.murcko);
    if (got.murcko_framework === want) murckoSame++;
    else if (canonical(noEZ(got.murcko_framework as string)) === canonical(noEZ(want))) murckoEZOnly++;
  }
  // The framework keeps an E/Z label that the remaining atoms still define, where RDKit drops it.
  t.ok(murckoSame + murckoEZOnly >= 297, `Murcko: ${murckoSame} identical, ${murckoEZOnly} differ only in E/Z labels`);
  t.ok(murckoSame >= 290);
});

t.test('Murcko framework of a cage keeps the molecule\'s own centres', async (t) => {
  // A diterpenoid alkaloid of the LOTUS demo set. Reference: native RDKit 2022.09 (Debian
  // python3-rdkit), MurckoScaffold.GetScaffoldForMol then MolToSmiles; a framework re-perceived
  // from a 2D drawing inverts the first centre.
  const cage = 'C=C1C[C@]23C[C@H]4[C@H]5[C@]67C[C@@H](OC(=O)[C@H](C)CC)[C@@H](OC(C)=O)[C@@]5(C)CN4[C@@H]6[C@@]2(OC(C)=O)[C@H](O)[C@H]1[C@@H](O)[C@@H]73';
  t.equal(describe(cage).murcko_framework, 'C=C1C[C@@]23C[C@H]4[C@@H]5C6CCC[C@@]57[C@@H]2C[C@@H]1CC3[C@H]7N4C6');
});

t.test('van der Waals volume against CDK VABC', async (t) => {
  const rows = table('vdw_volume_reference.tsv');
  let exact = 0;
  for (const ref of rows) {
    const got = describe(ref.smiles).van_der_waals_volume as number;
    const dev = got - Number(ref.vabc);
    if (Math.abs(dev) <= 0.005 + 1e-9) {
      exact++;
      continue;
    }
    // CDK perceives aromaticity with its legacy model; a ring that RDKit calls aromatic and
    // CDK does not (pyranones, pyridones ...) costs 14.7 instead of 3.8 Å³, i.e. 10.9 less.
    const rings = -dev / 10.9;
    t.ok(Math.abs(rings - Math.round(rings)) < 0.001 && Math.round(rings) >= 1, `${ref.smiles}: ${got} vs ${ref.vabc}`);
  }
  t.ok(exact / rows.length >= 0.85, `${exact}/${rows.length} identical to CDK (rounded to 2 dp)`);
  t.equal(describe('[Fe+2]').van_der_waals_volume, null, 'no contribution published for Fe');
});

t.test('html format is a table of the same values', async (t) => {
  const html = descriptorsTasks.generate_descriptors({ smiles: 'CCO', format: 'html', toolkit: 'rdkit' }, ctx) as unknown as MediaResult;
  t.equal(html.mediaType, 'text/html');
  t.match(html.body, /<table border="1" class="dataframe">/);
  t.match(html.body, /<td>molecular_formula<\/td>\s*<td>C2H6O<\/td>/);
  t.match(html.body, /<th>Descriptor name<\/th>\s*<th>Values<\/th>/);
});

t.test('multiple descriptors', async (t) => {
  const out = descriptorsTasks.generate_multiple_descriptors({ smiles: 'CCO, c1ccccc1,CCO', toolkit: 'rdkit' }, ctx) as Record<string, Values>;
  t.same(Object.keys(out), ['CCO', 'c1ccccc1']);
  t.equal(out.c1ccccc1.aromatic_rings_count, 1);
  t.match(await failure(() => descriptorsTasks.generate_multiple_descriptors({ smiles: 'CCO', toolkit: 'rdkit' }, ctx)), {
    status: 422,
    detail: 'At least two molecules are required.',
  });
  t.match(await failure(() => descriptorsTasks.generate_multiple_descriptors({ smiles: 'CCO,C1CC(', toolkit: 'rdkit' }, ctx)), {
    status: 422,
    detail: /C1CC\(/,
  });
});

t.test('arguments: the rdkit (default) or cdk toolkit (shared/toolkits), json or html', async (t) => {
  const op = descriptorsOps.find((o) => o.name === 'generate_descriptors')!;
  t.equal(op.args.safeParse({ smiles: 'C' }).success, true);
  t.equal(op.args.safeParse({ smiles: 'C', toolkit: 'cdk' }).success, true);
  const bad = op.args.safeParse({ smiles: 'C', toolkit: 'openbabel' });
  t.equal(bad.success, false);
  t.match(JSON.stringify(bad.error?.issues), /rdkit/);
  t.equal(op.args.safeParse({ smiles: 'C', format: 'png' }).success, false);
  t.match(await failure(() => describe('C1CC(')), { status: 422 });
});
