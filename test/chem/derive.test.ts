/**
 * derive_molecule against independent references: native RDKit 2022.09.3 (Debian python3-rdkit),
 * the InChI executable (standard InChI 1.03) and LOTUS's own InChIKeys, written by
 * test/fixtures/tools/make_derive_reference.py into test/fixtures/derive-reference.json
 * (48 LOTUS natural products).
 *
 * Two version differences are tolerated, each checked against a weaker independent bound:
 * - Murcko framework: the framework here keeps a double bond's E/Z label when the remaining
 *   ring/linker atoms still define it (descriptors-murcko.ts); RDKit drops it. Such cases must
 *   equal the reference once the `/` `\` bond marks are removed.
 * - Ring count: RDKit's symmetrised ring set can exceed the cycle rank in bridged systems, by an
 *   amount that changed between RDKit versions. Where the reference exceeds the cycle rank, the
 *   value must be at least the cycle rank; elsewhere it must be equal.
 */
import { taskContext } from '../helpers/task.ts';
import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { deriveMolecule } from '../../shared/chem/catalog/derive.ts';
import { pyRound } from '../../shared/chem/core/format.ts';
import { catalogTasks } from '../../shared/ops/catalog.tasks.ts';
import type { TaskHandler } from '../../shared/ops/types.ts';
import { AppError } from '../../shared/errors.ts';

interface RefProps {
  [k: string]: number;
}
interface RefRecord {
  name: string;
  input_smiles: string;
  canonical_smiles: string;
  has_stereo: boolean;
  murcko_framework: string | null;
  formula: string;
  inchi: string;
  inchikey: string;
  lotus_inchikey: string;
  properties: RefProps;
}

const rdkit = await loadRDKit();
const ref = JSON.parse(readFileSync(new URL('../fixtures/derive-reference.json', import.meta.url), 'utf8')) as {
  records: RefRecord[];
};
const derived = ref.records.map((r) => deriveMolecule(rdkit, { structure: r.input_smiles }));

/** Re-canonicalise a reference SMILES with the WASM build, so only the structures are compared. */
function canon(smiles: string | null): string | null {
  if (smiles === null) return null;
  const m = rdkit.get_mol(smiles);
  try {
    return m!.get_smiles();
  } finally {
    m?.delete();
  }
}

t.ok(ref.records.length >= 30, 'at least 30 reference molecules');

t.test('identifiers agree with the InChI tool, LOTUS and native RDKit', async (t) => {
  ref.records.forEach((r, i) => {
    const d = derived[i];
    t.equal(d.standard_inchi, r.inchi, `InChI ${r.name}`);
    t.equal(d.standard_inchi_key, r.inchikey, `InChIKey (inchi-1) ${r.name}`);
    t.equal(d.standard_inchi_key, r.lotus_inchikey, `InChIKey (LOTUS) ${r.name}`);
    t.equal(d.canonical_smiles, r.canonical_smiles, `canonical SMILES ${r.name}`);
    t.equal(d.has_stereo, r.has_stereo, `has_stereo ${r.name}`);
    t.equal(d.properties.molecular_formula, r.formula, `formula ${r.name}`);
  });
  t.ok(derived.some((d) => d.has_stereo) && derived.some((d) => !d.has_stereo), 'both stereo flags occur');
});

t.test('Murcko framework agrees with MurckoScaffold.GetScaffoldForMol', async (t) => {
  let exact = 0;
  ref.records.forEach((r, i) => {
    const got = derived[i].murcko_framework;
    const want = canon(r.murcko_framework);
    t.equal(got, derived[i].properties.murcko_framework, 'properties carry the same framework');
    if (got === want) {
      exact++;
      return;
    }
    // Only the kept E/Z label may differ.
    t.ok(got !== null && want !== null, `${r.name}: both have a framework`);
    t.equal(canon(got!.replace(/[/\\]/g, '')), canon(want!.replace(/[/\\]/g, '')), `${r.name}: same framework without E/Z marks`);
    t.match(got!, /[/\\]/, `${r.name}: the difference is a kept double-bond label`);
  });
  t.ok(ref.records.some((r) => r.murcko_framework === null), 'acyclic molecules are in the set');
  t.ok(exact >= ref.records.length - 3, `exact agreement ${exact}/${ref.records.length}`);
});

