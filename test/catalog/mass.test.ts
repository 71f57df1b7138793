/**
 * MS dereplication (`POST /api/search` with `type: "mass"`, the MCP tool `search_mass`,
 * docs/dereplication.md), checked against independent references:
 * - the Fiehn lab's ESI MS Adduct Calculator table (fiehnlab.ucdavis.edu/staff/kind/Metabolomics/
 *   MS-Adduct-Calculator, after Huang et al., J. Am. Soc. Mass Spectrom. 1999, 10, 1166): its
 *   published "Ion mass" constants, written out here from the table, against natprod's adduct masses;
 * - published precursor m/z values of reference compounds (4 decimals), with the neutral masses
 *   computed here from their formulas with the NIST/AME2020 atomic masses;
 * - test/fixtures/demo_masses_reference.json.gz (native RDKit 2022.09 `Descriptors.ExactMolWt`,
 *   `rdMolDescriptors.CalcMolFormula`, by InChIKey; test/fixtures/tools/demo_masses_reference.py):
 *   the demo catalog's stored masses and formulas, and the expected hit sets of searches.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { ADDUCTS, ADDUCTS_BY_NAME, ELECTRON_MASS, adductMz } from '../../api/catalog/search/mass/adducts.ts';
import { searchMassTool } from '../../api/mcp/mass-tool.ts';
import { importDemoOnce } from '../helpers/demo.ts';
import { build } from '../helpers/app.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';

// The demo import and the mass index on a busy 2-core machine can pass tap's default per-file
// limit. (A limit of the harness, not a timing assertion.)
t.setTimeout(900_000);

interface RefMol {
  emw: number;
  formula: string;
  charge: number;
}
const ref = JSON.parse(gunzipSync(readFileSync(new URL('../fixtures/demo_masses_reference.json.gz', import.meta.url))).toString('utf8')) as {
  molecules: Record<string, RefMol>;
};

/** The Fiehn table as published: ion name → "Ion mass" constant (per charge; negative for losses). */
const FIEHN: Record<string, number> = {
  'M+3H': 1.007276, 'M+2H+Na': 8.33459, 'M+H+2Na': 15.661904, 'M+3Na': 22.989218, 'M+2H': 1.007276, 'M+H+NH4': 9.52055,
  'M+H+Na': 11.998247, 'M+H+K': 19.985217, 'M+ACN+2H': 21.52055, 'M+2Na': 22.989218, 'M+2ACN+2H': 42.033823,
  'M+3ACN+2H': 62.547097, 'M+H': 1.007276, 'M+NH4': 18.033823, 'M+Na': 22.989218, 'M+CH3OH+H': 33.033489,
  'M+K': 38.963158, 'M+ACN+H': 42.033823, 'M+2Na-H': 44.97116, 'M+IsoProp+H': 61.06534, 'M+ACN+Na': 64.015765,
  'M+2K-H': 76.91904, 'M+DMSO+H': 79.02122, 'M+2ACN+H': 83.06037, '2M+H': 1.007276, '2M+NH4': 18.033823,
  '2M+Na': 22.989218, '2M+K': 38.963158, '2M+ACN+H': 42.033823, '2M+ACN+Na': 64.015765,
  'M-3H': -1.007276, 'M-2H': -1.007276, 'M-H2O-H': -19.01839, 'M-H': -1.007276, 'M+Na-2H': 20.974666,
  'M+Cl': 34.969402, 'M+K-2H': 36.948606, 'M+FA-H': 44.998201, 'M+Hac-H': 59.013851, 'M+Br': 78.918885,
  'M+TFA-H': 112.985586, '2M-H': -1.007276, '2M+FA-H': 44.998201, '2M+Hac-H': 59.013851, '3M-H': -1.007276,
};
/** The two entries of the table that added an electron's mass where it should have taken it off. */
const ELECTRON_SLIPS = ['M-H2O-H', 'M+IsoProp+H'];

