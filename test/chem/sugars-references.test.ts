/**
 * Sugar Removal Utility checked against independent references (see test/fixtures/README.md):
 * - LOTUS NPOC2020 `sugar_free_smiles`, computed by the LOTUS pipeline with the Java SRU
 *   (settings of that pipeline: all sugars removed, spiro rings allowed, biggest fragment kept);
 * - glycosides named in the LOTUS files, against the aglycone their name / literature gives.
 * Structures are compared as RDKit canonical SMILES without stereo.
 */
import t from 'tap';
import { loadRDKit, type RDKit } from '../../shared/chem/core/rdkit.ts';
import { removeSugars, detectSugars, sugarInfoMessage } from '../../shared/chem/sugars/sugars.ts';
import { fixture, tsv } from '../helpers/tables.ts';

const rdkit: RDKit = await loadRDKit();

function flat(smiles: string): string {
  if (smiles === '') return '';
  const mol = rdkit.get_mol(smiles);
  if (!mol) throw new Error(`unreadable reference SMILES ${smiles}`);
  try { return mol.get_smiles(JSON.stringify({ doIsomericSmiles: false })); } finally { mol.delete(); }
}

/** The fragment with the most atoms, as the LOTUS pipeline kept it. */
function biggest(smiles: string): string {
  const sizes = smiles.split('.').map((f) => {
    const m = rdkit.get_mol(f)!;
    try { return { f, n: m.get_num_atoms() }; } finally { m.delete(); }
  });
  return sizes.sort((a, b) => b.n - a.n)[0].f;
}

t.test('LOTUS NPOC2020 sugar-free structures (Java SRU output)', async (t) => {
  const rows = tsv(fixture('sugars_lotus_npoc2020.tsv'));
  let agree = 0;
  let changed = 0;
  for (const r of rows) {
    const ref = flat(r.sugar_free_smiles);
    if (ref !== flat(r.smiles)) changed++;
    const res = removeSugars(rdkit, r.smiles, 'both', { onlyTerminal: false, spiroSugars: true });
    const mine = res.found ? (res.smiles === '' ? '' : flat(biggest(res.smiles))) : flat(r.smiles);
    if (mine === ref) agree++;
    else t.equal(mine, ref, `${r.lotus_id}`);
  }
  t.comment(`LOTUS NPOC2020: ${agree}/${rows.length} identical (${changed} changed by sugar removal)`);
  t.equal(rows.length, 261);
  t.ok(changed >= 25, 'the set contains glycosides');
  t.equal(agree, rows.length);
});

t.test('named LOTUS glycosides against their literature aglycones', async (t) => {
  const rows = tsv(fixture('sugars_named_glycosides.tsv'));
  t.ok(rows.length >= 20);
  let agree = 0;
  for (const r of rows) {
    let got: string;
    if (r.operation === 'sugars-info') got = sugarInfoMessage(detectSugars(rdkit, r.smiles)).replace('The molecule contains ', '');
    else {
      const kind = r.operation === 'remove-linear' ? 'linear' : r.operation === 'remove-sugars' ? 'both' : 'circular';
      const gly = r.operation === 'remove-circular-no-gly' ? false : true;
      const res = removeSugars(rdkit, r.smiles, kind, { glycosidicBond: gly }, {});
      t.ok(res.found, `${r.name}: sugar found`);
      got = flat(res.smiles);
    }
    const want = r.expected === '=input' ? flat(r.smiles) : r.operation === 'sugars-info' ? r.expected : flat(r.expected);
    if (got === want) agree++;
    t.equal(got, want, `${r.name} (${r.expectation_source})`);
  }
  t.comment(`named glycosides: ${agree}/${rows.length} as expected`);
});