t.test('properties agree with native RDKit descriptors', async (t) => {
  const rounded: Record<string, number> = {
    molecular_weight: 2,
    exact_molecular_weight: 5,
    alogp: 2,
    topological_polar_surface_area: 2,
    fractioncsp3: 3,
  };
  const exactKeys = [
    'total_atom_count', 'heavy_atom_count', 'rotatable_bond_count', 'hydrogen_bond_acceptors', 'hydrogen_bond_donors',
    'hydrogen_bond_acceptors_lipinski', 'hydrogen_bond_donors_lipinski', 'lipinski_rule_of_five_violations',
    'aromatic_rings_count', 'formal_charge',
  ];
  ref.records.forEach((r, i) => {
    const p = derived[i].properties as unknown as Record<string, number>;
    const q = r.properties;
    for (const [k, dp] of Object.entries(rounded)) t.equal(p[k], pyRound(q[k], dp), `${k} ${r.name}`);
    for (const k of exactKeys) t.equal(p[k], q[k], `${k} ${r.name}`);
    if (q.number_of_minimal_rings === q.cycle_rank) t.equal(p.number_of_minimal_rings, q.cycle_rank, `rings ${r.name}`);
    else t.ok(p.number_of_minimal_rings >= q.cycle_rank, `rings ${r.name} at least the cycle rank`);
  });
  t.ok(derived.some((d) => d.properties.formal_charge !== 0), 'charged molecules are in the set');
  t.ok(derived.some((d) => d.properties.lipinski_rule_of_five_violations > 0), 'Lipinski violations occur');
});

t.test('molblock input gives the same derivation as its SMILES', async (t) => {
  const r = ref.records.find((x) => x.has_stereo && x.murcko_framework !== null)!;
  const m = rdkit.get_mol(r.input_smiles)!;
  const molblock = m.get_molblock();
  m.delete();
  t.same(deriveMolecule(rdkit, { structure: molblock }), derived[ref.records.indexOf(r)]);
});

t.test('bad input is a 422, never a crash', async (t) => {
  const ctx = taskContext(rdkit);
  for (const args of [{ structure: 'C1CC(' }, { structure: '' }, {}, null, { structure: 42 }, { structure: 'InChI=1S/CH4/h1H4' }]) {
    let error: unknown;
    try {
      (catalogTasks.derive_molecule as TaskHandler)(args, ctx);
    } catch (e) {
      error = e;
    }
    t.ok(error instanceof AppError && error.status === 422, `422 for ${JSON.stringify(args)}: ${String(error)}`);
  }
  const ok = catalogTasks.derive_molecule({ structure: 'OC(=O)c1ccccc1O' }, ctx) as { standard_inchi_key: string };
  // Salicylic acid, InChIKey as published by PubChem (CID 338).
  t.equal(ok.standard_inchi_key, 'YGSDEFSMJLZEOE-UHFFFAOYSA-N');
});

t.test('sugar_free_smiles as the LOTUS pipeline (Java Sugar Removal Utility) stored it', async (t) => {
  // test/fixtures/sugars_lotus_npoc2020.tsv: LOTUS NPOC2020 molecules with the aglycones the
  // LOTUS pipeline computed with the Java SRU (provenance in test/fixtures/README.md).
  const rows = readFileSync(new URL('../fixtures/sugars_lotus_npoc2020.tsv', import.meta.url), 'utf8')
    .split('\n').filter((l) => l && !l.startsWith('#')).slice(1).map((l) => l.split('\t'));
  const flat = (s: string) => {
    const m = rdkit.get_mol(s)!;
    try {
      return m.get_smiles(JSON.stringify({ doIsomericSmiles: false }));
    } finally {
      m.delete();
    }
  };
  let changed = 0;
  for (const [id, smiles, sugarFree] of rows) {
    const d = deriveMolecule(rdkit, { structure: smiles });
    if (flat(sugarFree) !== flat(smiles)) changed++;
    t.equal(d.sugar_free_smiles && flat(d.sugar_free_smiles), flat(sugarFree), id);
  }
  t.ok(changed >= 25, `${changed} of ${rows.length} lose sugars`);
  t.equal(deriveMolecule(rdkit, { structure: 'OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O' }).sugar_free_smiles, null, 'a free sugar leaves nothing');
});
