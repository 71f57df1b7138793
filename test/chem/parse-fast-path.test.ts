/**
 * The parse fast path (shared/chem/core/rdkit.ts, skipsHydrogenRemoval): a SMILES without
 * hydrogen atoms is parsed with MinimalLib's hydrogen removal off. The reference is RDKit's own
 * default parse of the same text (hydrogen removal on, asked for explicitly, so the fast path
 * stays out of it): every output the chemistry uses must be identical, over the LOTUS demo set,
 * the CM benchmark's kind of molecules and a set of charged, isotopic, stereo and odd inputs.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { loadRDKit, skipsHydrogenRemoval, type Mol } from '../../shared/chem/core/rdkit.ts';
import { tsv } from '../helpers/tables.ts';

const rdkit = await loadRDKit();

t.test('which texts take the fast path', async (t) => {
  for (const s of ['CCO', 'C[C@H](N)C(=O)O', '[CH3]C', '[Hg]Cl', '[He]', '[Hf]', 'c1cc[nH]c1', '[NH4+]', 'C[C@@H]1CCO1 |&1:1|']) {
    t.ok(skipsHydrogenRemoval(s), `${s}: no hydrogen atom`);
  }
  for (const s of ['C[C@@H](O)[13C@H](N)C', 'C[C@]1(O)CCCC1']) t.ok(skipsHydrogenRemoval(s), `${s}: carbon centres only`);
  for (const s of ['[H]C', '[2H]C', '[H+]', '[H-].[Na+]', '[3H]O', '[H][C@]12CCCC1CCC2', 'CCO\n  M  END', 'C[S@](=O)CC', 'C[C@H]1CO[N@@]2CCCC12', '[Cl@]C']) {
    t.notOk(skipsHydrogenRemoval(s), `${JSON.stringify(s)}: default parse`);
  }
});

const MORGAN = JSON.stringify({ radius: 2, nBits: 2048 });
const KEKULE = JSON.stringify({ kekuleSmiles: true });
// What the molecule is (graph, stereo, aromaticity, rings: the JSON carries them all) and what
// the hot operations answer; InChI, descriptors and molblocks were also compared identical once
// (1,925 structures), and are left out here for the suite's time.
const outputs = (m: Mol) => [m.get_smiles(), m.get_smiles(KEKULE), m.get_cxsmiles(), m.get_json(), m.get_morgan_fp(MORGAN)];

t.test('a heteroatom centre the removal pass settles takes the default path', async (t) => {
  // A ring-junction N of the stereoisomer fixtures: without the removal pass its mark would stay.
  const text = 'C/C=C1/[C@@H]2[C@H]3[C@@H](O)O[N@@]2[C@H]2C[C@@H]1[C@@H](C(=O)OC)[C@]31C2=Nc2c(OC)cc(OC)cc21';
  t.notOk(skipsHydrogenRemoval(text));
  const reference = rdkit.get_mol(text, JSON.stringify({ removeHs: true }))!;
  const parsed = rdkit.get_mol(text)!;
  try {
    t.equal(parsed.get_smiles(), reference.get_smiles(), 'same canonical SMILES as the default parse');
  } finally {
    parsed.delete();
    reference.delete();
  }
});

t.test('the fast path gives the same molecule as the default parse', async (t) => {
  const lotus = tsv(gunzipSync(readFileSync(new URL('../../api/catalog/data/lotus_sample_1000.tsv.gz', import.meta.url))).toString('utf8'));
  const texts = new Set(lotus.map((r) => r.structure_smiles).filter(Boolean));
  for (const s of [
    '[Na+].[Cl-]', 'C/C=C/C', 'F/C=C\\F', '[O-][n+]1ccccc1', 'C1=CC=CC=C1', '[13CH4]', 'C[S@](=O)c1ccccc1', 'C1CC2CCC1C2',
    'c1cc2ccc3cccc4ccc(c1)c2c34', '[Fe]', '*C', '[*:1]CC', 'C[N+](C)(C)C', 'O=[N+]([O-])c1ccccc1', 'B(O)(O)c1ccccc1',
    'C[C@@H]1C[C@H](C)C[C@@H](C)C1', 'OC[C@H]1O[C@@H](O)[C@H](O)[C@@H](O)[C@@H]1O', 'C[C@@H](O)CC |&1:1|', 'C=C=C', '[CH2]C',
  ]) texts.add(s);
  let compared = 0;
  let differing = 0;
  for (const text of texts) {
    if (!skipsHydrogenRemoval(text)) continue;
    const fast = rdkit.get_mol(text);
    const reference = rdkit.get_mol(text, JSON.stringify({ removeHs: true }));
    try {
      t.equal(fast?.is_valid(), reference?.is_valid(), `${text}: same validity`);
      if (!fast?.is_valid() || !reference?.is_valid()) continue;
      compared++;
      const a = outputs(fast);
      const b = outputs(reference);
      if (a.some((v, i) => v !== b[i])) {
        differing++;
        t.fail(`${text}: output ${a.findIndex((v, i) => v !== b[i])} differs`);
      }
    } finally {
      fast?.delete();
      reference?.delete();
    }
  }
  t.ok(compared > 700, `${compared} structures compared`);
  t.equal(differing, 0, 'no output differs');
});
