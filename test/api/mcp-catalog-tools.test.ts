/**
 * The catalog as MCP tools (api/mcp/molecule-tools.ts, export-tool.ts, report-tool.ts), resources
 * (resources.ts) and prompts (prompts.ts), through the SDK's real client over Streamable HTTP, on
 * the demo catalog (structures derived by the fake derivation; the structure-search index built
 * from the rows' SMILES). Every tool is called beside its REST route with the same input and the
 * same token, and must answer the same; tools that need a role answer the REST route's 401 without
 * a token. The scripted session (a name → its structure → the record → its organisms → a
 * drawing) is test/api/mcp-session.test.ts; every tool on each transport, test/api/mcp-transports.test.ts.
 */
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { importDemo } from '../../api/catalog/import/demo.ts';
import { ensureUser, issueToken, revokeToken } from '../../api/catalog/auth/auth.ts';
import { CATALOG_TOOLS } from '../../api/mcp/catalog-tools.ts';
import { MOLECULE_INCLUDES } from '../../api/mcp/molecule-tools.ts';
import { RESOURCE_NOT_FOUND } from '../../api/mcp/resources.ts';
import { build } from '../helpers/app.ts';
import { fakeDerive } from '../catalog/helper.ts';

type Rec = Record<string, unknown>;
type Res = { content: { type: string; text?: string; data?: string; mimeType?: string }[]; isError?: boolean };

const ctx = (await build(t, 'inline', { WORKERS: '2' }))!;
const { app, services } = ctx;
const store = services.store;
await importDemo(store, { derive: fakeDerive });
await services.searchIndex.start();

const token = async (email: string, role: 'reader' | 'curator' | 'admin') => issueToken(store, (await ensureUser(store, email, role)).id);
const READER = await token('reader@example.org', 'reader');
const OTHER = await token('other@example.org', 'reader');
const ADMIN = await token('admin@example.org', 'admin');
const readerId = (await store.findOne('users', { email: 'reader@example.org' }))!.id;

const base = await app.listen({ port: 0, host: '127.0.0.1' });

