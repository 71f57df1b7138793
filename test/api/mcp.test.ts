/**
 * MCP through the SDK's real client against a listening server, over the legacy SSE transport
 * and over Streamable HTTP: the tool list is exactly the registry with its schemas (plus the
 * catalog's search_catalog), every tool answers its registry example with the value the example
 * expects from an independent reference (test/api/expected.ts, as test/api/chem-http.test.ts
 * checks over REST), and a quick tool's answer is the REST operation's body. SSE is also served
 * at `/sse` + `/messages` (endpoint event, CORS on the hijacked stream, quick budget).
 */
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { OPERATIONS } from '../../shared/ops/index.ts';
import { CATALOG_TOOLS } from '../../api/mcp/catalog-tools.ts';
import { argsJsonSchema } from '../../api/openapi/index.ts';
import { build } from '../helpers/app.ts';
import { startFakePugRest } from '../extdb/fake-pugrest.ts';
import { answerOf, mismatches } from './expected.ts';
import { SAMPLES, samplePdf } from './samples.ts';

const pubchem = await startFakePugRest();
t.teardown(() => pubchem.close());
const pdfBase64 = (await samplePdf()).toString('base64');
const { app } = (await build(t, 'inline', { EXTDB_URL: pubchem.base, EXTDB_TIMEOUT_MS: '2000' }))!;
const base = await app.listen({ port: 0, host: '127.0.0.1' });

const transports: Record<string, () => Transport> = {
  sse: () => new SSEClientTransport(new URL(`${base}/mcp`)),
  'streamable http': () => new StreamableHTTPClientTransport(new URL(`${base}/mcp`)),
};

type Text = { type: 'text'; text: string };

for (const [name, make] of Object.entries(transports)) {
  t.test(name, async (t) => {
    const client = new Client({ name: 'natprod-test', version: '1.0.0' });
    await client.connect(make());
    t.teardown(() => client.close());

    const { tools } = await client.listTools();
    // The registry, plus the catalog's tools (api/mcp/catalog-tools.ts; tested in test/search/mcp-search-catalog.test.ts, test/api/mcp-catalog-tools.test.ts and others).
    t.same(tools.map((x) => x.name).sort(), [...OPERATIONS.map((o) => o.name), ...CATALOG_TOOLS.map((c) => c.tool.name)].sort(), 'exactly the registry and the catalog tools');
    for (const op of OPERATIONS) {
      const tool = tools.find((x) => x.name === op.name)!;
      const schema = argsJsonSchema(op);
      t.same(tool.inputSchema.properties, schema.properties, `${op.name}: the REST argument schema`);
      t.same(tool.inputSchema.required ?? [], schema.required, `${op.name}: required arguments`);
      t.ok(tool.description?.startsWith(op.summary), `${op.name}: described`);
    }

    // Every tool with its example (the classification result after its submission, as a client polls it).
    const ordered = [...OPERATIONS].sort((a, b) => Number(!!SAMPLES[a.name]?.needsJobOf) - Number(!!SAMPLES[b.name]?.needsJobOf));
    for (const op of ordered) {
      const s = SAMPLES[op.name];
      const args = s.pdf ? { pdf_base64: pdfBase64, filename: 'paper.pdf' } : (s.mcp ?? s.query ?? {});
      let res = (await client.callTool({ name: op.name, arguments: args })) as { content: Text[]; isError?: boolean };
      for (let i = 0; s.needsJobOf && i < 300 && /"classification_status": "(In Queue|Processing)"/.test(res.content[0]?.text ?? ''); i++) {
        await new Promise((r) => setTimeout(r, 100));
        res = (await client.callTool({ name: op.name, arguments: args })) as { content: Text[]; isError?: boolean };
      }
      t.notOk(res.isError, `${op.name}: ${res.isError ? res.content[0]?.text : 'no error'}`);
      // A drawing answers an image content first (test/api/png-mcp.test.ts), then its SVG as text.
      const text = res.content.find((c) => c.type === 'text')?.text ?? '';
      t.same(mismatches(s.expected!.value, answerOf(op.output, text)), [], `${op.name}: the expected answer (${s.expected!.source})`);
      if (op.mode === 'quick' && op.method === 'GET' && !s.needsJobOf) {
        const rest = await app.inject({ url: op.path, query: s.query });
        if (op.output === 'application/json') t.same(JSON.parse(text), rest.json(), `${op.name}: same value as REST`);
        else t.equal(text, rest.body, `${op.name}: same body as REST`);
      }
    }

    const pretty = (await client.callTool({ name: 'generate_formats', arguments: { smiles: 'CCO' } })) as { content: Text[] };
    t.match(pretty.content[0].text, /^\{\n {2}"mol": /, 'JSON is pretty-printed');

    const bad = (await client.callTool({ name: 'generate_inchikey', arguments: { smiles: 'C1CC(' } })) as { content: Text[]; isError?: boolean };
    t.ok(bad.isError);
    t.match(bad.content[0].text, /^Error calling generate_inchikey\. Status code: 422\. Response: .*C1CC\(/);
    const badParam = (await client.callTool({ name: 'generate_inchikey', arguments: { smiles: 'CCO', toolkit: 'chemaxon' } })) as { content: Text[]; isError?: boolean };
    t.ok(badParam.isError);
    t.match(badParam.content[0].text, /Status code: 422.*toolkit/);

    const long = (await client.callTool({ name: 'generate_structures', arguments: { molecular_formula: 'C5H12' } })) as { content: Text[]; isError?: boolean };
    t.notOk(long.isError, 'a long operation answers its result over MCP');
    t.match(JSON.parse(long.content[0].text), { total_count: 3, formula: 'C5H12' });

    const body = (await client.callTool({ name: 'filter_molecules', arguments: SAMPLES.filter_molecules.mcp! })) as { content: Text[]; isError?: boolean };
    t.notOk(body.isError, 'a text-body operation is callable with JSON arguments');

    const pdf = (await samplePdf()).toString('base64');
    const text = (await client.callTool({ name: 'extract_pdf_text_tools_extract_text_post', arguments: { pdf_base64: pdf, filename: 'my paper.pdf', pages: 2 } })) as { content: Text[]; isError?: boolean };
    t.notOk(text.isError, 'a PDF is sent base64-encoded');
    t.match(JSON.parse(text.content[0].text), { text: /Natural products from marine sponges/, pdf_filename: 'my_paper.pdf' });
    const notPdf = (await client.callTool({ name: 'extract_pdf_text_tools_extract_text_post', arguments: { pdf_base64: Buffer.from('hello').toString('base64') } })) as { content: Text[]; isError?: boolean };
    t.ok(notPdf.isError);
    t.match(notPdf.content[0].text, /Status code: 400.*PDF/);
  });
}

t.test('SSE message endpoint errors as the original service', async (t) => {
  t.equal((await app.inject({ method: 'POST', url: '/mcp/messages/', payload: {} })).statusCode, 400);
  t.equal((await app.inject({ method: 'POST', url: '/mcp/messages/?session_id=xyz', payload: {} })).statusCode, 400);
  const unknown = await app.inject({ method: 'POST', url: `/mcp/messages/?session_id=${'a'.repeat(32)}`, payload: {} });
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.body, 'Could not find session');
});

/** The first event of an SSE stream opened with fetch, and the response (its body still open). */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const ac = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: ac.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  const next = async () => {
    while (!buf.includes('\n\n')) {
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      buf += value;
    }
    const i = buf.indexOf('\n\n');
    const event = buf.slice(0, i);
    buf = buf.slice(i + 2);
    return event;
  };
  return { res, next, close: () => ac.abort() };
}

