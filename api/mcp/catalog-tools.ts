/**
 * The catalog's MCP tools, offered beside the registry's chemistry tools when the server has the
 * catalog (its StructureSearch): each is a JSON-schema `tool` and a `call` that runs the code of
 * the matching REST route, so both answer the same. A failure is an `isError` result carrying
 * the status and body that route would have answered (catalogFailure in catalog-tool.ts).
 * A new catalog tool is one module exporting a CatalogTool and one line in CATALOG_TOOLS; its
 * outputSchema is added here (structured.ts), and `json()` answers its structured content.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ApiContext } from '../chem/context.ts';
import type { StructureSearch } from '../catalog/search/index.ts';
import { listDumpsTool } from './dumps-tool.ts';
import { searchCatalogTool } from './catalog-tool.ts';
import { searchMassTool } from './mass-tool.ts';
import { searchTaxonTool } from './taxon-tool.ts';
import { lookupTool } from './lookup-tool.ts';
import { getMoleculeTool, listMoleculesTool } from './molecule-tools.ts';
import { searchCoconutTool } from './coconut-tool.ts';
import { exportMoleculesTool, exportStatusTool, type McpExports } from './export-tool.ts';
import { submitReportTool } from './report-tool.ts';
import { importMoleculesTool, importStatusTool } from './import-tool.ts';
import type { ImportJobs } from '../catalog/import/jobs.ts';
import type { CatalogUser } from '../catalog/schema/types.ts';
import type { Progress } from './progress.ts';
import { withCatalogOutput } from './structured.ts';

export interface CatalogToolDeps {
  /** The caller's context: runner (rate-limited per client), config, store, base URL. */
  context: ApiContext;
  structure: StructureSearch;
  /**
   * The catalog user of the MCP connection's token (HTTP: the request's `Authorization` header;
   * stdio: NATPROD_TOKEN), undefined without a valid one: tools that need a role answer 401
   * (as they do when the deps have no `user` at all).
   */
  user?(): Promise<CatalogUser | undefined>;
  /** The export jobs of export_molecules (absent: exports are not offered, 404). */
  exports?: McpExports;
  /** The import jobs of import_molecules and import_status (absent: imports are not offered, 404). */
  imports?: ImportJobs;
  /** The call's progress notifications (a no-op unless the client sent a progressToken). */
  progress?: Progress;
}

export interface CatalogTool {
  tool: Tool;
  call(deps: CatalogToolDeps, args: Record<string, unknown> | undefined): Promise<CallToolResult>;
}

export const CATALOG_TOOLS: readonly CatalogTool[] = [
  searchCatalogTool, searchMassTool, searchTaxonTool, lookupTool, listDumpsTool,
  getMoleculeTool,
  listMoleculesTool,
  searchCoconutTool,
  exportMoleculesTool,
  exportStatusTool,
  importMoleculesTool,
  importStatusTool,
  submitReportTool,
].map(withCatalogOutput);

export const CATALOG_TOOLS_BY_NAME: ReadonlyMap<string, CatalogTool> = new Map(CATALOG_TOOLS.map((t) => [t.tool.name, t]));
