/**
 * Conversion and 2D depiction against native references: test/fixtures/convert-reference.json
 * (native RDKit 2022.09 and the InChI 1.03 executable on 72 LOTUS natural products; provenance
 * in test/fixtures/README.md) and the original service's documented answers (docs/spec/chem-service.md §2.2).
 */
import { taskContext, callOp } from '../helpers/task.ts';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { AppError } from '../../shared/errors.ts';

const rdkit = await loadRDKit();
const ctx = taskContext(rdkit);
const ref = JSON.parse(readFileSync(new URL('../fixtures/convert-reference.json', import.meta.url), 'utf8')) as {
  records: { name: string; input_smiles: string; rdkit_canonical: string; rdkit_canonical_kekule: string; smarts: string; inchi: string; inchikey: string }[];
};

function call(name: string, query: Record<string, unknown>): unknown {
  return callOp(name, query, ctx) as unknown;
}

/** Aromatic canonical SMILES of any notation RDKit reads: the "same molecule" test. */
function canon(text: string): string {
  const m = rdkit.get_mol(text)!;
  try {
    return m.get_smiles();
  } finally {
    m.delete();
  }
}

function rejects422(t: Tap, fn: () => unknown, pattern: RegExp, what: string) {
  try {
    fn();
    t.fail(`${what}: no error`);
  } catch (e) {
    t.ok(e instanceof AppError && e.status === 422 && pattern.test(String(e.detail)), `${what}: 422 ${String((e as AppError).detail)}`);
  }
}
type Tap = Pick<typeof t, 'ok' | 'fail'>;

t.test('canonical SMILES, InChI and InChIKey agree with native RDKit and the InChI executable', async (t) => {
  let kekuleSame = 0;
  for (const r of ref.records) {
    const kekule = call('generate_canonical_smiles', { smiles: r.input_smiles }) as string;
    t.equal(canon(kekule), r.rdkit_canonical, `${r.name}: Kekulé canonical SMILES is the reference molecule`);
    if (kekule === r.rdkit_canonical_kekule) kekuleSame++;
    t.equal(call('generate_inchi', { smiles: r.input_smiles }), r.inchi, `${r.name}: InChI`);
    t.equal(call('generate_inchikey', { smiles: r.input_smiles }), r.inchikey, `${r.name}: InChIKey`);
  }
  t.ok(kekuleSame >= 40, `Kekulé strings identical to native for ${kekuleSame}/${ref.records.length} (atom order differs between RDKit versions)`);
});

t.test('canonical SMILES is idempotent and independent of atom order', async (t) => {
  for (const r of ref.records) {
    const once = call('generate_canonical_smiles', { smiles: r.input_smiles }) as string;
    t.equal(call('generate_canonical_smiles', { smiles: once }), once, `${r.name}: idempotent`);
    const m = rdkit.get_mol(r.input_smiles)!;
    try {
      for (let i = 0; i < 3; i++) {
        const shuffled = m.get_smiles(JSON.stringify({ doRandom: true }));
        t.equal(call('generate_canonical_smiles', { smiles: shuffled }), once, `${r.name}: random atom order ${i + 1}`);
      }
    } finally {
      m.delete();
    }
  }
});

t.test('SMARTS as native RDKit writes it', async (t) => {
  // RDKit 2022.09 writes an aromatic [nH] as [#7H]; 2026.09 writes [#7] (see the fixture README).
  const norm = (s: string) => s.replaceAll('[#7H]', '[#7]');
  for (const r of ref.records) t.equal(norm(call('smiles_to_smarts_convert_smarts_get', { smiles: r.input_smiles }) as string), norm(r.smarts), r.name);
});

t.test('molblock, CXSMILES and formats carry the same molecule with 2D coordinates', async (t) => {
  for (const r of ref.records.slice(0, 25)) {
    const mb = call('generate_2d_coordinates', { smiles: r.input_smiles }) as string;
    t.match(mb, /V2000[\s\S]*M {2}END/, `${r.name}: V2000 molblock`);
    t.equal(canon(mb), r.rdkit_canonical, `${r.name}: molblock reads back as the input`);
    const zs = mb.split('\n').slice(4).filter((l) => /^\s+-?\d+\.\d{4}\s+-?\d+\.\d{4}\s+-?\d+\.\d{4} /.test(l));
    t.ok(zs.length > 0 && zs.every((l) => Number(l.slice(20, 30)) === 0) && zs.some((l) => Number(l.slice(0, 10)) !== 0), `${r.name}: 2D coordinates`);
    const cx = call('generate_cxsmiles', { smiles: r.input_smiles }) as string;
    t.match(cx, / \|\(.*\)/, `${r.name}: CXSMILES with coordinates`);
    t.equal(canon(cx), r.rdkit_canonical, `${r.name}: CXSMILES reads back as the input`);
    const f = call('generate_formats', { smiles: r.input_smiles }) as Record<string, string>;
    t.same(Object.keys(f), ['mol', 'canonicalsmiles', 'inchi', 'inchikey']);
    t.equal(f.inchikey, r.inchikey);
    t.equal(canon(f.mol), r.rdkit_canonical);
  }
});

