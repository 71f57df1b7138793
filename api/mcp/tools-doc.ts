/**
 * docs/mcp.md's table of every MCP tool (between the `generated:mcp-tools` markers), written from
 * what the server lists: the registry's tools (tools.ts) and the catalog's (catalog-tools.ts), with
 * their titles, annotations and structured output (structured.ts), so the page cannot drift.
 *
 *   node --import tsx api/mcp/tools-doc.ts            rewrites the table when stale
 *   node --import tsx api/mcp/tools-doc.ts --check    only says so, and exits 1
 *
 * test/api/mcp-docs.test.ts checks it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { OPERATIONS } from '../../shared/ops/index.ts';
import { mediaTypesOf } from '../../shared/ops/types.ts';
import { CATALOG_TOOLS } from './catalog-tools.ts';
import { registryTool } from './tools.ts';

export const MCP_DOC = new URL('../../docs/mcp.md', import.meta.url);

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** The annotations as words: read-only or writes, destructive, idempotent, open-world. */
function hints(a: Tool['annotations'], openWorld: string): string {
  return [
    a?.readOnlyHint ? 'read-only' : 'writes',
    a?.destructiveHint ? 'destructive' : 'not destructive',
    a?.idempotentHint ? 'idempotent' : 'not idempotent',
    openWorld,
  ].join(', ');
}

export function toolsTable(): string {
  const rows: string[] = [];
  for (const op of OPERATIONS) {
    // The open-world hint may depend on the configuration (classification with CHEMCLASS_URL).
    const configured = typeof op.openWorld === 'function';
    const tool = registryTool(op, undefined);
    const openWorld = configured ? 'open-world when configured' : tool.annotations?.openWorldHint ? 'open-world' : 'closed-world';
    const output = tool.outputSchema ? '`{result}`' : `none (${mediaTypesOf(op).join(', ')})`;
    rows.push(`| \`${op.name}\` | ${cell(tool.title ?? '')} | ${hints(tool.annotations, openWorld)} | ${output} | ${op.mode === 'long' ? 'job, with progress' : 'direct'} |`);
  }
  for (const { tool } of CATALOG_TOOLS) {
    const progress = ['lookup_molecules', 'export_molecules', 'import_molecules'].includes(tool.name) ? 'with progress' : 'direct';
    rows.push(`| \`${tool.name}\` | ${cell(tool.title ?? '')} | ${hints(tool.annotations, tool.annotations?.openWorldHint ? 'open-world' : 'closed-world')} | the REST object | ${progress} |`);
  }
  return ['| Tool | Title | Annotations | structuredContent | Runs |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** docs/mcp.md with its tools table as the server lists the tools now. */
export function renderMcpDoc(text: string): string {
  const block = /(<!-- generated:mcp-tools:start[^>]*-->\n)(?:[\s\S]*?\n)?(<!-- generated:mcp-tools:end -->)/;
  if (!block.test(text)) throw new Error('docs/mcp.md has no <!-- generated:mcp-tools:start --> ... <!-- generated:mcp-tools:end --> block');
  return text.replace(block, (_m, a: string, b: string) => `${a}${toolsTable()}\n${b}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = readFileSync(MCP_DOC, 'utf8');
  const next = renderMcpDoc(text);
  if (next === text) console.log('docs/mcp.md: the tools table is up to date');
  else if (process.argv.includes('--check')) {
    console.error('docs/mcp.md: the tools table is stale (node --import tsx api/mcp/tools-doc.ts)');
    process.exit(1);
  } else {
    writeFileSync(MCP_DOC, next);
    console.log('docs/mcp.md: tools table written');
  }
}
