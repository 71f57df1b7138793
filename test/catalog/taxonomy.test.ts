/**
 * Organisms as taxonomy, against the LOTUS files themselves: after the demo import every
 * organism's lineage and ids are the LOTUS rows' (read here with a plain TSV reader, not the
 * importer's), the first row's value winning and later rows filling gaps (the validated file is
 * imported before the export); a taxon query for a family answers exactly the molecules whose
 * LOTUS rows name that family (or whose organism is named so), through the tag search
 * (`POST /api/search`), the molecule scope `taxon`, the MCP tool `search_taxon` and exports; the
 * relation filter `organisms.family` answers the family-column part; bad input gets 422s.
 *
 * The structures are derived by the fake derivation (keyed by the SMILES as written), so a
 * molecule is identified here by its `canonical_smiles`, which is the row's SMILES.
 */
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { importDemo } from '../../api/catalog/import/demo.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { build } from '../helpers/app.ts';
import { fakeDerive } from './helper.ts';
import { LOTUS_RANKS, na, readTsv, sampleLineage, validatedLineage } from '../helpers/lotus.ts';

const LINEAGE = LOTUS_RANKS;
const FIELDS = [...LINEAGE, 'ncbi_id', 'gbif_id', 'ott_id', 'wikidata_id'] as const;
type Ref = { name: string; smiles: string; values: Record<string, string | number | null> };

const firstInt = (s: string | undefined) => (na(s) === null ? null : Number(/\d+/.exec(s!)![0]));

/** lotus_sample_1000: lineage columns 01domain .. 10varietas, the id columns, the Wikidata IRI. */
const exportRefs: Ref[] = readTsv('lotus_sample_1000.tsv.gz').map((r) => {
  const values: Ref['values'] = sampleLineage(r);
  values.ncbi_id = firstInt(r.organism_taxonomy_ncbiid);
  values.gbif_id = firstInt(r.organism_taxonomy_gbifid);
  values.ott_id = firstInt(r.organism_taxonomy_ottid);
  values.wikidata_id = na(r.organism_wikidata)?.split('/').pop() ?? null;
  return { name: r.organism_name, smiles: na(r.structure_smiles) ?? r.structure_smiles_2D, values };
});

/** lotus_manually_validated_413: the taxa at each rank of the authority's parallel lists; its id where the authority is NCBI or GBIF. */
const validatedRefs: Ref[] = readTsv('lotus_manually_validated_413.tsv.gz').map((r) => {
  const taxa = r.organismCleaned_dbTaxoTaxonomy!.split('|');
  const values: Ref['values'] = { ...validatedLineage(r), ncbi_id: null, gbif_id: null, ott_id: null, wikidata_id: null };
  const self = taxa.lastIndexOf(r.organismCleaned);
  const id = self >= 0 ? na(r.organismCleaned_dbTaxoTaxonIds.split('|')[self]) : null;
  if (id && r.organismCleaned_dbTaxo === 'NCBI') values.ncbi_id = Number(id);
  if (id && r.organismCleaned_dbTaxo === 'GBIF Backbone Taxonomy') values.gbif_id = Number(id);
  return { name: r.organismCleaned, smiles: r.structureCleanedSmiles, values };
});

/** In import order (the validated file first, demo.ts): per organism name, each field's first value. */
const refs = [...validatedRefs, ...exportRefs];
const expectedOrganisms = new Map<string, Record<string, string | number | null>>();
for (const r of refs) {
  const cur = expectedOrganisms.get(r.name) ?? Object.fromEntries(FIELDS.map((f) => [f, null]));
  for (const f of FIELDS) if (cur[f] === null && r.values[f] !== null) cur[f] = r.values[f];
  expectedOrganisms.set(r.name, cur);
}

/**
 * Families whose every organism has that family in all its rows (and no organism differs):
 * their expected molecules follow from the rows alone. With their row SMILES.
 */
