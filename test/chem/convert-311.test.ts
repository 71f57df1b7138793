/**
 * CM 3.11's conversion endpoints over REST (inline runner): /convert/detect-format, /convert/batch,
 * /convert/molblock, /convert/xyz, /convert/cdx-to-mol. Expected answers come from the original's
 * own tests (tests/test_converters.py, test_format_detection.py, test_xyz_to_mol.py,
 * test_xyz_split.py, test_cdx_to_mol.py at CM f87749b) and from Open Babel and native RDKit run
 * directly (test/fixtures/convert311/reference.json, test/fixtures/scripts/convert311_reference.py).
 * The Open Babel parts are skipped, naming the package, where it is not installed.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { build } from '../helpers/app.ts';
import { noOb } from '../toolkits/fixtures.ts';
import { splitXyzFrames } from '../../shared/chem/convert/detect.ts';
import { maximumMatching } from '../../shared/chem/convert/xyz-bonds.ts';

const D = new URL('../fixtures/convert311/', import.meta.url);
const file = (name: string) => readFileSync(new URL(name, D));
const text = (name: string) => file(name).toString('utf8');
const ref = JSON.parse(text('reference.json'));

const WATER = text('water.xyz');
const ACETATE = text('acetate.xyz');
const METALLOCENES = text('metallocenes_truncated.xyz');
const METHANE = '5\nmethane\nC    0.0000    0.0000    0.0000\nH    0.6300    0.6300    0.6300\nH   -0.6300   -0.6300    0.6300\nH   -0.6300    0.6300   -0.6300\nH    0.6300   -0.6300   -0.6300\n';
// The original's test constants.
const WATER_KEY = 'XLYOFNOQVPJJNP-UHFFFAOYSA-N';
const ACETATE_KEY = 'QTBSBXVTEAMEQO-UHFFFAOYSA-M';
const METHANE_KEY = 'VNWKTOKETHGBQD-UHFFFAOYSA-N';
const CAFFEINE_INCHI = 'InChI=1S/C8H10N4O2/c1-10-4-9-6-5(10)7(13)12(3)8(14)11(6)2/h4H,1-3H3';
const CAFFEINE_SELFIES = '[C][N][C][=N][C][=C][Ring1][Branch1][C][=Branch1][C][=O][N][Branch1][=Branch2][C][=Branch1][C][=O][N][Ring1][Branch2][C][C]';
const MOLBLOCK = `
  CDK     08302311362D

  4  3  0  0  0  0  0  0  0  0999 V2000
    0.9743    0.5625    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
   -0.3248    1.3125    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
   -0.3248    2.8125    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
   -1.6238    0.5625    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0  0  0  0
  2  3  2  0  0  0  0
  2  4  1  0  0  0  0
M  END
`;

const { app } = (await build(t, 'inline'))!;
const detect = async (input: string) => (await app.inject({ url: '/latest/convert/detect-format', query: { input } })).json();
const xyz = (body: string, query: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/latest/convert/xyz', query, payload: body, headers: { 'content-type': 'text/plain' } });
const batch = (inputs: unknown[], query: Record<string, string>) => app.inject({ method: 'POST', url: '/latest/convert/batch', query, payload: { inputs } });

t.test('detect-format: the original test_format_detection cases', async (t) => {
  const cases: [string, string, string?][] = [
    [CAFFEINE_INCHI, 'inchi', 'high'], [CAFFEINE_SELFIES, 'selfies', 'high'], [MOLBLOCK, 'molblock', 'high'],
    [WATER, 'xyz', 'high'], ['CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'smiles', 'medium'], ['CCO', 'smiles'],
    ['ethanol', 'iupac', 'low'], ['Q9Z!!!', 'iupac', 'low'],
  ];
  for (const [input, format, confidence] of cases) {
    const a = await detect(input);
    t.equal(a.detected_format, format, `${JSON.stringify(input.slice(0, 30))} → ${format}`);
    if (confidence) t.equal(a.confidence, confidence);
  }
  const empty = await app.inject({ url: '/convert/detect-format', query: { input: '' } });
  t.equal(empty.statusCode, 422, 'an empty input is a 422');
  const long = await app.inject({ url: '/convert/detect-format', query: { input: 'C'.repeat(5001) } });
  t.equal(long.statusCode, 422, 'over 5000 characters is a 422');
});

t.test('the XYZ splitter: the original test_xyz_split cases', async (t) => {
  const comments = (frames: string[]) => frames.map((f) => f.split('\n')[1].trim());
  t.same(comments(splitXyzFrames(WATER + '5\nbad\nC 0 0 0\nH 1 1 1\n' + METHANE)), ['water', 'methane'], 'a truncated frame mid-stream is dropped');
  t.same(comments(splitXyzFrames('5\nbogus\nC 0 0 0\nH 1 1 1\n' + METHANE)), ['methane'], 'rows are validated before a frame is taken');
  t.same(comments(splitXyzFrames(WATER + '\u00b2\n' + METHANE)), ['water', 'methane'], 'a superscript digit is no count');
  t.equal(splitXyzFrames('  3  \nwater\nO 0 0 0\nH 1 0 0\nH -1 0 0\n')[0].split('\n')[0], '3', 'the count line is trimmed');
  t.same(splitXyzFrames(''), []);
  t.same(splitXyzFrames('   \n  \n'), []);
  t.notOk(splitXyzFrames(WATER.replaceAll('\n', '\r\n'))[0].includes('\r'), 'CRLF becomes LF');
  t.ok(splitXyzFrames(WATER.trimEnd())[0].endsWith('\n'), 'each frame ends in a newline');
  t.same(comments(splitXyzFrames(WATER + 'garbage line 1\ngarbage line 2\n' + METHANE)), ['water', 'methane']);
  t.same(comments(splitXyzFrames('0\nempty\n' + WATER)), ['water'], 'zero-atom frames are dropped');
  t.equal(splitXyzFrames('3\nferrocène (η5)\nO 0 0 0\nH 0 0 1\nH 0 1 0\n')[0].split('\n')[1], 'ferrocène (η5)');
  t.equal(splitXyzFrames('3\nbad row\nnotanatom !!! @@@ ###\nH 0 0 0\nH 0 0 0\n' + WATER).length, 1);
});

t.test('maximum matching (blossom) on an odd cycle with a tail', async (t) => {
  // A 5-cycle 0-1-2-3-4 with a pendant 5 on 0: a perfect matching needs the blossom.
  const adj = [[1, 4, 5], [0, 2], [1, 3], [2, 4], [3, 0], [0]];
  const mate = maximumMatching(adj);
  t.equal(mate.filter((m) => m >= 0).length, 6, 'every vertex matched');
  mate.forEach((m, v) => t.equal(mate[m], v));
});

t.test('xyz, toolkit=rdkit: the original test_xyz_to_mol cases', async (t) => {
  const one = await xyz(WATER);
  t.equal(one.statusCode, 200, one.body);
  const body = one.json();
  t.match(body.structures[0], { index: 0, success: true, method: 'bond_orders', bond_orders_perceived: true, inchikey: WATER_KEY, canonicalsmiles: '[H]O[H]' });
  t.match(body.sdf.trimEnd(), /\$\$\$\$$/);
  t.same(body.summary, { total: 1, successful: 1, failed: 0, bond_orders_count: 1, connectivity_only_count: 0 });
  t.equal((await xyz(METHANE)).json().structures[0].inchikey, METHANE_KEY, 'methane');
  const acetate = (await xyz(ACETATE, { charge: '-1' })).json().structures[0];
  t.match(acetate, { inchikey: ACETATE_KEY, method: 'bond_orders' }, 'acetate with charge -1');
  const two = (await xyz(WATER + ACETATE, { charge: '-1' })).json();
  t.equal(two.summary.total, 2);
  t.ok(two.structures.some((s: { inchikey?: string }) => s.inchikey === ACETATE_KEY));
  const metal = await xyz(METALLOCENES);
  t.equal(metal.statusCode, 200, metal.body);
  t.match(metal.json().summary, { total: 3, successful: 3, connectivity_only_count: 3, bond_orders_count: 0 });
  for (const s of metal.json().structures) {
    t.match(s, { method: 'connectivity_only', bond_orders_perceived: false });
    t.ok(s.warnings.some((w: string) => /connectivity-only/i.test(w)));
    t.match(s.molblock, /M {2}END/);
  }
  const mixed = (await xyz(WATER + '1\nbogus\nXx 0 0 0\n' + WATER)).json();
  t.match(mixed.summary, { total: 3, successful: 2, failed: 1 }, 'a bad frame does not fail the others');
  t.match(mixed.structures[1], { success: false, title: 'bogus', error: /Xx/ });
  t.equal(mixed.sdf.split('$$$$\n').filter((r: string) => r.includes('M  END')).length, 2, 'the SDF holds the successful frames');
  t.match((await xyz('3\nMyMolecule\nO 0 0 0\nH 0.76 0.59 0\nH -0.76 0.59 0\n')).json().structures[0].molblock, /^MyMolecule\n/, 'the title heads the molblock');
  t.equal((await xyz(WATER.replaceAll('\n', '\r\n'))).json().structures[0].inchikey, WATER_KEY, 'CRLF');
});

t.test('xyz: whole-request errors', async (t) => {
  t.equal((await xyz('just some text\nwithout an atom count\n')).statusCode, 422, 'no frames');
  const all = await xyz('1\na\nXx 0 0 0\n'.repeat(2));
  t.equal(all.statusCode, 422);
  t.match(all.json().detail, /^All frames failed perception/);
  const many = await xyz(WATER.repeat(51));
  t.equal(many.statusCode, 413);
  t.match(many.json().detail, /Frame count exceeds limit \(50\)/);
  t.equal((await xyz(WATER, { charge: '999' })).statusCode, 422, 'charge out of range');
  t.equal((await xyz('   ')).statusCode, 400, 'empty body');
  t.equal((await xyz(WATER, { use_huckel: 'true' })).statusCode, 422, 'Hueckel is not offered');
  const big = await xyz('x'.repeat(5 * 1024 * 1024 + 10));
  t.equal(big.statusCode, 413, 'over 5 MB (test_too_large_body_returns_413)');
  t.match(big.json().detail, /exceeds/);
  const huge = `1001\nhuge\n${Array.from({ length: 1001 }, (_, i) => `C ${i * 3} 0 0`).join('\n')}\n`;
  const capped = (await xyz(huge + WATER)).json();
  t.match(capped.structures[0], { success: false, error: /at most 1000 atoms/ }, 'a frame over 1000 atoms fails alone');
  t.equal(capped.summary.successful, 1);
});

t.test('xyz, toolkit=openbabel: what Open Babel answers run directly', { skip: noOb }, async (t) => {
  for (const [name, body] of [['water', WATER], ['methane', METHANE]] as const) {
    const res = await xyz(body, { toolkit: 'openbabel' });
    t.equal(res.statusCode, 200, res.body);
    const s = res.json().structures[0];
    t.match(s, { ...ref.openbabel_xyz[name], method: 'bond_orders', bond_orders_perceived: true }, name);
    t.notOk(s.canonicalsmiles.includes('\t'));
    t.match(s.molblock, /M {2}END/);
  }
});

t.test('molblock → SMILES', async (t) => {
  const post = (payload: string) => app.inject({ method: 'POST', url: '/latest/convert/molblock', payload, headers: { 'content-type': 'text/plain' } });
  const res = await post(MOLBLOCK);
  t.equal(res.statusCode, 200);
  t.equal(res.json(), 'CC(C)=O', 'acetone (native RDKit: MolToSmiles(kekuleSmiles=True))');
  t.equal((await post(MOLBLOCK + '> <PROPERTY>\nvalue\n\n$$$$\ngarbage after delimiter\n')).json(), 'CC(C)=O', 'SDF: the first record');
  t.equal((await post('$$$$')).statusCode, 400, 'only a terminator');
  t.equal((await post('NOT_A_MOLBLOCK')).statusCode, 422);
  t.equal((await post('invalid\n  invalid\n  0  0  0  0  0  0  0  0  0  0  0 V2000\nM  END')).statusCode, 422, 'no atoms');
  t.equal((await app.inject({ method: 'POST', url: '/convert/molblock', query: { toolkit: 'cdk' }, payload: MOLBLOCK, headers: { 'content-type': 'text/plain' } })).statusCode, 422, 'cdk is not offered');
});

t.test('batch: the original test_converters batch cases (toolkit=rdkit)', async (t) => {
  const one = async (value: string, input_format: string | undefined, output_format: string) =>
    (await batch([{ value, ...(input_format ? { input_format } : {}) }], { output_format })).json();
  t.match(await one('CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'smiles', 'canonicalsmiles'), { summary: { total: 1, successful: 1 }, results: [{ success: true, output: 'CN1C(=O)C2=C(N=CN2C)N(C)C1=O' }] });
  t.match((await one('CCO', 'smiles', 'inchi')).results[0].output, /^InChI=1S\/C2H6O/);
  t.equal((await one('CCO', 'smiles', 'inchikey')).results[0].output, 'LFQSCWFLJHTTHZ-UHFFFAOYSA-N');
  t.equal((await one('CCO', 'smiles', 'selfies')).results[0].output, '[C][C][O]');
  t.match((await one('CCO', 'smiles', 'smarts')).results[0].output, /#/);
  t.match((await one('CCO', 'smiles', 'mol2d')).results[0].output, /V2000/);
  t.equal((await one('CCO', 'smiles', 'cxsmiles')).summary.successful, 1);
  t.equal((await one('CCO', 'smiles', 'smiles')).results[0].output, 'CCO');
  t.equal((await one('CCO', undefined, 'smiles')).results[0].output, 'CCO', 'input_format left out: detected');
  t.equal((await one('[C][C][O]', 'selfies', 'canonicalsmiles')).results[0].output, 'CCO');
  t.equal((await one(MOLBLOCK, 'molblock', 'canonicalsmiles')).results[0].output, 'CC(C)=O');
  t.equal((await one(WATER, undefined, 'inchikey')).results[0].output, WATER_KEY, 'XYZ detected and read');
  t.match((await one('CCO', 'smiles', 'INVALID_FORMAT')).results[0], { success: false, error: /unsupported output format/i });
  t.match((await one('', 'smiles', 'smiles')).results[0], { success: false, error: /missing/i });
  t.match((await one('something', 'mol2d', 'smiles')).results[0], { success: false, error: /unsupported input format/i });
  t.match((await one('NOT_AN_INCHI', 'inchi', 'smiles')).results[0], { success: false, error: /InChI 'NOT_AN_INCHI'/ });
  t.match((await one('CCO', 'smiles', 'mol3d')).results[0], { success: false, error: /not supported/i });
  const mixed = (await batch([{ value: 'CCO', input_format: 'smiles' }, { value: 'INVALID', input_format: 'inchi' }, { value: 'c1ccccc1', input_format: 'smiles' }], { output_format: 'inchi' })).json();
  t.match(mixed.summary, { total: 3, successful: 2, failed: 1 });
  t.same((await batch([], {})).json(), { results: [], summary: { total: 0, successful: 0, failed: 0 } });
  const big = await batch(Array.from({ length: 101 }, () => ({ value: 'C' })), {});
  t.equal(big.statusCode, 413);
  t.match(big.json().detail, /at most 100 inputs/);
});

t.test('batch: InChI inputs read by Open Babel (test_batch_inchi_input, test_batch_auto_detect_inchi)', { skip: noOb }, async (t) => {
  const inchi = 'InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3';
  for (const input of [{ value: inchi, input_format: 'inchi' }, { value: inchi }]) {
    const res = (await batch([{ value: 'c1ccccc1', input_format: 'smiles' }, input], { output_format: 'canonicalsmiles' })).json();
    t.match(res.summary, { total: 2, successful: 2, failed: 0 });
    t.same(res.results[1], { input: { value: inchi, input_format: input.input_format ?? 'inchi' }, output: 'CCO', success: true, error: '' }, 'the input as given, the output from the InChI');
    t.equal(res.results[0].output, 'C1=CC=CC=C1');
  }
});

t.test('cdx-to-mol: the original test_cdx_to_mol cases', { skip: noOb }, async (t) => {
  const cdx = file('ketcher.cdx');
  const upload = (content: Buffer, filename: string) => {
    const boundary = '----natprodcdx';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: chemical/x-cdx\r\n\r\n`),
      content, Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return app.inject({ method: 'POST', url: '/latest/convert/cdx-to-mol', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  };
  const ok = await upload(cdx, 'ketcher.cdx');
  t.equal(ok.statusCode, 200, ok.body);
  const { molblock } = ok.json();
  t.match(molblock, /M {2}END/);
  t.match(molblock.split('\n')[3], /V2000/, 'the header lines are kept (counts line fourth)');
  const smiles = await app.inject({ method: 'POST', url: '/convert/molblock', payload: molblock, headers: { 'content-type': 'text/plain' } });
  t.equal(smiles.statusCode, 200, 'the molblock feeds /convert/molblock');
  const canon = await app.inject({ url: '/convert/canonicalsmiles', query: { smiles: smiles.json() } });
  t.equal(canon.statusCode, 200);
  const ring = await app.inject({ method: 'POST', url: '/convert/batch', payload: { inputs: [{ value: molblock, input_format: 'molblock' }] } });
  t.equal(ring.json().results[0].output, ref.naphthalene_rdkit, `naphthalene, as obabel reads the file (${ref.cdx_smiles})`);
  for (const [name, content, status] of [
    ['mol.cdx', Buffer.from('not a cdx file'), 422], ['mol.cdx', Buffer.alloc(0), 422], ['random.cdx', Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 37) % 256)), 422],
    ['mol.txt', cdx, 400], ['mol.sdf', cdx, 400], ['mol.mol', Buffer.from('fake'), 400], ['molecule.png', Buffer.from('fake'), 400],
  ] as const) {
    const res = await upload(content, name);
    t.equal(res.statusCode, status, `${name} (${content.length} bytes): ${status}`);
    if (status === 400) t.match(res.json().detail, /cdx/i);
  }
});

t.test('auto_detect=true on the structure endpoints (the original test_format_detection parse cases)', async (t) => {
  const canon = (smiles: string, extra: Record<string, string> = {}) => app.inject({ url: '/latest/convert/canonicalsmiles', query: { smiles, auto_detect: 'true', ...extra } });
  const caffeine = 'CN1C(=O)C2=C(N=CN2C)N(C)C1=O';
  t.equal((await canon(CAFFEINE_SELFIES)).json(), caffeine, 'SELFIES');
  t.equal((await canon(MOLBLOCK)).json(), 'CC(C)=O', 'molblock');
  t.equal((await canon('CCO')).json(), 'CCO', 'SMILES unchanged');
  const water = await app.inject({ url: '/convert/inchikey', query: { smiles: WATER, auto_detect: 'true' } });
  t.equal(water.json(), WATER_KEY, 'XYZ');
  t.equal((await app.inject({ url: '/convert/selfies', query: { smiles: MOLBLOCK, auto_detect: '1' } })).json(), '[C][C][Branch1][C][C][=O]', 'the SELFIES encoder reads the molblock');
  const off = await app.inject({ url: '/convert/canonicalsmiles', query: { smiles: CAFFEINE_INCHI } });
  t.equal(off.statusCode, 422, 'without auto_detect an InChI is refused, as the original (test_explicit_smiles_rejects_inchi)');
  const depict = await app.inject({ url: '/depict/2D', query: { smiles: MOLBLOCK, auto_detect: 'true' } });
  t.equal(depict.statusCode, 200, 'depict/2D');
  const isomers = await app.inject({ url: '/chem/stereoisomers', query: { smiles: CAFFEINE_SELFIES, auto_detect: 'true' } });
  t.same(isomers.json(), ['Cn1c(=O)c2c(ncn2C)n(C)c1=O'], 'a chem operation: caffeine has one stereoisomer (RDKit canonical SMILES, the original\'s §2.2 (18) answer)');
  t.test('InChI through Open Babel', { skip: noOb }, async (t) => {
    t.equal((await canon(CAFFEINE_INCHI)).json(), caffeine);
    const bad = await canon('InChI=1S/garbage');
    t.equal(bad.statusCode, 422, bad.body);
  });
});

t.test('xyz, toolkit=rdkit: 40 LOTUS structures embedded in 3D by native RDKit read back as themselves', async (t) => {
  // test/fixtures/scripts/xyz_lotus_reference.py: native RDKit 2022.09's embeddings, stereo checked against the SMILES.
  const rows = text('lotus_xyz.tsv').trim().split('\n').slice(2).map((l) => l.split('\t'));
  const res = await xyz(rows.map(([, , x]) => x.replaceAll('\\n', '\n')).join(''));
  t.equal(res.statusCode, 200, res.body.slice(0, 300));
  const { structures, summary } = res.json();
  t.match(summary, { total: rows.length, successful: rows.length, bond_orders_count: rows.length });
  const canon = async (smiles: string) => (await app.inject({ url: '/convert/canonicalsmiles', query: { smiles } })).json();
  let same = 0;
  for (const [i, [key, smiles]] of rows.entries()) {
    const [mine, theirs] = await Promise.all([canon(structures[i].canonicalsmiles), canon(smiles)]);
    if (mine === theirs) same++;
    else t.fail(`${key}: ${smiles} read back as ${structures[i].canonicalsmiles}`);
  }
  t.equal(same, rows.length, `${same}/${rows.length} structures (with their stereo) read back`);
});
