/**
 * The MCP tool `search_catalog` through the SDK's real client (Streamable HTTP and SSE), in both
 * runner modes: the registry's tools unchanged plus search_catalog, and calls that
 * answer exactly what `POST /api/search` answers, errors included.
 */
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { argsJsonSchema } from '../../api/openapi/index.ts';
import { OPERATIONS } from '../../shared/ops/index.ts';
import { CATALOG_TOOLS } from '../../api/mcp/catalog-tools.ts';
import { build, MODES } from '../helpers/app.ts';
import { INDOLE, QUERCETIN, seed } from './export-helpers.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';

type Text = { type: 'text'; text: string };

for (const mode of MODES) {
  t.test(`search_catalog over MCP (${mode})`, async (t) => {
    const ctx = await build(t, mode, { WORKERS: '2' });
    if (!ctx) return skipAll(t, NO_REDIS);
    const { app, services } = ctx;
    await seed(app, services);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const transports: Record<string, () => Transport> = {
      'streamable http': () => new StreamableHTTPClientTransport(new URL(`${base}/mcp`)),
      sse: () => new SSEClientTransport(new URL(`${base}/mcp`)),
    };

    for (const [name, make] of Object.entries(transports)) {
      t.test(name, async (t) => {
        const client = new Client({ name: 'natprod-test', version: '1.0.0' });
        await client.connect(make());
        t.teardown(() => client.close());

        const { tools } = await client.listTools();
        const expected = [...OPERATIONS.map((o) => o.name), ...CATALOG_TOOLS.map((c) => c.tool.name)];
        t.equal(tools.length, expected.length, `${expected.length} tools: the ${OPERATIONS.length} operations of the registry and the ${CATALOG_TOOLS.length} catalog tools`);
        t.same(tools.map((x) => x.name).sort(), expected.sort(), 'the registry names unchanged, plus the catalog tools (search_catalog among them)');
        for (const op of OPERATIONS) {
          const tool = tools.find((x) => x.name === op.name)!;
          t.same(tool.inputSchema.properties, argsJsonSchema(op).properties, `${op.name}: schema unchanged`);
        }
        const tool = tools.find((x) => x.name === 'search_catalog')!;
        t.same(tool.inputSchema.required, ['type', 'query']);
        t.match(tool.inputSchema.properties, { type: { enum: ['exact', 'substructure', 'similarity'] }, limit: { default: 20, maximum: 100 }, page: {}, threshold: {}, use_chirality: {}, query_type: {} });

        // Substructure with `count`: without it the scan may stop once the page is full, and
        // `total` is null or the full count depending on how far the threads got.
        const cases: Record<string, unknown>[] = [
          { type: 'substructure', query: INDOLE, count: true },
          { type: 'substructure', query: INDOLE, limit: 2, page: 2, count: true },
          { type: 'substructure', query: 'c1ccccc1O', query_type: 'smarts', limit: 5, count: true },
          { type: 'similarity', query: QUERCETIN, threshold: 0.4 },
          { type: 'exact', query: QUERCETIN },
          { type: 'exact', query: 'REFJWTPEDVJJIY-UHFFFAOYSA-N' },
        ];
        for (const args of cases) {
          const rest = await app.inject({ method: 'POST', url: '/api/search', payload: { count: false, ...args } });
          t.equal(rest.statusCode, 200);
          const res = (await client.callTool({ name: 'search_catalog', arguments: args })) as { content: Text[]; isError?: boolean };
          t.notOk(res.isError, `${JSON.stringify(args)}: no error`);
          t.same(JSON.parse(res.content[0].text), rest.json(), `${args.type} ${args.query}: the answer of POST /api/search`);
        }
        const phenolTotal = (await app.inject({ method: 'POST', url: '/api/search', payload: { type: 'substructure', query: 'c1ccccc1O', query_type: 'smarts', count: true } })).json().total;
        t.ok(phenolTotal > 5, `${phenolTotal} phenols: more than a page`);
        for (let i = 0; i < 5; i++) {
          const args = { type: 'substructure', query: 'c1ccccc1O', query_type: 'smarts', limit: 5 };
          const rest = (await app.inject({ method: 'POST', url: '/api/search', payload: { count: false, ...args } })).json();
          const mcp = JSON.parse(((await client.callTool({ name: 'search_catalog', arguments: args })) as { content: Text[] }).content[0].text);
          t.same(mcp.data, rest.data, 'without count: the same first page');
          t.ok(mcp.total === null || mcp.total === phenolTotal, `without count: total null or the full count (${mcp.total})`);
        }
        const first = JSON.parse(((await client.callTool({ name: 'search_catalog', arguments: { type: 'substructure', query: INDOLE } })) as { content: Text[] }).content[0].text);
        t.equal(first.per_page, 20, 'limit defaults to 20');
        t.ok(first.data.length >= 6 && first.data.every((d: { murko_framework: string }) => typeof d.murko_framework === 'string'), 'molecule records');

        const bad: [Record<string, unknown>, RegExp][] = [
          [{ type: 'substructure', query: 'C1CC(' }, /not valid SMILES or SMARTS/],
          [{ type: 'similarity', query: 'c1ccccc1', limit: 101 }, /limit/],
          [{ type: 'fuzzy', query: 'c1ccccc1' }, /type/],
          [{ type: 'substructure', query: 'c1ccccc1', where: 1 }, /where/],
        ];
        for (const [args, msg] of bad) {
          const rest = await app.inject({ method: 'POST', url: '/api/search', payload: { count: false, ...args } });
          const res = (await client.callTool({ name: 'search_catalog', arguments: args })) as { content: Text[]; isError?: boolean };
          t.ok(res.isError, `${JSON.stringify(args)}: an error`);
          t.equal(res.content[0].text, `Error calling search_catalog. Status code: ${rest.statusCode}. Response: ${rest.body}`, 'status and body of the REST answer');
          t.match(res.content[0].text, msg);
        }
      });
    }
  });
}
