/**
 * CM 3.11's chem and tools endpoints (issue 42) against references made without natprod
 * (test/fixtures/chem311_reference.json, by test/fixtures/scripts/chem311_reference.py: CDK 2.8
 * run directly for radical fixing, native RDKit 2022.09 for the detailed filters and the RDKit
 * column of toolkit=all) and the original's own tests (tests/test_fix_radicals.py,
 * tests/test_tools.py); CDK's column of toolkit=all against CDK run directly
 * (test/fixtures/toolkits/cdk.tsv). The sugar extraction's two corrections are checked on
 * glycosides whose parts follow from the SugarDetectionUtility's documented rules.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { loadRDKit, type RDKit } from '../../shared/chem/core/rdkit.ts';
import { AppError } from '../../shared/errors.ts';
import { ROUTES } from '../../shared/toolkits/routes.ts';
import { Toolkits } from '../../shared/toolkits/index.ts';
import { loadConfig } from '../../shared/config.ts';
import { callOp, taskContext } from '../helpers/task.ts';
import { build } from '../helpers/app.ts';
import { noCdk, rows } from '../toolkits/fixtures.ts';

const rdkit: RDKit = await loadRDKit();
const ctx = taskContext(rdkit);
const ref = JSON.parse(readFileSync(new URL('../fixtures/chem311_reference.json', import.meta.url), 'utf8'));
const call = (name: string, query: Record<string, unknown>) => callOp(name, query, ctx);

function canon(smiles: string): string {
  const mol = rdkit.get_mol(smiles);
  try {
    if (!mol?.is_valid()) throw new Error(`unreadable reference SMILES ${smiles}`);
    return mol.get_smiles();
  } finally {
    mol?.delete();
  }
}

function withMolSmiles(smiles: string, stereo: boolean): string {
  const mol = rdkit.get_mol(smiles);
  try {
    if (!mol?.is_valid()) throw new Error(`unreadable SMILES ${smiles}`);
    return mol.get_smiles(JSON.stringify({ doIsomericSmiles: stereo }));
  } finally {
    mol?.delete();
  }
}

function status(fn: () => unknown): number | string {
  try {
    fn();
    return 'no error';
  } catch (e) {
    return e instanceof AppError ? e.status : String(e);
  }
}

t.test('fixRadicals: counts and structures as CDK answers them', async (t) => {
  t.ok(ref.fix_radicals.length >= 25, `${ref.fix_radicals.length} inputs`);
  for (const r of ref.fix_radicals) {
    const got = call('fix_radicals', { smiles: r.smiles }) as { fixed_smiles: string; radicals_detected: number; radicals_fixed: number };
    t.same([got.radicals_detected, got.radicals_fixed], [r.radicals_detected, r.radicals_fixed], `${r.smiles}: counts`);
    t.equal(canon(got.fixed_smiles), canon(r.fixed_smiles), `${r.smiles} -> ${got.fixed_smiles} (CDK: ${r.fixed_smiles})`);
  }
  // The original's exact strings for its own test inputs (tests/test_fix_radicals.py).
  for (const [smiles, fixed] of [['[CH3]', 'C'], ['C[CH2]', 'CC'], ['CC[CH2]', 'CCC'], ['[OH]', 'O'], ['[NH2]', 'N'], ['CC', 'CC']] as const) {
    t.equal((call('fix_radicals', { smiles }) as { fixed_smiles: string }).fixed_smiles, fixed, smiles);
  }
  // A documented difference (docs/differences.md): RDKit finds this ring aromatic, so its radical is not perceived; CDK, reading it as written, fixes it.
  t.same(call('fix_radicals', { smiles: '[C]1=CC=CC=C1' }), { fixed_smiles: '[C]1=CC=CC=C1', radicals_detected: 0, radicals_fixed: 0 });
  const again = call('fix_radicals', { smiles: 'C' }) as { radicals_detected: number };
  t.equal(again.radicals_detected, 0, 'idempotent: the fixed molecule has no radical left');
  t.equal(status(() => call('fix_radicals', { smiles: 'INVALID_SMILES' })), 422, 'invalid SMILES: 422');
  t.throws(() => call('fix_radicals', { smiles: '' }), 'empty SMILES is refused by the schema (422 over HTTP)');
});

t.test('all_filters_detailed: the original\'s answer shape and values from native RDKit', async (t) => {
  const { text, cases } = ref.filters_detailed;
  for (const c of cases) {
    const got = call('filter_molecules_detailed', { ...c.query, smiles: text });
    t.strictSame(JSON.parse(JSON.stringify(got)), c.answer, `query ${JSON.stringify(c.query)}`);
  }
  // An empty body line is skipped, unreadable lines are listed, too-large input fails the request.
  const r = call('filter_molecules_detailed', { smiles: 'CCO\n\nnot a smiles', filterOperator: 'AND' }) as { total_molecules: number; results: { valid: boolean }[] };
  t.equal(r.total_molecules, 2);
  t.same(r.results.map((x) => x.valid), [false]);
  t.throws(() => call('filter_molecules_detailed', { smiles: 'CCO', qedscore: 'abc' }), 'a malformed range is refused');
  t.equal(status(() => call('filter_molecules_detailed', { smiles: `C${'C'.repeat(2000)}` })), 422, 'over the heavy-atom bound: 422 for the request');
});

// The original's test of /tools/extract-aglycone-and-sugars (CDK SMILES, compared as structures).
const STRICTOSIDINIC = 'C=CC1C(C[C@@H]2NCCC3=C2NC2=CC=CC=C32)C(C(=O)O)=CO[C@H]1O[C@@H]1O[C@H](CO)[C@@H](O)[C@H](O)[C@H]1O';
const STRICTOSIDINIC_PARTS = ['C=CC1C(C[C@H]2C3=C(CCN2)C4=C(C=CC=C4)N3)C(=CO[C@H]1O)C(=O)O', 'C([C@@H]1[C@H]([C@@H]([C@H]([C@H](O)O1)O)O)O)O'];
const GLYCOSIDE_311 =
  'CCCCC/C=C/C=C/[C@@H](O)C/C=C/C=C/C(=O)OC1C(O)[C@H](C2=C(O)C=C(O)C=C2CO)O[C@H](CO)[C@H]1O[C@@H]1OC(CO)[C@H](O)[C@H](O)C1O[C@@H]1OC(CO)[C@H](O)[C@H](O)C1O';
const GLUCOSE = 'OC[C@H]1O[C@@H](O)[C@H](O)[C@@H](O)[C@@H]1O';

t.test('aglycone and sugar extraction', async (t) => {
  const parts = (smiles: string, q: Record<string, unknown> = {}) => (call('extract_aglycone_and_sugars', { smiles, ...q }) as string[]);
  const indices = (smiles: string, q: Record<string, unknown> = {}) => call('get_aglycone_and_sugar_indices', { smiles, ...q }) as number[][];
  t.same(parts(STRICTOSIDINIC).map(canon), STRICTOSIDINIC_PARTS.map(canon), 'the original\'s extraction test: the glycosidic O on both sides');
  t.same(indices(GLYCOSIDE_311), [Array.from({ length: 39 }, (_, i) => i), Array.from({ length: 23 }, (_, i) => 38 + i)], 'the original\'s indices test');
  // A glucuronic acid esterified by cyclohexanol: the SRU leaves the carboxy carbon on the aglycone
  // as a formate; the utility moves it, with its keto O, back to the sugar; the ester O is on both sides.
  t.same(parts('O=C(OC1CCCCC1)[C@H]1O[C@@H](O)[C@H](O)[C@@H](O)[C@@H]1O').map(canon),
    ['OC1CCCCC1', 'O=C(O)[C@H]1O[C@@H](O)[C@H](O)[C@@H](O)[C@@H]1O'].map(canon), 'carboxy correction');
  // A 6-O-cyclohexyl glucose: the C6 left on the aglycone goes back to the glucose.
  t.same(parts(`C1CCC(CC1)OC${GLUCOSE.slice(2)}`).map(canon), ['OC1CCCCC1', GLUCOSE].map(canon), 'C6 correction');
  t.same(indices(`C1CCC(CC1)OC${GLUCOSE.slice(2)}`), [[0, 1, 2, 3, 4, 5, 6], [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]], 'C6 correction: indices');
  t.same(parts(GLUCOSE), ['', canon(GLUCOSE)].map((s) => (s ? canon(s) : s)), 'a lone sugar: empty aglycone');
  t.same(indices(GLUCOSE), [[], Array.from({ length: 12 }, (_, i) => i)]);
  t.same(parts('CCO'), ['CCO'], 'no sugar: the molecule alone');
  t.same(indices('CCO'), [[0, 1, 2]]);
  const both = 'OCC(O)C(O)C(O)C(O)C1OC(CO)C(O)C(O)C1O';
  t.same(parts(both, { extract_circular_sugars: 'false', extract_linear_sugars: 'false' }), [canon(both)].map(canon), 'nothing asked: the molecule alone');
  t.same(parts(both, { extract_linear_sugars: 'true', extract_circular_sugars: 'false' }).map(canon),
    ['OCC1OCC(O)C(O)C1O', 'OCC(O)C(O)C(O)CO'].map(canon), 'linear: the open-chain pentitol part');
  t.match(parts(STRICTOSIDINIC, { mark_attach_points: 'true' }), [/\*/, /\*/], 'attachment points marked with *');
  // Post-processing splits the 1->2 linked diglucoside at its O-glycosidic bond: the bond from the
  // lower-numbered ring carbon to the linking O breaks and that carbon gets a new OH (not an input atom).
  const flat = (s: string) => withMolSmiles(s, false);
  const post = parts(GLYCOSIDE_311, { post_process_sugars: 'true' });
  t.same(post.slice(1).map(flat), [flat('OCC1OC(O)C(O)C(O)C1O'), flat('OCC1OC(O)C(O)C(O)C1O')], 'post-processing: two glucoses');
  t.same(indices(GLYCOSIDE_311, { post_process_sugars: 'true' }).slice(1), [Array.from({ length: 11 }, (_, i) => 38 + i), Array.from({ length: 12 }, (_, i) => 49 + i)]);
  t.same(indices(GLYCOSIDE_311, { post_process_sugars: 'true', limit_post_process_by_size: 'true', preservation_threshold: '13' }).at(-1),
    Array.from({ length: 23 }, (_, i) => 38 + i), 'limited by size: a 12-atom glucose is below the threshold 13, so the diglucoside stays whole');
  t.match(parts(GLYCOSIDE_311, { post_process_sugars: 'true', mark_attach_points: 'true' }).slice(1), [/\*O.*O\*/, /\*O/], 'post-processing with attachment points');
  t.same(parts('OCC(O)C(O)C(O)C(O)COCC(O)C(O)C(O)C(O)CO', { extract_linear_sugars: 'true', extract_circular_sugars: 'false', post_process_sugars: 'true' }).map((x) => (x ? flat(x) : x)),
    ['', flat('OCC(O)C(O)C(O)C(O)CO'), flat('OCC(O)C(O)C(O)C(O)CO')], 'linear: an ether of two hexitols split, the O on both');
  t.equal(status(() => parts('INVALID_INPUT')), 422);
  t.equal(status(() => parts('CCO.OC[C@H]1O[C@@H](O)[C@H](O)[C@@H](O)[C@@H]1O')), 422, 'disconnected input with only_terminal: the SRU refuses');
});

