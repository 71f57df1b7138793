/**
 * COCONUT's `POST /api/search` on natprod, through the HTTP API over the LOTUS demo set, checked
 * against independent references:
 * - the demo TSV files themselves, read by this test (its own TSV reader): names, organisms,
 *   citations and source databases of each row, and the source table's titles;
 * - test/fixtures/coconut_search_reference.json (native RDKit 2022.09 and the InChI library,
 *   test/fixtures/scripts/coconut_search_reference.py): the InChIKey of each row's structure,
 *   formulas, weights and counts per molecule, and substructure hits ranked as COCONUT ranks them;
 * - test/fixtures/search_reference.json (native RDKit): similarity counts.
 * Every search type, type detection, the filter language, the paginator, status and sort, the
 * 422s; natprod's own request form (with `count`) keeps its answer. The demo set is derived once: the inline
 * mode runs everything, the distributed mode (BullMQ, the index in a worker) the structure types
 * and a few others.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { importDemoOnce } from '../helpers/demo.ts';
import { build, MODES } from '../helpers/app.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';

interface Ref {
  rows: { file: string; line: number; inchikey: string }[];
  molecules: Record<string, { formula: string; mw: number; emw: number; hac: number; arc: number; rings: number; lhba: number; lhbd: number; fc: number }>;
  ranked_substructure: { name: string; query: string; query_inchikey: string; hits: { inchikey: string; exact: boolean; score: number }[] }[];
}
const ref = JSON.parse(readFileSync(new URL('../fixtures/coconut_search_reference.json', import.meta.url), 'utf8')) as Ref;
const simRef = JSON.parse(readFileSync(new URL('../fixtures/search_reference.json', import.meta.url), 'utf8')) as { similarity: { name: string; query: string; count_at_0_7: number }[] };
const DATA = new URL('../../api/catalog/data/', import.meta.url);

/** Records of a tab- or comma-separated file with a header (RFC 4180 quotes), as objects. */
function readTable(file: string, delimiter: string): Record<string, string>[] {
  const text = gunzipSync(readFileSync(new URL(file, DATA))).toString('utf8');
  const records: string[][] = [];
  let field = '';
  let rec: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) rec.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      rec.push(field), records.push(rec), (rec = []), (field = '');
    } else field += c;
  }
  if (field || rec.length) rec.push(field), records.push(rec);
  const [head, ...rows] = records.filter((r) => r.length > 1 || r[0] !== '');
  return rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));
}
const val = (v: string | undefined) => {
  const s = (v ?? '').trim();
  return s === '' || s === 'NA' || s === 'NULL' ? null : s;
};

/** What the demo files say about each row, joined with the InChIKey of its structure. */
interface Row {
  key: string;
  file: string;
  name: string | null;
  organism: string | null;
  doi: string | null;
  title: string | null;
  collection: string;
  /** The source database's code (validated file), `lotus` for the sample file. */
  source: string;
  inchi: string | null;
  lotusKey: string | null;
}
const sources = new Map(readTable('lotus_source_databases.csv.gz', ',').map((r) => [r.identifier, r.title]));
const keyOf = new Map(ref.rows.map((r) => [`${r.file}:${r.line}`, r.inchikey]));
const ROWS: Row[] = [];
for (const [file, cols] of [
  ['lotus_manually_validated_413.tsv.gz', { name: 'structureCleaned_nameTraditional', organism: 'organismCleaned', doi: 'referenceCleanedDoi', title: 'referenceCleanedTitle', inchi: 'structureCleanedInchi', key: 'structureCleanedInchikey3D' }],
  ['lotus_sample_1000.tsv.gz', { name: 'structure_nameTraditional', organism: 'organism_name', doi: 'reference_doi', title: '', inchi: 'structure_inchi', key: 'structure_inchikey' }],
] as const) {
  readTable(file, '\t').forEach((r, i) => {
    const key = keyOf.get(`${file}:${i + 2}`);
    if (!key) return;
    const db = val(r.database_name);
    ROWS.push({
      key,
      file,
      name: val(r[cols.name]),
      organism: val(r[cols.organism]),
      doi: val(r[cols.doi])?.toLowerCase() ?? null,
      title: cols.title ? val(r[cols.title]) : null,
      collection: file.startsWith('lotus_sample') ? 'LOTUS' : (sources.get(db ?? '') ?? db ?? ''),
      source: file.startsWith('lotus_sample') ? 'lotus' : (db ?? ''),
      inchi: val(r[cols.inchi]),
      lotusKey: val(r[cols.key]),
    });
  });
}
const MOLECULES = Object.keys(ref.molecules).sort();
/** A molecule's name: the first row's that has one (the importer fills an empty name only). */
const NAMES = new Map<string, string>();
for (const r of ROWS) if (r.name && !NAMES.has(r.key)) NAMES.set(r.key, r.name);
/** Citations as the importer makes them: one per DOI (else title), its title the first row's that has one. */
const citeKey = (r: Row) => r.doi ?? r.title;
const CITE_TITLES = new Map<string, string>();
for (const r of ROWS) if (citeKey(r) && r.title && !CITE_TITLES.has(citeKey(r)!)) CITE_TITLES.set(citeKey(r)!, r.title);
const citationHas = (r: Row, term: string) => {
  const k = citeKey(r);
  const t = term.toLowerCase();
  return !!k && (!!r.doi?.includes(t) || !!CITE_TITLES.get(k)?.toLowerCase().includes(t));
};
const keysWhere = (pred: (r: Row) => boolean) => [...new Set(ROWS.filter(pred).map((r) => r.key))].sort();
const molsWhere = (pred: (m: Ref['molecules'][string], key: string) => boolean) => MOLECULES.filter((k) => pred(ref.molecules[k], k));


