/**
 * The registry's MCP tools describe themselves: each has a title (its entry's summary) and
 * annotations: read-only, not destructive, idempotent, and open-world exactly for the operations
 * that reach services outside the machine (listed here by hand, against the registry's flags);
 * the classification submission is open-world only when CHEMCLASS_URL sends it to a service.
 * A tool whose every answer is JSON declares an outputSchema (registry: `{result}`; catalog: the
 * REST object); drawings, molblocks and HTML declare none (api/mcp/structured.ts).
 */
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OPERATIONS } from '../../shared/ops/index.ts';
import { mediaTypesOf } from '../../shared/ops/types.ts';
import { CATALOG_TOOLS } from '../../api/mcp/catalog-tools.ts';
import { build } from '../helpers/app.ts';
import type { Teardown } from '../helpers/task.ts';

/** The external-database look-up, and name resolution that may ask it (docs/names.md). */
const OPEN_WORLD = ['generate_smiles', 'retrieve_extdb_smiles'];

async function listTools(t: Teardown, env: Record<string, string> = {}) {
  const { app } = (await build(t, 'inline', env))!;
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const client = new Client({ name: 'natprod-annotations-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  t.teardown(() => client.close());
  return (await client.listTools()).tools;
}

t.test('every registry tool has a title and annotations', async (t) => {
  const tools = await listTools(t);
  for (const op of OPERATIONS) {
    const tool = tools.find((x) => x.name === op.name);
    if (!t.ok(tool, `${op.name} is listed`)) continue;
    t.equal(tool!.title, op.summary, `${op.name}: titled by its summary`);
    t.same(tool!.annotations, {
      title: op.summary,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: OPEN_WORLD.includes(op.name),
    }, `${op.name}: annotations`);
    if (mediaTypesOf(op).every((m) => m === 'application/json')) t.match(tool!.outputSchema, { type: 'object', properties: { result: {} }, required: ['result'] }, `${op.name}: outputSchema {result}`);
    else t.equal(tool!.outputSchema, undefined, `${op.name}: answers ${mediaTypesOf(op).join(', ')}: no outputSchema`);
  }
  t.same(tools.filter((x) => x.annotations?.openWorldHint === true && OPERATIONS.some((o) => o.name === x.name)).map((x) => x.name).sort(), OPEN_WORLD, 'open-world: exactly the listed tools');
});

t.test('the classification submission is open-world when CHEMCLASS_URL is set', async (t) => {
  const tools = await listTools(t, { CHEMCLASS_URL: 'http://127.0.0.1:9/classyfire' });
  const openWorld = tools.filter((x) => x.annotations?.openWorldHint === true && OPERATIONS.some((o) => o.name === x.name)).map((x) => x.name).sort();
  t.same(openWorld, [...OPEN_WORLD, 'generate_chemclass_classifications'].sort());
});

t.test('every catalog tool has a title and annotations; only export_molecules, import_molecules and submit_report write; only import_molecules destroys', async (t) => {
  const writers = ['export_molecules', 'import_molecules', 'submit_report'];
  // import_molecules updates molecules in place, and with revoke_absent revokes the COCONUT molecules a release leaves out.
  const destructive = ['import_molecules'];
  for (const { tool } of CATALOG_TOOLS) {
    t.ok(tool.title, `${tool.name}: titled`);
    t.equal(tool.annotations?.title, tool.title, `${tool.name}: the title in the annotations too`);
    t.equal(tool.annotations?.readOnlyHint, !writers.includes(tool.name), `${tool.name}: readOnlyHint`);
    t.equal(tool.annotations?.destructiveHint, destructive.includes(tool.name), `${tool.name}: destructiveHint`);
    t.equal(tool.annotations?.openWorldHint, false, `${tool.name}: the catalog is on this machine`);
    t.match(tool.outputSchema, { type: 'object' }, `${tool.name}: an outputSchema`);
  }
  t.same(CATALOG_TOOLS.map((x) => x.tool.name).filter((n) => writers.includes(n)).sort(), writers, 'the writers are catalog tools');
});
