/**
 * Sugar Removal Utility: the original service's documented answers (docs/spec/chem-service.md §2.4 tools 29-32 and
 * the upstream test suite, tests/test_tools.py of Steinbeck-Lab/cheminformatics-microservice),
 * the SRU rules of Schaub et al. 2020 on small hand-made cases whose answer follows from the
 * published rule, and the operation contract (messages, errors, parameters).
 */
import { taskContext, callOp } from '../helpers/task.ts';
import t from 'tap';
type Tap = Pick<typeof t, 'ok' | 'fail'>;
import { loadRDKit, type RDKit } from '../../shared/chem/core/rdkit.ts';
import { detectSugars, removeSugars } from '../../shared/chem/sugars/sugars.ts';
import { sugarsOps } from '../../shared/ops/sugars.ts';
import { NOTHING_LEFT, sugarsTasks } from '../../shared/ops/sugars.tasks.ts';
import { AppError } from '../../shared/errors.ts';

const rdkit: RDKit = await loadRDKit();
const ctx = taskContext(rdkit);

function throws422(t: Tap, fn: () => unknown, detail: string | undefined, what: string): void {
  try {
    fn();
    t.fail(`${what}: no error`);
  } catch (e) {
    t.ok(e instanceof AppError && e.status === 422 && (detail === undefined || e.detail === detail), `${what}: 422 ${detail ?? ''}`);
  }
}

function call(name: string, query: Record<string, unknown>): unknown {
  return callOp(name, query, ctx) as unknown;
}

function canon(smiles: string, stereo = true): string {
  const mol = rdkit.get_mol(smiles)!;
  try { return mol.get_smiles(JSON.stringify({ doIsomericSmiles: stereo })); } finally { mol.delete(); }
}

const UPSTREAM = 'OCC(O)C(O)C(O)C(O)C1OC(CO)C(O)C(O)C1O';

t.test('registry entries as the spec names them', async (t) => {
  t.same(sugarsOps.map((o) => [o.name, o.method, o.path, o.tag]), [
    ['get_sugar_information', 'GET', '/tools/sugars-info', 'tools'],
    ['remove_linear_sugars', 'GET', '/tools/remove-linear-sugars', 'tools'],
    ['remove_circular_sugars', 'GET', '/tools/remove-circular-sugars', 'tools'],
    ['remove_linear_and_circular_sugars', 'GET', '/tools/remove-sugars', 'tools'],
    ['extract_aglycone_and_sugars', 'GET', '/tools/extract-aglycone-and-sugars', 'tools'],
    ['get_aglycone_and_sugar_indices', 'GET', '/tools/get-aglycone-and-sugar-indices', 'tools'],
  ]);
  for (const o of sugarsOps) t.ok(sugarsTasks[o.task], `${o.name} has a task`);
  const info = sugarsOps[0].args.parse({ smiles: 'C' });
  t.match(info, { gly_bond: false, oxygen_atoms: true, oxygen_atoms_threshold: 0.5, linear_sugars_in_rings: false,
    linear_sugars_min_size: 4, linear_sugars_max_size: 7, linear_acidic_sugars: false, spiro_sugars: false, keto_sugars: false });
  t.match(sugarsOps[2].args.parse({ smiles: 'C' }), { gly_bond: true, only_terminal: true, preservation_mode: 2, preservation_threshold: 5, mark_attach_points: false });
  t.throws(() => sugarsOps[1].args.parse({ smiles: 'C', preservation_mode: 4 }));
  t.throws(() => sugarsOps[0].args.parse({ smiles: 'C', oxygen_atoms_threshold: 1.5 }));
});

t.test('upstream documented answers (docs/spec/chem-service.md §2.4, upstream tests/test_tools.py)', async (t) => {
  t.equal(call('get_sugar_information', { smiles: UPSTREAM }), 'The molecule contains Linear and Circular sugars');
  // Upstream answers are CDK canonical SMILES; we compare structures, stereo included.
  t.equal(canon(call('remove_linear_sugars', { smiles: UPSTREAM }) as string), canon('C(C1C(C(C(CO1)O)O)O)O'));
  t.equal(canon(call('remove_circular_sugars', { smiles: UPSTREAM }) as string), canon('C(C(C(C(C(C1C(C(C(C(CO)O1)O)O)O)O)O)O)O)O'));
  const big = 'O=C(O)C1=CC(O)C(O)C(OC(=O)C2C(=CC=3C=C(O)C(OC4OC(CO)C(O)C(O)C4O)=CC3C2C5=CC=C(O)C(O)=C5)C(=O)OCC(O)C(O)C(O)C(O)C(O)CO)C1';
  t.equal(canon(call('remove_linear_and_circular_sugars', { smiles: big }) as string),
    canon('C1=C(C=C(C(=C1)O)O)C2C3=C(C=C(C=O)C2C(=O)OC4CC(=CC(C4O)O)C(=O)O)C=C(C(=C3)O)O'));
});

