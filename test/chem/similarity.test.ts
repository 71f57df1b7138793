/**
 * Tanimoto similarities against native RDKit (python3-rdkit 2022.09.3, values written by
 * test/fixtures/tools/similarity_reference.py into test/fixtures/similarity_reference.tsv).
 *
 * RDKit, atom-pair and MACCS fingerprints and the Morgan hashing agree exactly. ECFP with
 * chirality on stereo-bearing molecules is compared bit by bit and value by value with
 * test/fixtures/ecfp_chirality_reference.json (test/fixtures/scripts/ecfp_chirality_reference.py):
 * RDKit 2025.03.1 changed when `useChirality` hashes a centre's CIP label into its Morgan
 * invariant (github #7986); the service computes the current rule, which is what native RDKit
 * computes since that release. The fixture carries both the current values and native 2022.09's.
 */
import { taskContext } from '../helpers/task.ts';
import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadRDKit, withMol } from '../../shared/chem/core/rdkit.ts';
import { bitSimilarity, fingerprint, type FingerprintOptions, tanimoto } from '../../shared/chem/similarity/similarity.ts';
import { similarityOps } from '../../shared/ops/similarity.ts';
import { similarityTasks } from '../../shared/ops/similarity.tasks.ts';

const rdkit = await loadRDKit();
const rows = readFileSync(new URL('../fixtures/similarity_reference.tsv', import.meta.url), 'utf8')
  .trim().split('\n').filter((l) => !l.startsWith('#')).slice(1)
  .map((l) => {
    const [fingerprinter, nBits, radius, chirality, smiles1, smiles2, tanimoto] = l.split('\t');
    return { fingerprinter, nBits: Number(nBits), radius: Number(radius), chirality: chirality === '1', smiles1, smiles2, ref: Number(tanimoto) };
  });

const value = (r: (typeof rows)[number]) => {
  const o = { fingerprinter: r.fingerprinter, nBits: r.nBits, radius: r.radius, chirality: r.chirality } as FingerprintOptions;
  return tanimoto(withMol(rdkit, r.smiles1, (m) => fingerprint(m, o)), withMol(rdkit, r.smiles2, (m) => fingerprint(m, o)));
};

/** The error a call throws (tap's throws() typings want Error-shaped patterns). */
const caught = (fn: () => unknown): unknown => {
  try { fn(); } catch (e) { return e; }
  return undefined;
};

t.test('fingerprints without stereo dependence agree exactly with native RDKit', async (t) => {
  const exact = rows.filter((r) => !r.chirality || !(r.smiles1 + r.smiles2).includes('@'));
  t.ok(exact.length >= 200, `${exact.length} reference values`);
  for (const kind of ['ECFP', 'RDKit', 'Atompairs', 'MACCS']) {
    const subset = exact.filter((r) => r.fingerprinter === kind);
    t.ok(subset.length >= 20, `${kind}: ${subset.length} pairs`);
    const wrong = subset.filter((r) => value(r) !== r.ref);
    t.same(wrong.map((r) => `${r.smiles1} ${r.smiles2} ${r.nBits}/${r.radius}`), [], `${kind}: all exact`);
  }
});

interface EcfpReference {
  settings: string[];
  molecules: { smiles: string; source: string; bits: Record<string, number[]> }[];
  pairs: { kind: string; i: number; j: number; values: Record<string, { tanimoto: number; tanimoto_rdkit2022: number }> }[];
}
const ecfp: EcfpReference = JSON.parse(readFileSync(new URL('../fixtures/ecfp_chirality_reference.json', import.meta.url), 'utf8'));
const setting = (s: string) => {
  const [radius, nBits] = s.split('/').map(Number);
  return { fingerprinter: 'ECFP', radius, nBits } as const;
};
const onBits = (fp: Uint8Array) => {
  const on: number[] = [];
  fp.forEach((byte, i) => {
    for (let k = 0; k < 8; k++) if (byte & (1 << k)) on.push(i * 8 + k);
  });
  return on;
};

t.test('ECFP with chirality: stereo-bearing molecules bit for bit', async (t) => {
  t.ok(ecfp.molecules.length >= 140, `${ecfp.molecules.length} molecules`);
  t.ok(ecfp.molecules.filter((m) => m.smiles.includes('@')).length >= 120, 'most carry tetrahedral stereo');
  const wrong: string[] = [];
  for (const m of ecfp.molecules) {
    for (const s of ecfp.settings) {
      const got = onBits(withMol(rdkit, m.smiles, (mol) => fingerprint(mol, setting(s))));
      if (got.join(' ') !== m.bits[s].join(' ')) wrong.push(`${s} ${m.smiles}`);
    }
  }
  t.same(wrong, [], `${ecfp.molecules.length * ecfp.settings.length} fingerprints identical`);
});

t.test('ECFP with chirality: stereo-bearing pairs value by value', async (t) => {
  const kinds = new Set(ecfp.pairs.map((p) => p.kind));
  t.same([...kinds].sort(), ['enantiomer', 'epimer', 'ez_isomer', 'handmade', 'lotus_pair', 'similarity_reference', 'stereo_free']);
  const wrong: string[] = [];
  let n = 0;
  for (const p of ecfp.pairs) {
    for (const s of ecfp.settings) {
      const v = bitSimilarity(rdkit, [ecfp.molecules[p.i].smiles, ecfp.molecules[p.j].smiles], setting(s)) as number;
      n++;
      if (Math.abs(v - p.values[s].tanimoto) > 1e-12) wrong.push(`${p.kind} ${s} ${v} != ${p.values[s].tanimoto}`);
    }
  }
  t.ok(n >= 230, `${n} values`);
  t.same(wrong, [], 'every value equals the reference (RDKit >= 2025.03 rule)');
  // Mirror images and epimers must stay apart: chirality is really in the fingerprint.
  for (const p of ecfp.pairs.filter((q) => q.kind === 'enantiomer')) t.ok(p.values['4/2048'].tanimoto < 1, 'enantiomers differ');
});

