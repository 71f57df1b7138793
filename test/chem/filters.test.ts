/**
 * all_filters against native RDKit 2022.09.3: PAINS with RDKit's FilterCatalog, rule filters
 * recomputed from RDKit's property values with the published thresholds, QED and SA score
 * from rdkit.Chem.QED and Contrib sascorer (fixture: test/fixtures/scripts/filters_reference.py).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadRDKit, withMol } from '../../shared/chem/core/rdkit.ts';
import { filterFlags, parseRange, type FilterOptions } from '../../shared/chem/filters/filters.ts';
import { painsMatches } from '../../shared/chem/filters/pains.ts';
import { pyRound } from '../../shared/chem/core/format.ts';
import { descriptorsTasks, npModel, painsEntries, qedData, saTable } from '../../shared/ops/descriptors.tasks.ts';
import { descriptorsOps } from '../../shared/ops/descriptors.ts';
import { taskContext } from '../helpers/task.ts';

const rdkit = await loadRDKit();
const ctx = taskContext(rdkit);
const tables = { pains: painsEntries(), qed: qedData(), np: npModel(), sa: saTable() };
const op = descriptorsOps.find((o) => o.name === 'filter_molecules')!;
const run = (body: unknown, query: Record<string, unknown> = {}) =>
  descriptorsTasks.filter_molecules(op.args.parse({ smiles: body, ...query }) as never, ctx) as string[];
const failure = (fn: () => unknown) =>
  Promise.resolve()
    .then(fn)
    .then(() => undefined, (e: unknown) => e);

const lines = readFileSync(new URL('../fixtures/filters_reference.tsv', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'));
const head = lines[0].split('\t');
const refs = lines.slice(1).map((l) => {
  const f = l.split('\t');
  return Object.fromEntries(head.map((h, i) => [h, f[i]]));
});

t.test('PAINS matches equal RDKit FilterCatalog (PAINS A+B+C) on 500 molecules', async (t) => {
  t.equal(tables.pains.length, 480);
  let hits = 0;
  let same = 0;
  for (const ref of refs) {
    const names = withMol(rdkit, ref.smiles, (mol) => painsMatches(rdkit, mol, tables.pains)).sort();
    if (names.length) hits++;
    if (names.join(';') === ref.pains_names) same++;
    else t.fail(`${ref.smiles}: ${names} vs ${ref.pains_names}`);
  }
  t.equal(same, refs.length, `${same}/${refs.length} identical alert lists, ${hits} molecules with alerts`);
  t.ok(hits >= 40);
});

t.test('every flag equals the reference decision on 500 molecules', async (t) => {
  const all: FilterOptions = {
    pains: true, lipinski: true, veber: true, reos: true, ghose: true, ruleofthree: true,
    qed: [0.3, 0.7], sa: [2.5, 4], np: [-1, 1.5],
  };
  const within = (x: number, a: number, b: number) => a <= x && x <= b;
  let mismatches = 0;
  for (const r of refs) {
    const n = (k: string) => Number(r[k]);
    const expected = [
      r.pains === '0',
      n('logp') <= 5 && n('mw') <= 500 && n('hba') <= 10 && n('hbd') <= 5,
      n('rotb') <= 10 && n('tpsa') <= 140,
      within(n('exact_mw'), 200, 500) && within(n('logp'), -5, 5) && within(n('hbd'), 0, 5) &&
        within(n('hba'), 0, 10) && within(n('charge'), -2, 2) && within(n('rotb'), 0, 8) && within(n('heavy_atoms'), 15, 50),
      within(n('exact_mw'), 160, 480) && within(n('logp'), 0.4, 5.6) && within(n('atoms_with_h'), 20, 70) && within(n('mr'), 40, 130),
      n('exact_mw') <= 300 && n('logp') <= 3 && n('hbd') <= 3 && n('hba') <= 3 && n('rotb') <= 3,
      within(n('qed'), 0.3, 0.7),
      within(pyRound(n('sa_score'), 2), 2.5, 4),
    ];
    const got = withMol(rdkit, r.smiles, (mol) => filterFlags(rdkit, mol, all, tables));
    t.equal(got.length, 9);
    for (let i = 0; i < expected.length; i++) {
      if (got[i] !== expected[i]) {
        mismatches++;
        t.fail(`${r.smiles}: flag ${i} ${got[i]} vs ${expected[i]}`);
      }
    }
  }
  t.equal(mismatches, 0, 'no flag differs');
});

t.test('rule of three is evaluated (not the upstream always-false)', async (t) => {
  t.same(run('CC(=O)Nc1ccc(O)cc1', { pains: false, lipinski: false, veber: false, reos: false, ghose: false, qedscore: '', sascore: '', nplikeness: '' }), [
    'CC(=O)Nc1ccc(O)cc1 :  T',
  ]);
});

t.test('ranges: negative bounds parse', async (t) => {
  t.same(parseRange('-5-5'), [-5, 5]);
  t.same(parseRange('-3--1'), [-3, -1]);
  t.same(parseRange('0.2-0.8'), [0.2, 0.8]);
  t.equal(parseRange('5'), undefined);
  t.equal(parseRange('a-b'), undefined);
  const only = { pains: false, lipinski: false, veber: false, reos: false, ghose: false, ruleofthree: false, qedscore: '', sascore: '' };
  // caffeine NP-likeness is -1.09
  t.same(run('Cn1cnc2c1c(=O)n(C)c(=O)n2C', { ...only, nplikeness: '-2--1' }), ['Cn1cnc2c1c(=O)n(C)c(=O)n2C :  T']);
  t.same(run('Cn1cnc2c1c(=O)n(C)c(=O)n2C', { ...only, nplikeness: '-1-5' }), []);
  t.equal(op.args.safeParse({ smiles: 'C', sascore: '1-x' }).success, false);
});

t.test('operators, output format, bodies', async (t) => {
  const text = 'CCO\nc1ccc(O)c(O)c1\n\n';
  const flagsOnly = { veber: false, reos: false, ghose: false, ruleofthree: false, qedscore: '', sascore: '', nplikeness: '' };
  // catechol carries a PAINS alert (catechol_A): F for PAINS, T for Lipinski.
  t.same(run(text, { ...flagsOnly, filterOperator: 'OR' }), ['CCO :  T, T', 'c1ccc(O)c(O)c1 :  F, T']);
  t.same(run(text, { ...flagsOnly, filterOperator: 'AND' }), ['CCO :  T, T']);
  t.same(run(['CCO', 'c1ccc(O)c(O)c1'], { ...flagsOnly, filterOperator: 'AND' }), ['CCO :  T, T'], 'JSON array body');
  t.same(run('CCO', { ...flagsOnly, pains: false, lipinski: false }), ['CCO:'], 'no flag: always kept');
  const defaults = run('CCO');
  t.equal(defaults.length, 1);
  t.match(defaults[0], /^CCO : {2}(T|F)(, (T|F)){8}$/);
  t.match(await failure(() => run('CCO\nC1CC(')), { status: 422, detail: /C1CC\(/ });
});
