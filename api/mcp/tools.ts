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
 * (`openWorld`). A tool whose answers are JSON declares an `outputSchema` and answers
 * `structuredContent` beside its text (structured.ts: `{result: <REST body>}` for registry tools,
 * the REST object itself for catalog tools). A call with a `progressToken` is told the progress
 * of its job (progress.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../shared/errors.ts';
import { OPERATIONS, OPERATIONS_BY_NAME } from '../../shared/ops/index.ts';
import type { Config } from '../../shared/config.ts';
import type { MediaType, OpDef } from '../../shared/ops/types.ts';
import type { ApiContext } from '../chem/context.ts';
import { encodeBody, executeOp } from '../chem/execute.ts';
import { parseArgs } from '../chem/validate.ts';
import { argsJsonSchema } from '../openapi/index.ts';
import type { StructureSearch } from '../catalog/search/index.ts';
import { CATALOG_TOOLS, CATALOG_TOOLS_BY_NAME, type CatalogToolDeps } from './catalog-tools.ts';
import type { CatalogUser } from '../catalog/schema/types.ts';
import type { McpExports } from './export-tool.ts';
import type { ImportJobs } from '../catalog/import/jobs.ts';
import { registerCatalogResources } from './resources.ts';
import { registerPrompts } from './prompts.ts';
import { jsonResult, registryOutputSchema } from './structured.ts';
import { progressOf, reportJob, type Progress } from './progress.ts';

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
  /** The import jobs of import_molecules and import_status (import-tool.ts); absent: not offered. */
  imports?: ImportJobs;
}

/**
 * The MCP tool of a registry operation, its open-world hint decided by this process's
 * configuration (none, as docs/mcp.md's table is written: false where the configuration decides).
 */
export function registryTool(op: OpDef, config: Config | undefined): Tool {
  const title = op.title ?? op.summary;
  const openWorld = typeof op.openWorld === 'function' ? !!config && op.openWorld(config) : op.openWorld ?? false;
  const outputSchema = registryOutputSchema(op);
  return {
    name: op.name,
    title,
    description: [op.summary, op.description].filter(Boolean).join('\n\n'),
    inputSchema: { ...argsJsonSchema(op), title: `${op.name}Arguments` },
    ...(outputSchema ? { outputSchema } : {}),
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

/**
 * The answer: text, except pictures, and JSON also as structured content (structured.ts). An SVG
 * becomes a PNG image content (rendered on a chemistry thread by the internal task svg_to_png, at
 * the SVG's size, shrunk to the PNG limit) followed by the SVG as text; a PNG (`format=png`) is an
 * image content.
 */
async function answer(opName: string, mediaType: MediaType, value: unknown, ctx: ApiContext): Promise<CallToolResult> {
  if (mediaType === 'image/png') return { content: [{ type: 'image', data: String(value), mimeType: 'image/png' }] };
  if (mediaType === 'image/svg+xml' && typeof value === 'string') {
    const png = await ctx.runner.runTask(opName, 'svg_to_png', { svg: value });
    return { content: [{ type: 'image', data: png.body, mimeType: png.mediaType }, { type: 'text', text: value }] };
  }
  if (mediaType === 'application/json') return jsonResult(value, true);
  return { content: [{ type: 'text', text: String(encodeBody(mediaType, value)) }] };
}

export function errorText(tool: string, e: unknown): string {
  const app = AppError.from(e) ?? new AppError(500, 'Internal Server Error');
  return `Error calling ${tool}. Status code: ${app.status}. Response: ${JSON.stringify({ detail: app.detail })}`;
}

export function createMcpServer(opts: McpOptions): Server {
  // With the catalog: its records as resources (resources.ts) and the researchers' prompts (prompts.ts).
  const server = new Server({ name: 'natprod', version: opts.version }, { capabilities: { tools: {}, ...(opts.structure ? { resources: {}, prompts: {} } : {}) } });
  const deps = (): CatalogToolDeps => ({ context: opts.context(), structure: opts.structure!, user: opts.user ?? (async () => undefined), exports: opts.exportJobs, imports: opts.imports });
  if (opts.structure) {
    registerCatalogResources(server, deps);
    registerPrompts(server);
  }

  const catalogTools = opts.structure ? CATALOG_TOOLS.map((t) => t.tool) : [];
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...registryTools(opts.context().config), ...catalogTools] }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const progress = progressOf(extra, req.params._meta?.progressToken);
    try {
      return await callTool(req.params.name, req.params.arguments, progress);
    } finally {
      await progress.settle();
    }
  });

  async function callTool(name: string, args: Record<string, unknown> | undefined, progress: Progress): Promise<CallToolResult> {
    const catalogTool = opts.structure ? CATALOG_TOOLS_BY_NAME.get(name) : undefined;
    if (catalogTool) return catalogTool.call({ ...deps(), progress }, args);
    const op = OPERATIONS_BY_NAME.get(name);
    if (!op) return { isError: true, content: [{ type: 'text', text: `Unknown tool: ${name}` }] };
    try {
      const parsed = parseArgs(op.args, args ?? {}, () => 'body') as Record<string, unknown>;
      const ctx = opts.context();
      const outcome = await executeOp(op, parsed, ctx, {
        waitForLong: true,
        longWaitMs: opts.longWaitMs,
        onProgress: (rec) => reportJob(progress, rec),
      });
      if (outcome.kind === 'job') return jsonResult(outcome.submission, true);
      const result = await answer(op.name, outcome.mediaType, outcome.value, ctx);
      return outcome.note ? { ...result, content: [...result.content, { type: 'text', text: outcome.note }] } : result;
    } catch (e) {
      return { isError: true, content: [{ type: 'text', text: errorText(name, e) }] };
    }
  }

  return server;
}