function cleanFamilies(): Map<string, { all: Set<string>; byColumn: Set<string> }> {
  const famsOf = new Map<string, Set<string | null>>();
  for (const r of refs) (famsOf.get(r.name) ?? famsOf.set(r.name, new Set()).get(r.name)!).add(r.values.family as string | null);
  const out = new Map<string, { all: Set<string>; byColumn: Set<string> }>();
  for (const r of refs) {
    const fam = r.values.family as string | null;
    if (!fam || famsOf.get(r.name)!.size !== 1) continue;
    const e = out.get(fam) ?? out.set(fam, { all: new Set(), byColumn: new Set() }).get(fam)!;
    e.byColumn.add(r.smiles);
  }
  for (const [fam, e] of [...out]) {
    const low = fam.toLowerCase();
    // Unclean: a row of another organism names it with a differing family elsewhere, or the family is spelled in other cases.
    const inconsistent = refs.some((r) => String(r.values.family ?? '').toLowerCase() === low && famsOf.get(r.name)!.size !== 1);
    if (inconsistent) out.delete(fam);
    else for (const r of refs) if (String(r.values.family ?? '').toLowerCase() === low || r.name.toLowerCase() === low) e.all.add(r.smiles);
  }
  return out;
}

const ctx = (await build(t, 'inline'))!;
const { app, services } = ctx;
const store = services.store;
await importDemo(store, { derive: fakeDerive });
const auth = { authorization: `Bearer ${await issueToken(store, (await ensureUser(store, 'taxon@example.org', 'admin')).id)}` };
const smilesOf = new Map((await store.find('molecules', {}, { fields: ['canonical_smiles'] })).map((m) => [m.id, m.canonical_smiles as string]));

async function tagIds(query: unknown, extra: Record<string, unknown> = {}): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const r = await app.inject({ method: 'POST', url: '/api/search', payload: { type: 'tags', tagType: 'taxon', query, limit: 100, page, ...extra } });
    if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body}`);
    const rows = r.json().data.data as { identifier: string }[];
    ids.push(...(await Promise.all(rows.map(async (x) => (await store.findOne('molecules', { identifier: x.identifier }))!.id))));
    if (rows.length < 100) return ids;
  }
}

async function lomkitIds(search: Record<string, unknown>): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const r = await app.inject({ method: 'POST', url: '/api/molecules/search', headers: auth, payload: { search: { ...search, limit: 50, page } } });
    if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body}`);
    const rows = r.json().data as { id: number }[];
    ids.push(...rows.map((x) => x.id));
    if (rows.length < 50) return ids;
  }
}

const smiles = (ids: number[]) => new Set(ids.map((id) => smilesOf.get(id)!));
const sorted = (s: Iterable<string>) => [...s].sort();

t.test('every organism has the lineage and ids of its LOTUS rows (first value kept, later rows fill gaps)', async (t) => {
  const stored = await store.find('organisms', {});
  t.equal(stored.length, expectedOrganisms.size, 'one organism per LOTUS organism name');
  let mismatched = 0;
  for (const o of stored) {
    const want = expectedOrganisms.get(o.name as string);
    const got = Object.fromEntries(FIELDS.map((f) => [f, o[f] ?? null]));
    if (!want || JSON.stringify(got) !== JSON.stringify(want)) {
      mismatched++;
      if (mismatched <= 5) t.same(got, want, `${o.name as string}`);
    }
  }
  t.equal(mismatched, 0, 'no organism differs');
  const withNcbi = stored.filter((o) => typeof o.ncbi_id === 'number').length;
  t.ok(withNcbi > 800 && stored.filter((o) => o.family).length > 1100, `the ids and lineages are filled (${withNcbi} NCBI ids)`);
  const annua = stored.find((o) => o.wikidata_id === 'Q5403854');
  t.ok(annua, 'the Wikidata id is the IRI\'s item');
});