t.test('ECFP with chirality: where native RDKit 2022.09 differs, only its older rule does', async (t) => {
  // The stereo-bearing rows of similarity_reference.tsv are native 2022.09 values. Each equals the
  // service's value, or the fixture (same pair, same setting) shows 2022.09's value there and a
  // different value under the current rule, which the service computes.
  const chiral = rows.filter((r) => r.chirality && (r.smiles1 + r.smiles2).includes('@'));
  t.equal(chiral.length, 36);
  let same = 0;
  const unexplained: string[] = [];
  for (const r of chiral) {
    const got = value(r);
    if (got === r.ref) { same++; continue; }
    const p = ecfp.pairs.find((q) => q.kind === 'similarity_reference' &&
      ecfp.molecules[q.i].smiles === r.smiles1 && ecfp.molecules[q.j].smiles === r.smiles2);
    const v = p?.values[`${r.radius}/${r.nBits}`];
    if (!v || v.tanimoto_rdkit2022 !== r.ref || v.tanimoto !== got) unexplained.push(`${r.smiles1} ${r.smiles2} ${r.radius}/${r.nBits}`);
  }
  t.same(unexplained, []);
  t.equal(same, 18, 'native 2022.09 agrees on 18 of 36; the other 18 are the #7986 rule change');
  const all = ecfp.pairs.flatMap((p) => Object.values(p.values));
  const older = all.filter((v) => v.tanimoto_rdkit2022 === v.tanimoto).length;
  t.comment(`fixture: native 2022.09 equals the current rule on ${older}/${all.length} values`);
});

t.test('operation: two molecules give a number, more give a matrix', async (t) => {
  const [op] = similarityOps;
  t.match(op, { name: 'generate_bitsimilarity_similarity', method: 'GET', path: '/chem/bitsimilarity', tag: 'chem' });
  const args = op.args.parse({ smiles: 'CCO,CCN' });
  t.match(args, { toolkit: 'rdkit', fingerprinter: 'ECFP', nBits: 2048, radius: 2 });
  const ctx = taskContext(rdkit);
  const pair = rows.find((r) => r.fingerprinter === 'ECFP' && r.radius === 2 && r.nBits === 2048 && r.chirality && !(r.smiles1 + r.smiles2).includes('@'))!;
  t.equal(similarityTasks.generate_bitsimilarity_similarity(op.args.parse({ smiles: `${pair.smiles1},${pair.smiles2}` }), ctx), pair.ref);
  const maccs = rows.filter((r) => r.fingerprinter === 'MACCS').slice(0, 1)[0];
  const m = similarityTasks.generate_bitsimilarity_similarity(
    op.args.parse({ smiles: `${maccs.smiles1},${maccs.smiles2},CCO`, fingerprinter: 'MACCS' }), ctx) as number[][];
  t.equal(m.length, 3);
  t.same(m.map((row) => row.length), [3, 3, 3]);
  t.equal(m[0][1], maccs.ref);
  t.equal(m[1][0], maccs.ref, 'symmetric');
  t.same([m[0][0], m[1][1], m[2][2]], [1, 1, 1]);
});

t.test('spec example: topiramate against ethane (ECFP diameter convention)', async (t) => {
  const topiramate = 'CC1(C)O[C@@H]2CO[C@@]3(COS(N)(=O)=O)OC(C)(C)O[C@H]3[C@@H]2O1';
  const ecfp = (radius: number) => bitSimilarity(rdkit, [topiramate, 'CC'], { fingerprinter: 'ECFP', nBits: 2048, radius });
  t.equal(ecfp(2), 0.038461538461538464, 'default radius=2 is Morgan radius 1');
  t.equal(ecfp(4), 0.024390243902439025, 'the schema example value needs radius=4 (Morgan radius 2)');
});

t.test('bad input answers 422', async (t) => {
  const [op] = similarityOps;
  const fp = op.args.safeParse({ smiles: 'C,CC', fingerprinter: 'PubChem' });
  t.notOk(fp.success);
  t.match(JSON.stringify(fp.error?.issues), /ECFP.*RDKit.*Atompairs.*MACCS/, 'lists the allowed fingerprinters');
  const tk = op.args.safeParse({ smiles: 'C,CC', toolkit: 'openbabel' });
  t.notOk(tk.success);
  t.match(JSON.stringify(tk.error?.issues), /rdkit/, 'lists the allowed toolkits');
  const opts = { fingerprinter: 'ECFP', nBits: 2048, radius: 2 } as const;
  t.match(caught(() => bitSimilarity(rdkit, ['CCO'], opts)), { status: 422, detail: 'At least two molecules are required.' });
  t.match(caught(() => bitSimilarity(rdkit, ['CCO', 'C1CC'], opts)), { status: 422, detail: /C1CC/ });
  t.match(caught(() => bitSimilarity(rdkit, new Array(501).fill('C'), opts)), { status: 422, detail: /At most 500/ });
});