for (const mode of MODES) {
  t.test(`COCONUT search (${mode})`, async (t) => {
    const ctx = await build(t, mode, { WORKERS: '2' });
    if (!ctx) return skipAll(t, NO_REDIS);
    const { app, services } = ctx;
    await importDemoOnce(services);
    await services.searchIndex.start();
    const store = services.store;

    type Answer = { status: number; body: Record<string, any> };
    const search = async (body: unknown): Promise<Answer> => {
      const res = await app.inject({ method: 'POST', url: '/api/search', payload: body as object });
      return { status: res.statusCode, body: res.json() };
    };
    /** Every hit of a search, page by page (100 a page). */
    const every = async (body: Record<string, unknown>): Promise<{ keys: string[]; rows: Record<string, any>[]; total: number }> => {
      const rows: Record<string, any>[] = [];
      let total = 0;
      for (let page = 1; ; page++) {
        const r = await search({ ...body, limit: 100, page });
        t.equal(r.status, 200, `${JSON.stringify(body).slice(0, 80)} page ${page}: 200 ${r.status === 200 ? '' : JSON.stringify(r.body).slice(0, 200)}`);
        if (r.status !== 200) break;
        rows.push(...r.body.data.data);
        total = r.body.data.total;
        if (!r.body.data.next_page_url) break;
      }
      return { keys: rows.map((d) => d.standard_inchi_key), rows, total };
    };
    const sorted = (xs: string[]) => [...xs].sort();

    t.test('structure searches: COCONUT order and native RDKit hits', async (t) => {
      for (const q of ref.ranked_substructure) {
        // A COCONUT client's minimal body, and one with COCONUT's own fields: both COCONUT's answer.
        for (const body of [{ query: q.query, type: 'smiles' }, { query: q.query, type: 'substructure' }, { query: q.query, type: 'substructure', status: 'all' }]) {
          const type = body.type;
          const got = await every(body);
          t.equal(got.total, q.hits.length, `${q.name} (${type}): total ${q.hits.length}`);
          t.same(sorted(got.keys), sorted(q.hits.map((h) => h.inchikey)), `${q.name} (${type}): the same molecules`);
          const exact = q.hits.filter((h) => h.exact).map((h) => h.inchikey);
          t.same(sorted(got.keys.slice(0, exact.length)), sorted(exact), `${q.name}: the exact match first`);
          const scoreOf = new Map(q.hits.map((h) => [h.inchikey, h.score]));
          let worst = 0;
          let ordered = true;
          got.rows.forEach((r, i) => {
            if (i >= exact.length) worst = Math.max(worst, Math.abs(r.similarity - scoreOf.get(r.standard_inchi_key)!));
            if (i > exact.length && r.similarity > got.rows[i - 1].similarity + 1e-12) ordered = false;
          });
          t.ok(worst < 1e-6, `${q.name}: similarity within 1e-6 of native RDKit (worst ${worst})`);
          t.ok(ordered, `${q.name}: then by similarity, best first`);
        }
      }
      const quercetin = simRef.similarity.find((s) => s.name === 'quercetin')!;
      const detected = await search({ query: quercetin.query, limit: 5 });
      t.equal(detected.body.data.data[0].standard_inchi_key, ref.ranked_substructure[0].hits[0].inchikey, 'a SMILES without a type: a substructure search, the exact match first');
      const exact = await search({ query: quercetin.query, type: 'exact', status: 'all' });
      t.same(exact.body.data.data.map((d: { standard_inchi_key: string }) => d.standard_inchi_key), [ref.ranked_substructure[0].query_inchikey], 'exact');
      const sim = await search({ query: quercetin.query, type: 'similarity', threshold: 0.7, limit: 1, sort: 'relevance' });
      t.equal(sim.body.data.total, quercetin.count_at_0_7, `similarity at 0.7: ${quercetin.count_at_0_7}, as native RDKit`);
      const simDefault = await search({ query: quercetin.query, type: 'similarity', limit: 1, status: 'all' });
      t.ok(simDefault.body.data.total >= quercetin.count_at_0_7, 'the default threshold (0.5, COCONUT\'s) finds at least as many');
      t.equal(sim.body.data.data[0].similarity, 1, 'each hit with its similarity');
      const smarts = await every({ query: '[CX3](=O)[OX2H1]', type: 'smiles', query_type: 'smarts' });
      t.ok(smarts.total > 10, `natprod's SMARTS on the same route: ${smarts.total} carboxylic acids`);
      const mol = await search({ query: 'c1ccccc1', type: 'exact', status: 'all' });
      t.equal(mol.status, 200);
      // A molblock (natprod: read as a structure, with or without a type).
      const ring = [[1.299, 0.75], [1.299, -0.75], [0, -1.5], [-1.299, -0.75], [-1.299, 0.75], [0, 1.5]];
      const atom = ([x, y]: number[]) => `${x.toFixed(4).padStart(10)}${y.toFixed(4).padStart(10)}${'0.0000'.padStart(10)} C   0  0  0  0  0  0  0  0  0  0  0  0`;
      const bonds = ring.map((_, i) => `${String(i + 1).padStart(3)}${String(((i + 1) % 6) + 1).padStart(3)}${String(i % 2 ? 1 : 2).padStart(3)}  0`);
      const benzene = ['benzene', '  natprod', '', '  6  6  0  0  0  0  0  0  0  0999 V2000', ...ring.map(atom), ...bonds, 'M  END'].join('\n');
      const benzeneHits = (JSON.parse(readFileSync(new URL('../fixtures/search_reference.json', import.meta.url), 'utf8')) as { substructure: { name: string; hits: string[] }[] }).substructure.find((x) => x.name === 'benzene')!.hits.length;
      for (const body of [{ query: benzene }, { query: benzene, type: 'smiles' }]) {
        const r = await search({ ...body, limit: 1 });
        t.equal(r.status, 200, `molblock ${body.type ?? '(detected)'}: 200 ${r.status === 200 ? '' : JSON.stringify(r.body)}`);
        t.equal(r.body.data?.total, benzeneHits, `molblock: the ${benzeneHits} benzene rings native RDKit finds`);
      }
      const fallback = await search({ query: 'morphin' });
      t.equal(fallback.status, 200, 'a word COCONUT takes for SMILES: searched as text when RDKit cannot read it');
      t.ok(fallback.body.data.data.every((d: { name: string }) => /morphin/i.test(d.name)), 'names holding it');
    });

    t.test('paging: Laravel\'s paginator', async (t) => {
      const r = await search({ limit: 10, page: 60 });
      t.equal(r.status, 200);
      const p = r.body.data;
      t.same(Object.keys(r.body), ['data'], 'COCONUT answers {data: <paginator>}');
      t.same(Object.keys(p), ['current_page', 'data', 'first_page_url', 'from', 'last_page', 'last_page_url', 'links', 'next_page_url', 'path', 'per_page', 'prev_page_url', 'to', 'total']);
      t.equal(p.total, MOLECULES.length, 'no query: every molecule');
      t.equal(p.last_page, Math.ceil(MOLECULES.length / 10));
      t.match(p, { current_page: 60, from: 591, to: 600, per_page: 10, path: /^http:\/\/[^/]+\/api\/search$/ });
      t.equal(p.first_page_url, `${p.path}?page=1`);
      t.equal(p.last_page_url, `${p.path}?page=${p.last_page}`);
      t.equal(p.next_page_url, `${p.path}?page=61`);
      t.equal(p.prev_page_url, `${p.path}?page=59`);
      t.same(p.links.map((l: { label: string }) => l.label), ['&laquo; Previous', '1', '2', '...', '57', '58', '59', '60', '61', '62', '63', '...', String(p.last_page - 1), String(p.last_page), 'Next &raquo;']);
      t.same(p.links.find((l: { active: boolean }) => l.active), { url: `${p.path}?page=60`, label: '60', page: 60, active: true });
      const last = (await search({ limit: 10, page: p.last_page })).body.data;
      t.match(last, { next_page_url: null, to: MOLECULES.length });
      t.equal(last.links[last.links.length - 1].url, null);
      const beyond = (await search({ limit: 10, page: 1000 })).body.data;
      t.match(beyond, { data: [], from: null, to: null, total: MOLECULES.length });
      const first = (await search({ limit: 24 })).body.data;
      t.match(first, { prev_page_url: null, from: 1, to: 24, per_page: 24 });
      t.equal((await search({})).body.data.per_page, 24, "COCONUT's default limit");
      const offset = (await search({ limit: 10, offset: 5 })).body.data;
      t.match(offset, { from: 6, to: 15 }, 'offset skips results before the first page');
      t.same(offset.data[0], first.data[5]);
      t.same(Object.keys(first.data[0]), ['id', 'identifier', 'canonical_smiles', 'annotation_level', 'name', 'iupac_name', 'organism_count', 'citation_count', 'geo_count', 'collection_count', 'active', 'standard_inchi_key'], "COCONUT's record, with natprod's id and the InChIKey");
    });

    t.test('text: names, exact matches first', async (t) => {
      for (const term of ['quercetin', 'Kaempferol', 'acid']) {
        const expected = MOLECULES.filter((k) => NAMES.get(k)?.toLowerCase().includes(term.toLowerCase()));
        t.ok(expected.length > 0, `${term}: ${expected.length} in the demo set`);
        for (const body of [{ query: term, type: 'text' }, { query: term }]) {
          const got = await every(body);
          t.same(sorted(got.keys), expected, `${JSON.stringify(body)}: the ${expected.length} named so`);
          const exact = expected.filter((k) => NAMES.get(k)!.toLowerCase() === term.toLowerCase());
          t.same(sorted(got.keys.slice(0, exact.length)), exact, `${term}: ${exact.length} exact first`);
        }
      }
      const literal = await every({ query: '%', type: 'text' });
      t.same(sorted(literal.keys), MOLECULES.filter((k) => NAMES.get(k)?.includes('%')), '% is a character, not a wildcard');
    });

    t.test('identifiers, InChIKeys, InChI, formulas', async (t) => {
      const some = (await search({ limit: 3, page: 7 })).body.data.data as { identifier: string; standard_inchi_key: string }[];
      for (const m of some) {
        const byId = await search({ query: m.identifier });
        t.same(byId.body.data.data.map((d: { identifier: string }) => d.identifier), [m.identifier], `${m.identifier} (detected: identifier)`);
        const byKey = await search({ query: m.standard_inchi_key });
        t.same(byKey.body.data.data.map((d: { standard_inchi_key: string }) => d.standard_inchi_key), [m.standard_inchi_key], 'by InChIKey (detected)');
        const block = m.standard_inchi_key.slice(0, 14);
        const byBlock = await every({ query: block });
        t.same(sorted(byBlock.keys), MOLECULES.filter((k) => k.startsWith(`${block}-`)), `first block ${block} (detected): every stereoisomer`);
      }
      // A prefix (the number without its last digit): every identifier that starts with it, as the store holds them.
      const prefix = some[0].identifier.split('.')[0].slice(0, -1);
      const byPrefix = await every({ query: prefix, type: 'identifier' });
      const held = (await store.find('molecules', {}, { fields: ['identifier'] })).filter((d) => String(d.identifier).startsWith(prefix)).length;
      t.ok(held >= 10, `${prefix}: ${held} identifiers held (ten numbers, stereo variants with suffixes)`);
      t.equal(byPrefix.total, held, `${prefix}: every one of them`);
      t.ok(byPrefix.rows.every((r) => r.identifier.startsWith(prefix)));
      const lower = await search({ query: some[0].identifier.toLowerCase(), type: 'identifier' });
      t.equal(lower.body.data.data[0]?.identifier, some[0].identifier, 'identifiers ignore case (ILIKE)');
      // InChI: LOTUS's own standard InChI of rows whose key is the one native InChI computes.
      // An InChI is also the start of its stereoisomers' InChIs (COCONUT's LIKE '%InChI%'): those may come too.
      const withInchi = ROWS.filter((r) => r.inchi && r.lotusKey === r.key).filter((_, i) => i % 97 === 0).slice(0, 5);
      for (const r of withInchi) {
        for (const body of [{ query: r.inchi! }, { query: r.inchi!.slice('InChI='.length), type: 'inchi' }]) {
          const got = await every(body);
          t.ok(got.keys.includes(r.key), `InChI of ${r.key} (${body.type ?? 'detected'}): found`);
          t.ok(got.keys.every((k) => k.slice(0, 14) === r.key.slice(0, 14)), 'and only molecules of its skeleton');
        }
      }
      for (const key of [ref.ranked_substructure[0].query_inchikey, MOLECULES[100], MOLECULES[900]]) {
        const formula = ref.molecules[key].formula;
        const expected = molsWhere((m) => m.formula === formula);
        const got = await every({ query: formula });
        t.same(sorted(got.keys), expected, `${formula} (detected): the ${expected.length} molecules native RDKit gives that formula`);
        const shuffled = formula.replace(/^(C\d*)(H\d*)/, '$2$1');
        const again = await every({ query: shuffled, type: 'molecularformula' });
        t.same(sorted(again.keys), expected, `${shuffled}: the same, in any element order`);
      }
    });

    t.test('tags: organisms, citations, data sources', async (t) => {
      const organisms = [...new Set(ROWS.map((r) => r.organism).filter((o): o is string => !!o))];
      const genus = organisms.map((o) => o.split(' ')[0]).find((g) => keysWhere((r) => !!r.organism?.toLowerCase().includes(g.toLowerCase())).length >= 3)!;
      const other = organisms[organisms.length - 1];
      const expected = keysWhere((r) => !!r.organism && [genus, other].some((term) => r.organism!.toLowerCase().includes(term.toLowerCase())));
      const got = await every({ query: `${genus.toUpperCase()}, ${other}`, type: 'tags', tagType: 'organisms' });
      t.same(sorted(got.keys), expected, `organisms "${genus}, ${other}": the ${expected.length} molecules of the rows naming them`);
      const doi = ROWS.find((r) => r.doi && keysWhere((x) => x.doi === r.doi).length >= 2)!.doi!;
      const byDoi = await every({ query: doi.toUpperCase(), type: 'tags', tagType: 'citations' });
      t.same(sorted(byDoi.keys), keysWhere((r) => citationHas(r, doi)), `citation ${doi}`);
      const title = ROWS.find((r) => r.title && r.title.length > 30)!.title!.slice(0, 30);
      const byTitle = await every({ query: title, type: 'tags', tagType: 'citations' });
      t.same(sorted(byTitle.keys), keysWhere((r) => citationHas(r, title)), `citation by title "${title}"`);
      for (const source of ['LOTUS', ...new Set(ROWS.filter((r) => r.collection !== 'LOTUS').map((r) => r.collection))].slice(0, 4)) {
        const bySource = await every({ query: source, type: 'tags', tagType: 'dataSource' });
        t.same(sorted(bySource.keys), keysWhere((r) => r.collection === source), `data source ${source}`);
      }
      const none = await search({ query: 'no such collection', type: 'tags', tagType: 'dataSource' });
      t.match(none.body.data, { total: 0, data: [] }, 'an unknown source: an empty page (COCONUT: [])');
      const generic = await search({ query: 'x', type: 'tags', tagType: 'someTags' });
      t.equal(generic.status, 422);
      t.match(generic.body, { errors: { tagType: [/someTags.*no generic molecule tags/] } });
    });

    t.test('filters: the filter language on native RDKit values', async (t) => {
      // Range ends away from any molecule's value, so rounding cannot decide membership.
      const clear = (x: number, field: 'mw' | 'emw') => !MOLECULES.some((k) => Math.abs(ref.molecules[k][field] - x) < 0.05);
      const lo = [300, 301, 302, 303].find((x) => clear(x, 'mw'))!;
      const hi = [400, 401, 402, 403].find((x) => clear(x, 'mw'))!;
      const cases: [string, string[]][] = [
        ['hac:20..30', molsWhere((m) => m.hac >= 20 && m.hac <= 30)],
        [`mw:${lo}..${hi}`, molsWhere((m) => m.mw >= lo && m.mw <= hi)],
        ['mw:..150', molsWhere((m) => m.mw <= 150)],
        ['hac:60..', molsWhere((m) => m.hac >= 60)],
        ['arc:2 lhbd:3..5', molsWhere((m) => m.arc === 2 && m.lhbd >= 3 && m.lhbd <= 5)],
        ['hac:10..12 OR mw:500..600', molsWhere((m) => (m.hac >= 10 && m.hac <= 12) || (m.mw >= 500 && m.mw <= 600))],
        ['lhba:8..9 mrc:3 OR fc:1', molsWhere((m) => (m.lhba >= 8 && m.lhba <= 9 && m.rings === 3) || m.fc === 1)],
        [`mf:${ref.molecules[MOLECULES[5]].formula}`, molsWhere((m) => m.formula === ref.molecules[MOLECULES[5]].formula)],
        ['ds:LOTUS', keysWhere((r) => r.collection === 'LOTUS')],
        [`org:${ROWS.find((r) => r.organism)!.organism!.replace(/ /g, '+')}`, keysWhere((r) => !!r.organism?.toLowerCase().includes(ROWS.find((x) => x.organism)!.organism!.toLowerCase()))],
      ];
      for (const [query, expected] of cases) {
        const got = await every({ query, type: 'filters' });
        t.same(sorted(got.keys), expected, `${query}: ${expected.length} molecules`);
      }
      const lotus = keysWhere((r) => r.source === 'lotus');
      const both = ROWS.find((r) => r.source !== 'lotus' && lotus.includes(r.key))!;
      const ds = await every({ query: `ds:${both.source}+lotus|`, type: 'filters' });
      t.same(sorted(ds.keys), keysWhere((r) => r.source === both.source).filter((k) => lotus.includes(k)), `ds:${both.source}+lotus: every source named is required`);
    });

    t.test('filters: classes, booleans, multi-word values, OR', async (t) => {
      // The derivation classifies the demo set (natprod's classifier): clear those labels, write
      // some, then find exactly them (test/search/coconut-classes.test.ts: the lists).
      const all = await store.find('molecules', {}, { fields: ['id', 'standard_inchi_key'], sort: [{ field: 'id', dir: 1, nulls: 'last' }] });
      const cleared = { chemical_super_class: null, chemical_class: null, np_classifier_is_glycoside: null, np_classifier_pathway: null };
      for (const d of all) await store.setProperties(d.id, cleared);
      const ids = all.slice(0, 30);
      const A = ids.slice(0, 10);
      const B = ids.slice(10, 20);
      const C = [...ids.slice(5, 15), ...ids.slice(25, 30)];
      for (const d of A) await store.setProperties(d.id, { chemical_super_class: 'Organic acids and derivatives', chemical_class: 'Carboxylic acids and derivatives' });
      for (const d of B) await store.setProperties(d.id, { chemical_super_class: 'Lipids and lipid-like molecules', chemical_class: 'Prenol lipids' });
      for (const d of C) await store.setProperties(d.id, { np_classifier_is_glycoside: true });
      const D = ids.slice(12, 18);
      for (const d of D) await store.setProperties(d.id, { np_classifier_pathway: ['Terpenoids', 'Alkaloids'] });
      const keys = (xs: typeof ids) => sorted(xs.map((d) => d.standard_inchi_key as string));
      const cases: [string, string[]][] = [
        ['superclass:Organic+acids+and+derivatives', keys(A)],
        ['superclass:ORGANIC+ACIDS', keys(A)],
        ['superclass:organic-acids-and-derivatives', keys(A)],
        ['class:Prenol lipids', keys(B)],
        ['class:prenol-lipids', keys(B)],
        ['class:acids', keys(A)],
        ['superclass:Organic acids and derivatives OR class:Prenol+lipids', keys([...A, ...B])],
        ['superclass:organic+acids np_glycoside:true', keys(A.filter((d) => C.includes(d)))],
        ['np_glycoside:true', keys(C)],
        ['class:Prenol+lipids OR np_glycoside:true hac:0..', keys([...B, ...C.filter((d) => !B.includes(d))])],
        ['class:Flavonoids', []],
        ['np_pathway:Alkaloids', keys(D)],
        ['np_pathway:terpenoids np_glycoside:true', keys(D.filter((d) => C.includes(d)))],
      ];
      for (const [query, expected] of cases) {
        const got = await every({ query, type: 'filters' });
        t.same(sorted(got.keys), expected, `${query}: ${expected.length}`);
      }
    });

    t.test('status and sort', async (t) => {
      const indole = await every({ query: 'c1ccc2[nH]ccc2c1', type: 'smiles' });
      const victim = indole.rows[3];
      await store.update('molecules', victim.id, { active: false });
      t.teardown(() => store.update('molecules', victim.id, { active: true }).then(() => undefined));
      const revoked = await every({ query: 'c1ccc2[nH]ccc2c1', type: 'substructure', status: 'revoked' });
      t.same(revoked.rows.map((r) => r.id), [victim.id], 'revoked: the inactive molecules (structure search)');
      const approved = await every({ query: 'c1ccc2[nH]ccc2c1', type: 'substructure', status: 'approved', sort: 'recent' });
      t.equal(approved.total, indole.total - 1, 'approved: the active ones');
      const ids = approved.rows.map((r) => r.id);
      t.same(ids, [...ids].sort((a, b) => b - a), 'recent: newest first');
      t.same((await every({ status: 'revoked' })).rows.map((r) => r.id), [victim.id], 'revoked, no query');
      const listing = await search({ limit: 100, page: Math.ceil(MOLECULES.length / 100) });
      const lastRows = listing.body.data.data;
      t.equal(lastRows[lastRows.length - 1].id, victim.id, 'inactive molecules last (COCONUT: active first)');
      t.equal(lastRows[lastRows.length - 1].active, false);
      // A placeholder is never listed, by any type.
      const placeholder = indole.rows[5];
      await store.update('molecules', placeholder.id, { is_placeholder: true });
      const without = await every({ query: 'c1ccc2[nH]ccc2c1', type: 'smiles' });
      t.equal(without.total, indole.total - 1, 'a placeholder is not counted');
      t.notOk(without.rows.some((r) => r.id === placeholder.id), 'nor listed (structure search)');
      t.equal((await search({})).body.data.total, MOLECULES.length - 1, 'nor in the listing');
      if (placeholder.name) t.notOk((await every({ query: placeholder.name, type: 'text' })).rows.some((r) => r.id === placeholder.id), 'nor by name');
      await store.update('molecules', placeholder.id, { is_placeholder: false });
    });

    t.test("natprod's own request form (with `count`) keeps its answer", async (t) => {
      const own = await search({ type: 'substructure', query: 'c1ccc2[nH]ccc2c1', limit: 5, count: false });
      t.equal(own.status, 200);
      t.ok(Array.isArray(own.body.data), 'the flat paginator');
      t.match(own.body, { current_page: 1, per_page: 5, has_more: true, meta: { type: 'substructure' }, first_page_url: '/api/search?page=1', next_page_url: '/api/search?page=2', prev_page_url: null, path: '/api/search' });
      t.ok(Array.isArray(own.body.links));
      t.ok('murko_framework' in own.body.data[0], 'the molecule records of /api/molecules/search');
      const coconut = await search({ type: 'substructure', query: 'c1ccc2[nH]ccc2c1', limit: 5, count: false, status: 'all' });
      t.ok(Array.isArray(coconut.body.data.data), "with one of COCONUT's fields: COCONUT's envelope");
      const minimal = await search({ type: 'substructure', query: 'c1ccc2[nH]ccc2c1', limit: 5 });
      t.ok(Array.isArray(minimal.body.data.data), "without `count`: COCONUT's envelope");
    });

    t.test('bad input: 422 naming the problem', async (t) => {
      const cases: [unknown, string, RegExp][] = [
        [{ query: 'x', type: 'fuzzy' }, 'type', /invalid/],
        [{ query: 'x', type: 'TEXT' }, 'type', /invalid/],
        [{ query: { $gt: '' } }, 'query', /string/],
        [{ query: ['a'] }, 'query', /string/],
        [{ query: 12 }, 'query', /string/],
        [{ query: 'x', $where: 'sleep(1000)' }, '$where', /prohibited/],
        [{ query: 'x'.repeat(1001) }, 'query', /1000 characters/],
        [{ query: 'C'.repeat(20_001), type: 'substructure' }, 'query', /20000 characters/],
        [{ query: 'x', limit: 0 }, 'limit', /at least 1/],
        [{ query: 'x', limit: 101 }, 'limit', /not be greater than 100/],
        [{ query: 'x', limit: 'ten' }, 'limit', /integer/],
        [{ query: 'x', limit: { $gt: 1 } }, 'limit', /integer/],
        [{ query: 'x', page: 0 }, 'page', /at least 1/],
        [{ query: 'x', offset: 101 }, 'offset', /100/],
        [{ query: 'x', sort: 'desc' }, 'sort', /recent or relevance/],
        [{ query: 'x', status: 'deleted' }, 'status', /all, approved or revoked/],
        [{ query: 'x', tagType: 'a-b', type: 'tags' }, 'tagType', /format/],
        [{ query: 'x', type: 'tags' }, 'tagType', /required/],
        [{ query: 'tacc:4..6', type: 'filters' }, 'query', /Unknown filter key "tacc"/],
        [{ query: 'fws:x', type: 'filters' }, 'query', /"fws".*not available/],
        [{ query: 'hac:30..20', type: 'filters' }, 'query', /range of hac is empty/],
        [{ query: 'hac:1..x', type: 'filters' }, 'query', /not a number/],
        [{ query: 'hac:{"$gt":0}', type: 'filters' }, 'query', /not a number/],
        [{ query: 'cs:yes', type: 'filters' }, 'query', /true or false/],
        [{ query: 'c1ccccc1', type: 'similarity', threshold: 2 }, 'threshold', /between 0 and 1/],
        [{ query: 'c1ccccc1', type: 'text', threshold: 0.5 }, 'threshold', /only allowed/],
        [{ type: 'exact', status: 'all' }, 'query', /required/],
        [{ query: 'C1CC(', type: 'smiles' }, 'structure', /not valid/],
        ['just text', 'body', /object/],
      ];
      for (const [body, field, msg] of cases) {
        const r = await app.inject({ method: 'POST', url: '/api/search', payload: typeof body === 'string' ? JSON.stringify(body) : (body as object), headers: { 'content-type': 'application/json' } });
        t.equal(r.statusCode, 422, `${JSON.stringify(body).slice(0, 60)}: 422`);
        const b = r.json();
        t.match(b, { message: String, errors: { [field]: [msg] } }, `names ${field}: ${JSON.stringify(b).slice(0, 160)}`);
      }
    });

    if (mode === 'bullmq') return;
    t.test('type detection, in COCONUT\'s order, end to end', async (t) => {
      const m = (await search({ query: 'quercetin', type: 'text', limit: 1 })).body.data.data[0] as { identifier: string; standard_inchi_key: string };
      const q = ref.ranked_substructure[0];
      const formula = ref.molecules[q.query_inchikey].formula;
      const seen: [string, (d: Record<string, any>) => boolean][] = [
        [m.identifier, (d) => d.total === 1 && d.data[0].identifier === m.identifier],
        [m.standard_inchi_key, (d) => d.total === 1],
        [m.standard_inchi_key.slice(0, 14), (d) => d.data.every((x: { standard_inchi_key: string }) => x.standard_inchi_key.startsWith(m.standard_inchi_key.slice(0, 14)))],
        [formula, (d) => d.total === molsWhere((x) => x.formula === formula).length],
        [q.query, (d) => d.total === q.hits.length],
        ['quercetin', (d) => d.data.every((x: { name: string }) => /quercetin/i.test(x.name))],
      ];
      for (const [query, ok] of seen) {
        const r = await search({ query });
        t.equal(r.status, 200);
        t.ok(ok(r.body.data), `${query.slice(0, 40)}: answered as its detected type`);
      }
    });
  });
}
