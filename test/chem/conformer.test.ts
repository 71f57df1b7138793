/**
 * 3D coordinates from openchemlib (ConformerGenerator + MMFF94s+), judged by RDKit: natural
 * products of test/fixtures/convert-reference.json (LOTUS, with native RDKit canonical SMILES).
 * Geometry limits, and why:
 *  - bonds: C-C single 1.45-1.62 Å when a carbon is sp3 (1.54 ideal), 1.38-1.55 between two
 *    unsaturated carbons (1.46 in dienes, 1.52 in 1,2-diones), C=C 1.29-1.40, aromatic C:C 1.33-1.50 (RDKit also
 *    calls pyranone and pyridone rings aromatic; MMFF gives them alternating 1.34/1.45-1.50 bonds),
 *    any other bond 0.9-2.3 Å (C-I 2.14 is the longest expected);
 *  - clashes: atoms three or more bonds apart at least 2.2 Å (an eclipsed C-C-C-C has 1-4 ≈ 2.5 Å,
 *    a fused ring 1-4 pair ≈ 2.8 Å), atoms two bonds apart at least 1.9 Å (bond angles > ~75°).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { generate3D, MAX_3D_HEAVY_ATOMS } from '../../shared/chem/convert/conformer.ts';
import { depict3dTasks } from '../../shared/ops/depict3d.tasks.ts';
import { depict3dOps } from '../../shared/ops/depict3d.ts';
import type { TaskContext } from '../../shared/ops/types.ts';
import { taskContext } from '../helpers/task.ts';
import { leading } from '../helpers/sample.ts';

const rdkit = await loadRDKit();
const ctx = taskContext(rdkit);
const ref = JSON.parse(readFileSync(new URL('../fixtures/convert-reference.json', import.meta.url), 'utf8')) as {
  records: { input_smiles: string; rdkit_canonical: string }[];
};

interface Read {
  xyz: number[][];
  bonds: { a: number; b: number; order: number; aromatic: boolean }[];
  z: number[];
  smiles: string;
  flat: string;
}
function readBack(molblock: string): Read {
  const lines = molblock.split('\n');
  const n = Number(lines[3].slice(0, 3));
  const xyz = lines.slice(4, 4 + n).map((l) => [0, 10, 20].map((o) => Number(l.slice(o, o + 10))));
  const mol = rdkit.get_mol(molblock, JSON.stringify({ removeHs: false }))!;
  try {
    const doc = JSON.parse(mol.get_json());
    const m = doc.molecules[0];
    const ext = m.extensions.find((e: { name: string }) => e.name === 'rdkitRepresentation');
    const arom = new Set<number>(ext?.aromaticBonds ?? []);
    return {
      xyz,
      z: m.atoms.map((a: { z?: number }) => a.z ?? doc.defaults.atom.z),
      bonds: m.bonds.map((b: { atoms: number[]; bo?: number }, i: number) => ({
        a: b.atoms[0], b: b.atoms[1], order: b.bo ?? doc.defaults.bond.bo, aromatic: arom.has(i),
      })),
      smiles: mol.get_smiles(),
      flat: mol.get_smiles(JSON.stringify({ doIsomericSmiles: false })),
    };
  } finally {
    mol.delete();
  }
}
const dist = (p: number[], q: number[]) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
const flatOf = (smiles: string) => {
  const m = rdkit.get_mol(smiles)!;
  try {
    return m.get_smiles(JSON.stringify({ doIsomericSmiles: false }));
  } finally {
    m.delete();
  }
};
/** Chirality-aware match of the reference SMILES onto the read-back structure. */
const stereoMatches = (reference: string, molblock: string) => {
  const q = rdkit.get_mol(reference)!;
  const m = rdkit.get_mol(molblock)!;
  try {
    return Boolean(JSON.parse(m.get_substruct_match(q, JSON.stringify({ useChirality: true }))).atoms);
  } finally {
    q.delete();
    m.delete();
  }
};

const heavy = (s: string) => {
  const m = rdkit.get_mol(s)!;
  try {
    return m.get_num_atoms(true);
  } finally {
    m.delete();
  }
};
// 6 molecules (1 to 4 s each, openchemlib's conformer search plus MMFF); TEST_FULL=1: all the
// fixture's structures of up to 32 heavy atoms.
const set = leading(ref.records.filter((r) => heavy(r.input_smiles) <= 32), 6);

