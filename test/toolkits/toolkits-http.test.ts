/**
 * toolkit=cdk and toolkit=openbabel through the REST routes (inline runner), compared with what CDK
 * and Open Babel answer when run directly on 30 LOTUS SMILES (test/fixtures/toolkits/make.sh: a
 * Java program on Debian's CDK jars, the obabel executable and Open Babel's Python module; never
 * natprod). Also: what each toolkit refuses, the 422 of a toolkit that is not installed, /health.
 * Each toolkit's part is skipped with the reason when it is not installed.
 */
import t from 'tap';
import { build } from '../helpers/app.ts';
import { Toolkits } from '../../shared/toolkits/index.ts';
import { body, noCdk, noOb, rows } from './fixtures.ts';
import { loadConfig } from '../../shared/config.ts';


const { app } = (await build(t, 'inline'))!;
const get = (url: string, query: Record<string, string>) => app.inject({ url, query });
/**
 * Its connection table only (elements in order; bonds as unordered pairs with their orders):
 * Open Babel's OBBuilder places atoms differently at each run, and its molfile writer orders the
 * bonds and points the wedges after the coordinates (as upstream).
 */
function table(molblock: string): string {
  const lines = molblock.split('\n');
  const [atoms, bonds] = [Number(lines[3].slice(0, 3)), Number(lines[3].slice(3, 6))];
  const elements = lines.slice(4, 4 + atoms).map((l) => l.slice(31, 34).trim());
  const pairs = lines.slice(4 + atoms, 4 + atoms + bonds).map((l) => {
    const [x, y, order] = [Number(l.slice(0, 3)), Number(l.slice(3, 6)), l.slice(6, 9).trim()];
    return `${Math.min(x, y)}-${Math.max(x, y)}:${order}`;
  });
  return `${elements.join(' ')} | ${pairs.sort().join(' ')}`;
}

t.test('Open Babel answers what obabel and its Python module answer', { skip: noOb }, async (t) => {
  const ref = rows('openbabel.tsv').slice(1);
  const mol2d = new Map(rows('openbabel_mol2d.tsv').map(([s, m]) => [s, m.replaceAll('\\n', '\n')]));
  t.ok(ref.length >= 30, `${ref.length} LOTUS structures`);
  let same = 0;
  for (const [smiles, can, inchi, key] of ref) {
    const [a, b, c, d, f] = await Promise.all([
      get('/convert/canonicalsmiles', { smiles, toolkit: 'openbabel' }),
      get('/convert/inchi', { smiles, toolkit: 'openbabel' }),
      get('/convert/inchikey', { smiles, toolkit: 'openbabel' }),
      get('/convert/mol2D', { smiles, toolkit: 'openbabel' }),
      get('/convert/formats', { smiles, toolkit: 'openbabel' }),
    ]);
    const ok = a.json() === can && b.json() === inchi && c.json() === key && table(d.body) === table(mol2d.get(smiles)!);
    const formats = f.json();
    const fok = formats.canonicalsmiles === can && formats.inchi === inchi && formats.inchikey === key && table(formats.mol) === table(mol2d.get(smiles)!);
    if (ok && fok) same++;
    else t.fail(`${smiles}: ${a.body} ${b.body} ${c.body} formats ${fok}`);
  }
  t.equal(same, ref.length, 'canonical SMILES, InChI, InChIKey, mol2D and formats equal Open Babel run directly');
  // The smallest structure: Open Babel's make3D with gen3D --best (as upstream) takes seconds on
  // a glycoside, past TOOLKIT_TIMEOUT_MS on a busy machine.
  const small = ref.map((r) => r[0]).sort((x, y) => x.length - y.length)[0];
  const three = await get('/convert/mol3D', { smiles: small, toolkit: 'openbabel' });
  t.equal(three.statusCode, 200);
  t.equal(table(three.body), table(mol2d.get(small)!), 'mol3D: the same atoms and bonds (coordinates are random, as upstream)');
  const viewer = await get('/depict/3D', { smiles: 'CCO', toolkit: 'openbabel' });
  t.equal(viewer.statusCode, 200);
  t.match(viewer.body, /OpenBabel\d+3D/, 'the 3D viewer shows Open Babel\'s molfile');
  t.equal((viewer.body.match(/\d H {3}0 /g) ?? []).length, 6, 'with its 6 hydrogens, as the original');
  const bad = await get('/convert/canonicalsmiles', { smiles: 'C1CC(', toolkit: 'openbabel' });
  t.equal(bad.statusCode, 422, 'an unreadable SMILES is a 422');
  t.match(bad.json().detail, /Open Babel could not read/);
});