t.test('the organisms resource filters and sorts by the new fields', async (t) => {
  const r = await app.inject({ method: 'POST', url: '/api/organisms/search', headers: auth, payload: { search: { filters: [{ field: 'genus', value: 'Artemisia' }], sorts: [{ field: 'ncbi_id', direction: 'desc' }], limit: 50 } } });
  t.equal(r.statusCode, 200, r.body.slice(0, 300));
  const rows = r.json().data as { genus: string; ncbi_id: number | null; name: string }[];
  const want = [...expectedOrganisms].filter(([, v]) => v.genus === 'Artemisia');
  t.equal(rows.length, want.length, 'every Artemisia organism');
  t.ok(rows.length > 1 && rows.every((x) => x.genus === 'Artemisia'));
  const ids = rows.map((x) => x.ncbi_id).filter((x): x is number => x !== null);
  t.same(ids, [...ids].sort((a, b) => b - a), 'by ncbi_id, descending');
});

t.test('a family\'s taxon query answers the molecules of its LOTUS rows, by every route', async (t) => {
  const families = cleanFamilies();
  const big = [...families].filter(([, e]) => e.all.size >= 5);
  t.ok(families.size > 50 && big.length >= 10, `${families.size} families to check, ${big.length} with at least 5 molecules`);
  for (const [fam, e] of families) {
    const viaTag = await tagIds(fam);
    t.same(sorted(smiles(viaTag)), sorted(e.all), `${fam}: tags/taxon`);
    t.equal(viaTag.length, new Set(viaTag).size, `${fam}: each molecule once`);
  }
  for (const [fam, e] of big) {
    const viaCase = await tagIds(fam.toUpperCase());
    t.same(sorted(smiles(viaCase)), sorted(e.all), `${fam}: case ignored`);
    t.same(sorted(smiles(await lomkitIds({ scopes: [{ name: 'taxon', parameters: [fam] }] }))), sorted(e.all), `${fam}: the taxon scope`);
    const rel = await lomkitIds({ filters: [{ field: 'organisms.family', value: fam }] });
    t.same(sorted(smiles(rel)), sorted(e.byColumn), `${fam}: the organisms.family relation filter (family column only)`);
  }
});

t.test('ranks above and below the family, descendants included', async (t) => {
  const kingdomOf = (r: Ref) => String(expectedOrganisms.get(r.name)!.kingdom ?? '');
  const fungi = new Set(refs.filter((r) => kingdomOf(r) === 'Fungi').map((r) => r.smiles));
  t.ok(fungi.size > 20);
  t.same(sorted(smiles(await tagIds('fungi'))), sorted(fungi), 'kingdom Fungi: every molecule of an organism whose stored kingdom is Fungi');
  const genus = new Set(refs.filter((r) => expectedOrganisms.get(r.name)!.genus === 'Artemisia' || r.name === 'Artemisia').map((r) => r.smiles));
  t.same(sorted(smiles(await tagIds('Artemisia'))), sorted(genus), 'genus Artemisia: its species');
  t.same(await tagIds('Artemis'), [], 'a part of a name is no taxon');
  t.same(await tagIds('No such taxon'), []);
});

t.test('scopes combine with filters; exports take the taxon scope', async (t) => {
  const fam = [...cleanFamilies()].sort((a, b) => b[1].all.size - a[1].all.size)[0][0];
  const all = await lomkitIds({ scopes: [{ name: 'taxon', parameters: [fam] }] });
  const named = await lomkitIds({ scopes: [{ name: 'taxon', parameters: [fam] }], filters: [{ field: 'name', operator: 'like', value: '%a%' }] });
  const names = new Map((await store.findByIds('molecules', all)).map((m) => [m.id, String(m.name ?? '')]));
  t.same(named.sort((a, b) => a - b), all.filter((id) => /a/i.test(names.get(id)!)).sort((a, b) => a - b), 'AND with a name filter');

  const r = await app.inject({ method: 'POST', url: '/api/molecules/export', headers: auth, payload: { format: 'smi', search: { scopes: [{ name: 'taxon', parameters: [fam] }] } } });
  t.equal(r.statusCode, 200, r.body.slice(0, 300));
  const lines = r.body.trim().split('\n').map((l) => l.split('\t')[0]);
  t.same(sorted(new Set(lines)), sorted(smiles(all)), `the export of ${fam} has its molecules`);
  t.equal(lines.length, all.length);
});