t.test('adduct masses: the Fiehn table, electrons counted', async (t) => {
  const byFiehn = new Map(ADDUCTS.filter((a) => a.fiehn).map((a) => [a.fiehn!.name, a]));
  for (const [name, published] of Object.entries(FIEHN)) {
    const a = byFiehn.get(name);
    if (!t.ok(a, `${name} is offered`)) continue;
    const diff = a!.mass - published;
    if (ELECTRON_SLIPS.includes(name)) t.ok(Math.abs(Math.abs(diff) - ELECTRON_MASS) < 1e-5, `${name}: the published ${published} is one electron mass off (${diff.toExponential(3)})`);
    else t.ok(Math.abs(diff) < 1e-5, `${name}: ${a!.mass.toFixed(6)} vs published ${published}`);
  }
  for (const name of ['[M+H]+', '[M+Na]+', '[M+K]+', '[M+NH4]+', '[M+H-H2O]+', '[M+2H]2+', '[2M+H]+', '[2M+Na]+', '[M-H]-', '[M+Cl]-', '[M+FA-H]-', '[M-H2O-H]-', '[M+Na-2H]-', '[2M-H]-', '[M]+'])
    t.ok(ADDUCTS_BY_NAME.has(name), `${name} offered`);
  // [M+H-H2O]+: proton 1.007276 (the table's) minus water (H2O: 2 × 1.00782503223 + 15.99491461957).
  t.ok(Math.abs(ADDUCTS_BY_NAME.get('[M+H-H2O]+')!.mass - (1.007276 - 18.0105646837)) < 1e-6, '[M+H-H2O]+');
});

t.test('adduct m/z: published precursor values of reference compounds', async (t) => {
  // Neutral monoisotopic masses from the formulas, NIST (AME2020) atomic masses.
  const H = 1.00782503223, C = 12, N = 14.00307400443, O = 15.99491461957;
  const caffeine = 8 * C + 10 * H + 4 * N + 2 * O; // C8H10N4O2
  const reserpine = 33 * C + 40 * H + 2 * N + 9 * O; // C33H40N2O9
  const glucose = 6 * C + 12 * H + 6 * O; // C6H12O6
  const cases: [string, string, number, number][] = [
    // MassBank caffeine records (e.g. ESI-QTOF, [M+H]+): precursor m/z 195.0877.
    ['caffeine', '[M+H]+', caffeine, 195.0877],
    // Reserpine, the usual ESI positive-mode check standard: [M+H]+ 609.2807.
    ['reserpine', '[M+H]+', reserpine, 609.2807],
    // Glucose: [M+Na]+ 203.0526, [M-H]- 179.0561, [M+Cl]- 215.0328, [M+FA-H]- 225.0616.
    ['glucose', '[M+Na]+', glucose, 203.0526],
    ['glucose', '[M-H]-', glucose, 179.0561],
    ['glucose', '[M+Cl]-', glucose, 215.0328],
    ['glucose', '[M+FA-H]-', glucose, 225.0616],
  ];
  for (const [name, adduct, m, published] of cases) {
    const mz = adductMz(ADDUCTS_BY_NAME.get(adduct)!, m);
    t.ok(Math.abs(mz - published) <= 0.00005 + 1e-9, `${name} ${adduct}: ${mz.toFixed(6)} rounds to ${published}`);
  }
  // Multiply charged: [M+2H]2+ of reserpine is ([M+H]+ + proton) / 2.
  t.ok(Math.abs(adductMz(ADDUCTS_BY_NAME.get('[M+2H]2+')!, reserpine) - (reserpine + 2 * 1.007276) / 2) < 1e-5, 'reserpine [M+2H]2+');
});

const PROTON = 1.007276; // the Fiehn table's proton

