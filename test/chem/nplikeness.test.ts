/**
 * NP-likeness and the unfolded Morgan ids it rests on, against native RDKit 2022.09.3 and
 * RDKit Contrib NP_Score (fixtures made by test/fixtures/scripts/nplikeness_reference.py).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadRDKit, withMol } from '../../shared/chem/core/rdkit.ts';
import { morganCounts, morganGraph } from '../../shared/chem/core/morgan-env.ts';
import { npLikeness } from '../../shared/chem/scores/nplikeness.ts';
import { descriptorsTasks, npModel } from '../../shared/ops/descriptors.tasks.ts';
import { taskContext } from '../helpers/task.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .slice(1)
    .map((l) => l.split('\t'));

const rdkit = await loadRDKit();
const ctx = taskContext(rdkit);

t.test('unfolded Morgan ids and counts equal RDKit GetMorganFingerprint(mol, 2)', async (t) => {
  const rows = fixture('morgan_counts_reference.tsv');
  t.ok(rows.length >= 100);
  let identical = 0;
  for (const [smiles, expected] of rows) {
    const got = withMol(rdkit, smiles, (mol) => morganCounts(morganGraph(rdkit, mol), 2));
    const text = [...got.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([id, n]) => `${id}:${n}`)
      .join(' ');
    if (text === expected) identical++;
    else t.equal(text, expected, smiles);
  }
  t.equal(identical, rows.length, `${identical}/${rows.length} fingerprints identical`);
});

t.test('NP-likeness within 0.01 of RDKit Contrib NP_Score on 500 molecules', async (t) => {
  const rows = fixture('nplikeness_reference.tsv');
  t.equal(rows.length, 500);
  const model = npModel();
  let maxDev = 0;
  let maxConfDev = 0;
  for (const [, smiles, , score, confidence] of rows) {
    const got = withMol(rdkit, smiles, (mol) => npLikeness(rdkit, mol, model));
    const dev = Math.abs(got.score - Number(score));
    if (dev > 0.01) t.fail(`${smiles}: ${got.score} vs ${score}`);
    maxDev = Math.max(maxDev, dev);
    maxConfDev = Math.max(maxConfDev, Math.abs(got.confidence - Number(confidence)));
  }
  t.ok(maxDev <= 0.01, `max |deviation| ${maxDev}`);
  t.ok(maxConfDev <= 1e-9, `max confidence deviation ${maxConfDev}`);
});

t.test('published reference values (docs/spec/data.md §8, docs/spec/chem-service.md §(7))', async (t) => {
  const cases: [string, number][] = [
    ['CC(=O)Oc1ccccc1C(=O)O', 0.12],
    ['c1ccccc1', -0.15],
    ['Cn1cnc2c1c(=O)n(C)c(=O)n2C', -1.09],
    ['O=c1c(O)c(-c2ccc(O)c(O)c2)oc2cc(O)cc(O)c12', 1.7],
    ['CN1CC[C@]23c4c5ccc(O)c4O[C@H]2[C@@H](O)C=C[C@H]3[C@H]1C5', 2.59],
    ['C[C@@H]1CC[C@H]2[C@H](C)C(=O)O[C@@H]3O[C@@]4(C)CC[C@@H]1[C@]32OO4', 3.84],
    ['CC=O', 0.96],
  ];
  for (const [smiles, expected] of cases) {
    t.equal(await descriptorsTasks.generate_nplikeness_score({ smiles }, ctx), expected, smiles);
  }
});

t.test('invalid input is a 422 naming the input', async (t) => {
  const error = await Promise.resolve()
    .then(() => descriptorsTasks.generate_nplikeness_score({ smiles: 'C1CC(' }, ctx))
    .then(() => undefined, (e: unknown) => e);
  t.match(error, { status: 422, detail: /C1CC\(/ });
});
