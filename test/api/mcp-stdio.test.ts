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

const dir = await mkdtemp(join(tmpdir(), 'natprod-stdio-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>;
delete env.REDIS_URL;
const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['--import', 'tsx', 'api/mcp/stdio.ts'],
  env: { ...env, DATA_DIR: dir, WORKERS: '1', SEED_DEMO: 'false', LOG_LEVEL: 'silent' },
  stderr: 'ignore',
});
const client = new Client({ name: 'natprod-stdio-test', version: '1.0.0' });
await client.connect(transport);
t.teardown(() => client.close());

t.test('tools over stdio', async (t) => {
  const { tools } = await client.listTools();
  t.same(tools.map((x) => x.name).sort(), [...OPERATIONS.map((o) => o.name), 'search_catalog'].sort(), 'the registry and search_catalog');
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
