/**
 * The MCP tool `search_coconut`: COCONUT's `POST /api/search` (`coconutSearch`), every type but
 * `mass` (the tool `search_mass`), answering what the route answers. No token needed.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { COCONUT_TYPES, coconutSearch, EXTRA_TYPES, LIMIT_DEFAULT, LIMIT_MAX } from '../catalog/search/index.ts';
import { Errors } from '../catalog/schema/types.ts';
import type { CatalogTool, CatalogToolDeps } from './catalog-tools.ts';
import { json, READ_ONLY, searchUrl, toolFailure } from './catalog-tool.ts';

type Rec = Record<string, unknown>;

export const SEARCH_COCONUT = 'search_coconut';

const COCONUT_SEARCH_TYPES = [...COCONUT_TYPES, ...EXTRA_TYPES.filter((x) => x !== 'mass' && x !== 'parttialinchikey')];

export const SEARCH_COCONUT_TOOL: Tool = {
  name: SEARCH_COCONUT,
  title: 'COCONUT\'s catalog search',
  annotations: { title: 'COCONUT\'s catalog search', ...READ_ONLY },
  description: [
    'COCONUT\'s search of the natural-product catalog (POST /api/search, COCONUT\'s form)',
    'Types: `text` (name, synonyms or identifier containing the query, ignoring case), `identifier` (CNP...), `inchi`, `inchikey`, ' +
      '`partialinchikey`, `molecularformula`, `tags` (with `tagType`: `dataSource` for a collection, `organisms`, `citations`, `taxon`), ' +
      '`filters` (COCONUT\'s filter language, e.g. "mw:100..300 hbd:0..2", "org:Artemisia annua", "cs:true"), and the structure types ' +
      '`smiles`, `exact`, `substructure` (`query_type` smiles or smarts, `use_chirality`) and `similarity` (`threshold`). ' +
      'Without `type` the type is detected from the query (COCONUT\'s rules). Without a query every non-structure type lists the catalog. ' +
      'Answers `{data: <Laravel paginator>}` (current_page, data, total, per_page, last_page, links, ...) with COCONUT\'s molecule rows. ' +
      'For MS dereplication use search_mass; for structure hits as catalog records, search_catalog. No token needed.',
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${SEARCH_COCONUT}Arguments`,
    properties: {
      query: { type: 'string', title: 'Query', description: 'The query (a name, identifier, InChI, InChIKey, formula, tag, filter expression, SMILES or molblock)' },
      type: { type: 'string', enum: COCONUT_SEARCH_TYPES, title: 'Type', description: 'Search type; absent: detected from the query' },
      tagType: { type: 'string', title: 'Tag Type', description: 'type tags: dataSource, organisms, citations or taxon' },
      limit: { type: 'integer', minimum: 1, maximum: LIMIT_MAX, default: LIMIT_DEFAULT, title: 'Limit', description: `Rows per page (at most ${LIMIT_MAX})` },
      page: { type: 'integer', minimum: 1, default: 1, title: 'Page', description: 'Page number' },
      offset: { type: 'integer', minimum: 0, maximum: 100, default: 0, title: 'Offset', description: 'Rows skipped before the page (COCONUT\'s offset)' },
      sort: { type: 'string', enum: ['relevance', 'recent'], default: 'relevance', title: 'Sort', description: 'relevance or recent' },
      status: { type: 'string', enum: ['all', 'approved', 'revoked'], default: 'all', title: 'Status', description: 'all, approved (active only) or revoked (inactive only)' },
      query_type: { type: 'string', enum: ['smiles', 'smarts'], title: 'Query Type', description: 'substructure: how to read the query' },
      use_chirality: { type: 'boolean', title: 'Use Chirality', description: 'substructure and exact: match stereochemistry' },
      threshold: { type: 'number', minimum: 0, maximum: 1, title: 'Threshold', description: 'similarity: lowest Tanimoto kept' },
    },
    additionalProperties: false,
  },
};

/** The answer of `POST /api/search` to a COCONUT body, its page links on the caller's base URL as the route writes them. */
export async function searchCoconut(deps: CatalogToolDeps, args: Rec | undefined) {
  const a = args ?? {};
  if ('count' in a || a.type === 'mass') {
    const e = new Errors();
    if ('count' in a) e.add('count', `The count field is prohibited: ${SEARCH_COCONUT} answers COCONUT's form; use search_catalog for natprod's.`);
    if (a.type === 'mass') e.add('type', `The selected type is invalid: use the tool search_mass for type mass.`);
    e.throwIfAny();
  }
  return coconutSearch({ store: deps.structure.store, structure: deps.structure }, a, searchUrl(deps.context));
}

export const searchCoconutTool: CatalogTool = {
  tool: SEARCH_COCONUT_TOOL,
  async call(deps, args) {
    try {
      return json(await searchCoconut(deps, args));
    } catch (e) {
      return toolFailure(SEARCH_COCONUT, e);
    }
  },
};
