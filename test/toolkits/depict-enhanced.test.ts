/**
 * /depict/2D_enhanced on the CDK sidecar (shared/toolkits/cdk/CdkDepictEnhanced.java): the 68 cases
 * of the original's tests/test_enhanced_depict_endpoint.py (status codes: every one answers as there),
 * then what each option does to CDK's SVG (its element ids and attributes: mol1bndN bonds,
 * mol1atmN atoms, the background rect, the highlight colour), the example CDK drew directly
 * (test/fixtures/scripts/CdkDepictReference.java), and the clear 422s of what CDK 2.8 cannot draw.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { build } from '../helpers/app.ts';
import { noCdk } from './fixtures.ts';

/** The original's cases: query string and status (tests/test_enhanced_depict_endpoint.py). */
const ORIGINAL: [string, number][] = [
  ['smiles=CCO', 200], ['smiles=CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 200], ['smiles=INVALID_SMILES{]', 422],
  ['smiles=c1ccccc1 |ha:0,1,2|', 200], ['smiles=CCO |hb:0,1|', 200], ['smiles=c1ccccc1O |ha:0,1,2,hb:0,1|', 200],
  ['smiles=C1CCOC1&abbreviate=off', 200], ['smiles=c1ccccc1C&abbreviate=groups', 200], ['smiles=C1CCOC1&abbreviate=reagents', 200],
  ['smiles=c1ccccc1CC(C)(C)OC(=O)N&abbreviate=on', 200], ['smiles=CS(=O)C&dative=never', 200],
  ['smiles=[Co][N+]([O-])(=O)&dative=metals', 200], ['smiles=CS(=O)C&dative=always', 200],
  ['smiles=[Fe]c1ccccc1&multicenter=provided', 200], ['smiles=[Fe]c1ccccc1&multicenter=dative', 200],
  ['smiles=[Fe]c1ccccc1&multicenter=dashed', 200], ['smiles=[Fe]c1ccccc1&multicenter=hidden', 200],
  ['smiles=CCO&annotate=none', 200], ['smiles=CCO&annotate=number', 200], ['smiles=CCO&annotate=bondnumber', 200],
  ['smiles=CCO&annotate=mapidx', 200], ['smiles=CCO&annotate=atomvalue', 200], ['smiles=CCO&annotate=colmap', 200],
  ['smiles=C[C@H](O)CC&annotate=cip', 200], ['smiles=CCO&style=cow', 200], ['smiles=CCO&style=cob', 200],
  ['smiles=CCO&style=bow', 200], ['smiles=CCO&style=nob', 200], ['smiles=c1ccccc1&donuts=true', 200],
  ['smiles=c1ccccc1&donuts=false', 200], ['smiles=CCO&zoom=1.5', 200], ['smiles=CCO&ratio=1.2', 200],
  ['smiles=CCO&flip=true', 200], ['smiles=CCO&anon=true', 200], ['smiles=CCO&svgunits=px', 200], ['smiles=CCO&svgunits=mm', 200],
  ['smiles=CCO&hydrogen_display=Provided', 200], ['smiles=CCO&hydrogen_display=Minimal', 200],
  ['smiles=CCO&hydrogen_display=Explicit', 200], ['smiles=C[C@H](O)CC&hydrogen_display=Stereo', 200],
  ['smiles=C[C@H](O)CC&hydrogen_display=Smart', 200], ['smiles=CCO&width=1024&height=1024', 200],
  ['smiles=CCO&width=256&height=256', 200], ['smiles=CCO&rotate=90', 200], ['smiles=CCO&rotate=180', 200],
  ['smiles=CCO&rotate=270', 200], ['smiles=CN1C=NC2=C1C(=O)N(C(=O)N2C)C&highlight=C=O', 200],
  ['smiles=CCO&highlight=CO', 200], ['smiles=CCO&atomIds=0', 200], ['smiles=CCO&atomIds=0,1,2', 200],
  ['smiles=CCO&atomIds=invalid', 200], ['smiles=CCO&bgcolor=%23FFFFFF', 200], ['smiles=CCO&fgcolor=%23000000', 200],
  ['smiles=CCO&bgcolor=%23FFFFFF&fgcolor=%23000000', 200], ['smiles=C[C@H](O)CC&CIP=true', 200],
  ['smiles=C[C@H](O)CC&CIP=false', 200], ['smiles=C[C@H](O)[C@@H](C)Cl&CIP=true', 200],
  ['smiles=CC12CCC3C(C1CCC2O)CCC4=CC(=O)CCC34C', 200], ['smiles=CC(C)(C)OC(=O)NCC(=O)NCC(=O)O', 200],
  ['smiles=[Fe]c1ccccc1', 200], ['smiles=c1ccccc1C&abbreviate=groups&annotate=number', 200],
  ['smiles=[Co][N+]([O-])(=O)&dative=metals&style=bow', 200], ['smiles=c1ccccc1&donuts=true&atomIds=0,1,2', 200],
  ['smiles=c1ccccc1C&abbreviate=groups&annotate=number&style=bow&donuts=true&zoom=1.5&ratio=1.2', 200],
  ['smiles=C', 200], ['smiles=CCO.C1CCOC1', 200], ['smiles=[NH4+]', 200], ['smiles=[CH3]', 200],
];

const PATH = '/depict/2D_enhanced';
const GREEN = /#AAFFAA/i;
const count = (svg: string, re: RegExp) => (svg.match(new RegExp(re.source, 'g')) ?? []).length;

t.test('/depict/2D_enhanced with CDK', { skip: noCdk }, async (t) => {
  const { app } = (await build(t, 'inline'))!;
  const get = (query: Record<string, string>) => app.inject({ url: PATH, query });
  const svg = async (query: Record<string, string>) => {
    const res = await get(query);
    t.equal(res.statusCode, 200, `${JSON.stringify(query)}: ${res.statusCode === 200 ? '' : res.body.slice(0, 200)}`);
    return res.body;
  };

  t.test('the original\'s 68 cases answer as there', async (t) => {
    const answers = await Promise.all(ORIGINAL.map(([q]) => app.inject({ url: `${PATH}?${new URLSearchParams(q).toString()}` })));
    ORIGINAL.forEach(([q, status], i) => {
      t.equal(answers[i].statusCode, status, q);
      if (status === 200) t.match(answers[i].body, /^<\?xml[\s\S]*<svg[\s\S]*Chemistry Development Kit[\s\S]*<\/svg>\s*$/, `${q}: CDK's SVG`);
      if (status === 200) t.match(answers[i].headers['content-type'], /^image\/svg\+xml/);
    });
    t.match(answers[2].json().detail, /CDK could not read the SMILES/, 'the unreadable SMILES is named');
  });

  t.test('the registry example: CDK drawing cyclohexane directly', async (t) => {
    const want = readFileSync(new URL('../fixtures/toolkits/depict_enhanced_cyclohexane.svg', import.meta.url), 'utf8');
    t.equal(await svg({ smiles: 'C1CCCCC1' }), want);
  });

  t.test('highlights: CXSMILES ha/hb, atom indices, SMARTS up to smalim', async (t) => {
    t.equal(count(await svg({ smiles: 'c1ccccc1' }), GREEN), 0, 'nothing asked, nothing highlighted');
    const ha = await svg({ smiles: 'CCCCCC |ha:0,1|' });
    t.ok(count(ha, GREEN) >= 1, 'ha: highlighted');
    t.match(ha, /id='mol1bnd1'[^>]*(stroke|fill)='#AAFFAA'|#AAFFAA[\s\S]*mol1bnd1/i);
    t.ok(count(await svg({ smiles: 'CCCCCC |hb:2|' }), GREEN) >= 1, 'hb: highlighted');
    t.ok(count(await svg({ smiles: 'CCCCCC', atomIds: '0,1' }), GREEN) >= 1, 'atomIds');
    t.equal(count(await svg({ smiles: 'CCCCCC', atomIds: 'invalid' }), GREEN), 0, 'atomIds that are not numbers are ignored, as the original');
    // Acetylacetone: two C=O (caffeine's carbonyl carbons are aromatic to CDK's SMARTS matcher, as to RDKit's).
    const all = count(await svg({ smiles: 'CC(=O)CC(=O)C', highlight: 'C=O' }), GREEN);
    const one = count(await svg({ smiles: 'CC(=O)CC(=O)C', highlight: 'C=O', smalim: '1' }), GREEN);
    t.ok(all > one && one > 0, `both carbonyls (${all} highlighted elements) vs smalim=1 (${one})`);
    t.match(await svg({ smiles: 'CCO', atomIds: '0', style: 'bow' }), /#FF0000/i, 'red on black-and-white styles');
    const bad = await get({ smiles: 'CCO', highlight: '[' });
    t.equal(bad.statusCode, 422);
    t.match(bad.json().detail, /invalid highlight SMARTS/);
  });

  t.test('hydrogens, abbreviations, dative bonds, radicals, annotations', async (t) => {
    t.match(await svg({ smiles: 'CCO', hydrogen_display: 'Explicit' }), /mol1atm9/, 'Explicit: 9 atoms');
    t.notMatch(await svg({ smiles: 'CCO', hydrogen_display: 'Minimal' }), /mol1atm4/, 'Minimal: 3 atoms');
    t.match(await svg({ smiles: 'C[C@H](O)CC', hydrogen_display: 'Stereo' }), /mol1atm6/, 'Stereo: the stereocentre\'s hydrogen drawn');
    t.notMatch(await svg({ smiles: 'C[C@H](O)CC', hydrogen_display: 'Smart' }), /mol1atm6/, 'Smart: not on an acyclic centre');
    t.match(await svg({ smiles: 'C1CC[C@H]2CCCC[C@@H]2C1', hydrogen_display: 'Smart' }), /mol1atm12/, 'Smart: on ring-fusion centres');
    t.equal(count(await svg({ smiles: 'C1CCOC1' }), /class='bond'/), 5, 'THF drawn');
    t.equal(count(await svg({ smiles: 'C1CCOC1', abbreviate: 'reagents' }), /class='bond'/), 0, 'reagents: THF as a label');
    t.equal(count(await svg({ smiles: 'C1CCOC1', abbreviate: 'groups' }), /class='bond'/), 5, 'groups: THF stays a ring');
    const tbu = 'CC(C)(C)c1ccc(O)cc1';
    t.ok(count(await svg({ smiles: tbu, abbreviate: 'groups' }), /class='bond'/) < count(await svg({ smiles: tbu }), /class='bond'/), 'groups: tBu contracted');
    const never = await svg({ smiles: '[NH3+][BH3-]', dative: 'never' });
    const always = await svg({ smiles: '[NH3+][BH3-]', dative: 'always' });
    t.match(always, /<g id='mol1bnd1' class='bond'>\s*<line[^>]*>\s*<path/, 'always: N→B drawn as an arrow');
    t.ok(count(always, /<path/) < count(never, /<path/), 'always: the charges are gone');
    t.equal(await svg({ smiles: '[NH3+][BH3-]', dative: 'metals' }), never, 'metals: boron is no metal');
    t.ok(count(await svg({ smiles: '[CH3]', perceive_radicals: 'true' }), /<path/) > count(await svg({ smiles: '[CH3]' }), /<path/), 'a radical dot');
    t.ok(count(await svg({ smiles: 'CCO', annotate: 'number' }), /<path/) > count(await svg({ smiles: 'CCO' }), /<path/), 'atom numbers');
    t.ok(count(await svg({ smiles: 'CCO', annotate: 'bondnumber' }), /<path/) > count(await svg({ smiles: 'CCO' }), /<path/), 'bond numbers');
    t.ok(count(await svg({ smiles: 'C[C@H](O)CC' }), /<path/) > count(await svg({ smiles: 'C[C@H](O)CC', CIP: 'false' }), /<path/), 'CIP label by default');
    const hex = await svg({ smiles: 'C1=CC=CC=C1', donuts: 'true' });
    t.equal(count(hex, /class='bond'/), 6);
    t.notMatch(hex, /<g id='mol1bnd\d' class='bond'>/, 'donuts: no double bonds (each a group of two lines)');
    t.match(hex, /<ellipse /, 'donuts: the ring\'s circle');
    t.equal(count(await svg({ smiles: 'C1=CC=CC=C1' }), /<g id='mol1bnd\d' class='bond'>/), 3, 'Kekulé without donuts');
  });

  t.test('styles, colours, geometry, units', async (t) => {
    t.match(await svg({ smiles: 'CCO', style: 'cob' }), /<rect [^>]*fill='#000000'/, 'cob: black background');
    t.match(await svg({ smiles: 'CCO', style: 'cot' }), /<rect [^>]*fill='rgba\(0,0,0,0\.00\)'/, 'cot: transparent');
    t.match(await svg({ smiles: 'CCO', bgcolor: '#123456' }), /<rect [^>]*fill='#123456'/, 'bgcolor');
    t.match(await svg({ smiles: 'CCO', style: 'nob' }), /#00FFFF/i, 'nob: neon atoms');
    const x = (s: string) => /id='mol1bnd1' class='bond' x1='([\d.]+)' y1='[\d.]+' x2='([\d.]+)'/.exec(s)!.slice(1).map(Number);
    const [a1, a2] = x(await svg({ smiles: 'CCO' }));
    const [b1, b2] = x(await svg({ smiles: 'CCO', flip: 'true' }));
    t.ok(Math.sign(a2 - a1) === -Math.sign(b2 - b1) && a1 !== a2, 'flip mirrors the drawing');
    t.match(await svg({ smiles: 'CCO', width: '300', height: '200' }), /width='300.0px' height='200.0px'/);
    t.match(await svg({ smiles: 'CCO', svgunits: 'mm' }), /width='[\d.]+mm'/);
    const span = (s: string) => {
      const xs = [...s.matchAll(/class='bond' x1='([\d.]+)' y1='[\d.]+' x2='([\d.]+)'/g)].flatMap((m) => [Number(m[1]), Number(m[2])]);
      return Math.max(...xs) - Math.min(...xs);
    };
    const [z1, z2, z3] = [await svg({ smiles: 'CCCC' }), await svg({ smiles: 'CCCC', zoom: '0.5' }), await svg({ smiles: 'CCCC', zoom: '1.5' })];
    t.ok(span(z1) > span(z3) && span(z3) > span(z2), `zoom 1 fills the canvas, 1.5 draws larger than 0.5 (${span(z1)}, ${span(z3)}, ${span(z2)})`);
    t.match(await svg({ smiles: 'CCO', ratio: '2' }), /stroke-width='(2\d|1[5-9])/, 'ratio 2: thicker strokes');
    t.match(await svg({ smiles: 'CCO', showtitle: 'true', title: 'ethanol' }), /<g class='title'>\s*<path/, 'the title drawn');
    t.notMatch(await svg({ smiles: 'CCO', title: 'ethanol' }), /class='title'/, 'not without showtitle');
    const positional = '*C.c1ccccc1 |m:0:2.3.4|';
    t.match(await svg({ smiles: positional }), /<line id='mol1bnd1' class='bond'/, 'multicenter provided: one line');
    t.match(await svg({ smiles: positional, multicenter: 'dashed' }), /<g id='mol1bnd1' class='bond'>\s*<line[^>]*\/>\s*<line/, 'dashed');
    t.notMatch(await svg({ smiles: positional, multicenter: 'hidden' }), /mol1bnd1'/, 'hidden');
  });

  t.test('reactions and what CDK 2.8 cannot draw', async (t) => {
    const fwd = await svg({ smiles: 'CC=O.O>>CC(O)O', arrow: 'forward' });
    const equ = await svg({ smiles: 'CC=O.O>>CC(O)O', arrow: 'equ' });
    t.match(fwd, /class='reactant mol'/);
    t.not(fwd, equ, 'an equilibrium arrow differs from a forward one');
    for (const [query, option] of [
      [{ smiles: 'CC>>CO', arrow: 'ret' }, /arrow=ret/],
      [{ smiles: 'CCO', svgunits: 'cm' }, /svgunits=cm/],
      [{ smiles: 'CCO', bgcolor: 'blue' }, /bgcolor/],
      [{ smiles: 'CCO', toolkit: 'rdkit' }, /toolkit/],
      [{ smiles: 'CCO', zoom: '9' }, /zoom/],
    ] as const) {
      const res = await get(query);
      t.equal(res.statusCode, 422, JSON.stringify(query));
      t.match(JSON.stringify(res.json().detail), option);
    }
  });
});