t.test('messages and errors of the original service', async (t) => {
  t.equal(call('get_sugar_information', { smiles: 'CCO' }), 'The molecule contains no sugar');
  t.equal(call('get_sugar_information', { smiles: 'OC[C@H]1O[C@H](O)[C@H](O)[C@@H](O)[C@@H]1O' }), 'The molecule contains only Circular sugar');
  t.equal(call('get_sugar_information', { smiles: 'OC[C@H](O)[C@H](O)[C@@H](O)[C@@H](O)C=O' }), 'The molecule contains only Linear sugar');
  t.equal(call('remove_linear_sugars', { smiles: 'CCO' }), 'No Linear sugar found');
  t.equal(call('remove_circular_sugars', { smiles: 'CCO' }), 'No Circular sugars found');
  t.equal(call('remove_linear_and_circular_sugars', { smiles: 'CCO' }), 'No Linear or Circular sugars found');
  const empty = (name: string, smiles: string, detail: string) => throws422(t, () => call(name, { smiles }), detail, name);
  // Nothing left: still the original's 422, with one explanation instead of its three texts that blamed the SMILES.
  empty('remove_linear_sugars', 'OC[C@H](O)[C@H](O)[C@@H](O)[C@@H](O)C=O', NOTHING_LEFT);
  empty('remove_circular_sugars', 'OC[C@H]1O[C@H](O)[C@H](O)[C@@H](O)[C@@H]1O', NOTHING_LEFT);
  empty('remove_linear_and_circular_sugars', 'OC[C@H]1O[C@H](O)[C@H](O)[C@@H](O)[C@@H]1O', NOTHING_LEFT);
  for (const o of sugarsOps) {
    throws422(t, () => call(o.name, { smiles: 'INVALID_INPUT' }), 'Error reading smiles, check again: INVALID_INPUT', `${o.name} invalid`);
  }
  throws422(t, () => call('remove_circular_sugars', { smiles: 'Oc1ccccc1O[C@@H]1O[C@H](CO)[C@@H](O)[C@H](O)[C@H]1O.CCCCCC' }),
    undefined, 'disconnected input with terminal-only removal');
  throws422(t, () => call('remove_linear_sugars', { smiles: 'CCO', linear_sugars_min_size: 6, linear_sugars_max_size: 5 }), undefined, 'min > max');
});

// Rule-derived cases: each expectation follows from the SRU definitions in the paper.
const GLC = 'O[C@@H]1O[C@H](CO)[C@@H](O)[C@H](O)[C@H]1O'.slice(1); // β-D-glucopyranosyl, attached by its C1

t.test('stereo of the aglycone is kept', async (t) => {
  // L-menthyl β-D-glucoside → L-menthol, (1R,2S,5R) as PubChem writes it.
  const menthol = 'CC(C)[C@@H]1CC[C@@H](C)C[C@H]1O';
  t.equal(canon(removeSugars(rdkit, `${menthol}${GLC}`, 'circular').smiles), canon(menthol));
  const cinnamyl = 'OC/C=C/c1ccccc1';
  t.equal(canon(removeSugars(rdkit, `c1ccccc1/C=C/CO${GLC}`, 'both').smiles), canon(cinnamyl));
});

