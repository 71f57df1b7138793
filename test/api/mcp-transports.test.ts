/**
 * Every catalog tool on all three transports, by the SDK's own client: stdio (`api/mcp/stdio.ts`
 * as a child process on the same DATA_DIR, acting as NATPROD_TOKEN's user), Streamable HTTP
 * (`POST /mcp`) and SSE (`GET /sse`). One server per transport, every tool on it, each answer
 * compared with the REST route's answer to the same input and token (the stdio server writes its
 * links on `http://localhost:<PORT>`, read here as the HTTP server's base). Each JSON answer's
 * `structuredContent` is its text parsed (the client also checks it against the outputSchema).
 * A client with `onprogress` is told the progress of a bulk look-up and of a long registry tool.
 */
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { importDemo } from '../../api/catalog/import/demo.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { writeDump } from '../../api/catalog/dumps/dump.ts';
import { dumpDir } from '../../api/catalog/dumps/routes.ts';
import { csvChunks } from '../../api/catalog/lookup/match.ts';
import { CATALOG_TOOLS } from '../../api/mcp/catalog-tools.ts';
import { build } from '../helpers/app.ts';
import { fakeDerive } from '../catalog/helper.ts';

type Rec = Record<string, unknown>;
type Res = { content: { type: string; text?: string }[]; isError?: boolean; structuredContent?: Rec };

const { app, services, config } = (await build(t, 'inline', { WORKERS: '2' }))!;
const store = services.store;
await importDemo(store, { derive: fakeDerive });
await services.searchIndex.start();
// A dated dump (fake molblocks: list_dumps reads manifests, not structures).
await writeDump({ store, molblocks: async (s) => s.map(() => 'fake\n\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END'), dir: dumpDir(config), version: 'test', with3d: false, date: '2024-01-02' });
const READER = await issueToken(store, (await ensureUser(store, 'transports@example.org', 'reader')).id);
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const port = new URL(base).port;

async function rest(method: string, path: string, body?: unknown): Promise<{ status: number; body: string; json: () => Rec }> {
  const headers: Record<string, string> = { authorization: `Bearer ${READER}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) };
  const r = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text, json: () => JSON.parse(text) as Rec };
}

// The fixtures: a molecule with organisms, citations and collections; one of its organisms.
const all = await store.find('molecules', {}, { fields: ['identifier', 'name', 'standard_inchi_key', 'organism_ids', 'citation_ids', 'collection_ids', 'canonical_smiles'] });
const rich = all.find((m) => ['organism_ids', 'citation_ids', 'collection_ids'].every((k) => (m[k] as number[] | undefined)?.length))!;
const org = (await store.findByIds('organisms', [(rich.organism_ids as number[])[0]]))[0];
const record = ((await rest('POST', '/api/molecules/search', { search: { filters: [{ field: 'identifier', value: rich.identifier }], includes: [{ relation: 'properties' }] } })).json().data as Rec[])[0];
const mass = Number((record.properties as Rec).exact_molecular_weight);

const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && k !== 'REDIS_URL')) as Record<string, string>;
const transports: Record<string, () => Transport> = {
  stdio: () =>
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'api/mcp/stdio.ts'],
      env: { ...env, NATPROD_TOKEN: READER, DATA_DIR: config.DATA_DIR, PORT: port, WORKERS: '1', SEED_DEMO: 'false', LOG_LEVEL: 'silent' },
      stderr: 'ignore',
    }),
  'streamable http': () => new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${READER}` } } }),
  sse: () => new SSEClientTransport(new URL(`${base}/sse`), { requestInit: { headers: { authorization: `Bearer ${READER}` } } }),
};

/** Molecule searches of get_molecule and list_molecules, as a REST client writes them. */
const includes = ['properties', 'organisms', 'citations', 'collections'].map((relation) => ({ relation }));
const strip = (r: Rec) => Object.fromEntries(Object.entries(r).filter(([k]) => !['id', 'created_at', 'updated_at'].includes(k)));