const { app } = (await build(t, 'inline'))!;

t.test('descriptors toolkit=all: [RDKit, CDK] pairs', { skip: noCdk }, async (t) => {
  for (const r of ref.all_descriptors_rdkit) {
    const res = await app.inject({ url: '/chem/descriptors', query: { smiles: r.smiles, toolkit: 'all' } });
    t.equal(res.statusCode, 200, r.smiles);
    const got = res.json() as Record<string, [unknown, unknown]>;
    t.same(Object.keys(got).slice(0, -1), Object.keys(r.values), 'names and order as the original');
    for (const [k, v] of Object.entries(r.values)) t.equal(got[k][0], v, `${r.smiles} ${k} (RDKit)`);
    t.type(got['Van der Waals Volume'][0], 'number');
    t.equal(got['QED drug likeliness'][1], 'None', 'CDK\'s QED is "None" as upstream');
  }
  // The two values only the combined table has (BondCountDescriptor, HBondDonorCountDescriptor):
  // ethanol has two heavy-atom bonds and one donor (its OH), caffeine no donor.
  const ethanol = (await app.inject({ url: '/chem/descriptors', query: { smiles: 'CCO', toolkit: 'all' } })).json() as Record<string, [unknown, unknown]>;
  t.same([ethanol['Bond count'], ethanol['Hydrogen bond donors'], ethanol['Hydrogen bond donors (Lipinski)']], [[2, 2], [1, 1], [1, 1]], 'ethanol: CDK\'s bond and donor counts');
  const caffeine = (await app.inject({ url: '/chem/descriptors', query: { smiles: 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', toolkit: 'all' } })).json() as Record<string, [unknown, unknown]>;
  t.same([caffeine['Bond count'][1], caffeine['Hydrogen bond donors'][1]], [15, 0], 'caffeine: 15 bonds between its 14 heavy atoms (two rings), no donor');
  // CDK's column: CDK run directly (test/fixtures/toolkits/make.sh) on LOTUS structures.
  const keys: Record<string, string> = {
    'Atom count': 'atom_count', 'Heavy atom count': 'heavy_atom_count', 'Molecular weight': 'molecular_weight',
    'Exact molecular weight': 'exact_molecular_weight', 'Calculated LogP': 'alogp', 'Rotatable bond count': 'rotatable_bond_count',
    'Topological polar surface area': 'topological_polar_surface_area', 'Hydrogen bond acceptors': 'hydrogen_bond_acceptors',
    "Lipinski's rule of five violations": 'lipinski_rule_of_five_violations', 'Aromatic rings count': 'aromatic_rings_count',
    'Formal Charge': 'formal_charge', FractionCSP3: 'fractioncsp3', 'Number of Minimal Rings': 'number_of_minimal_rings',
    'Van der Waals Volume': 'van_der_waals_volume',
  };
  for (const [smiles, , , desc] of rows('cdk.tsv').slice(1, 6)) {
    const expected = Object.fromEntries(desc.split(';').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
    const got = (await app.inject({ url: '/chem/descriptors', query: { smiles, toolkit: 'all' } })).json() as Record<string, [unknown, unknown]>;
    for (const [name, key] of Object.entries(keys)) {
      const v = expected[key];
      t.ok(String(got[name][1]) === v || Number(got[name][1]) === Number(v) || (v === 'null' && got[name][1] === null), `${smiles.slice(0, 20)} ${name}: ${got[name][1]} (CDK ${v})`);
    }
  }
  const html = await app.inject({ url: '/chem/descriptors', query: { smiles: 'CCO', toolkit: 'all', format: 'html' } });
  t.equal(html.statusCode, 200);
  t.match(html.body, /<th>RDKit Descriptors<\/th>\s*<th>CDK Descriptors<\/th>/);
});

t.test('toolkit=all without CDK: the 422 naming the package', async (t) => {
  const none = new Toolkits(loadConfig({ CDK_JARS: '/nonexistent', OPENBABEL_PYTHON: 'off' }));
  t.teardown(() => none.close());
  const rdkitCall = async () => ({});
  const e = (await ROUTES.generate_descriptors.run('cdk', { smiles: 'CCO', toolkit: 'all', format: 'json' }, (tk, req) => none.call(tk, req), rdkitCall)
    .catch((x: unknown) => x)) as { status: number; detail: string };
  t.equal(e.status, 422);
  t.match(e.detail, /libcdk-java/);
});
