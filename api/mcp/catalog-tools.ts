/**
 * The catalog's MCP tools, offered beside the registry's chemistry tools when the server has the
 * catalog (its StructureSearch): each is a JSON-schema `tool` and a `call` that runs the code of
 * the matching REST route, so both answer the same. A failure is an `isError` result carrying
 * the status and body that route would have answered (catalogFailure in catalog-tool.ts).
 * A new catalog tool is one module exporting a CatalogTool and one line in CATALOG_TOOLS.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ApiContext } from '../../shared/ops/types.ts';
import type { StructureSearch } from '../catalog/structure/structure.ts';
import { searchCatalogTool } from './catalog-tool.ts';

export interface CatalogToolDeps {
  /** The caller's context: runner (rate-limited per client), config, store, base URL. */
  context: ApiContext;
  structure: StructureSearch;
}

export interface CatalogTool {
  tool: Tool;
  call(deps: CatalogToolDeps, args: Record<string, unknown> | undefined): Promise<CallToolResult>;
}

export const CATALOG_TOOLS: readonly CatalogTool[] = [searchCatalogTool];

export const CATALOG_TOOLS_BY_NAME: ReadonlyMap<string, CatalogTool> = new Map(CATALOG_TOOLS.map((t) => [t.tool.name, t]));