t.test('SSE at the common paths: GET /sse names /messages?sessionId=, GET /mcp keeps /mcp/messages/?session_id=', async (t) => {
  for (const [path, endpoint] of [['/sse', /^\/messages\?sessionId=[0-9a-f]{32}$/], ['/mcp', /^\/mcp\/messages\/\?session_id=[0-9a-f]{32}$/]] as const) {
    const stream = await openStream(`${base}${path}`, { origin: 'https://client.example' });
    t.teardown(stream.close);
    t.equal(stream.res.headers.get('content-type'), 'text/event-stream', `${path}: an event stream`);
    t.equal(stream.res.headers.get('access-control-allow-origin'), '*', `${path}: CORS headers on the hijacked stream`);
    t.equal(stream.res.headers.get('x-content-type-options'), 'nosniff', `${path}: helmet headers`);
    const first = await stream.next();
    const url = /^event: endpoint\ndata: (.*)$/.exec(first)?.[1] ?? '';
    t.match(url, endpoint, `${path}: endpoint event`);
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    const posted = await fetch(new URL(url, base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(init) });
    t.equal(posted.status, 202, `${path}: message accepted at its endpoint`);
    t.match(JSON.parse(/^event: message\ndata: (.*)$/.exec(await stream.next())?.[1] ?? 'null'), { id: 1, result: { serverInfo: { name: 'natprod' } } }, `${path}: answered on the stream`);
  }
  t.equal((await app.inject({ method: 'POST', url: '/messages', payload: {} })).statusCode, 400, '/messages without a session');
  t.equal((await app.inject({ method: 'POST', url: `/messages?sessionId=${'b'.repeat(32)}`, payload: {} })).statusCode, 404, '/messages with an unknown session');
});

t.test('/sse and /messages spend the quick budget, as /mcp does', async (t) => {
  const limited = (await build(t, 'inline', { RATE_LIMIT_QUICK: '3', RATE_LIMIT_EXEMPT: '' }))!.app;
  const unknown = `sessionId=${'c'.repeat(32)}`;
  t.equal((await limited.inject({ method: 'POST', url: `/messages?${unknown}`, payload: {} })).statusCode, 404);
  t.equal((await limited.inject({ method: 'POST', url: `/mcp/messages/?${unknown}`, payload: {} })).statusCode, 404);
  const last = await limited.inject({ method: 'POST', url: `/messages?${unknown}`, payload: {} });
  t.equal(last.statusCode, 404);
  t.equal(last.headers['x-ratelimit-remaining'], '0');
  t.equal((await limited.inject({ url: '/sse' })).statusCode, 429, 'GET /sse refused once the budget is spent');
  t.equal((await limited.inject({ method: 'POST', url: `/messages?${unknown}`, payload: {} })).statusCode, 429);
});
