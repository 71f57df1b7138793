/**
 * Canonical tautomers against native RDKit (python3-rdkit 2022.09.3, TautomerEnumerator defaults,
 * the original service's pipeline): test/fixtures/tautomer_reference.tsv, made by
 * test/fixtures/tools/tautomer_reference.py from LOTUS natural products. Results are compared as
 * MinimalLib canonical SMILES, since the two RDKit versions spell canonical SMILES differently.
 */
import { taskContext } from '../helpers/task.ts';
import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadRDKit, withMol } from '../../shared/chem/core/rdkit.ts';
import { tautomerTasks } from '../../shared/ops/tautomer.tasks.ts';
import { AppError } from '../../shared/errors.ts';
import { leading } from '../helpers/sample.ts';

const rdkit = await loadRDKit();
const ctx = taskContext(rdkit);
const run = (smiles: string) => tautomerTasks.standardize_tautomer({ smiles }, ctx) as string;
const canon = (smiles: string) => withMol(rdkit, smiles, (m) => m.get_smiles());

const rows = readFileSync(new URL('../fixtures/tautomer_reference.tsv', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .slice(1)
  .map((l) => l.split('\t'));

t.test('spec example: caffeine', async (t) => {
  t.equal(run('CN1C=NC2=C1C(=O)N(C(=O)N2C)C'), 'CN1C(=O)C2=C(N=CN2C)N(C)C1=O');
});

t.test('textbook tautomers agree with native RDKit', async (t) => {
  // Native RDKit 2022.09.3 TautomerEnumerator().Canonicalize results (kekulé SMILES).
  const cases: [string, string][] = [
    ['Oc1ccccn1', 'O=C1C=CC=CN1'],
    ['CC(O)=CC(C)=O', 'CC(=O)CC(C)=O'],
    ['C=C(O)C', 'CC(C)=O'],
    ['Oc1ncc[nH]1', 'O=C1NC=CN1'],
  ];
  for (const [input, ref] of cases) t.equal(canon(run(input)), canon(ref), input);
});

// The first rows of the fixture keep the run short (docs/architecture.md, Checks); TEST_FULL=1 checks every row.
const SAMPLE = 100;

t.test('agreement with native RDKit on LOTUS natural products', async (t) => {
  const sample = leading(rows, SAMPLE);
  let agree = 0;
  const misses: string[] = [];
  for (const [smiles, ref] of sample) {
    const mine = run(smiles);
    if (canon(mine) === canon(ref)) agree++;
    else misses.push(smiles);
  }
  const rate = agree / sample.length;
  t.comment(`tautomer agreement ${agree}/${sample.length} = ${(100 * rate).toFixed(1)}% (${sample.length} of the fixture's ${rows.length} rows)`);
  t.ok(sample.length >= Math.min(SAMPLE, rows.length), `at least ${SAMPLE} molecules`);
  t.ok(rate >= 0.95, `at least 95% agree (misses: ${misses.join(' ')})`);
});

t.test('unreadable SMILES is a 422 naming the input', async (t) => {
  let caught: unknown;
  try {
    run('C1CC(');
  } catch (err) {
    caught = err;
  }
  t.ok(caught instanceof AppError, 'an AppError');
  t.equal((caught as AppError).status, 422);
  t.match(String((caught as AppError).detail), 'C1CC(');
});
