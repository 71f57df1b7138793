/**
 * MCP over stdio: `npm run mcp:stdio`'s entry started as a child process by the SDK's own stdio
 * client, which lists the registry's tools and calls one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { OPERATIONS } from '../../shared/ops/index.ts';
import { CATALOG_TOOLS } from '../../api/mcp/catalog-tools.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { openStore } from '../../api/catalog/store/open.ts';

const dir = await mkdtemp(join(tmpdir(), 'natprod-stdio-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
// A reader's token in the catalog the child opens: the catalog tools act as it (NATPROD_TOKEN).
const setup = await openStore({ dataDir: dir });
const token = await issueToken(setup, (await ensureUser(setup, 'stdio@example.org', 'reader')).id);
await setup.close();

const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>;
delete env.REDIS_URL;
const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['--import', 'tsx', 'api/mcp/stdio.ts'],
  env: { ...env, NATPROD_TOKEN: token, DATA_DIR: dir, WORKERS: '1', SEED_DEMO: 'false', LOG_LEVEL: 'silent' },
  stderr: 'ignore',
});
const client = new Client({ name: 'natprod-stdio-test', version: '1.0.0' });
await client.connect(transport);
t.teardown(() => client.close());

t.test('tools over stdio', async (t) => {
  const { tools } = await client.listTools();
  t.same(tools.map((x) => x.name).sort(), [...OPERATIONS.map((o) => o.name), ...CATALOG_TOOLS.map((c) => c.tool.name)].sort(), 'the registry and the catalog tools');
  const res = (await client.callTool({ name: 'generate_inchikey', arguments: { smiles: 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C' } })) as { content: { text: string }[] };
  t.equal(JSON.parse(res.content[0].text), 'RYYVLZVUVIJVGH-UHFFFAOYSA-N');
  // search_catalog on this process's (empty) catalog: 503 until its index is built.
  let search: { content: { text: string }[]; isError?: boolean } | undefined;
  for (let i = 0; i < 100; i++) {
    search = (await client.callTool({ name: 'search_catalog', arguments: { type: 'similarity', query: 'c1ccccc1' } })) as typeof search;
    if (!search!.isError || !/Status code: 503/.test(search!.content[0].text)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  t.notOk(search!.isError, search!.content[0].text);
  t.match(JSON.parse(search!.content[0].text), { data: [], total: 0 });
});

t.test('catalog tools act as the user of NATPROD_TOKEN', async (t) => {
  const report = (await client.callTool({ name: 'submit_report', arguments: { title: 'A new molecule', canonical_smiles: 'CCO', name: 'ethanol' } })) as { content: { text: string }[]; isError?: boolean };
  t.notOk(report.isError, report.content[0].text.slice(0, 200));
  t.match(JSON.parse(report.content[0].text), { created: [Number], report: { title: 'A new molecule', status: 'SUBMITTED', user_id: Number } });
  const missing = (await client.callTool({ name: 'get_molecule', arguments: { query: 'CNP0000001' } })) as { content: { text: string }[]; isError?: boolean };
  t.ok(missing.isError);
  t.match(missing.content[0].text, /Status code: 404/, 'authenticated (not 401); the empty catalog has no such molecule');
});