for (const [name, make] of Object.entries(transports)) {
  t.test(name, async (t) => {
    const client = new Client({ name: 'natprod-transports-test', version: '1.0.0' });
    await client.connect(make());
    t.teardown(() => client.close());
    const { tools } = await client.listTools();
    for (const c of CATALOG_TOOLS) t.match(tools.find((x) => x.name === c.tool.name), { title: String, annotations: Object, outputSchema: { type: 'object' } }, `${c.tool.name}: listed, titled, annotated, with an outputSchema`);

    /** A tool's answer, its links read on the HTTP server's base, checked for structured content. */
    const call = async (tool: string, args: Rec, onprogress?: (p: Progress) => void): Promise<Rec> => {
      let res: Res | undefined;
      // stdio: the catalog tools answer 503 until the child's structure index is built.
      for (let i = 0; i < 300; i++) {
        res = (await client.callTool({ name: tool, arguments: args }, undefined, onprogress ? { onprogress } : undefined)) as Res;
        if (!res.isError || !/Status code: 503/.test(res.content[0]?.text ?? '')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      t.notOk(res!.isError, `${tool}: ${res!.isError ? res!.content[0]?.text?.slice(0, 300) : 'no error'}`);
      const text = res!.content[0].text!.replaceAll(`http://localhost:${port}`, base);
      const value = JSON.parse(text) as Rec;
      t.same(JSON.parse(JSON.stringify(res!.structuredContent).replaceAll(`http://localhost:${port}`, base)), value, `${tool}: structuredContent is the text's JSON`);
      return value;
    };
    const same = async (tool: string, args: Rec, method: string, path: string, body?: unknown) => {
      const expected = await rest(method, path, body);
      t.equal(expected.status, 200, `${method} ${path}: ${expected.body.slice(0, 200)}`);
      const got = await call(tool, args);
      t.same(got, expected.json(), `${tool}: the answer of ${method} ${path}`);
      return got;
    };

    await same('search_catalog', { type: 'similarity', query: rich.canonical_smiles, threshold: 0.6 }, 'POST', '/api/search', { type: 'similarity', query: rich.canonical_smiles, threshold: 0.6, count: false });
    await same('search_coconut', { query: org.name, type: 'tags', tagType: 'organisms', limit: 5 }, 'POST', '/api/search', { query: org.name, type: 'tags', tagType: 'organisms', limit: 5 });
    await same('search_taxon', { taxon: org.family ?? org.name, limit: 5 }, 'POST', '/api/search', { type: 'tags', tagType: 'taxon', query: org.family ?? org.name, limit: 5 });
    const hits = await same('search_mass', { query: mass + 1.007276, tolerance_ppm: 5 }, 'POST', '/api/search', { type: 'mass', query: mass + 1.007276, tolerance_ppm: 5 });
    t.ok((hits.data as { total: number }).total > 0, `search_mass: the [M+H]+ of ${rich.identifier as string} has hits`);
    const dumps = await same('list_dumps', {}, 'GET', '/api/dumps');
    t.equal((dumps.data as Rec[]).length, 1, 'the dump is listed');

    const { request, ...molecule } = await call('get_molecule', { query: rich.identifier });
    const expected = await rest('POST', '/api/molecules/search', { search: { filters: [{ field: 'identifier', operator: '=', value: rich.identifier }], includes, sorts: [{ field: 'id', direction: 'asc' }], page: 1, limit: 10 } });
    t.same(molecule, { matched_by: 'identifier', molecule: (expected.json().data as Rec[])[0] }, 'get_molecule: the record of POST /api/molecules/search');
    t.same(await rest('POST', (request as Rec).path as string, (request as Rec).body), expected, 'get_molecule: its request, run over REST, answers the same');

    const listBody = { search: { filters: [{ field: 'organisms.id', operator: '=', value: org.id }], sorts: [{ field: 'id', direction: 'asc' }], page: 1, limit: 10 } };
    const { request: listRequest, ...page } = await call('list_molecules', { organism: org.id });
    t.same(page, (await rest('POST', '/api/molecules/search', listBody)).json(), 'list_molecules: the page of POST /api/molecules/search');
    t.same((listRequest as Rec).body, listBody);

    const fields = ['identifier', 'name', 'standard_inchi_key'];
    const queries = [rich.identifier, rich.standard_inchi_key, (rich.standard_inchi_key as string).slice(0, 14), rich.name ?? 'none', 'CCO', 'C1CC('] as string[];
    const { rows } = (await call('lookup_molecules', { queries, fields })) as { rows: Parameters<typeof csvChunks>[0] };
    const csv = await rest('POST', '/api/molecules/lookup', { queries, fields });
    t.equal(csv.status, 200, csv.body.slice(0, 200));
    t.equal([...csvChunks(rows, fields)].join(''), csv.body, 'lookup_molecules: the rows of POST /api/molecules/lookup (its CSV)');

    const exportBody = { format: 'csv', search: { filters: [{ field: 'organisms.id', value: org.id }] }, fields: ['identifier', 'name'] };
    const job = await call('export_molecules', exportBody);
    const restJob = await rest('POST', '/api/molecules/export', { ...exportBody, async: true });
    t.same(Object.keys(job).sort(), Object.keys(restJob.json()).sort(), 'export_molecules: the keys of the REST job');
    t.equal(job.total, restJob.json().total, 'export_molecules: the same total');
    t.equal(job.status_url, `${base}/api/exports/${job.job_id as string}`);
    let status: Rec = {};
    for (let i = 0; i < 600 && !['succeeded', 'failed'].includes(status.status as string); i++) {
      if (i) await new Promise((r) => setTimeout(r, 50));
      status = await call('export_status', { job_id: job.job_id });
    }
    t.equal(status.status, 'succeeded');
    t.same(status, (await rest('GET', `/api/exports/${job.job_id as string}`)).json(), 'export_status: GET /api/exports/{id}');

    const report = { title: `Via ${name}`, canonical_smiles: 'CCO', name: 'ethanol', organism: org.name };
    const made = await call('submit_report', report);
    const viaRest = await rest('POST', '/api/reports/mutate', { mutate: [{ operation: 'create', attributes: report }] });
    const restRecord = ((await rest('POST', '/api/reports/search', { search: { filters: [{ field: 'id', value: (viaRest.json().created as number[])[0] }] } })).json().data as Rec[])[0];
    t.same(strip(made.report as Rec), strip(restRecord), 'submit_report: the record of POST /api/reports/mutate, but for id and times');

    // Progress, where the client asks for it.
    const seen: Progress[] = [];
    await call('lookup_molecules', { queries, fields }, (p) => seen.push(p));
    t.ok(seen.length > 0, `lookup_molecules: ${seen.length} progress notifications`);
    t.match(seen.at(-1), { progress: queries.length, total: queries.length }, 'the last one: every query answered');
    const long: Progress[] = [];
    const structures = (await client.callTool({ name: 'generate_structures', arguments: { molecular_formula: 'C6H14' } }, undefined, { onprogress: (p) => long.push(p) })) as Res;
    t.match(structures.structuredContent, { result: { total_count: 5, formula: 'C6H14' } }, 'generate_structures: {result} (the five hexanes)');
    t.ok(long.length > 0, `generate_structures (a long tool): ${long.length} progress notifications`);
    t.ok(long.every((p, i) => i === 0 || p.progress > long[i - 1].progress), 'progress increases');
    const exportProgress: Progress[] = [];
    await call('export_molecules', exportBody, (p) => exportProgress.push(p));
    t.match(exportProgress, [{ progress: 0, total: job.total }], 'export_molecules: the job is under way, of its total');
  });
}
