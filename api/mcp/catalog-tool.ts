/**
 * The MCP tool `search_catalog`: catalog structure search (exact, substructure, similarity) beside
 * the registry's chemistry tools. It runs `searchAnswer()`, the code of `POST /api/search`, so
 * it answers the same records; a failure is an `isError` result carrying the status and body
 * that route would have answered.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../shared/errors.ts';
import { SEARCH_LIMIT_MAX, searchAnswer, type StructureSearch } from '../catalog/search/index.ts';
import { HttpError, ValidationError } from '../catalog/schema/types.ts';
import type { CatalogTool } from './catalog-tools.ts';
import { jsonResult } from './structured.ts';

export const SEARCH_CATALOG = 'search_catalog';

/** Annotations of a catalog tool that only reads (the catalog is on this machine: not open-world). */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export const SEARCH_CATALOG_TOOL: Tool = {
  name: SEARCH_CATALOG,
  title: 'Catalog structure search',
  annotations: { title: 'Catalog structure search', ...READ_ONLY },
  description: [
    'Search the natural-product catalog by structure',
    'The same search as POST /api/search in natprod\'s form (the body with `count`): `exact` (same standard InChIKey; a SMILES, molblock or InChIKey query), ' +
      '`substructure` (SMILES or SMARTS; the exact match first, then the other hits by id) or `similarity` ' +
      '(Tanimoto on Morgan fingerprints, radius 2, 2048 bits; best first, each hit with its `similarity`). ' +
      'Answers a page of catalog molecule records (COCONUT paginator: current_page, data, total, has_more, ...).',
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${SEARCH_CATALOG}Arguments`,
    properties: {
      type: { type: 'string', enum: ['exact', 'substructure', 'similarity'], title: 'Type', description: 'Kind of structure search' },
      query: { type: 'string', title: 'Query', description: 'SMILES (or a molblock); SMARTS for substructure; an InChIKey for exact' },
      query_type: { type: 'string', enum: ['smiles', 'smarts'], title: 'Query Type', description: 'How to read the query; absent: SMILES when it parses as SMILES, else SMARTS' },
      threshold: { type: 'number', minimum: 0, maximum: 1, title: 'Threshold', description: 'similarity only: lowest Tanimoto kept (default 0.7)' },
      use_chirality: { type: 'boolean', title: 'Use Chirality', description: 'substructure: match stereochemistry (default false); exact: compare whole InChIKeys (default true)' },
      limit: { type: 'integer', minimum: 1, maximum: SEARCH_LIMIT_MAX, default: 20, title: 'Limit', description: `Hits per page (at most ${SEARCH_LIMIT_MAX})` },
      page: { type: 'integer', minimum: 1, default: 1, title: 'Page', description: 'Page number' },
      count: { type: 'boolean', default: false, title: 'Count', description: 'substructure: scan every molecule to report the total (otherwise total is null)' },
    },
    required: ['type', 'query'],
  },
};

/** Status and body of the catalog's answer to a failure (as api/catalog/plugin.ts answers it). */
export function catalogFailure(e: unknown): { status: number; body: Record<string, unknown> } {
  if (e instanceof ValidationError) return { status: 422, body: e.body };
  if (e instanceof HttpError) return { status: e.status, body: { message: e.message } };
  const ae = AppError.from(e);
  if (ae && ae.status !== 500) {
    const msg = typeof ae.detail === 'string' ? ae.detail : JSON.stringify(ae.detail);
    return { status: ae.status, body: ae.status === 422 ? { message: msg, errors: { structure: [msg] } } : { message: msg } };
  }
  return { status: 500, body: { message: 'Server Error' } };
}

/**
 * The URL of `POST /api/search` on the caller's base, where COCONUT-form answers put their page
 * links (as the route writes them); relative without a context (direct calls in tests).
 */
export const searchUrl = (context: { baseUrl: string; prefix: string } | undefined) => (context ? `${context.baseUrl}${context.prefix}/api/search` : '/api/search');

/** A JSON answer: one text content, pretty-printed (as the registry tools answer), and the object as structured content. */
export const json = (value: unknown): CallToolResult => jsonResult(value, false);

/** A failure of `tool` as the REST route would have answered it: status and body in the text. */
export function failure(tool: string, status: number, body: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `Error calling ${tool}. Status code: ${status}. Response: ${JSON.stringify(body)}` }] };
}

/** `failure` for what a catalog call threw (catalogFailure's status and body). */
export function toolFailure(tool: string, e: unknown): CallToolResult {
  const { status, body } = catalogFailure(e);
  return failure(tool, status, body);
}

export async function callSearchCatalog(structure: StructureSearch, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  try {
    // The tool answers natprod's form of POST /api/search, which `count` selects (isNatprodForm).
    return json(await searchAnswer(structure, { count: false, ...(args ?? {}) }));
  } catch (e) {
    return toolFailure(SEARCH_CATALOG, e);
  }
}

export const searchCatalogTool: CatalogTool = { tool: SEARCH_CATALOG_TOOL, call: (deps, args) => callSearchCatalog(deps.structure, args) };
