/**
 * The heavy-atom limit (MAX_HEAVY_ATOMS, default 400) that keeps inputs away from RDKit's WASM
 * stack: the count read off the text agrees with native RDKit's, and every operation that takes
 * a structure refuses a larger one with a 422 that names the count, before any parsing.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { countHeavyAtoms, loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { OPERATIONS } from '../../shared/ops/index.ts';
import { build } from '../helpers/app.ts';
import { SAMPLES } from './samples.ts';

const reference = JSON.parse(readFileSync(new URL('../fixtures/convert-reference.json', import.meta.url), 'utf8')) as {
  records: { name: string; input_smiles: string; heavy_atoms: number }[];
};

/** The SELFIES encoder reads SMILES with its own (iterative) parser and never calls RDKit. */
const WITHOUT_RDKIT = new Set(['generate_selfies']);

t.test('heavy atoms counted on the text agree with native RDKit (LOTUS conversion fixture)', async (t) => {
  t.ok(reference.records.length >= 70);
  for (const r of reference.records) t.equal(countHeavyAtoms(r.input_smiles), r.heavy_atoms, r.name);
});

t.test('the same counts from molblocks with explicit hydrogens, V2000 and V3000', async (t) => {
  const rdkit = await loadRDKit();
  for (const r of reference.records.slice(0, 20)) {
    const mol = rdkit.get_mol(r.input_smiles)!;
    try {
      const withH = rdkit.get_mol(mol.add_hs(), JSON.stringify({ removeHs: false }))!;
      try {
        t.equal(countHeavyAtoms(withH.get_molblock()), r.heavy_atoms, `${r.name} V2000`);
        t.equal(countHeavyAtoms(withH.get_v3Kmolblock()), r.heavy_atoms, `${r.name} V3000`);
      } finally {
        withH.delete();
      }
    } finally {
      mol.delete();
    }
  }
});

t.test('hydrogens, isotopes, two-letter elements and CXSMILES extensions', async (t) => {
  t.equal(countHeavyAtoms('[H]OC([H])([H])[H]'), 2, 'explicit [H] atoms are not heavy');
  t.equal(countHeavyAtoms('[2H]C([2H])([2H])Cl'), 2, 'deuterium is hydrogen; Cl is one atom');
  t.equal(countHeavyAtoms('[Hg](Cl)Cl'), 3, '[Hg] is mercury, not hydrogen');
  t.equal(countHeavyAtoms('[He].[Ho+3].[Hf]'), 3);
  t.equal(countHeavyAtoms('BrC(Br)=O'), 4);
  t.equal(countHeavyAtoms('c1ccncc1'), 6);
  t.equal(countHeavyAtoms('C[C@@H](O)C(=O)[O-].[Na+]'), 7);
  t.equal(countHeavyAtoms('CC(C)O |$;;Cl;$|'), 4, 'the CXSMILES block is not read as atoms');
  t.equal(countHeavyAtoms('[13CH3]C%10CC%10'), 4, 'ring-closure digits are not atoms');
});

t.test('every structure-taking operation refuses more heavy atoms than the limit', async (t) => {
  const built = await build(t, 'inline');
  const { app } = built!;
  const big = 'C'.repeat(401);
  const taken = OPERATIONS.filter((op) => {
    const s = SAMPLES[op.name];
    return s && (s.text !== undefined || Object.keys(s.query ?? {}).some((k) => k === 'smiles' || k === 'input_text'));
  });
  t.ok(taken.length >= 25, `${taken.length} operations take a structure`);
  for (const op of taken) {
    const s = SAMPLES[op.name];
    let res;
    if (s.text !== undefined) {
      const body = op.name.startsWith('filter_molecules') ? `CCO\n${big}` : op.name === 'xyz_to_formats_convert_xyz_post' ? xyzOf(401) : `\n  big\n\n${molblockOf(401)}`;
      res = await app.inject({ method: 'POST', url: op.path, payload: body, headers: { 'content-type': 'text/plain' } });
    } else {
      const key = 'input_text' in (s.query ?? {}) ? 'input_text' : 'smiles';
      const value = /multiple|bitsimilarity/.test(op.name) ? `CCO,${big}` : big;
      res = await app.inject({ method: op.method, url: op.path, query: { ...s.query, [key]: value } });
    }
    if (WITHOUT_RDKIT.has(op.name)) {
      t.equal(res.statusCode, 200, `${op.name}: no RDKit involved, so no limit`);
      continue;
    }
    t.equal(res.statusCode, 422, `${op.name}: 422`);
    t.match(res.body, /Structure too large: 401 heavy atoms \(limit 400\)/, `${op.name}: names the count and the limit`);
  }
  const edge = await app.inject({ url: '/latest/convert/canonicalsmiles', query: { smiles: 'C'.repeat(400) } });
  t.equal(edge.statusCode, 200, 'a 400-atom chain is still processed');
  t.equal(edge.json(), 'C'.repeat(400));
});

/** An XYZ frame of a straight chain of n carbons, 1.54 Å apart. */
function xyzOf(n: number): string {
  return `${n}\nchain\n${Array.from({ length: n }, (_, i) => `C ${(i * 1.54).toFixed(3)} 0.000 0.000`).join('\n')}\n`;
}

/** A V2000 chain of n carbons. */
function molblockOf(n: number): string {
  const pad = (v: number, w = 3) => String(v).padStart(w);
  const atoms = Array.from({ length: n }, (_, i) => `${(i * 1.5).toFixed(4).padStart(10)}    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0`);
  const bonds = Array.from({ length: n - 1 }, (_, i) => `${pad(i + 1)}${pad(i + 2)}  1  0`);
  return `${pad(n)}${pad(n - 1)}  0  0  0  0  0  0  0  0999 V2000\n${atoms.join('\n')}\n${bonds.join('\n')}\nM  END\n`;
}
