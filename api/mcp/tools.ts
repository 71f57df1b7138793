/**
 * The MCP server: one tool per registry operation, same name, description and argument schema as
 * the REST operation, executed by the same `executeOp`; plus the catalog's tools (`search_catalog`
 * and the others of api/mcp/catalog-tools.ts) when the server is given the catalog's StructureSearch.
 * Results are one text content (JSON pretty-printed; SVG, HTML and molblocks verbatim); failures
 * are `isError` results that carry the HTTP status and body the REST call would have answered.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../shared/errors.ts';
import { OPERATIONS, OPERATIONS_BY_NAME } from '../../shared/ops/index.ts';
import type { ApiContext } from '../../shared/ops/types.ts';
import { encodeBody, executeOp } from '../chem/execute.ts';
import { parseArgs } from '../chem/validate.ts';
import { argsJsonSchema } from '../openapi.ts';
import type { StructureSearch } from '../catalog/structure/structure.ts';
import { CATALOG_TOOLS, CATALOG_TOOLS_BY_NAME } from './catalog-tools.ts';

export interface McpOptions {
  version: string;
  context: () => ApiContext;
  longWaitMs: number;
  /** The catalog's structure search: offers the catalog tools (catalog-tools.ts). */
  structure?: StructureSearch;
}

const TOOLS = OPERATIONS.map((op) => ({
  name: op.name,
  description: [op.summary, op.description].filter(Boolean).join('\n\n'),
  inputSchema: { ...argsJsonSchema(op), title: `${op.name}Arguments` },
}));

export function errorText(tool: string, e: unknown): string {
  const app = AppError.from(e) ?? new AppError(500, 'Internal Server Error');
  return `Error calling ${tool}. Status code: ${app.status}. Response: ${JSON.stringify({ detail: app.detail })}`;
}

export function createMcpServer(opts: McpOptions): Server {
  const server = new Server({ name: 'natprod', version: opts.version }, { capabilities: { tools: {} } });

  const tools = opts.structure ? [...TOOLS, ...CATALOG_TOOLS.map((t) => t.tool)] : TOOLS;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const name = req.params.name;
    const catalogTool = opts.structure ? CATALOG_TOOLS_BY_NAME.get(name) : undefined;
    if (catalogTool) return catalogTool.call({ context: opts.context(), structure: opts.structure! }, req.params.arguments);
    const op = OPERATIONS_BY_NAME.get(name);
    if (!op) return { isError: true, content: [{ type: 'text', text: `Unknown tool: ${name}` }] };
    const token = req.params._meta?.progressToken;
    try {
      const args = parseArgs(op.args, (req.params.arguments ?? {}) as Record<string, unknown>, () => 'body') as Record<string, unknown>;
      const outcome = await executeOp(op, args, opts.context(), {
        waitForLong: true,
        longWaitMs: opts.longWaitMs,
        onProgress: (rec) => {
          if (token === undefined) return;
          const progress = typeof rec.progress === 'number' ? rec.progress : Number(Object.values(rec.progress)[0]) || 0;
          void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message: rec.status } }).catch(() => {});
        },
      });
      if (outcome.kind === 'job') {
        return { content: [{ type: 'text', text: JSON.stringify(outcome.submission, null, 2) }] };
      }
      const text = outcome.mediaType === 'application/json' ? JSON.stringify(outcome.value ?? null, null, 2) : encodeBody(outcome.mediaType, outcome.value);
      return { content: [{ type: 'text', text }, ...(outcome.note ? [{ type: 'text' as const, text: outcome.note }] : [])] };
    } catch (e) {
      return { isError: true, content: [{ type: 'text', text: errorText(name, e) }] };
    }
  });

  return server;
}