t.test('dereplication over the demo catalog', async (t) => {
  const built = await build(t, 'inline');
  const { app, services } = built!;
  await importDemoOnce(services);
  const search = async (body: Record<string, unknown>) => {
    const res = await app.inject({ method: 'POST', url: '/api/search', payload: { type: 'mass', ...body } });
    return { status: res.statusCode, body: res.json() };
  };

  const stored = await services.store.find('molecules', {}, { fields: ['standard_inchi_key', 'properties.exact_molecular_weight', 'properties.molecular_formula', 'properties.formal_charge'] });
  const idOf = new Map(stored.map((d) => [d.standard_inchi_key as string, d.id]));
  const keyOf = new Map(stored.map((d) => [d.id, d.standard_inchi_key as string]));

  t.test('stored masses and formulas are native RDKit\'s', async (t) => {
    const keys = Object.keys(ref.molecules);
    t.equal(stored.length, keys.length, `${keys.length} molecules`);
    let massOff = 0;
    let formulaOff = 0;
    for (const d of stored) {
      const r = ref.molecules[d.standard_inchi_key as string];
      if (!r) {
        t.fail(`${d.standard_inchi_key} is not in the reference`);
        continue;
      }
      const p = d.properties as { exact_molecular_weight: number; molecular_formula: string };
      if (!(Math.abs(p.exact_molecular_weight - r.emw) <= 1e-5)) massOff++, t.fail(`${d.standard_inchi_key}: ${p.exact_molecular_weight} vs ${r.emw}`);
      if (p.molecular_formula !== r.formula) formulaOff++, t.fail(`${d.standard_inchi_key}: ${p.molecular_formula} vs ${r.formula}`);
    }
    t.equal(massOff, 0, 'every exact mass within 1e-5 Da of ExactMolWt');
    t.equal(formulaOff, 0, 'every formula equal to CalcMolFormula');
  });

  // A neutral molecule whose [M+H]+ has no other candidate within 5 ppm, and a permanent cation.
  const neutral = Object.entries(ref.molecules).filter(([, r]) => r.charge === 0);
  const [key, mol] = neutral.find(([k, r]) => neutral.every(([k2, r2]) => k2 === k || Math.abs(r2.emw - r.emw) > 0.01))!;
  const id = idOf.get(key)!;
  const mzH = mol.emw + PROTON;

  t.test('[M+H]+ and [M-H]- of a demo molecule', async (t) => {
    const pos = await search({ query: mzH, adducts: ['[M+H]+'] });
    t.equal(pos.status, 200);
    const hit = pos.body.data.data.find((r: { id: number }) => r.id === id);
    t.ok(hit, 'found');
    t.equal(hit.match.adduct, '[M+H]+');
    t.ok(Math.abs(hit.match.error_ppm) < 0.1, `error ${hit.match.error_ppm} ppm ≈ 0`);
    t.ok(Math.abs(hit.match.theoretical_mz - mzH) < 2e-5, 'theoretical m/z');
    t.equal(hit.match.molecular_formula, mol.formula);
    t.equal(hit.standard_inchi_key, key);
    t.equal(pos.body.data.current_page, 1, 'COCONUT paginator');

    const neg = await search({ query: String(mol.emw - PROTON), adducts: ['[M-H]-', '[M+Cl]-'] });
    const nh = neg.body.data.data.find((r: { id: number }) => r.id === id);
    t.ok(nh, 'found in negative mode (numeric string)');
    t.equal(nh.match.adduct, '[M-H]-');
    t.ok(Math.abs(nh.match.error_ppm) < 0.1);

    // The default adducts hold both; a wrong adduct list does not.
    t.ok((await search({ query: mzH })).body.data.data.some((r: { id: number; match: { adduct: string } }) => r.id === id && r.match.adduct === '[M+H]+'), 'default adducts');
    t.notOk((await search({ query: mzH, adducts: ['[M-H]-'] })).body.data.data.some((r: { id: number }) => r.id === id), 'not as [M-H]-');
  });

  t.test('hit sets and ranking against the reference masses', async (t) => {
    // Several m/z values with many candidates: every reference molecule within tolerance, no other.
    const sample = neutral.filter((_, i) => i % 97 === 0).map(([, r]) => r.emw + PROTON + 0.004);
    for (const mz of sample) {
      for (const tol of [{ tolerance_ppm: 20 }, { tolerance_da: 0.01 }]) {
        const res = await search({ query: mz, adducts: ['[M+H]+'], limit: 100, ...tol });
        const expected = neutral
          .filter(([, r]) => {
            const th = r.emw + PROTON;
            const err = Math.abs(mz - th);
            return 'tolerance_da' in tol ? err <= 0.01 : (err / th) * 1e6 <= 20;
          })
          .map(([k]) => k)
          .sort();
        const got = res.body.data.data.map((r: { id: number }) => keyOf.get(r.id)).sort();
        t.same(got, expected, `${mz.toFixed(4)} ${JSON.stringify(tol)}: ${expected.length} hits`);
        t.equal(res.body.data.total, expected.length);
        const errs = res.body.data.data.map((r: { match: { error_ppm: number } }) => Math.abs(r.match.error_ppm));
        t.same(errs, [...errs].sort((a, b) => a - b), 'ranked by |error_ppm|');
      }
    }
  });

  t.test('tolerance edges', async (t) => {
    const found = async (body: Record<string, unknown>) => (await search({ adducts: ['[M+H]+'], ...body })).body.data.data.some((r: { id: number }) => r.id === id);
    t.ok(await found({ query: mzH * (1 + 4.9e-6) }), '4.9 ppm above: in at 5 ppm (default)');
    t.notOk(await found({ query: mzH * (1 + 5.1e-6) }), '5.1 ppm above: out');
    t.ok(await found({ query: mzH * (1 - 4.9e-6) }), '4.9 ppm below: in');
    t.notOk(await found({ query: mzH * (1 - 5.1e-6) }), '5.1 ppm below: out');
    t.ok(await found({ query: mzH * (1 + 9.9e-6), tolerance_ppm: 10 }), 'tolerance_ppm 10');
    t.ok(await found({ query: mzH + 0.0099, tolerance_da: 0.01 }), '0.0099 Da: in at 0.01 Da');
    t.notOk(await found({ query: mzH + 0.0101, tolerance_da: 0.01 }), '0.0101 Da: out');
  });

  t.test('[M]+: a permanent cation is its own ion', async (t) => {
    const [ckey, cmol] = Object.entries(ref.molecules).find(([, r]) => r.charge === 1)!;
    const cid = idOf.get(ckey)!;
    const res = await search({ query: cmol.emw, adducts: ['[M]+', '[M+H]+'] });
    const hit = res.body.data.data.find((r: { id: number }) => r.id === cid);
    t.ok(hit, `${cmol.formula} found`);
    t.equal(hit?.match.adduct, '[M]+');
    t.notOk((await search({ query: cmol.emw + PROTON, adducts: ['[M+H]+'] })).body.data.data.some((r: { id: number }) => r.id === cid), 'not protonated again');
  });

  t.test('lists of m/z values', async (t) => {
    const mzs = [mzH, 0.5, mol.emw - PROTON];
    const res = await search({ query: mzs, adducts: ['[M+H]+', '[M-H]-'], limit: 5 });
    t.equal(res.status, 200);
    t.same(res.body.data.map((e: { mz: number }) => e.mz), mzs, 'one entry per value, in order');
    t.ok(res.body.data[0].hits.some((r: { id: number; match: { adduct: string } }) => r.id === id && r.match.adduct === '[M+H]+'));
    t.same(res.body.data[1], { mz: 0.5, total: 0, hits: [] });
    t.ok(res.body.data[2].hits.some((r: { id: number; match: { adduct: string } }) => r.id === id && r.match.adduct === '[M-H]-'));
    const many = await search({ query: Array.from({ length: 1000 }, (_, i) => 100 + i * 0.7) });
    t.equal(many.status, 200, '1,000 values');
    t.equal(many.body.data.length, 1000);
  });

  t.test('taxon restriction', async (t) => {
    const doc = await services.store.findOne('molecules', { id });
    const orgIds = (doc?.organism_ids as number[]) ?? [];
    if (!t.ok(orgIds.length > 0, 'the molecule has an organism (every demo row names one)')) return;
    const org = await services.store.findOne('organisms', { id: orgIds[0] });
    const other = await services.store.findOne('organisms', { id: { $nin: orgIds }, name: { $ne: org!.name } });
    const ids = async (taxon: string) => (await search({ query: mzH, adducts: ['[M+H]+'], taxon })).body.data.data.map((r: { id: number }) => r.id);
    t.ok((await ids(org!.name as string)).includes(id), `found under its organism ${org!.name}`);
    const otherHas = ((await services.store.find('molecules', { organism_ids: other!.id }, { fields: ['id'] })) as { id: number }[]).some((d) => d.id === id);
    t.equal((await ids(other!.name as string)).includes(id), otherHas, `under ${other!.name}: only if reported from it`);
    t.same(await ids('No such taxon at all'), [], 'unknown taxon: no hits');
  });

  t.test('writes are seen by the next search', async (t) => {
    const before = await services.store.findOne('molecules', { id });
    const props = before!.properties as Record<string, unknown>;
    const moved = 987.654321;
    await services.store.setProperties(id, { ...props, exact_molecular_weight: moved });
    const at = async (m: number) => (await search({ query: m + PROTON, adducts: ['[M+H]+'] })).body.data.data.some((r: { id: number }) => r.id === id);
    t.ok(await at(moved), 'found at its new mass');
    t.notOk(await at(mol.emw), 'gone from the old one');
    await services.store.setProperties(id, props);
    t.ok(await at(mol.emw), 'back after the write back');
    const copy = { ...before! } as Record<string, unknown>;
    await services.store.remove('molecules', [id]);
    t.notOk(await at(mol.emw), 'deleted: gone');
    await services.store.replace('molecules', copy as never);
    t.ok(await at(mol.emw), 'restored (a rollback): found');
  });

  t.test('Lomkit filter on exact_molecular_weight between bounds', async (t) => {
    const admin = await ensureUser(services.store, 'admin@example.org', 'admin');
    const auth = { authorization: `Bearer ${await issueToken(services.store, admin.id)}` };
    const res = await app.inject({
      method: 'POST',
      url: '/api/molecules/search',
      headers: auth,
      payload: { search: { filters: [{ field: 'properties.exact_molecular_weight', operator: '>=', value: mol.emw - 0.001 }, { field: 'properties.exact_molecular_weight', operator: '<=', value: mol.emw + 0.001 }], limit: 50 } },
    });
    t.equal(res.statusCode, 200);
    const expected = Object.entries(ref.molecules).filter(([, r]) => Math.abs(r.emw - mol.emw) <= 0.001 - 2e-5).map(([k]) => k);
    const got = (res.json().data as { standard_inchi_key: string }[]).map((d) => d.standard_inchi_key);
    for (const k of expected) t.ok(got.includes(k), `${k} within the bounds`);
    t.ok(got.includes(key), 'the molecule itself');
  });

  t.test('MCP search_mass answers what the route answers', async (t) => {
    const args = { query: [mzH, mol.emw - PROTON], adducts: ['[M+H]+', '[M-H]-'] };
    const rest = await search(args);
    const out = await searchMassTool.call({ structure: services.structure, context: undefined as never }, args);
    t.notOk(out.isError);
    t.same(JSON.parse((out.content[0] as { text: string }).text), rest.body);
    const bad = await searchMassTool.call({ structure: services.structure, context: undefined as never }, { query: 'x' });
    t.ok(bad.isError);
    t.match((bad.content[0] as { text: string }).text, /Status code: 422/);
  });

  t.test('bad requests are 422s naming the field', async (t) => {
    const cases: [Record<string, unknown>, string][] = [
      [{ query: 'abc' }, 'query'],
      [{ query: -5 }, 'query'],
      [{ query: 0 }, 'query'],
      [{ query: 'NaN' }, 'query'],
      [{ query: 'Infinity' }, 'query'],
      [{ query: { $gt: 0 } }, 'query'],
      [{}, 'query'],
      [{ query: [] }, 'query'],
      [{ query: [300, 'x', 200] }, 'query.1'],
      [{ query: [300, [1]] }, 'query.1'],
      [{ query: Array.from({ length: 1001 }, () => 300) }, 'query'],
      [{ query: 300, adducts: ['[M+Foo]+'] }, 'adducts'],
      [{ query: 300, adducts: [] }, 'adducts'],
      [{ query: 300, adducts: '[M+H]+' }, 'adducts'],
      [{ query: 300, adducts: [{ $gt: '' }] }, 'adducts'],
      [{ query: 300, tolerance_ppm: 5, tolerance_da: 0.01 }, 'tolerance_da'],
      [{ query: 300, tolerance_ppm: 0 }, 'tolerance_ppm'],
      [{ query: 300, tolerance_ppm: -1 }, 'tolerance_ppm'],
      [{ query: 300, tolerance_ppm: 5000 }, 'tolerance_ppm'],
      [{ query: 300, tolerance_ppm: '5' }, 'tolerance_ppm'],
      [{ query: 300, tolerance_da: 2 }, 'tolerance_da'],
      [{ query: 300, tolerance_da: { $gt: 0 } }, 'tolerance_da'],
      [{ query: 300, taxon: '' }, 'taxon'],
      [{ query: 300, taxon: { $ne: null } }, 'taxon'],
      [{ query: 300, status: 'approved' }, 'status'],
      [{ query: 300, threshold: 0.5 }, 'threshold'],
      [{ query: 300, $where: '1' }, '$where'],
      [{ query: 300, limit: 1000 }, 'limit'],
    ];
    for (const [body, field] of cases) {
      const res = await search(body);
      t.equal(res.status, 422, `${JSON.stringify(body).slice(0, 80)}: 422`);
      t.ok(res.body.errors?.[field], `names ${field}: ${JSON.stringify(res.body.errors).slice(0, 200)}`);
    }
    const unknown = await search({ query: 300, adducts: ['[M+H]+', 'M+H'] });
    t.match(unknown.body.errors.adducts[0], /"M\+H".*\[M\+H\]\+.*\[M-H\]-/, 'lists the accepted names');
    // The mass keys belong to type mass only.
    const other = await app.inject({ method: 'POST', url: '/api/search', payload: { type: 'text', query: 'x', tolerance_ppm: 5 } });
    t.equal(other.statusCode, 422);
    t.ok(other.json().errors.tolerance_ppm, 'tolerance_ppm refused with type text');
  });
});
