/**
 * Sugar removal that would leave nothing: the three removal routes answer one and the same 422
 * `{"detail": ...}` (the molecule consists only of sugar), over REST and as MCP tool calls.
 */
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { NOTHING_LEFT } from '../../shared/ops/sugars.tasks.ts';
import { build } from '../helpers/app.ts';

const GLUCOSE = 'OC[C@H]1O[C@H](O)[C@H](O)[C@@H](O)[C@@H]1O';
const OPEN_CHAIN_GLUCOSE = 'OC[C@H](O)[C@H](O)[C@@H](O)[C@@H](O)C=O';

const CASES = [
  { tool: 'remove_linear_sugars', path: '/tools/remove-linear-sugars', smiles: OPEN_CHAIN_GLUCOSE },
  { tool: 'remove_circular_sugars', path: '/tools/remove-circular-sugars', smiles: GLUCOSE },
  { tool: 'remove_linear_and_circular_sugars', path: '/tools/remove-sugars', smiles: GLUCOSE },
  { tool: 'remove_linear_and_circular_sugars', path: '/tools/remove-sugars', smiles: OPEN_CHAIN_GLUCOSE },
];

const { app } = (await build(t, 'inline'))!;

t.test('REST: one 422 for the three routes, under every prefix', async (t) => {
  for (const c of CASES) {
    for (const prefix of ['', '/latest']) {
      const res = await app.inject({ url: `${prefix}${c.path}`, query: { smiles: c.smiles } });
      t.equal(res.statusCode, 422, `${prefix}${c.path} ${c.smiles}`);
      t.same(res.json(), { detail: NOTHING_LEFT }, `${prefix}${c.path}: the same detail`);
    }
  }
  t.match(NOTHING_LEFT, /consists only of sugar/);
  t.notMatch(NOTHING_LEFT, /SMILES/, 'the input is not blamed');
  const kept = await app.inject({ url: '/tools/remove-circular-sugars', query: { smiles: 'c1ccccc1O[C@@H]1O[C@H](CO)[C@@H](O)[C@H](O)[C@H]1O' } });
  t.equal(kept.statusCode, 200, 'an aglycone is still answered');
});

t.test('MCP tool calls carry the same status and detail', async (t) => {
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const client = new Client({ name: 'natprod-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  t.teardown(() => client.close());
  for (const c of CASES) {
    const res = (await client.callTool({ name: c.tool, arguments: { smiles: c.smiles } })) as { content: { text: string }[]; isError?: boolean };
    t.ok(res.isError, c.tool);
    t.equal(res.content[0].text, `Error calling ${c.tool}. Status code: 422. Response: ${JSON.stringify({ detail: NOTHING_LEFT })}`, c.tool);
  }
});
