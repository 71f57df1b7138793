/**
 * The MCP tool `lookup_molecules`: bulk look-up of catalog molecules by COCONUT identifier,
 * InChIKey (whole or first block), SMILES or name. It runs `lookup()` (api/catalog/lookup/), the
 * code of `POST /api/molecules/lookup`, with the same options, and answers its rows as JSON
 * (REST answers them as CSV). At most MCP_QUERIES_MAX queries a call; larger lists go to REST.
 * A call with a progressToken is told how many queries are answered as the look-up goes.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_FIELDS } from '../catalog/export/format.ts';
import { KINDS, readOptions, readQueries } from '../catalog/lookup/input.ts';
import { lookup, runnerInchikeys } from '../catalog/lookup/match.ts';
import { Errors, HttpError } from '../catalog/schema/types.ts';
import { json, READ_ONLY, toolFailure } from './catalog-tool.ts';
import type { CatalogTool } from './catalog-tools.ts';

export const LOOKUP_MOLECULES = 'lookup_molecules';
export const MCP_QUERIES_MAX = 1000;

export const LOOKUP_MOLECULES_TOOL: Tool = {
  name: LOOKUP_MOLECULES,
  title: 'Bulk look-up of identifiers, InChIKeys, SMILES or names',
  annotations: { title: 'Bulk look-up of identifiers, InChIKeys, SMILES or names', ...READ_ONLY },
  description: [
    'Look up many catalog molecules at once',
    'Each query is a COCONUT identifier (CNP0123456), a standard InChIKey (whole, or its first 14-letter block), a SMILES (matched by its standard InChIKey) or a name ' +
      '(equal to the molecule\'s name or IUPAC name, ignoring case); the kind is detected per query unless `kind` says it. ' +
      `Answers one row per query, in order: input, kind, status (found, ambiguous, not found, unreadable), match_count, matches (identifiers), and the molecule's chosen fields when found. ` +
      `At most ${MCP_QUERIES_MAX} queries per call; POST /api/molecules/lookup takes lists of up to LOOKUP_MAX_ROWS as a file.`,
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${LOOKUP_MOLECULES}Arguments`,
    properties: {
      queries: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: MCP_QUERIES_MAX, title: 'Queries', description: 'Identifiers, InChIKeys, SMILES or names' },
      fields: { type: 'array', items: { type: 'string' }, title: 'Fields', description: `Molecule fields of a found row (export field names; default ${DEFAULT_FIELDS.join(', ')})` },
      kind: { type: 'string', enum: [...KINDS], default: 'auto', title: 'Kind', description: 'How to read every query; auto: detected per query' },
    },
    required: ['queries'],
  },
};

export const lookupTool: CatalogTool = {
  tool: LOOKUP_MOLECULES_TOOL,
  async call(deps, args) {
    try {
      const a = args ?? {};
      const e = new Errors();
      for (const k of Object.keys(a)) if (!['queries', 'fields', 'kind'].includes(k)) e.add(k, `The ${k} field is prohibited.`);
      if (a.queries === undefined) e.add('queries', 'The queries field is required.');
      if (Array.isArray(a.queries) && a.queries.length > MCP_QUERIES_MAX) {
        throw new HttpError(413, `At most ${MCP_QUERIES_MAX} queries per call of ${LOOKUP_MOLECULES}; upload longer lists to POST /api/molecules/lookup.`);
      }
      const queries = a.queries === undefined ? [] : readQueries(a.queries, MCP_QUERIES_MAX, e);
      const options = readOptions(a, e);
      e.throwIfAny();
      if (!queries.length) throw new HttpError(422, 'The list is empty: give at least one query.');
      // Progress (with a progressToken): input rows answered, of the list's length.
      const onProgress = (rows: number) => deps.progress?.(rows, queries.length, `${rows} of ${queries.length} queries answered`);
      const rows = await lookup(queries, options, { store: deps.structure.store, inchikeys: runnerInchikeys(deps.context.runner), onProgress });
      return json({ rows });
    } catch (e) {
      return toolFailure(LOOKUP_MOLECULES, e);
    }
  },
};