t.test('search_taxon over MCP answers what POST /api/search answers', async (t) => {
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const client = new Client({ name: 'natprod-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  t.teardown(() => client.close());
  const tool = (await client.listTools()).tools.find((x) => x.name === 'search_taxon');
  t.same(tool?.inputSchema.required, ['taxon']);
  type Res = { content: { text: string }[]; isError?: boolean };
  for (const args of [{ taxon: 'Lamiaceae' }, { taxon: 'Rutaceae', limit: 5, page: 2 }, { taxon: 'Fungi', status: 'approved', sort: 'recent' }]) {
    const { taxon, ...rest } = args;
    const res = (await client.callTool({ name: 'search_taxon', arguments: args })) as Res;
    t.notOk(res.isError, `${taxon}: no error`, { text: res.content[0].text.slice(0, 300) });
    const rest200 = await app.inject({ method: 'POST', url: '/api/search', payload: { type: 'tags', tagType: 'taxon', query: taxon, ...rest } });
    const mcp = JSON.parse(res.content[0].text).data;
    const http = rest200.json().data;
    t.ok(mcp.data.length > 0, `${taxon}: hits`);
    t.same(mcp.data, http.data, `${JSON.stringify(args)}: the same records`);
    t.equal(mcp.total, http.total);
  }
  for (const [args, key] of [[{}, 'taxon'], [{ taxon: { $gt: '' } }, 'taxon'], [{ taxon: '  ' }, 'taxon'], [{ taxon: 'Rutaceae', query: 'x' }, 'query']] as const) {
    const res = (await client.callTool({ name: 'search_taxon', arguments: args as Record<string, unknown> })) as Res;
    t.ok(res.isError, `${JSON.stringify(args)}: an error`);
    t.match(res.content[0].text, new RegExp(`Status code: 422\\. Response: .*"${key}"`), `${JSON.stringify(args)}: 422 naming ${key}`);
  }
});

t.test('bad input: 422 naming the problem', async (t) => {
  const tag = (query: unknown) => app.inject({ method: 'POST', url: '/api/search', payload: { type: 'tags', tagType: 'taxon', query } });
  for (const q of [{ $gt: '' }, 42, ['Asteraceae'], { $regex: '.*' }, '', '   ', undefined]) {
    const r = await tag(q);
    t.equal(r.statusCode, 422, `query ${JSON.stringify(q)}`);
    t.ok(r.json().errors.query, 'names the query');
  }
  const unknown = await app.inject({ method: 'POST', url: '/api/search', payload: { type: 'tags', tagType: 'genus', query: 'Artemisia' } });
  t.equal(unknown.statusCode, 422);
  t.match(unknown.json().errors.tagType[0], /dataSource, organisms, citations or taxon/);

  const scope = (parameters: unknown) => app.inject({ method: 'POST', url: '/api/molecules/search', headers: auth, payload: { search: { scopes: [{ name: 'taxon', ...(parameters === undefined ? {} : { parameters }) }] } } });
  const cases: [unknown, string, RegExp][] = [
    [undefined, 'search.scopes.0.parameters', /must have 1 item: taxon/],
    [[], 'search.scopes.0.parameters', /must have 1 item/],
    [['Asteraceae', 'Fabaceae'], 'search.scopes.0.parameters', /must have 1 item/],
    [[{ $gt: '' }], 'search.scopes.0.parameters.0', /must be a string/],
    [[7], 'search.scopes.0.parameters.0', /must be a string/],
    [[''], 'search.scopes.0.parameters.0', /is required/],
    [['x'.repeat(201)], 'search.scopes.0.parameters.0', /not be greater than 200/],
    ['Asteraceae', 'search.scopes.0.parameters', /must be an array/],
  ];
  for (const [p, key, msg] of cases) {
    const r = await scope(p);
    t.equal(r.statusCode, 422, `parameters ${JSON.stringify(p)}`);
    t.match(r.json().errors?.[key]?.[0], msg, `${JSON.stringify(p)}: ${key}`);
  }
  const exp = await app.inject({ method: 'POST', url: '/api/molecules/export', headers: auth, payload: { format: 'csv', search: { scopes: [{ name: 'taxon', parameters: [{ $ne: null }] }] } } });
  t.equal(exp.statusCode, 422, 'exports validate the scope too');
});
