/**
 * Structure generator counts against independent references:
 * - test/fixtures/structgen_reference.tsv, written by test/fixtures/tools/structgen_reference.sh
 *   with nauty's geng/planarg/vcolg/multig (Debian package nauty), not with our code;
 * - OEIS A000602 (alkanes CnH2n+2), A000598 (alcohols CnH2n+1OH = alkyl groups) and A000631
 *   (ethylene derivatives = acyclic mono-alkenes CnH2n), terms copied from oeis.org;
 * - the original service's C6H6 answer with its surge defaults (docs/spec/chem-service.md §2.4 (28)) and hand-derived
 *   cases of surge's bad-substructure classes (surge manual / `surge -help`);
 * - test/fixtures/structgen_bad_classes_reference.tsv: counts with one bad-substructure class at a
 *   time, from surge 1.0 itself built from its source
 *   (test/fixtures/scripts/structgen_bad_classes_reference.sh).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadRDKit, withMol, withQuery } from '../../shared/chem/core/rdkit.ts';
import {
  canonicalSmiles, generateMolecules, NO_RESTRICTIONS, parseFormula, SURGE_DEFAULTS, type Molecule, type StructgenOptions,
} from '../../shared/chem/structgen/structgen.ts';
import { isPlanar } from '../../shared/chem/structgen/planar.ts';
import { structgenOps } from '../../shared/ops/structgen.ts';
import { structgenTasks } from '../../shared/ops/structgen.tasks.ts';
import type { TaskContext } from '../../shared/ops/types.ts';
import { testThreadConfig } from '../helpers/task.ts';

const rdkit = await loadRDKit();
const all = (formula: string, o: StructgenOptions = NO_RESTRICTIONS): Molecule[] =>
  [...generateMolecules(parseFormula(formula), o)].filter((m): m is Molecule => m !== null);
const canon = (smi: string) => withMol(rdkit, smi, (m) => m.get_smiles());
const smilesOf = (formula: string, o: StructgenOptions) => all(formula, o).map((m) => canonicalSmiles(rdkit, m));
const RESTRICTED_NO_B: StructgenOptions = { ...SURGE_DEFAULTS, badSubstructures: [] };

t.test('counts equal nauty geng/vcolg/multig counts', async (t) => {
  const rows = readFileSync(new URL('../fixtures/structgen_reference.tsv', import.meta.url), 'utf8')
    .trim().split('\n').slice(1).map((l) => l.split('\t'));
  // The largest alkanes are left to bench/structgen.ts to keep the suite fast.
  const used = rows.filter(([f]) => !['C11H24', 'C12H26'].includes(f));
  t.ok(used.length >= 35, `${used.length} reference counts`);
  for (const [formula, restrictions, count] of used) {
    const o = restrictions === 'none' ? NO_RESTRICTIONS : restrictions === 'planar' ? { ...NO_RESTRICTIONS, planar: true } : RESTRICTED_NO_B;
    t.equal(all(formula, o).length, Number(count), `${formula} (${restrictions})`);
  }
});

t.test('alkanes C1-C10 match OEIS A000602', async (t) => {
  const a000602 = [1, 1, 1, 2, 3, 5, 9, 18, 35, 75];
  a000602.forEach((ref, i) => t.equal(all(`C${i + 1}H${2 * i + 4}`).length, ref, `C${i + 1}H${2 * i + 4}`));
});

t.test('alcohols among CnH2n+2O match OEIS A000598; acyclic alkenes among CnH2n match A000631', async (t) => {
  const a000598 = [1, 1, 2, 4, 8, 17]; // n = 1..6
  const hydroxyl = (smi: string) => withMol(rdkit, smi, (m) => withQuery(rdkit, '[OX2H1]', (q) => JSON.parse(m.get_substruct_matches(q)).length) ?? 0);
  for (let n = 1; n <= 6; n++) {
    const alcohols = smilesOf(`C${n}H${2 * n + 2}O`, NO_RESTRICTIONS).filter((s) => hydroxyl(s) > 0).length;
    t.equal(alcohols, a000598[n - 1], `C${n}H${2 * n + 2}O alcohols`);
  }
  const a000631 = [1, 1, 3, 5, 13, 27]; // n = 2..7
  for (let n = 2; n <= 7; n++) {
    const acyclic = all(`C${n}H${2 * n}`).filter((m) => m.bonds.length === n - 1).length;
    t.equal(acyclic, a000631[n - 2], `C${n}H${2 * n} acyclic alkenes`);
  }
});

t.test('every structure once: distinct canonical SMILES where no aromaticity can merge Kekule forms', async (t) => {
  for (const f of ['C5H12O', 'C6H12', 'C4H8O', 'C3H7NO']) {
    const list = smilesOf(f, NO_RESTRICTIONS);
    t.equal(new Set(list).size, list.length, `${f}: ${list.length} distinct`);
  }
});

t.test('surge defaults reproduce the original service', async (t) => {
  t.same(smilesOf('C6H6', SURGE_DEFAULTS).sort(), ['C=C1C=CC=C1', 'C1=CC=CC=C1'].map(canon).sort(), 'C6H6: fulvene and benzene');
  // C3H4: propyne, allene, cyclopropene (3 constitutional isomers).
  t.same(smilesOf('C3H4', NO_RESTRICTIONS).sort(), ['C#CC', 'C=C=C', 'C1=CC1'].map(canon).sort());
  t.same(smilesOf('C3H4', { ...NO_RESTRICTIONS, badSubstructures: [5] }).sort(), ['C#CC', 'C1=CC1'].map(canon).sort(), '-B5 removes the allene');
  t.same(smilesOf('C3H4', { ...NO_RESTRICTIONS, allowTripleBonds: false }).sort(), ['C=C=C', 'C1=CC1'].map(canon).sort(), '-T removes propyne');
  t.same(smilesOf('C3H4', { ...NO_RESTRICTIONS, allowThreeRings: false }).sort(), ['C#CC', 'C=C=C'].map(canon).sort(), '-t0 removes cyclopropene');
  // Bredt (-B3): norbornane's two 5-rings share two bonds, so no double bond at a bridgehead.
  const bridgehead = canon('C12=CCC(CC1)C2');
  const allowed = canon('C1=CC2CCC1C2');
  const free = smilesOf('C7H10', RESTRICTED_NO_B);
  const bredt = smilesOf('C7H10', { ...RESTRICTED_NO_B, badSubstructures: [3] });
  t.ok(free.includes(bridgehead) && free.includes(allowed), 'both norbornenes without -B3');
  t.ok(!bredt.includes(bridgehead) && bredt.includes(allowed), 'only norborn-2-ene with -B3');
});

// One bad-substructure class at a time against surge 1.0's own counts. Each case has the base
// count (no class) beside it, and the class must remove structures there, so every test shows
// its class at work. Classes 1, 2, 7 and 9 only matter without -T/-t0/-f0 (base "none").
const classRows = readFileSync(new URL('../fixtures/structgen_bad_classes_reference.tsv', import.meta.url), 'utf8')
  .trim().split('\n').slice(1).map((l) => {
    const [formula, base, classes, count] = l.split('\t');
    return { formula, base, classes, count: Number(count) };
  });
const counted = new Map<string, number>();
const countWith = (formula: string, base: string, classes: string): number => {
  const key = `${formula} ${base} ${classes}`;
  let n = counted.get(key);
  if (n === undefined) {
    const o = base === 'none' ? NO_RESTRICTIONS : RESTRICTED_NO_B;
    if (base !== 'none' && base !== 'planar,no-triple,no-3-ring,no-4-cycle') throw new Error(`unknown base ${base}`);
    n = 0;
    const badSubstructures = classes === 'none' ? [] : classes.split(',').map(Number);
    for (const m of generateMolecules(parseFormula(formula), { ...o, badSubstructures })) if (m) n++;
    counted.set(key, n);
  }
  return n;
};
/** The cases of one class set: surge's counts beside ours, with and without the classes. */
const classCases = (classes: string) => classRows.filter((r) => r.classes === classes).map((r) => {
  const base = classRows.find((b) => b.formula === r.formula && b.base === r.base && b.classes === 'none');
  if (!base) throw new Error(`no base row for ${r.formula} (${r.base})`);
  return { name: `${r.formula} (${r.base})`, want: r.count, wantBase: base.count,
    got: countWith(r.formula, r.base, classes), gotBase: countWith(r.formula, r.base, 'none') };
});
for (const k of [1, 2, 4, 7, 9]) {
  t.test(`bad-substructure class ${k} alone equals surge 1.0`, async (t) => {
    const cases = classCases(String(k));
    t.ok(cases.length >= 4, `${cases.length} formulas`);
    for (const c of cases) {
      t.ok(c.want < c.wantBase, `${c.name}: -B${k} removes ${c.wantBase - c.want} of ${c.wantBase}`);
      t.equal(c.gotBase, c.wantBase, `${c.name} without classes`);
      t.equal(c.got, c.want, `${c.name} with -B${k} alone`);
    }
  });
}
t.test('bad-substructure classes 3, 5, 6, 8 alone and the default set equal surge 1.0', async (t) => {
  for (const classes of ['3', '5', '6', '8', '1,2,3,4,5,7,9']) {
    const cases = classCases(classes);
    t.ok(cases.length >= 1, `-B${classes}: ${cases.length} formulas`);
    for (const c of cases) {
      t.ok(c.want < c.wantBase, `${c.name}: -B${classes} removes ${c.wantBase - c.want} of ${c.wantBase}`);
      t.equal(c.gotBase, c.wantBase, `${c.name} without classes`);
      t.equal(c.got, c.want, `${c.name} with -B${classes}`);
    }
  }
});