/** REST over real HTTP (the same host as the MCP client, so absolute page links agree). */
async function rest(method: string, path: string, tok: string | undefined, body?: unknown): Promise<{ status: number; body: string; json: () => Rec }> {
  const headers: Record<string, string> = { ...(tok ? { authorization: `Bearer ${tok}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) };
  const r = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text, json: () => JSON.parse(text) as Rec };
}

async function connect(t: Tap, tok?: string): Promise<Client> {
  const client = new Client({ name: 'natprod-test', version: '1.0.0' });
  const requestInit = tok ? { headers: { authorization: `Bearer ${tok}` } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit }));
  t.teardown(() => client.close());
  return client;
}
type Tap = { teardown(fn: () => unknown): void };

async function call(client: Client, name: string, args: Rec): Promise<{ res: Res; json: () => Rec }> {
  const res = (await client.callTool({ name, arguments: args })) as Res;
  return { res, json: () => JSON.parse(res.content[0].text!) as Rec };
}

/** The tool's isError text for a REST failure. */
const restFailure = (tool: string, r: { status: number; body: string }) => `Error calling ${tool}. Status code: ${r.status}. Response: ${r.body}`;

/** get_molecule's search, written out here as a client of the REST API would. */
const moleculeSearch = (filters: Rec[], page = 1, limit = 10) => ({
  search: { filters, includes: ['properties', 'organisms', 'citations', 'collections'].map((relation) => ({ relation })), sorts: [{ field: 'id', direction: 'asc' }], page, limit },
});

// A molecule with organisms, citations and collections, from the store itself.
const all = await store.find('molecules', {}, { fields: ['identifier', 'name', 'standard_inchi_key', 'organism_ids', 'citation_ids', 'collection_ids', 'canonical_smiles'] });
const rich = all.find((m) => (m.organism_ids as number[] | undefined)?.length && (m.citation_ids as number[] | undefined)?.length && (m.collection_ids as number[] | undefined)?.length)!;

t.test('the tools are listed with their schemas, and the server offers resources and prompts', async (t) => {
  const client = await connect(t, READER);
  const tools = (await client.listTools()).tools;
  const names = tools.map((x) => x.name);
  for (const n of ['get_molecule', 'list_molecules', 'search_coconut', 'export_status']) t.match(tools.find((x) => x.name === n)?.annotations, { readOnlyHint: true, destructiveHint: false }, `${n}: read-only`);
  for (const n of ['export_molecules', 'submit_report']) t.match(tools.find((x) => x.name === n)?.annotations, { readOnlyHint: false, idempotentHint: false }, `${n}: writes`);
  for (const c of CATALOG_TOOLS) t.ok(names.includes(c.tool.name), `${c.tool.name} listed`);
  for (const n of ['get_molecule', 'list_molecules', 'search_coconut', 'export_molecules', 'export_status', 'submit_report']) t.ok(names.includes(n), n);
  t.match(client.getServerCapabilities(), { tools: {}, resources: {}, prompts: {} });
  t.same(MOLECULE_INCLUDES.map((x) => x.relation), ['properties', 'organisms', 'citations', 'collections']);
});

t.test('get_molecule answers the record of POST /api/molecules/search with its relations', async (t) => {
  t.ok(rich, 'the demo has a molecule with organisms, citations and collections');
  const client = await connect(t, READER);
  const expected = await rest('POST', '/api/molecules/search', READER, moleculeSearch([{ field: 'identifier', operator: '=', value: rich.identifier }]));
  t.equal(expected.status, 200);
  const record = (expected.json().data as Rec[])[0];
  for (const [query, kind] of [
    [rich.identifier as string, 'identifier'],
    [(rich.identifier as string).toLowerCase(), 'identifier'],
    [rich.standard_inchi_key as string, 'inchikey'],
    [(rich.standard_inchi_key as string).slice(0, 14), 'inchikey_first_block'],
  ]) {
    const { res, json } = await call(client, 'get_molecule', { query });
    t.notOk(res.isError, `${query}: no error`, { text: String(res.content[0]?.text).slice(0, 300) });
    t.equal(json().matched_by, kind, `${query}: matched by ${kind}`);
    t.same(json().molecule, record, `${query}: the REST record`);
  }
  // The relations are the store's links, with the organisms' lineage fields.
  const organisms = (record.organisms as Rec[]).map((o) => o.id).sort();
  t.same(organisms, [...(rich.organism_ids as number[])].sort(), 'every linked organism');
  t.same((record.citations as Rec[]).map((c) => c.id).sort(), [...(rich.citation_ids as number[])].sort(), 'every linked citation');
  t.same((record.collections as Rec[]).map((c) => c.id).sort(), [...(rich.collection_ids as number[])].sort(), 'every linked collection');
  for (const f of ['name', 'family', 'genus', 'species', 'ncbi_id']) t.ok(f in (record.organisms as Rec[])[0], `organisms carry ${f}`);
  t.ok('doi' in (record.citations as Rec[])[0], 'citations carry their DOI');
  t.match(record.properties, { molecular_formula: String, molecular_weight: Number });

  // By name: the molecule whose name no other molecule has.
  const counts = new Map<string, number>();
  for (const m of all) if (typeof m.name === 'string') counts.set(m.name, (counts.get(m.name) ?? 0) + 1);
  const unique = all.find((m) => typeof m.name === 'string' && m.name && counts.get(m.name) === 1)!;
  const byName = await call(client, 'get_molecule', { query: unique.name as string });
  t.notOk(byName.res.isError, String(byName.res.content[0]?.text).slice(0, 200));
  t.equal(byName.json().matched_by, 'name');
  t.equal((byName.json().molecule as Rec).identifier, unique.identifier, 'the molecule of that name');
});

t.test('get_molecule answers the page of matches when the query is ambiguous', async (t) => {
  const client = await connect(t, READER);
  // Two enantiomers (real derivation: the same first InChIKey block) under one name.
  const made = await rest('POST', '/api/molecules/mutate', ADMIN, {
    mutate: [
      { operation: 'create', attributes: { name: 'Ambiguin', canonical_smiles: 'C[C@@H](N)C(=O)O' } },
      { operation: 'create', attributes: { name: 'Ambiguin', canonical_smiles: 'C[C@H](N)C(=O)O' } },
    ],
  });
  t.equal(made.status, 200, made.body);
  const ids = made.json().created as number[];
  const docs = await store.findByIds('molecules', ids);
  const block = (docs[0].standard_inchi_key as string).slice(0, 14);
  t.equal((docs[1].standard_inchi_key as string).slice(0, 14), block, 'enantiomers share the first block');
  for (const [query, filters] of [
    ['Ambiguin', [{ field: 'name', operator: '=', value: 'Ambiguin' }, { field: 'iupac_name', operator: '=', value: 'Ambiguin', type: 'or' }]],
    [block, [{ field: 'standard_inchi_key', operator: 'like', value: `${block}-%` }]],
  ] as const) {
    const { res, json } = await call(client, 'get_molecule', { query });
    t.notOk(res.isError, String(res.content[0]?.text).slice(0, 200));
    const expected = await rest('POST', '/api/molecules/search', READER, moleculeSearch([...filters]));
    const { request, matched_by, ambiguous, ...page } = json();
    t.equal(ambiguous, true, `${query}: ambiguous`);
    t.ok(matched_by);
    t.same(page, expected.json(), `${query}: the page of POST /api/molecules/search`);
    t.same(((request as Rec).body as Rec), moleculeSearch([...filters]), 'the REST request is given back');
    t.equal(page.total, 2);
    t.same((page.data as Rec[]).map((d) => d.id).sort(), [...ids].sort());
  }
  const second = await call(client, 'get_molecule', { query: 'Ambiguin', page: 2, limit: 10 });
  t.same(second.json().data, [], 'page 2 of two matches is empty');
});

t.test('get_molecule: not found, bad input and no token', async (t) => {
  const client = await connect(t, READER);
  const none = await call(client, 'get_molecule', { query: 'CNP9999999' });
  t.ok(none.res.isError);
  t.match(none.res.content[0].text, /^Error calling get_molecule\. Status code: 404\. Response: \{"message":"No molecule has the identifier \\"CNP9999999\\"\."\}$/);
  for (const [args, key] of [[{}, 'query'], [{ query: 5 }, 'query'], [{ query: '  ' }, 'query'], [{ query: 'x', limit: 7 }, 'limit'], [{ query: 'x', page: 0 }, 'page'], [{ query: 'x', where: 1 }, 'where']] as const) {
    const { res } = await call(client, 'get_molecule', args as Rec);
    t.ok(res.isError, JSON.stringify(args));
    t.match(res.content[0].text, new RegExp(`^Error calling get_molecule\\. Status code: 422\\. Response: \\{"message":.*"errors":\\{"${key}"`), `${JSON.stringify(args)}: 422 naming ${key}`);
  }
  const anonymous = await connect(t);
  const rest401 = await rest('POST', '/api/molecules/search', undefined, moleculeSearch([{ field: 'identifier', value: rich.identifier }]));
  t.equal(rest401.status, 401);
  for (const [name, args] of [
    ['get_molecule', { query: rich.identifier }],
    ['list_molecules', { organism: 1 }],
    ['export_molecules', { format: 'smi' }],
    ['export_status', { job_id: '00000000-0000-4000-8000-000000000000' }],
    ['submit_report', { title: 'x', canonical_smiles: 'CCO' }],
  ] as const) {
    const { res } = await call(anonymous, name, args);
    t.ok(res.isError, `${name} without a token: an error`);
    t.equal(res.content[0].text, restFailure(name, rest401), `${name}: the 401 of the REST route`);
  }
  const bad = await connect(t, '1|not-a-valid-secret');
  t.equal((await call(bad, 'get_molecule', { query: rich.identifier as string })).res.content[0].text, restFailure('get_molecule', rest401), 'an invalid token: 401');
});

t.test('over SSE the token of the stream is checked at each call', async (t) => {
  const tok = await token('sse@example.org', 'reader');
  const client = new Client({ name: 'natprod-test', version: '1.0.0' });
  await client.connect(new SSEClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${tok}` } } }));
  t.teardown(() => client.close());
  const first = await call(client, 'get_molecule', { query: rich.identifier as string });
  t.notOk(first.res.isError, String(first.res.content[0]?.text).slice(0, 200));
  t.equal((first.json().molecule as Rec).identifier, rich.identifier);
  await revokeToken(store, Number(tok.split('|')[0]));
  const after = await call(client, 'get_molecule', { query: rich.identifier as string });
  t.equal(after.res.content[0].text, 'Error calling get_molecule. Status code: 401. Response: {"message":"Unauthenticated."}', 'a revoked token: 401 in the same session');
});

