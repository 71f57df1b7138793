/**
 * Natural-product family (issue 5): molecules per second of each operation on the fixture
 * molecules, on one thread and on the Piscina pool, then agreement with the committed references,
 * compared as the tests in test/chem/ compare them:
 *  - HOSE codes vs CDK 2.8 HOSECodeGenerator, every atom, spheres and ringsize of
 *    test/fixtures/hose-reference.json (hose.test.ts);
 *  - NP-likeness within 0.01 of RDKit Contrib NP_Score, all 500 rows of nplikeness_reference.tsv
 *    (nplikeness.test.ts);
 *  - Ertl functional groups vs RDKit Contrib IFG (ifg-reference.json): atom sets per molecule,
 *    then per group the type and environment strings, and the same fragment graphs (ifg.test.ts);
 *  - Sugar Removal Utility: the SRU authors' cases (sugars_sru_author_cases.json), LOTUS NPOC2020
 *    sugar-free structures (sugars_lotus_npoc2020.tsv) and the named glycosides
 *    (sugars_named_glycosides.tsv), as RDKit canonical SMILES without stereo (sugars-*.test.ts).
 * Operations not yet in the registry or the task table are listed as such. Prints figures;
 * asserts nothing.
 *
 *   node --import tsx bench/np.ts        (env: WORKERS threads, default 2; N molecules per operation, default 200)
 */
import { hoseCodes, hoseGraph } from '../shared/chem/hose/hose.ts';
import { functionalGroups, type FunctionalGroup } from '../shared/chem/fragments/ifg.ts';
import { npLikeness } from '../shared/chem/scores/nplikeness.ts';
import { loadRDKit, withMol, type RDKit } from '../shared/chem/core/rdkit.ts';
import { detectSugars, removeSugars, sugarInfoMessage, type SugarOptions } from '../shared/chem/sugars/sugars.ts';
import { npModel } from '../shared/ops/descriptors.tasks.ts';
import { done, header, measure } from './tasks.ts';
import { fixture, tsv } from '../test/helpers/tables.ts';

const N = Number(process.env.N ?? 200);
const rdkit: RDKit = await loadRDKit();
const pct = (a: number, b: number) => `${a}/${b} (${((100 * a) / b).toFixed(1)}%)`;

const hoseRef = JSON.parse(fixture('hose-reference.json')) as {
  molecules: { smiles: string; spheres: Record<string, string[]>; ringsize?: Record<string, string[]> }[];
};
const ifgRef = JSON.parse(fixture('ifg-reference.json')) as { molecules: { smiles: string; groups: FunctionalGroup[] }[] };
const npRows = tsv(fixture('nplikeness_reference.tsv'));
const filterRows = tsv(fixture('filters_reference.tsv'));
const descriptorRows = tsv(fixture('descriptors_reference.tsv'));
const lotusSugars = tsv(fixture('sugars_lotus_npoc2020.tsv'));
const namedGlycosides = tsv(fixture('sugars_named_glycosides.tsv'));
const sruCases = (JSON.parse(fixture('sugars_sru_author_cases.json')) as { cases: SruCase[] }).cases;

interface SruStep { op: 'both' | 'circular' | 'linear' | 'hasLinear' | 'hasCircular'; options: Partial<SugarOptions>; expected: string | boolean; fresh?: boolean }
interface SruCase { id: string; smiles: string; steps: SruStep[] }

const sugarSmiles = lotusSugars.slice(0, N).map((r) => ({ smiles: r.smiles }));
await header(`Natural-product operations: throughput (${N} molecules per operation at most)`);
await measure('get_sugar_information', sugarSmiles);
await measure('remove_linear_and_circular_sugars', sugarSmiles);
await measure('generate_HOSE_codes', hoseRef.molecules.slice(0, N).map((m) => ({ smiles: m.smiles, spheres: 4 })), 'generate_HOSE_codes (4 spheres)');
await measure('generate_fragment_functional_groups', ifgRef.molecules.slice(0, N).map((m) => ({ smiles: m.smiles })));
await measure('generate_nplikeness_score', npRows.slice(0, N).map((r) => ({ smiles: r.smiles })));
await measure('filter_molecules', filterRows.slice(0, N).map((r) => ({ smiles: r.smiles })), 'filter_molecules (one per call)');
await measure('generate_descriptors', descriptorRows.slice(0, N).map((r) => ({ smiles: r.smiles })));
await measure('generate_collection_preprocessing', descriptorRows.slice(0, N).map((r) => ({ smiles: r.smiles })));
await done();

console.log('\nAgreement with the committed references');

{
  let same = 0;
  let total = 0;
  for (const m of hoseRef.molecules) {
    const g = hoseGraph(rdkit, m.smiles);
    const runs: [number, boolean, string[]][] = Object.entries(m.spheres).map(([s, c]) => [Number(s), false, c]);
    for (const [s, c] of Object.entries(m.ringsize ?? {})) runs.push([Number(s), true, c]);
    for (const [spheres, ringsize, expected] of runs) {
      const got = g ? hoseCodes(g, spheres, ringsize) : [];
      total += expected.length;
      same += expected.filter((code, i) => got[i] === code).length;
    }
  }
  console.log(`HOSE codes identical to CDK 2.8 (${hoseRef.molecules.length} molecules, every atom): ${pct(same, total)}`);
}

