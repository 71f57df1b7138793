/**
 * docs/mcp.md's table of every tool is what the server lists (api/mcp/tools-doc.ts): each tool
 * once, with its title and annotations; rewrite it with `node --import tsx api/mcp/tools-doc.ts`.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { OPERATIONS } from '../../shared/ops/index.ts';
import { CATALOG_TOOLS } from '../../api/mcp/catalog-tools.ts';
import { MCP_DOC, renderMcpDoc, toolsTable } from '../../api/mcp/tools-doc.ts';

t.test('docs/mcp.md lists every tool as the server does', async (t) => {
  const text = readFileSync(MCP_DOC, 'utf8');
  t.equal(text, renderMcpDoc(text), 'the tools table is up to date (node --import tsx api/mcp/tools-doc.ts)');
  const rows = toolsTable().split('\n').slice(2);
  const names = [...OPERATIONS.map((o) => o.name), ...CATALOG_TOOLS.map((c) => c.tool.name)];
  t.same(rows.map((r) => /^\| `([^`]+)`/.exec(r)?.[1]), names, 'one row per tool, in the order tools/list gives them');
  for (const { tool } of CATALOG_TOOLS) t.ok(rows.some((r) => r.includes(`| ${tool.title} |`)), `${tool.name}: its title`);
  t.ok(rows.every((r) => /\| (read-only|writes), (not )?destructive, (not )?idempotent, (closed-world|open-world|open-world when configured) \|/.test(r)), 'annotations in words');
});