t.test('list_molecules answers POST /api/molecules/search with a filter on the relation', async (t) => {
  const client = await connect(t, READER);
  const counts = new Map<number, number>();
  for (const m of all) for (const id of (m.organism_ids as number[] | undefined) ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
  const [orgId, orgCount] = [...counts].sort((a, b) => b[1] - a[1])[0];
  t.ok(orgCount > 10, `organism ${orgId} has ${orgCount} molecules: more than a page`);
  const org = (await store.findByIds('organisms', [orgId]))[0];
  const citation = (await store.find('citations', { doi: { $exists: true, $ne: null } }, { limit: 1 }))[0];
  const collection = (await store.findByIds('collections', [(rich.collection_ids as number[])[0]]))[0];
  const cases: [Rec, Rec, number][] = [
    [{ organism: orgId }, { field: 'organisms.id', operator: '=', value: orgId }, orgCount],
    [{ organism: org.name, page: 2, limit: 10 }, { field: 'organisms.name', operator: '=', value: org.name }, orgCount],
    [{ citation: citation.doi }, { field: 'citations.doi', operator: '=', value: citation.doi }, all.filter((m) => ((m.citation_ids as number[] | undefined) ?? []).includes(citation.id)).length],
    [{ collection: collection.title, sort: 'name', direction: 'desc', limit: 25 }, { field: 'collections.title', operator: '=', value: collection.title }, all.filter((m) => ((m.collection_ids as number[] | undefined) ?? []).includes(collection.id)).length],
    [{ collection: collection.id }, { field: 'collections.id', operator: '=', value: collection.id }, all.filter((m) => ((m.collection_ids as number[] | undefined) ?? []).includes(collection.id)).length],
  ];
  for (const [args, filter, total] of cases) {
    const { res, json } = await call(client, 'list_molecules', args);
    t.notOk(res.isError, `${JSON.stringify(args)}: no error`, { text: String(res.content[0]?.text).slice(0, 300) });
    const sort = (args.sort as string | undefined) ?? 'id';
    const sorts = [{ field: sort, direction: (args.direction as string | undefined) ?? 'asc' }, ...(sort === 'id' ? [] : [{ field: 'id', direction: 'asc' }])];
    const body = { search: { filters: [filter], sorts, page: (args.page as number | undefined) ?? 1, limit: (args.limit as number | undefined) ?? 10 } };
    const expected = await rest('POST', '/api/molecules/search', READER, body);
    t.equal(expected.status, 200, expected.body.slice(0, 200));
    const { request, ...page } = json();
    t.same(page, expected.json(), `${JSON.stringify(args)}: the answer of POST /api/molecules/search`);
    t.same((request as Rec).body, body);
    t.equal(page.total, total, `${JSON.stringify(args)}: the ${total} linked molecules`);
    t.ok((page.data as Rec[]).length > 0, 'a page of molecules');
  }
  for (const [args, key] of [[{}, 'organism'], [{ organism: 1, citation: 2 }, 'organism'], [{ organism: 1.5 }, 'organism'], [{ citation: '' }, 'citation'], [{ organism: 1, sort: 'alogp' }, 'sort'], [{ organism: 1, limit: 100 }, 'limit']] as const) {
    const { res } = await call(client, 'list_molecules', args as Rec);
    t.ok(res.isError, JSON.stringify(args));
    t.match(res.content[0].text, new RegExp(`Status code: 422\\. Response: .*"errors":\\{"${key}"`), `${JSON.stringify(args)}: 422 naming ${key}`);
  }
});

t.test('search_coconut answers what POST /api/search answers (COCONUT\'s form), errors included', async (t) => {
  const client = await connect(t); // public, as the route
  const collection = (await store.findByIds('collections', [(rich.collection_ids as number[])[0]]))[0];
  const org = (await store.findByIds('organisms', [(rich.organism_ids as number[])[0]]))[0];
  const cases: Rec[] = [
    {},
    { query: (rich.name as string | null) ?? (rich.identifier as string), type: 'text' },
    { query: (rich.name as string | null)?.slice(0, 4) ?? 'acid' },
    { query: rich.identifier as string },
    { query: rich.identifier as string, type: 'identifier' },
    { query: rich.standard_inchi_key as string, type: 'inchikey' },
    { query: (rich.standard_inchi_key as string).slice(0, 14), type: 'partialinchikey' },
    { query: collection.title as string, type: 'tags', tagType: 'dataSource', limit: 5, page: 2 },
    { query: org.name as string, type: 'tags', tagType: 'organisms' },
    { query: 'mw:100..300 hbd:0..2', type: 'filters', sort: 'recent', limit: 10 },
    { query: rich.canonical_smiles as string, type: 'exact' },
    { query: rich.canonical_smiles as string, type: 'smiles' },
    { query: 'c1ccc2[nH]ccc2c1', type: 'substructure', limit: 5 },
    { query: rich.canonical_smiles as string, type: 'similarity', threshold: 0.6 },
    { query: 'acid', status: 'approved', offset: 3 },
  ];
  for (const args of cases) {
    const expected = await rest('POST', '/api/search', undefined, args);
    t.equal(expected.status, 200, `${JSON.stringify(args)}: REST ${expected.body.slice(0, 200)}`);
    const { res, json } = await call(client, 'search_coconut', args);
    t.notOk(res.isError, `${JSON.stringify(args)}: no error`, { text: String(res.content[0]?.text).slice(0, 300) });
    t.same(json(), expected.json(), `${JSON.stringify(args).slice(0, 100)}: the same answer`);
  }
  const hits = (await call(client, 'search_coconut', { query: rich.identifier as string })).json() as { data: { total: number; data: Rec[] } };
  t.equal(hits.data.total, 1);
  t.equal(hits.data.data[0].identifier, rich.identifier, 'the identifier finds its molecule');
  for (const args of [{ type: 'bogus', query: 'x' }, { query: 'x', where: 1 }, { query: 'x', limit: 101 }, { type: 'substructure', query: 'C1CC(' }, { type: 'filters', query: 'mw:abc' }]) {
    const expected = await rest('POST', '/api/search', undefined, args);
    t.ok(expected.status >= 400 && expected.status < 500, `${JSON.stringify(args)}: REST ${expected.status}`);
    const { res } = await call(client, 'search_coconut', args);
    t.ok(res.isError, `${JSON.stringify(args)}: an error`);
    t.equal(res.content[0].text, restFailure('search_coconut', expected), `${JSON.stringify(args)}: the status and body of the REST answer`);
  }
  const count = await call(client, 'search_coconut', { type: 'exact', query: 'CCO', count: true });
  t.match(count.res.content[0].text, /Status code: 422\. Response: .*"count"/, 'count (natprod\'s form) is refused: search_catalog answers it');
});

t.test('export_molecules and export_status: the job of POST /api/molecules/export, polled as GET /api/exports/{id}', async (t) => {
  const client = await connect(t, READER);
  const orgId = (rich.organism_ids as number[])[0];
  const body = { format: 'csv', search: { filters: [{ field: 'organisms.id', value: orgId }] }, fields: ['identifier', 'name', 'organisms'] };
  const { res, json } = await call(client, 'export_molecules', body);
  t.notOk(res.isError, String(res.content[0]?.text).slice(0, 300));
  const job = json();
  const viaRest = await rest('POST', '/api/molecules/export', READER, { ...body, async: true });
  t.equal(viaRest.status, 202, viaRest.body);
  t.same(Object.keys(job).sort(), Object.keys(viaRest.json()).sort(), 'the keys of the REST job answer');
  t.equal(job.total, viaRest.json().total, 'the same total');
  t.equal(job.total, all.filter((m) => ((m.organism_ids as number[] | undefined) ?? []).includes(orgId)).length, 'the organism\'s molecules');
  t.equal(job.status_url, `${base}/api/exports/${job.job_id as string}`);

  let status: Rec = {};
  for (let i = 0; i < 600; i++) {
    status = (await call(client, 'export_status', { job_id: job.job_id as string })).json();
    if (status.status === 'succeeded' || status.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.equal(status.status, 'succeeded', JSON.stringify(status));
  const polled = await rest('GET', `/api/exports/${job.job_id as string}`, READER);
  t.same(status, polled.json(), 'export_status answers GET /api/exports/{id}');
  const file = await rest('GET', new URL(status.download_url as string).pathname, READER);
  t.equal(file.status, 200, 'the download_url serves the file');
  const lines = file.body.trim().split('\r\n');
  t.equal(lines[0], 'identifier,name,organisms');
  t.equal(lines.length, (job.total as number) + 1, 'one row per molecule');
  t.ok(lines.slice(1).every((l) => l.startsWith('CNP')), 'rows of identifiers');

  // The REST job, read by the tool.
  const restJob = viaRest.json().job_id as string;
  let restStatus: Rec = {};
  for (let i = 0; i < 600; i++) {
    restStatus = (await call(client, 'export_status', { job_id: restJob })).json();
    if (restStatus.status === 'succeeded' || restStatus.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.same(restStatus, (await rest('GET', `/api/exports/${restJob}`, READER)).json(), 'a job started over REST, polled by the tool');

  const other = await connect(t, OTHER);
  const forbidden = await rest('GET', `/api/exports/${job.job_id as string}`, OTHER);
  t.equal(forbidden.status, 403);
  t.equal((await call(other, 'export_status', { job_id: job.job_id as string })).res.content[0].text, restFailure('export_status', forbidden), 'another reader: 403');
  const unknown = '00000000-0000-4000-8000-000000000000';
  const missing = await rest('GET', `/api/exports/${unknown}`, READER);
  t.equal(missing.status, 404);
  t.equal((await call(client, 'export_status', { job_id: unknown })).res.content[0].text, restFailure('export_status', missing), 'unknown job: 404');

  for (const bad of [{ format: 'pdf' }, { format: 'csv', search: { limit: 10 } }, { format: 'smi', fields: ['name'] }, { format: 'csv', structure: { type: 'substructure', query: 'C1CC(' } }]) {
    const expected = await rest('POST', '/api/molecules/export', READER, { ...bad, async: true });
    t.equal(expected.status, 422, `${JSON.stringify(bad)}: REST 422`);
    t.equal((await call(client, 'export_molecules', bad)).res.content[0].text, restFailure('export_molecules', expected), `${JSON.stringify(bad)}: the REST 422`);
  }
  t.match((await call(client, 'export_molecules', { format: 'csv', async: false })).res.content[0].text, /Status code: 422\. Response: .*"async"/, 'async is refused: always a job');
});

t.test('submit_report creates the report POST /api/reports/mutate creates', async (t) => {
  const client = await connect(t, READER);
  const attributes = { title: 'New alkaloid', canonical_smiles: 'CN1CCC[C@H]1c1cccnc1', name: 'Nicotine isomer', organism: 'Nicotiana tabacum', doi: '10.1000/xyz123', evidence: 'NMR', report_category: 'SUBMISSION' };
  const { res, json } = await call(client, 'submit_report', attributes);
  t.notOk(res.isError, String(res.content[0]?.text).slice(0, 300));
  const answer = json();
  t.equal((answer.created as number[]).length, 1);
  t.same(answer.updated, []);
  const read = await rest('POST', '/api/reports/search', READER, { search: { filters: [{ field: 'id', value: (answer.created as number[])[0] }] } });
  t.same(answer.report, (read.json().data as Rec[])[0], 'the record POST /api/reports/search answers');
  t.match(answer.report, { user_id: readerId, status: 'SUBMITTED', report_category: 'SUBMISSION', report_type: 'molecule', title: 'New alkaloid' });

  const viaRest = await rest('POST', '/api/reports/mutate', READER, { mutate: [{ operation: 'create', attributes }] });
  t.equal(viaRest.status, 200, viaRest.body);
  const restRecord = ((await rest('POST', '/api/reports/search', READER, { search: { filters: [{ field: 'id', value: (viaRest.json().created as number[])[0] }] } })).json().data as Rec[])[0];
  const strip = (r: Rec) => Object.fromEntries(Object.entries(r).filter(([k]) => !['id', 'created_at', 'updated_at'].includes(k)));
  t.same(strip(answer.report as Rec), strip(restRecord), 'the same record as the REST write, but for id and times');

  const update = await call(client, 'submit_report', { title: 'Wrong name', report_category: 'UPDATE', mol_ids: [rich.identifier], suggested_changes: { name: 'Better name' }, status: 'DRAFT' });
  t.notOk(update.res.isError, String(update.res.content[0]?.text).slice(0, 300));
  t.match(update.json().report, { status: 'DRAFT', report_category: 'UPDATE', molecule_ids: [all.find((m) => m.identifier === rich.identifier)!.id] });

  for (const bad of [{ canonical_smiles: 'CCO' }, { title: 'x', report_category: 'REVOKE' }, { title: 'x', canonical_smiles: 'CCO', status: 'APPROVED' }, { title: 'x', report_category: 'UPDATE', mol_ids: ['CNP9999999'], suggested_changes: { name: 'y' } }, { title: 'x', canonical_smiles: 'CCO', user_id: 1 }]) {
    const expected = await rest('POST', '/api/reports/mutate', READER, { mutate: [{ operation: 'create', attributes: bad }] });
    t.equal(expected.status, 422, `${JSON.stringify(bad)}: REST 422`);
    t.equal((await call(client, 'submit_report', bad)).res.content[0].text, restFailure('submit_report', expected), `${JSON.stringify(bad)}: the REST 422`);
  }
});

t.test('resources: templates, the collections, and records as JSON', async (t) => {
  const client = await connect(t, READER);
  const { resourceTemplates } = await client.listResourceTemplates();
  t.same(resourceTemplates.map((x) => x.uriTemplate), ['natprod://molecule/{identifier}', 'natprod://organism/{id}', 'natprod://citation/{id}', 'natprod://collection/{id}']);
  t.ok(resourceTemplates.every((x) => x.mimeType === 'application/json'));

  const molecule = await client.readResource({ uri: `natprod://molecule/${rich.identifier as string}` });
  const viaTool = (await call(client, 'get_molecule', { query: rich.identifier as string })).json().molecule;
  t.equal(molecule.contents[0].mimeType, 'application/json');
  t.same(JSON.parse((molecule.contents[0] as { text: string }).text), viaTool, 'a molecule resource is get_molecule\'s record');
  for (const [kind, id] of [['organism', (rich.organism_ids as number[])[0]], ['citation', (rich.citation_ids as number[])[0]], ['collection', (rich.collection_ids as number[])[0]]] as const) {
    const r = await client.readResource({ uri: `natprod://${kind}/${id}` });
    const expected = await rest('POST', `/api/${kind}s/search`, READER, { search: { filters: [{ field: 'id', value: id }] } });
    t.same(JSON.parse((r.contents[0] as { text: string }).text), (expected.json().data as Rec[])[0], `${kind} ${id}: the record of POST /api/${kind}s/search`);
  }

  const listed: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await client.listResources(cursor ? { cursor } : {});
    listed.push(...page.resources.map((x) => x.uri));
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  const collections = await store.find('collections', {}, { fields: ['id'] });
  t.ok(collections.length > 50, `${collections.length} collections: more than a page`);
  t.same(listed.sort(), collections.map((c) => `natprod://collection/${c.id}`).sort(), 'resources/list pages through every collection');

  const fails: [string, number][] = [
    ['natprod://molecule/CNP9999999', RESOURCE_NOT_FOUND],
    ['natprod://organism/99999999', RESOURCE_NOT_FOUND],
    ['natprod://molecule/aspirin', -32602],
    ['natprod://organism/abc', -32602],
    ['natprod://planet/1', -32602],
    ['https://example.org/x', -32602],
  ];
  for (const [uri, code] of fails) {
    const err = await client.readResource({ uri }).then(() => undefined, (e: unknown) => e);
    t.ok(err instanceof McpError, `${uri}: an error`);
    t.equal((err as McpError).code, code, `${uri}: code ${code}`);
  }
  const anonymous = await connect(t);
  const err = (await anonymous.readResource({ uri: `natprod://molecule/${rich.identifier as string}` }).then(() => undefined, (e: unknown) => e)) as McpError;
  t.ok(err instanceof McpError, 'without a token: an error');
  t.match(err.message, /Status code: 401\. Response: \{"message":"Unauthenticated\."\}/);
  t.match(err.data, { status: 401, body: { message: 'Unauthenticated.' } });
});

t.test('prompts: listed, filled in, and their arguments checked', async (t) => {
  const client = await connect(t);
  const { prompts } = await client.listPrompts();
  t.same(prompts.map((p) => p.name), ['dereplicate_mass', 'compound_profile', 'taxon_chemistry']);
  t.same(prompts[0].arguments?.map((a) => [a.name, a.required]), [['mz', true], ['taxon', false], ['adducts', false], ['ppm', false]]);

  const derep = await client.getPrompt({ name: 'dereplicate_mass', arguments: { mz: '303.0499, 287.055', taxon: 'Asteraceae', adducts: '[M+H]+, [M+Na]+', ppm: '3' } });
  const text = derep.messages[0].content.type === 'text' ? derep.messages[0].content.text : '';
  t.equal(derep.messages[0].role, 'user');
  t.match(text, 'search_mass');
  t.match(text, JSON.stringify({ query: [303.0499, 287.055], adducts: ['[M+H]+', '[M+Na]+'], tolerance_ppm: 3, taxon: 'Asteraceae' }), 'the search_mass call, written out');
  t.match(text, 'get_molecule');
  const plain = await client.getPrompt({ name: 'dereplicate_mass', arguments: { mz: '195.0877' } });
  t.match(plain.messages[0].content, { text: /search_mass with \{"query":195\.0877\}/ });
  t.notMatch(plain.messages[0].content, { text: /taxon"/ });

  const profile = await client.getPrompt({ name: 'compound_profile', arguments: { compound: 'artemisinin' } });
  t.match(profile.messages[0].content, { text: /"artemisinin"[\s\S]*get_molecule[\s\S]*organism[\s\S]*generate_2d_depiction/ });
  const taxon = await client.getPrompt({ name: 'taxon_chemistry', arguments: { taxon: 'Artemisia' } });
  t.match(taxon.messages[0].content, { text: /search_taxon with \{"taxon": "Artemisia"/ });

  for (const [name, args] of [
    ['dereplicate_mass', {}],
    ['dereplicate_mass', { mz: 'abc' }],
    ['dereplicate_mass', { mz: '-5' }],
    ['dereplicate_mass', { mz: '300', adducts: '[M+Xx]+' }],
    ['dereplicate_mass', { mz: '300', ppm: '0' }],
    ['dereplicate_mass', { mz: '300', charge: '1' }],
    ['compound_profile', { compound: ' ' }],
    ['no_such_prompt', {}],
  ] as const) {
    const err = await client.getPrompt({ name, arguments: args as Record<string, string> }).then(() => undefined, (e: unknown) => e);
    t.ok(err instanceof McpError && err.code === -32602, `${name} ${JSON.stringify(args)}: InvalidParams`);
  }
});