t.test('CDK answers what CDK run directly answers', { skip: noCdk }, async (t) => {
  const ref = rows('cdk.tsv');
  t.ok(ref.length >= 30, `${ref.length} LOTUS structures`);
  let same = 0;
  for (const [i, [smiles, molblock, hose, desc, ringHose, tanimoto]] of ref.entries()) {
    const next = ref[(i + 1) % ref.length][0];
    const [m, h, d, hr, ta] = await Promise.all([
      get('/convert/mol2D', { smiles, toolkit: 'cdk' }),
      get('/chem/HOSEcode', { smiles, spheres: '2', toolkit: 'cdk' }),
      get('/chem/descriptors', { smiles, toolkit: 'cdk' }),
      get('/chem/HOSEcode', { smiles, spheres: '3', toolkit: 'cdk', ringsize: 'true' }),
      get('/chem/bitsimilarity', { smiles: `${smiles},${next}`, toolkit: 'cdk', radius: '4' }),
    ]);
    const expected = Object.fromEntries(desc.split(';').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
    const got = d.json();
    const descOk = Object.entries(expected).every(([k, v]) => String(got[k]) === v || (v === 'null' && got[k] === null) || Number(got[k]) === Number(v));
    const donorsQuirk = got.hydrogen_bond_donors === got.hydrogen_bond_acceptors && got.qed_drug_likeliness === 'None';
    const ringOk = hr.json().join(' ') === ringHose && ta.json() === Number(tanimoto);
    const ok = body(m.body) === molblock.replaceAll('\\n', '\n') && h.json().join(' ') === hose && descOk && donorsQuirk && ringOk;
    if (ok) same++;
    else t.fail(`${smiles}: mol2D ${body(m.body) === molblock.replaceAll('\\n', '\n')} hose ${h.json().join(' ') === hose} ring hose ${hr.body} tanimoto ${ta.body} descriptors ${JSON.stringify(got)}`);
  }
  t.equal(same, ref.length, 'mol2D, HOSE codes (2 spheres; 3 with ring sizes), ECFP4 Tanimoto and descriptors equal CDK run directly');

  const caffeine = 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C';
  const d = (await get('/chem/descriptors', { smiles: caffeine, toolkit: 'cdk' })).json();
  const r = (await get('/chem/descriptors', { smiles: caffeine })).json();
  t.same(Object.keys(d), Object.keys(r), 'the 23 keys in the same order as rdkit');
  t.equal(d.topological_polar_surface_area, 56.22, 'caffeine TPSA 56.22 with CDK (spec §6)');
  t.same([d.linear_sugars, d.circular_sugars, d.nplikeness], [r.linear_sugars, r.circular_sugars, r.nplikeness], 'sugar flags and NP-likeness as rdkit');
  const html = await get('/chem/descriptors', { smiles: caffeine, toolkit: 'cdk', format: 'html' });
  t.match(html.headers['content-type'], /text\/html/);
  const multi = (await get('/chem/descriptors/multiple', { smiles: `${caffeine},CCO`, toolkit: 'cdk' })).json();
  t.same(Object.keys(multi), [caffeine, 'CCO']);

  const svg = await get('/depict/2D', { smiles: caffeine, toolkit: 'cdk', CIP: 'true', rotate: '30' });
  t.equal(svg.statusCode, 200);
  t.match(svg.body, /Generated by the Chemistry Development Kit/, 'the SVG is CDK\'s');
  t.equal((await get('/depict/2D', { smiles: caffeine, toolkit: 'cdk', highlight: '[' })).statusCode, 422, 'a bad SMARTS is a 422');

  const matrix = await get('/chem/bitsimilarity', { smiles: `${ref[0][0]},${ref[1][0]},${ref[0][0]}`, toolkit: 'cdk', radius: '4' });
  t.same(matrix.json()[0], [1, Number(ref[0][5]), 1], 'three molecules: the matrix of CDK Tanimoto values');
  t.equal((await get('/chem/bitsimilarity', { smiles: 'CCO,CC', toolkit: 'cdk', radius: '3' })).statusCode, 422, 'CDK has ECFP2, 4 and 6 only');
  t.equal((await get('/chem/bitsimilarity', { smiles: 'CCO,CC', toolkit: 'cdk', fingerprinter: 'MACCS' })).statusCode, 422, 'MACCS is not a CDK fingerprint here');

  // Canonical isomeric SMILES, InChI and the rest with JNI-InChI: test/toolkits/cdk-inchi.test.ts.
  const bad = await get('/convert/mol2D', { smiles: 'C1CC(', toolkit: 'cdk' });
  t.equal(bad.statusCode, 422);
  t.match(bad.json().detail, /CDK could not read the SMILES/);
});

t.test('operations a toolkit does not do answer 422 naming those they accept', async (t) => {
  for (const [url, toolkit, allowed] of [
    ['/convert/mol3D', 'cdk', /'openchemlib', 'openbabel' or 'rdkit'/],
    ['/convert/cxsmiles', 'openbabel', /'rdkit' or 'cdk'/],
    ['/chem/descriptors', 'openbabel', /'rdkit', 'cdk' or 'all'/],
    ['/convert/smarts', 'cdk', /'rdkit'/],
  ] as const) {
    const res = await get(url, { smiles: 'CCO', toolkit });
    t.equal(res.statusCode, 422, `${url} toolkit=${toolkit}`);
    t.match(JSON.stringify(res.json().detail), allowed);
  }
});

t.test('a toolkit that is not installed is a 422 naming the package; /health lists both', async (t) => {
  const config = loadConfig({ CDK_JARS: '/nonexistent', OPENBABEL_PYTHON: 'off' });
  const none = new Toolkits(config);
  const e = (await none.call('cdk', { op: 'mol2d', smiles: 'CCO' }).catch((x: unknown) => x)) as { status: number; detail: string };
  t.equal(e.status, 422);
  t.match(e.detail, /libcdk-java/);
  t.match(none.health(), { cdk: { available: false, state: 'not installed', install: /libcdk-java/ }, openbabel: { available: false, state: 'disabled' } });
  const health = (await app.inject({ url: '/health' })).json();
  t.match(health.toolkits, { cdk: { available: !noCdk, version: noCdk ? null : /^CDK 2\./ }, openbabel: { available: !noOb } });
  await none.close();
});
