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
  t.equal(tools.length, OPERATIONS.length);
  const res = (await client.callTool({ name: 'generate_inchikey', arguments: { smiles: 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C' } })) as { content: { text: string }[] };
  t.equal(JSON.parse(res.content[0].text), 'RYYVLZVUVIJVGH-UHFFFAOYSA-N');
});
