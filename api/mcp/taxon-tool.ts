/**
 * The MCP tool `search_taxon`: the catalog's molecules reported from organisms under a taxon (any
 * rank from domain to variety, or an organism name; descendants included). It runs
 * `coconutSearch()` with `{type: "tags", tagType: "taxon"}`, the code of `POST /api/search`, so
 * it answers the same page; a failure is an `isError` result carrying the status and body that
 * route would have answered.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { coconutSearch, type StructureSearch } from '../catalog/search/index.ts';
import { checkTaxon, MAX_TAXON_LENGTH } from '../catalog/taxonomy/taxon.ts';
import { Errors } from '../catalog/schema/types.ts';
import { json, READ_ONLY, searchUrl, toolFailure } from './catalog-tool.ts';
import type { CatalogTool } from './catalog-tools.ts';

export const SEARCH_TAXON = 'search_taxon';

/** The arguments passed on to the search besides the taxon. */
const PASSED = ['limit', 'page', 'sort', 'status'] as const;

export const SEARCH_TAXON_TOOL: Tool = {
  name: SEARCH_TAXON,
  title: 'Molecules of a taxon',
  annotations: { title: 'Molecules of a taxon', ...READ_ONLY },
  description: [
    'Search the natural-product catalog by the taxonomy of the organisms the molecules were reported from',
    'Every molecule reported from an organism under the taxon, at any rank (domain, kingdom, phylum, class, order, family, tribe, genus, species, variety) ' +
      'or an organism name, descendants included; the name is compared ignoring case. E.g. "Asteraceae" (a family), "Artemisia" (a genus), "Fungi" (a kingdom). ' +
      'The same search as POST /api/search {"type": "tags", "tagType": "taxon", "query": <taxon>}: active molecules first, then by annotation level. ' +
      'Answers a page of catalog molecule records (COCONUT paginator: current_page, data, total, ...).',
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${SEARCH_TAXON}Arguments`,
    properties: {
      taxon: { type: 'string', minLength: 1, maxLength: MAX_TAXON_LENGTH, title: 'Taxon', description: 'Taxon name at any rank, or an organism name (case-insensitive), e.g. Asteraceae' },
      limit: { type: 'integer', minimum: 1, maximum: 100, title: 'Limit', description: 'Hits per page (at most 100; default as POST /api/search)' },
      page: { type: 'integer', minimum: 1, default: 1, title: 'Page', description: 'Page number' },
      sort: { type: 'string', enum: ['relevance', 'recent'], title: 'Sort', description: 'relevance (default: active molecules first, then by annotation level) or recent (newest first)' },
      status: { type: 'string', enum: ['all', 'approved', 'revoked'], title: 'Status', description: 'all (default), approved (active molecules only) or revoked (inactive ones only)' },
    },
    required: ['taxon'],
  },
};

/** search_taxon's answer, its page links on `url` (POST /api/search on the caller's base). */
export async function callSearchTaxon(structure: StructureSearch, args: Record<string, unknown> | undefined, url = searchUrl(undefined)): Promise<CallToolResult> {
  try {
    const a = args ?? {};
    const unknown = Object.keys(a).filter((k) => k !== 'taxon' && !(PASSED as readonly string[]).includes(k));
    if (unknown.length) {
      const e = new Errors();
      for (const k of unknown) e.add(k, `The ${k} argument is unknown: ${SEARCH_TAXON} takes taxon, ${PASSED.join(', ')}.`);
      e.throwIfAny();
    }
    const taxon = checkTaxon(a.taxon, 'taxon');
    const body: Record<string, unknown> = { type: 'tags', tagType: 'taxon', query: taxon };
    for (const k of PASSED) if (a[k] !== undefined) body[k] = a[k];
    const answer = await coconutSearch({ store: structure.store, structure }, body, url);
    return json(answer);
  } catch (e) {
    return toolFailure(SEARCH_TAXON, e);
  }
}

export const searchTaxonTool: CatalogTool = { tool: SEARCH_TAXON_TOOL, call: (deps, args) => callSearchTaxon(deps.structure, args, searchUrl(deps.context)) };