t.test("the original service's documented caffeine answers", async (t) => {
  const caffeine = 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C';
  t.equal(call('generate_canonical_smiles', { smiles: caffeine }), 'CN1C(=O)C2=C(N=CN2C)N(C)C1=O');
  t.equal(call('generate_inchi', { smiles: caffeine }), 'InChI=1S/C8H10N4O2/c1-10-4-9-6-5(10)7(13)12(3)8(14)11(6)2/h4H,1-3H3');
  t.equal(call('generate_inchikey', { smiles: caffeine }), 'RYYVLZVUVIJVGH-UHFFFAOYSA-N');
  t.equal(
    call('generate_smiles', { input_text: '[C][N][C][=N][C][=C][Ring1][Branch1][C][=Branch1][C][=O][N][Branch1][=Branch2][C][=Branch1][C][=O][N][Ring1][Branch2][C][C]' }),
    canon(caffeine),
    'SELFIES of caffeine (docs/spec/chem-service.md §2.2 (23)) decodes to caffeine',
  );
  t.equal(
    call('generate_smiles', { input_text: '[C][N][C][=N][C][=C][Ring1][Branch1][C][=Branch1][C][=O][N][Branch1][=Branch2][C][=Branch1][C][=O][N][Ring1][Branch2][C][C]', representation: 'selfies' }),
    caffeine,
    'representation=selfies named: the decoder\'s own string, the original\'s answer (tests/test_converters.py)',
  );
});

t.test('generate_smiles reads every supported notation and names the unsupported ones', async (t) => {
  const smiles = 'C[C@H](N)C(=O)O';
  const m = rdkit.get_mol(smiles)!;
  m.set_new_coords();
  const inputs: Record<string, string> = {
    smiles,
    cxsmiles: m.get_cxsmiles(),
    'molblock V2000': m.get_molblock(),
    'molblock V3000': m.get_v3Kmolblock(),
  };
  m.delete();
  for (const [what, text] of Object.entries(inputs)) t.equal(call('generate_smiles', { input_text: text }), canon(smiles), `auto: ${what}`);
  t.equal(call('generate_smiles', { input_text: inputs['molblock V2000'], representation: 'molblock' }), canon(smiles));
  rejects422(t, () => call('generate_smiles', { input_text: 'InChI=1S/CH4/h1H4' }), /InChI/, 'InChI refused by name');
  rejects422(t, () => call('generate_smiles', { input_text: 'RYYVLZVUVIJVGH-UHFFFAOYSA-N' }), /InChIKey/, 'InChIKey refused by name');
  rejects422(t, () => call('generate_smiles', { input_text: 'CCO', representation: 'molblock' }), /molblock/, 'SMILES given as molblock');
  rejects422(t, () => call('generate_smiles', { input_text: 'C1CC(' }), /C1CC\(/, 'broken SMILES named');
  t.throws(() => call('generate_smiles', { input_text: 'caffeine', representation: 'iupac' }), 'iupac is not an allowed representation');
});

t.test('invalid structures are 422 naming the input', async (t) => {
  for (const name of ['generate_canonical_smiles', 'generate_inchi', 'generate_inchikey', 'generate_cxsmiles', 'generate_2d_coordinates', 'generate_formats', 'smiles_to_smarts_convert_smarts_get', 'generate_2d_depiction']) {
    rejects422(t, () => call(name, { smiles: 'C1CC(C' }), /C1CC\(C/, name);
  }
});

t.test('2D depiction: SVG, size, rotation, CIP labels, palette, highlight', async (t) => {
  const svg = call('generate_2d_depiction', { smiles: 'C[C@H](N)C(=O)O' }) as string;
  t.match(svg, /^<\?xml version='1.0' encoding='iso-8859-1'\?>\s*<svg/);
  t.match(svg, /width='512px' height='512px'/);
  t.match(call('generate_2d_depiction', { smiles: 'CCO', width: 300, height: 200 }) as string, /width='300px' height='200px'/);
  t.notOk(svg.includes('CIP_Code'), 'no CIP labels by default');
  t.ok((call('generate_2d_depiction', { smiles: 'C[C@H](N)C(=O)O', CIP: true }) as string).includes('CIP_Code'), 'CIP labels on request');
  t.not(call('generate_2d_depiction', { smiles: 'CC(N)C(=O)O', rotate: 90 }), call('generate_2d_depiction', { smiles: 'CC(N)C(=O)O' }), 'rotation changes the drawing');
  const colours = (s: string) => new Set(s.match(/#[0-9A-F]{6}/g));
  t.ok(colours(svg).has('#FF0000'), 'oxygen drawn red by default');
  t.same([...colours(call('generate_2d_depiction', { smiles: 'C[C@H](N)C(=O)O', unicolor: true }) as string)].sort(), ['#000000', '#FFFFFF'], 'unicolor: black on white');
  const plain = call('generate_2d_depiction', { smiles: 'OCCO', highlight: '' }) as string;
  const lit = call('generate_2d_depiction', { smiles: 'OCCO', highlight: 'CO' }) as string;
  t.ok(colours(lit).size > colours(plain).size, 'the SMARTS match adds the highlight colour');
  rejects422(t, () => call('generate_2d_depiction', { smiles: 'CCO', highlight: 'C(' }), /SMARTS/, 'invalid highlight SMARTS');
});