t.test('circular sugar rules', async (t) => {
  // Exocyclic oxygen ratio: ribose of adenosine has 2 exocyclic O on 5 ring atoms (0.4 < 0.5).
  const adenosine = 'Nc1ncnc2c1ncn2[C@@H]1O[C@H](CO)[C@@H](O)[C@H]1O';
  t.same(detectSugars(rdkit, adenosine), { hasLinear: false, hasCircular: false });
  t.same(detectSugars(rdkit, adenosine, { oxygenAtomsThreshold: 0.4 }), { hasLinear: false, hasCircular: true });
  t.same(detectSugars(rdkit, adenosine, { oxygenAtoms: false }).hasCircular, true);
  // Keto group on a ring carbon only with keto_sugars; spiro rings only with spiro_sugars.
  const keto = 'OCC1OC(Oc2ccccc2)C(O)C(=O)C1O';
  t.equal(detectSugars(rdkit, keto).hasCircular, false);
  t.equal(detectSugars(rdkit, keto, { ketoSugars: true }).hasCircular, true);
  const spiro = 'OC1C(O)C(O)C2(CCCCC2)OC1CO';
  t.equal(detectSugars(rdkit, spiro).hasCircular, false);
  t.equal(canon(removeSugars(rdkit, spiro, 'circular', { spiroSugars: true }, { spiroSugars: true }).smiles), canon('C1CCCCC1'), 'spiro atom kept');
  // A fused ring is never a circular sugar; an aromatic-ring ether O is a glycosidic bond.
  t.equal(detectSugars(rdkit, 'OC1C(O)C2CCCCC2OC1O').hasCircular, false);
  // C-glycoside: found, but kept while the O-glycosidic bond is required.
  const cgly = 'Oc1ccccc1[C@@H]1O[C@H](CO)[C@@H](O)[C@H](O)[C@H]1O';
  t.equal(canon(call('remove_circular_sugars', { smiles: cgly }) as string), canon(cgly));
  t.equal(canon(call('remove_circular_sugars', { smiles: cgly, gly_bond: false }) as string), canon('Oc1ccccc1'));
  t.equal(call('get_sugar_information', { smiles: cgly }), 'The molecule contains only Circular sugar');
  t.equal(call('get_sugar_information', { smiles: cgly, gly_bond: 'true' }), 'The molecule contains no sugar');
});

t.test('terminal removal and preservation modes', async (t) => {
  // Glucose between two phenyl ethers: removing it leaves phenol (7 heavy atoms) and anisole (8).
  const bridged = 'c1ccccc1OC1OC(COc2ccccc2)C(O)C(O)C1O';
  t.equal(canon(removeSugars(rdkit, bridged, 'circular').smiles), canon(bridged), 'not terminal: kept');
  t.equal(canon(removeSugars(rdkit, bridged, 'circular', { onlyTerminal: false }).smiles), canon('COc1ccccc1.Oc1ccccc1'));
  t.equal(canon(removeSugars(rdkit, bridged, 'circular', { preservationThreshold: 8 }).smiles), canon('COc1ccccc1'), 'phenol too small');
  t.equal(canon(removeSugars(rdkit, bridged, 'circular', { preservationMode: 'molecular-weight', preservationThreshold: 100 }).smiles),
    canon('COc1ccccc1'), 'phenol 94 Da below 100 Da');
  t.equal(canon(removeSugars(rdkit, bridged, 'circular', { preservationMode: 'all' }).smiles), canon(bridged), 'even OH groups are kept');
  // Disaccharide chain: the outer sugar goes first, then the inner one becomes terminal.
  const gentiobioside = 'Oc1ccc(cc1)O[C@@H]1O[C@H](CO[C@@H]2O[C@H](CO)[C@@H](O)[C@H](O)[C@H]2O)[C@@H](O)[C@H](O)[C@H]1O';
  t.equal(canon(removeSugars(rdkit, gentiobioside, 'circular').smiles), canon('Oc1ccc(O)cc1'));
  t.equal(canon(removeSugars(rdkit, `c1ccccc1O${GLC}`, 'circular', { markAttachPoints: true }).smiles), canon('*Oc1ccccc1'));
});

t.test('linear sugar rules', async (t) => {
  // Pentitol (5 C) on a phenyl ether: within 4-7 carbons, removed; outside the window, not. The
  // pattern's terminal C-O matches the ether oxygen, which therefore leaves with the chain (as
  // the ester oxygen does in the upstream remove-sugars example, leaving an aldehyde).
  const pentityl = 'OCC(O)C(O)C(O)COc1ccc(Cl)cc1';
  t.equal(canon(removeSugars(rdkit, pentityl, 'linear').smiles), canon('Clc1ccccc1'));
  t.equal(detectSugars(rdkit, pentityl, { linearMaxSize: 4 }).hasLinear, false);
  t.equal(detectSugars(rdkit, 'OCC(O)COc1ccc(Cl)cc1').hasLinear, false, 'glycerol (3 C) below the minimum');
  // Acidic sugars only when asked (3,5-dihydroxyhexanoate).
  const acid = 'c1ccccc1OC(=O)CC(O)CC(O)C';
  t.equal(detectSugars(rdkit, acid).hasLinear, false);
  t.equal(detectSugars(rdkit, acid, { linearAcidicSugars: true }).hasLinear, true);
  // A polyol chain inside a macrocycle only with linear_sugars_in_rings.
  const macro = 'O=C1CCCCCCCCCC(O)C(O)C(O)C(O)CO1';
  t.equal(detectSugars(rdkit, macro).hasLinear, false);
  t.equal(detectSugars(rdkit, macro, { linearSugarsInRings: true }).hasLinear, true);
});