t.test('planarity', async (t) => {
  const graph = (n: number, edges: [number, number][]) => {
    const nb = new Array(n).fill(0);
    for (const [a, b] of edges) { nb[a] |= 1 << b; nb[b] |= 1 << a; }
    return nb;
  };
  const k5: [number, number][] = [];
  for (let a = 0; a < 5; a++) for (let b = a + 1; b < 5; b++) k5.push([a, b]);
  const k33: [number, number][] = [];
  for (let a = 0; a < 3; a++) for (let b = 3; b < 6; b++) k33.push([a, b]);
  const cycle = (k: number, off = 0) => Array.from({ length: k }, (_, i) => [off + i, off + ((i + 1) % k)] as [number, number]);
  const petersen = [...cycle(5), ...[0, 1, 2, 3, 4].map((i) => [i, 5 + ((i * 2) % 5)] as [number, number]), ...[0, 1, 2, 3, 4].map((i) => [5 + i, 5 + ((i + 1) % 5)] as [number, number])];
  const cube = [...cycle(4), ...cycle(4, 4), [0, 4], [1, 5], [2, 6], [3, 7]] as [number, number][];
  t.notOk(isPlanar(graph(5, k5), 5), 'K5');
  t.notOk(isPlanar(graph(6, k33), 6), 'K3,3');
  t.notOk(isPlanar(graph(10, petersen), 10), 'Petersen');
  t.ok(isPlanar(graph(8, cube), 8), 'cube');
  t.ok(isPlanar(graph(5, k5.slice(1)), 5), 'K5 minus an edge');
});

