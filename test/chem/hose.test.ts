/**
 * HOSE codes against CDK 2.8's HOSECodeGenerator (test/fixtures/hose-reference.json, made by
 * test/fixtures/tools/HoseReference.java from natural products with RDKit's aromatic bonds).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { hoseCodes, hoseGraph } from '../../shared/chem/hose/hose.ts';
import { hoseTasks } from '../../shared/ops/hose.tasks.ts';
import { hoseOps } from '../../shared/ops/hose.ts';
import { taskContext } from '../helpers/task.ts';

interface RefMolecule {
  smiles: string;
  spheres: Record<string, string[]>;
  ringsize?: Record<string, string[]>;
}
const ref = JSON.parse(readFileSync(new URL('../fixtures/hose-reference.json', import.meta.url), 'utf8')) as {
  cdk: string;
  molecules: RefMolecule[];
};
const rdkit = await loadRDKit();
const ctx = taskContext(rdkit);

t.test('codes identical to CDK HOSECodeGenerator for every atom, spheres 1-4 and ringsize', async (t) => {
  t.ok(ref.molecules.length >= 30, `${ref.molecules.length} molecules`);
  t.equal(ref.cdk, '2.8');
  let same = 0;
  let total = 0;
  for (const m of ref.molecules) {
    const g = hoseGraph(rdkit, m.smiles);
    if (!g) {
      t.fail(`unreadable ${m.smiles}`);
      continue;
    }
    const cases: [number, boolean, string[]][] = Object.entries(m.spheres).map(([s, c]) => [Number(s), false, c]);
    for (const [s, c] of Object.entries(m.ringsize ?? {})) cases.push([Number(s), true, c]);
    for (const [spheres, ringsize, expected] of cases) {
      const got = hoseCodes(g, spheres, ringsize);
      t.equal(got.length, expected.length, `one code per atom: ${m.smiles}`);
      expected.forEach((code, i) => {
        total++;
        if (got[i] === code) same++;
        else t.equal(got[i], code, `${m.smiles} atom ${i} spheres ${spheres} ringsize ${ringsize}`);
      });
    }
  }
  t.ok(total > 5000);
  t.equal(same, total, `${same}/${total} codes identical`);
});

t.test('task: every atom, spec examples, errors', async (t) => {
  const run = (args: Record<string, unknown>) => {
    const parsed = hoseOps[0].args.parse(args);
    return hoseTasks.generate_HOSE_codes(parsed, ctx) as string[];
  };
  t.same(run({ smiles: 'C', spheres: 0 }), ['C-4;(//)']);
  t.same(run({ smiles: 'CN', spheres: 1 }), ['C-4;N(//)', 'N-3;C(//)'], 'last atom included');
  t.same(run({ smiles: 'CC=O', spheres: 1 }).at(-1), 'O-1;=C(//)');
  t.equal(run({ smiles: 'c1ccccc1', spheres: 2, ringsize: 'true' })[0], 'C-3-6;*C*C(*C,*C//)');
  const caught = (() => {
    try {
      run({ smiles: 'C1CC', spheres: 2 });
    } catch (e) {
      return e;
    }
  })();
  t.match(caught, { status: 422, detail: /C1CC/ }, 'unreadable SMILES is a 422 naming the input');
  t.throws(() => hoseOps[0].args.parse({ smiles: 'CC' }), 'spheres is required');
  t.throws(() => hoseOps[0].args.parse({ smiles: 'CC', spheres: 2, toolkit: 'openbabel' }));
  // The original service accepts toolkit=cdk for HOSE codes: so does natprod, whose generator is CDK's
  // algorithm (the codes above), so the answer to `cdk` is CDK's answer (docs/differences.md).
  const caffeine = ref.molecules.find((m) => m.smiles === 'Cn1c(=O)c2c(ncn2C)n(C)c1=O')!;
  t.same(run({ smiles: caffeine.smiles, spheres: 2, toolkit: 'cdk' }), caffeine.spheres['2'], 'toolkit=cdk: the CDK codes');
  t.same(run({ smiles: caffeine.smiles, spheres: 2, toolkit: 'rdkit' }), caffeine.spheres['2'], 'toolkit=rdkit: the same codes');
});
