/**
 * The MCP server: one tool per registry operation, same name, description and argument schema as
 * the REST operation, executed by the same `executeOp`; plus the catalog's tools (`search_catalog`
 * and the others of api/mcp/catalog-tools.ts) when the server is given the catalog's StructureSearch.
 * Results are one text content (JSON pretty-printed; HTML and molblocks verbatim); a drawing is
 * an image content (PNG, rendered on a chemistry thread) followed by its SVG as text, and a PNG
 * answer (`format=png`) is an image content alone; failures are `isError` results that carry the
 * HTTP status and body the REST call would have answered.
 *
 * Every registry tool has a `title` (the entry's, else its summary) and annotations derived from
 * the registry: chemistry reads and computes, so `readOnlyHint: true`, `destructiveHint: false`,
 * `idempotentHint: true`, and `openWorldHint` only where the entry says it leaves the machine
 * (`openWorld`). No `outputSchema` is declared: the registry describes arguments, not answers
 * (many of which are strings or arrays, which MCP's object-typed structured content cannot carry),
 * so JSON answers come as text content only.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../shared/errors.ts';
import { OPERATIONS, OPERATIONS_BY_NAME } from '../../shared/ops/index.ts';
import type { Config } from '../../shared/config.ts';
import type { ApiContext, MediaType, OpDef } from '../../shared/ops/types.ts';
import { encodeBody, executeOp } from '../chem/execute.ts';
import { parseArgs } from '../chem/validate.ts';
import { argsJsonSchema } from '../openapi.ts';
import type { StructureSearch } from '../catalog/structure/structure.ts';
import { CATALOG_TOOLS, CATALOG_TOOLS_BY_NAME, type CatalogToolDeps } from './catalog-tools.ts';
import type { CatalogUser } from '../catalog/schema/types.ts';
import type { McpExports } from './export-tool.ts';
import { registerCatalogResources } from './resources.ts';
import { registerPrompts } from './prompts.ts';

export interface McpOptions {
  version: string;
  context: () => ApiContext;
  longWaitMs: number;
  /** The catalog's structure search: offers the catalog tools (catalog-tools.ts). */
  structure?: StructureSearch;
  /** The catalog user of the connection's token (HTTP: the Authorization header; stdio: NATPROD_TOKEN); absent: none. */
  user?: () => Promise<CatalogUser | undefined>;
  /** The export jobs of export_molecules and export_status (export-tool.ts); absent: not offered. */
  exportJobs?: McpExports;
}

/** The MCP tool of a registry operation, its open-world hint decided by this process's configuration. */
function registryTool(op: OpDef, config: Config): Tool {
  const title = op.title ?? op.summary;
  const openWorld = typeof op.openWorld === 'function' ? op.openWorld(config) : op.openWorld ?? false;
  return {
    name: op.name,
    title,
    description: [op.summary, op.description].filter(Boolean).join('\n\n'),
    inputSchema: { ...argsJsonSchema(op), title: `${op.name}Arguments` },
    // `title` again in the annotations, where clients of the 2025-03-26 protocol read it.
    annotations: { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: openWorld },
  };
}

/** The registry's tools for a configuration, in registry order (built once per configuration). */
const toolsByConfig = new WeakMap<Config, Tool[]>();
function registryTools(config: Config): Tool[] {
  let tools = toolsByConfig.get(config);
  if (!tools) toolsByConfig.set(config, (tools = OPERATIONS.map((op) => registryTool(op, config))));
  return tools;
}

type Content = CallToolResult['content'][number];

/**
 * The content of an answer: text, except pictures. An SVG becomes a PNG image content (rendered
 * on a chemistry thread by the internal task svg_to_png, at the SVG's size, shrunk to the PNG
 * limit) followed by the SVG as text; a PNG (`format=png`) is an image content.
 */
async function answerContent(opName: string, mediaType: MediaType, value: unknown, ctx: ApiContext): Promise<Content[]> {
  if (mediaType === 'image/png') return [{ type: 'image', data: String(value), mimeType: 'image/png' }];
  if (mediaType === 'image/svg+xml' && typeof value === 'string') {
    const png = await ctx.runner.runTask(opName, 'svg_to_png', { svg: value });
    return [{ type: 'image', data: png.body, mimeType: png.mediaType }, { type: 'text', text: value }];
  }
  const text = mediaType === 'application/json' ? JSON.stringify(value ?? null, null, 2) : String(encodeBody(mediaType, value));
  return [{ type: 'text', text }];
}

export function errorText(tool: string, e: unknown): string {
  const app = AppError.from(e) ?? new AppError(500, 'Internal Server Error');
  return `Error calling ${tool}. Status code: ${app.status}. Response: ${JSON.stringify({ detail: app.detail })}`;
}

export function createMcpServer(opts: McpOptions): Server {
  // With the catalog: its records as resources (resources.ts) and the researchers' prompts (prompts.ts).
  const server = new Server({ name: 'natprod', version: opts.version }, { capabilities: { tools: {}, ...(opts.structure ? { resources: {}, prompts: {} } : {}) } });
  const deps = (): CatalogToolDeps => ({ context: opts.context(), structure: opts.structure!, user: opts.user ?? (async () => undefined), exports: opts.exportJobs });
  if (opts.structure) {
    registerCatalogResources(server, deps);
    registerPrompts(server);
  }

  const catalogTools = opts.structure ? CATALOG_TOOLS.map((t) => t.tool) : [];
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...registryTools(opts.context().config), ...catalogTools] }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const name = req.params.name;
    const catalogTool = opts.structure ? CATALOG_TOOLS_BY_NAME.get(name) : undefined;
    if (catalogTool) return catalogTool.call(deps(), req.params.arguments);
    const op = OPERATIONS_BY_NAME.get(name);
    if (!op) return { isError: true, content: [{ type: 'text', text: `Unknown tool: ${name}` }] };
    const token = req.params._meta?.progressToken;
    try {
      const args = parseArgs(op.args, (req.params.arguments ?? {}) as Record<string, unknown>, () => 'body') as Record<string, unknown>;
      const ctx = opts.context();
      const outcome = await executeOp(op, args, ctx, {
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
      const content = await answerContent(op.name, outcome.mediaType, outcome.value, ctx);
      return { content: [...content, ...(outcome.note ? [{ type: 'text' as const, text: outcome.note }] : [])] };
    } catch (e) {
      return { isError: true, content: [{ type: 'text', text: errorText(name, e) }] };
    }
  });

  return server;
}