const ctx = (signal = new AbortController().signal, progress: unknown[] = []): TaskContext => ({ rdkit, signal, progress: (v) => { progress.push(v); }, config: testThreadConfig() });
const defaults = { limit: 1000, max_heavy_atoms: 10, planar: true, allow_triple_bonds: false, bad_substructures: '1,2,3,4,5,7,9', allow_3_rings: false, allow_4_cycles: false };
const run = (args: Record<string, unknown>, c = ctx()) => structgenTasks.generate_structures({ ...defaults, ...args } as never, c) as Promise<Record<string, unknown>>;

t.test('task: answer shape, limit, errors, cancellation', async (t) => {
  const op = structgenOps[0];
  t.match(op, { name: 'generate_structures', method: 'GET', path: '/tools/generate-structures', tag: 'tools', mode: 'long', output: 'application/json' });
  t.same(op.args.parse({ molecular_formula: 'C6H6' }), { molecular_formula: 'C6H6', ...defaults });

  const progress: unknown[] = [];
  const r = await run({ molecular_formula: 'C6H6' }, ctx(undefined, progress));
  t.match(r, { total_count: 2, generated_count: 2, formula: 'C6H6', limit_applied: false });
  t.same(Object.keys(r.settings as object), ['-P', '-T', '-B1,2,3,4,5,7,9', '-t0', '-f0']);
  t.same(progress.at(-1), { generated: 2 });

  const capped = await run({ molecular_formula: 'C6H6', limit: 5, planar: false, allow_triple_bonds: true, bad_substructures: 'none', allow_3_rings: true, allow_4_cycles: true });
  t.match(capped, { total_count: 217, generated_count: 5, limit_applied: true, settings: {} });

  await t.rejects(run({ molecular_formula: 'C11H24' }), { status: 422, message: /heavy atoms.*cap is 10/ });
  t.match(await run({ molecular_formula: 'C11H24', max_heavy_atoms: 11 }), { total_count: 159 }); // all alkanes are planar trees
  await t.rejects(run({ molecular_formula: 'C6H6Xy' }), { status: 422, message: /unsupported element 'Xy'/ });
  await t.rejects(run({ molecular_formula: 'c6h6' }), { status: 422, message: /Invalid molecular formula/ });
  await t.rejects(run({ molecular_formula: 'C6H6', bad_substructures: '1,12' }), { status: 422, message: /bad_substructures/ });
  t.match(await run({ molecular_formula: 'C2H7' }), { total_count: 0, structures: [] }, 'odd valence sum: none');

  const ac = new AbortController();
  ac.abort();
  const open = { planar: false, bad_substructures: '', allow_3_rings: true, allow_4_cycles: true, limit: 1 };
  await t.rejects(run({ molecular_formula: 'C8H8', ...open }, ctx(ac.signal)), { name: 'AbortError' });

  // Cancelled while running: the task yields to the event loop, sees the signal and stops.
  const late = new AbortController();
  const seen: unknown[] = [];
  setTimeout(() => late.abort(), 20);
  await t.rejects(run({ molecular_formula: 'C8H8', ...open }, ctx(late.signal, seen)), { name: 'AbortError' });
  t.ok(seen.length >= 1, 'progress was reported before the cancellation');
  t.ok(((seen.at(-1) as { generated: number }).generated) < 7437, 'stopped before the end');
});