{
  const model = npModel();
  let within = 0;
  let maxDev = 0;
  let maxConfDev = 0;
  for (const r of npRows) {
    const got = withMol(rdkit, r.smiles, (mol) => npLikeness(rdkit, mol, model));
    const dev = Math.abs(got.score - Number(r.nplikeness));
    if (dev <= 0.01) within++;
    maxDev = Math.max(maxDev, dev);
    maxConfDev = Math.max(maxConfDev, Math.abs(got.confidence - Number(r.confidence)));
  }
  console.log(`NP-likeness within 0.01 of RDKit Contrib NP_Score: ${pct(within, npRows.length)}; max |deviation| ${maxDev.toExponential(2)}; confidence max |deviation| ${maxConfDev.toExponential(2)}`);
}

/**
 * A fragment SMILES as a heavy-atom graph (elements, aromaticity, charges, bonds), whatever the
 * canonical atom order, stereo marks and written hydrogens: every atom bracketed without H and
 * read unsanitised, so the canonical order rests on the graph alone.
 */
function graphOf(smiles: string): string {
  const plain = smiles
    .replace(/[/\\]/g, '')
    .replace(/\[(\d*)([A-Za-z][a-z]?)@*(?:H\d*)?([+-]\d*)?\]|(Br|Cl|[BCNOPSFI]|[bcnops])/g,
      (_, iso?: string, sym?: string, chg?: string, bare?: string) => `[${iso ?? ''}${sym ?? bare}${chg ?? ''}]`);
  const m = rdkit.get_mol(plain, JSON.stringify({ sanitize: false }));
  try { return m?.get_smiles() ?? ''; } finally { m?.delete(); }
}

{
  const ids = (gs: FunctionalGroup[]) => JSON.stringify(gs.map((g) => g[0].join(',')).sort());
  let sameIds = 0;
  let groups = 0;
  let sameType = 0;
  let exact = 0;
  let sameGraphs = 0;
  for (const m of ifgRef.molecules) {
    const got = withMol(rdkit, m.smiles, (mol) => functionalGroups(rdkit, mol));
    if (ids(got) === ids(m.groups)) sameIds++;
    for (const g of m.groups) {
      groups++;
      const mine = got.find((x) => x[0].join(',') === g[0].join(','));
      if (!mine) continue;
      if (mine[1] === g[1]) sameType++;
      if (mine[1] === g[1] && mine[2] === g[2]) exact++;
      if (graphOf(mine[1]) === graphOf(g[1]) && graphOf(mine[2]) === graphOf(g[2])) sameGraphs++;
    }
  }
  console.log(`Ertl groups, atom sets identical to RDKit Contrib IFG: ${pct(sameIds, ifgRef.molecules.length)} molecules`);
  console.log(`Ertl groups, per group: type string identical ${pct(sameType, groups)}; type and environment strings identical ${pct(exact, groups)}; same fragment graphs ${pct(sameGraphs, groups)}`);
}

/** RDKit canonical SMILES without stereo, as the sugar tests compare structures. */
function flat(smiles: string): string {
  if (smiles === '') return '';
  const mol = rdkit.get_mol(smiles);
  try { return mol ? mol.get_smiles(JSON.stringify({ doIsomericSmiles: false })) : `unreadable ${smiles}`; } finally { mol?.delete(); }
}

{
  let steps = 0;
  let agree = 0;
  for (const c of sruCases) {
    let current = c.smiles;
    for (const s of c.steps) {
      if (s.fresh) current = c.smiles;
      steps++;
      if (s.op === 'hasLinear' || s.op === 'hasCircular') {
        const p = detectSugars(rdkit, current, s.options);
        if ((s.op === 'hasLinear' ? p.hasLinear : p.hasCircular) === s.expected) agree++;
        continue;
      }
      let out: string;
      try {
        const r = current === '' ? { found: false, smiles: '' } : removeSugars(rdkit, current, s.op, s.options, s.options);
        out = r.found ? r.smiles : current;
      } catch {
        continue; // a refusal is a disagreement; the next step starts from the same structure
      }
      const want = s.expected === 'unchanged' ? flat(current) : flat(String(s.expected));
      if (flat(out) === want) agree++;
      current = out;
    }
  }
  console.log(`SRU authors' test cases (${sruCases.length} molecules): ${pct(agree, steps)} steps as published`);
}

{
  const biggest = (smiles: string) =>
    smiles.split('.').map((f) => ({ f, n: withMol(rdkit, f, (m) => m.get_num_atoms()) })).sort((a, b) => b.n - a.n)[0].f;
  let agree = 0;
  let changed = 0;
  for (const r of lotusSugars) {
    const ref = flat(r.sugar_free_smiles);
    if (ref !== flat(r.smiles)) changed++;
    const res = removeSugars(rdkit, r.smiles, 'both', { onlyTerminal: false, spiroSugars: true });
    const mine = res.found ? (res.smiles === '' ? '' : flat(biggest(res.smiles))) : flat(r.smiles);
    if (mine === ref) agree++;
  }
  console.log(`LOTUS NPOC2020 sugar-free structures (Java SRU) identical: ${pct(agree, lotusSugars.length)} (${changed} changed by sugar removal)`);
}

{
  let agree = 0;
  for (const r of namedGlycosides) {
    let got: string;
    if (r.operation === 'sugars-info') got = sugarInfoMessage(detectSugars(rdkit, r.smiles)).replace('The molecule contains ', '');
    else {
      const kind = r.operation === 'remove-linear' ? 'linear' : r.operation === 'remove-sugars' ? 'both' : 'circular';
      got = flat(removeSugars(rdkit, r.smiles, kind, { glycosidicBond: r.operation !== 'remove-circular-no-gly' }, {}).smiles);
    }
    const want = r.expected === '=input' ? flat(r.smiles) : r.operation === 'sugars-info' ? r.expected : flat(r.expected);
    if (got === want) agree++;
  }
  console.log(`named LOTUS glycosides against their literature aglycones: ${pct(agree, namedGlycosides.length)}`);
}