t.test('stereo, bond lengths and clashes on natural products', async (t) => {
  t.ok(set.length >= 6, `${set.length} molecules`);
  let identical = 0;
  let badBonds = 0;
  let clashes = 0;
  for (const r of set) {
    const molblock = generate3D(rdkit, r.input_smiles, { hydrogens: false });
    t.match(molblock, /V2000/);
    const back = readBack(molblock);
    t.notOk(back.z.includes(1), 'no hydrogens');
    t.ok(back.xyz.some((p) => Math.abs(p[2]) > 0.1), 'really 3D');
    // Native RDKit's canonical SMILES of the input: identical when the input specifies all its
    // stereo; otherwise the same constitution with every specified element kept.
    if (back.smiles === r.rdkit_canonical) identical++;
    else {
      t.equal(back.flat, flatOf(r.rdkit_canonical), `constitution of ${r.input_smiles}`);
      t.ok(stereoMatches(r.rdkit_canonical, molblock), `specified stereo kept: ${r.input_smiles}`);
    }
    const nbrs = back.z.map(() => new Set<number>());
    const unsaturated = new Set<number>();
    for (const b of back.bonds) if (b.aromatic || b.order > 1) (unsaturated.add(b.a), unsaturated.add(b.b));
    for (const b of back.bonds) {
      nbrs[b.a].add(b.b);
      nbrs[b.b].add(b.a);
      const d = dist(back.xyz[b.a], back.xyz[b.b]);
      const cc = back.z[b.a] === 6 && back.z[b.b] === 6;
      const conjugated = unsaturated.has(b.a) && unsaturated.has(b.b);
      const [lo, hi] = !cc
        ? [0.9, 2.3]
        : b.aromatic
          ? [1.33, 1.5]
          : b.order === 1
            ? conjugated ? [1.38, 1.55] : [1.45, 1.62]
            : b.order === 2
              ? [1.29, 1.4]
              : [1.15, 1.25];
      if (d < lo || d > hi) {
        badBonds++;
        t.fail(`bond ${b.a}-${b.b} ${d.toFixed(3)} Å in ${r.input_smiles}`);
      }
    }
    for (let i = 0; i < back.z.length; i++) {
      for (let j = i + 1; j < back.z.length; j++) {
        if (nbrs[i].has(j)) continue;
        const oneThree = [...nbrs[i]].some((k) => nbrs[k].has(j));
        const d = dist(back.xyz[i], back.xyz[j]);
        if (d < (oneThree ? 1.9 : 2.2)) {
          clashes++;
          t.fail(`atoms ${i} and ${j} ${d.toFixed(2)} Å apart in ${r.input_smiles}`);
        }
      }
    }
  }
  t.comment(`isomeric SMILES identical for ${identical}/${set.length}; bad bonds ${badBonds}; clashes ${clashes}`);
  t.equal(badBonds + clashes, 0);
});

t.test('deterministic, capped, errors', async (t) => {
  const a = depict3dTasks.generate_3d_coordinates({ smiles: 'C[C@H](N)C(=O)O' }, ctx);
  const b = depict3dTasks.generate_3d_coordinates({ smiles: 'C[C@H](N)C(=O)O' }, ctx);
  t.equal(a, b, 'the same coordinates every time');
  const big = 'C'.repeat(MAX_3D_HEAVY_ATOMS + 1);
  const caught = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e;
    }
  };
  t.match(caught(() => depict3dTasks.generate_3d_coordinates({ smiles: big }, ctx)), { status: 422, detail: /heavy atoms/ });
  t.match(caught(() => depict3dTasks.generate_3d_coordinates({ smiles: 'C1CC' }, ctx)), { status: 422 });
  const aborted = { ...ctx, signal: AbortSignal.abort() } as TaskContext;
  t.ok(caught(() => depict3dTasks.generate_3d_coordinates({ smiles: 'CCO' }, aborted)), 'honours an aborted signal');
  const op = depict3dOps.find((o) => o.name === 'generate_3d_coordinates')!;
  const bad = op.args.safeParse({ smiles: 'CCO', toolkit: 'cdk' });
  t.notOk(bad.success);
  t.match(JSON.stringify(bad.error?.issues), /openchemlib/, 'the 422 lists the allowed toolkit');
  t.equal(op.args.parse({ smiles: 'CCO' }).toolkit, 'openchemlib');
});

t.test('salts and solvates: every fragment embedded, apart, stereo kept', async (t) => {
  for (const smiles of ['C[C@H](N)C(=O)[O-].[Na+]', 'C[N+](C)(C)CCO.[Cl-]', 'OC[C@H]1O[C@H](O)[C@H](O)[C@@H](O)[C@@H]1O.O']) {
    const mb = depict3dTasks.generate_3d_coordinates({ smiles }, ctx) as string;
    const back = readBack(mb);
    const canonical = rdkit.get_mol(smiles)!;
    t.equal(back.smiles, canonical.get_smiles(), `${smiles}: reads back as the input`);
    canonical.delete();
    const frags = smiles.split('.').length;
    t.ok(back.z.length >= frags, `${smiles}: all fragments present`);
    let closest = Infinity;
    // Atoms of different fragments (no path between them) are kept apart.
    const comp = new Array<number>(back.z.length).fill(-1);
    let c = 0;
    for (let s = 0; s < comp.length; s++) {
      if (comp[s] >= 0) continue;
      const stack = [s];
      comp[s] = c;
      while (stack.length) {
        const a = stack.pop()!;
        for (const b of back.bonds) for (const [x, y] of [[b.a, b.b], [b.b, b.a]]) if (x === a && comp[y] < 0) (comp[y] = c, stack.push(y));
      }
      c++;
    }
    for (let i = 0; i < comp.length; i++) for (let j = i + 1; j < comp.length; j++) if (comp[i] !== comp[j]) closest = Math.min(closest, dist(back.xyz[i], back.xyz[j]));
    t.equal(c, frags, `${smiles}: ${frags} fragments`);
    t.ok(closest >= 2.5, `${smiles}: fragments ${closest.toFixed(2)} Å apart at their closest`);
  }
});
