/**
 * The MCP tool `search_mass`: MS dereplication over the catalog, from measured m/z values to
 * candidate molecules by adduct (docs/dereplication.md). It runs `searchAnswer()`, the code of
 * `POST /api/search`, with `type: "mass"`, so it answers the same document; a failure is an
 * `isError` result carrying the status and body that route would have answered.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ADDUCTS, DEFAULT_ADDUCTS, DEFAULT_PPM, LIMIT_DEFAULT, LIMIT_MAX, MAX_DA, MAX_MZ, MAX_MZ_VALUES, MAX_PPM, searchAnswer } from '../catalog/search/index.ts';
import { json, READ_ONLY, searchUrl, toolFailure } from './catalog-tool.ts';
import type { CatalogTool } from './catalog-tools.ts';

export const SEARCH_MASS = 'search_mass';

const mz = { type: 'number', exclusiveMinimum: 0, maximum: MAX_MZ };

export const SEARCH_MASS_TOOL: Tool = {
  name: SEARCH_MASS,
  title: 'Dereplication by m/z with adducts',
  annotations: { title: 'Dereplication by m/z with adducts', ...READ_ONLY },
  description: [
    'Dereplicate MS signals against the natural-product catalog: find the molecules whose adduct ions match measured m/z values',
    'The same search as POST /api/search with type "mass". A hit is a molecule and an adduct whose theoretical m/z ' +
      '(M·mult/|charge| + the adduct\'s ion mass, the Fiehn lab ESI adduct table, electron mass included) is within the tolerance ' +
      `(default ${DEFAULT_PPM} ppm) of the measured m/z; hits are ranked by |error_ppm|. One m/z answers a COCONUT paginator of molecule ` +
      'records, each with `match` {mz, adduct, charge, theoretical_mz, error_ppm, error_da, exact_molecular_weight, molecular_formula}; ' +
      `a list of up to ${MAX_MZ_VALUES} m/z values answers one entry {mz, total, hits} per value.`,
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${SEARCH_MASS}Arguments`,
    properties: {
      query: {
        title: 'Query',
        description: `The measured m/z, or a list of up to ${MAX_MZ_VALUES} of them (answered per value)`,
        anyOf: [mz, { type: 'array', items: mz, minItems: 1, maxItems: MAX_MZ_VALUES }],
      },
      adducts: {
        type: 'array',
        items: { type: 'string', enum: ADDUCTS.map((a) => a.name) },
        minItems: 1,
        title: 'Adducts',
        description: `Adducts to consider (default ${DEFAULT_ADDUCTS.join(', ')})`,
      },
      tolerance_ppm: { type: 'number', exclusiveMinimum: 0, maximum: MAX_PPM, title: 'Tolerance (ppm)', description: `Tolerance relative to the theoretical m/z (default ${DEFAULT_PPM}); not with tolerance_da` },
      tolerance_da: { type: 'number', exclusiveMinimum: 0, maximum: MAX_DA, title: 'Tolerance (Da)', description: 'Absolute tolerance in Da; not with tolerance_ppm' },
      taxon: { type: 'string', title: 'Taxon', description: 'Only molecules reported from an organism under this taxon (any rank, e.g. "Asteraceae")' },
      limit: { type: 'integer', minimum: 1, maximum: LIMIT_MAX, default: LIMIT_DEFAULT, title: 'Limit', description: `Hits per page (per m/z for a list), at most ${LIMIT_MAX}` },
      page: { type: 'integer', minimum: 1, default: 1, title: 'Page', description: 'Page number' },
    },
    required: ['query'],
  },
};

export const searchMassTool: CatalogTool = {
  tool: SEARCH_MASS_TOOL,
  async call(deps, args): Promise<CallToolResult> {
    try {
      const answer = await searchAnswer(deps.structure, { ...(args ?? {}), type: 'mass' }, searchUrl(deps.context));
      return json(answer);
    } catch (e) {
      return toolFailure(SEARCH_MASS, e);
    }
  },
};
