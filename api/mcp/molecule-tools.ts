/**
 * The catalog as MCP tools: what is known about a compound, what an organism, a citation or a
 * collection holds (COCONUT's own search is `search_coconut`, coconut-tool.ts). Each runs the code of its REST route, so both
 * answer the same:
 *
 * - `get_molecule`: `POST /api/molecules/search` with a filter on the identifier, the InChIKey
 *   (whole, or its first block), or the name (or IUPAC name), and the includes `properties`,
 *   `organisms` (with their lineage and taxonomy ids), `citations` and `collections`. One match
 *   answers the molecule; several (a first block or a name shared by stereoisomers) answer the page.
 * - `list_molecules`: `POST /api/molecules/search` with a filter on a relation
 *   (`organisms.id`/`organisms.name`, `citations.id`/`citations.doi`,
 *   `collections.id`/`collections.title`), paged, with the total.
 *
 * `get_molecule` and `list_molecules` read catalog records, which REST gives to readers: they
 * take the MCP connection's token (CatalogToolDeps.user) and answer 401 without one.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { can } from '../catalog/auth/policy.ts';
import { molecules, type ResourceDef } from '../catalog/schema/resources.ts';
import { Errors, HttpError, type CatalogUser } from '../catalog/schema/types.ts';
import { search, validateSearch } from '../catalog/search/index.ts';
import { failure, json, READ_ONLY, toolFailure } from './catalog-tool.ts';
import type { CatalogTool, CatalogToolDeps } from './catalog-tools.ts';

export const GET_MOLECULE = 'get_molecule';
export const LIST_MOLECULES = 'list_molecules';

type Rec = Record<string, unknown>;

/** The REST route's 401 body (api/catalog/plugin.ts). */
export const UNAUTHENTICATED = { message: 'Unauthenticated.' };

/**
 * Runs a catalog tool as the MCP connection's user: 401 without a valid token (HTTP: the
 * request's Authorization header; stdio: NATPROD_TOKEN), failures as the REST route answers them.
 */
export async function asUser(tool: string, deps: CatalogToolDeps, fn: (user: CatalogUser) => Promise<unknown>): Promise<CallToolResult> {
  try {
    const user = await deps.user?.();
    if (!user) return failure(tool, 401, UNAUTHENTICATED);
    return json(await fn(user));
  } catch (e) {
    return toolFailure(tool, e);
  }
}

/** Refuses arguments the tool does not take (422 naming each, as the REST validators do). */
export function onlyKeys(args: Rec, allowed: readonly string[], e: Errors) {
  for (const k of Object.keys(args)) if (!allowed.includes(k)) e.add(k, `The ${k} field is prohibited.`);
}

/**
 * `POST /api/<r>/search` with this body, as the catalog plugin runs it: 422 for a bad search,
 * 403 without the role, then the flat paginator.
 */
export async function restSearch(r: ResourceDef, body: { search: Rec }, deps: CatalogToolDeps, user: CatalogUser) {
  const e = new Errors();
  const s = validateSearch(r, body.search, 'search', e);
  e.throwIfAny();
  if (!can(user, 'viewAny', undefined, r)) throw new HttpError(403, 'This action is unauthorized.');
  return search(r, s, { store: deps.structure.store, structure: deps.structure.resolve, user });
}

/** The molecule's relations, whole (an include is capped at 1000 records per molecule). */
export const MOLECULE_INCLUDES = ['properties', 'organisms', 'citations', 'collections'].map((relation) => ({ relation }));

/** The Lomkit limits a molecule search accepts. */
const LIMITS = molecules.limits;

function paging(a: Rec, e: Errors): { page: number; limit: number } {
  const page = a.page ?? 1;
  const limit = a.limit ?? LIMITS[0];
  if (!Number.isInteger(page) || (page as number) < 1) e.add('page', 'The page field must be an integer of at least 1.');
  if (!Number.isInteger(limit) || !LIMITS.includes(limit as number)) e.add('limit', `The selected limit is invalid: use ${LIMITS.join(', ')}.`);
  return { page: page as number, limit: limit as number };
}

// ---------------------------------------------------------------------------------------------
// get_molecule

export type MatchKind = 'identifier' | 'inchikey' | 'inchikey_first_block' | 'name';

const CNP = /^CNP\d{7}$/i;
const INCHIKEY = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/i;
const FIRST_BLOCK = /^[A-Z]{14}$/i;

/** How a query names a molecule, and the search filters that find it. */
export function moleculeFilters(query: string): { kind: MatchKind; filters: Rec[] } {
  const q = query.trim();
  if (CNP.test(q)) return { kind: 'identifier', filters: [{ field: 'identifier', operator: '=', value: q.toUpperCase() }] };
  if (INCHIKEY.test(q)) return { kind: 'inchikey', filters: [{ field: 'standard_inchi_key', operator: '=', value: q.toUpperCase() }] };
  if (FIRST_BLOCK.test(q)) return { kind: 'inchikey_first_block', filters: [{ field: 'standard_inchi_key', operator: 'like', value: `${q.toUpperCase()}-%` }] };
  return {
    kind: 'name',
    filters: [
      { field: 'name', operator: '=', value: q },
      { field: 'iupac_name', operator: '=', value: q, type: 'or' },
    ],
  };
}

/** The body of `POST /api/molecules/search` that get_molecule runs for a query. */
export function getMoleculeRequest(query: string, page = 1, limit = LIMITS[0]): { kind: MatchKind; body: { search: Rec } } {
  const { kind, filters } = moleculeFilters(query);
  return { kind, body: { search: { filters, includes: MOLECULE_INCLUDES, sorts: [{ field: 'id', direction: 'asc' }], page, limit } } };
}

export const GET_MOLECULE_TOOL: Tool = {
  name: GET_MOLECULE,
  title: 'What the catalog knows about a compound',
  annotations: { title: 'What the catalog knows about a compound', ...READ_ONLY },
  description: [
    'What the natural-product catalog knows about one compound',
    'Finds a molecule by its COCONUT identifier (CNP0123456), its standard InChIKey (whole, or the first 14-letter block: the skeleton, any stereo), ' +
      'or its name or IUPAC name (exactly as written; for partial or case-insensitive names use search_coconut with type "text"). ' +
      'Answers the molecule record with its `properties` (formula, masses, logP, ...), `organisms` it was reported from (with their lineage ' +
      'domain .. species and NCBI, GBIF, OTT and Wikidata ids), `citations` (DOIs, titles) and `collections` (source data sets). ' +
      'When the query matches several molecules (a first block or a name shared by stereoisomers) it answers the page of matches ' +
      '(`ambiguous: true`, `total`, `data`) rather than guessing: ask again by identifier. ' +
      'The same search as POST /api/molecules/search with these filters and includes (given back as `request`). Needs a reader token.',
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${GET_MOLECULE}Arguments`,
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 1000, title: 'Query', description: 'CNP identifier, standard InChIKey (or its first block), or name' },
      page: { type: 'integer', minimum: 1, default: 1, title: 'Page', description: 'Page of matches when the query is ambiguous' },
      limit: { type: 'integer', enum: LIMITS, default: LIMITS[0], title: 'Limit', description: 'Matches per page when the query is ambiguous' },
    },
    required: ['query'],
    additionalProperties: false,
  },
};

export async function getMolecule(deps: CatalogToolDeps, user: CatalogUser, args: Rec) {
  const e = new Errors();
  onlyKeys(args, ['query', 'page', 'limit'], e);
  const q = args.query;
  if (q === undefined || q === null || q === '') e.add('query', 'The query field is required.');
  else if (typeof q !== 'string') e.add('query', 'The query field must be a string.');
  else if (!q.trim()) e.add('query', 'The query field is required.');
  else if (q.length > 1000) e.add('query', 'The query field must not be greater than 1000 characters.');
  const { page, limit } = paging(args, e);
  e.throwIfAny();
  const { kind, body } = getMoleculeRequest(q as string, page, limit);
  const request = { method: 'POST', path: '/api/molecules/search', body };
  const answer = await restSearch(molecules, body, deps, user);
  if (answer.total === 0) throw new HttpError(404, `No molecule has the ${kind.replaceAll('_', ' ')} ${JSON.stringify((q as string).trim())}.`);
  if (answer.total === 1 && page === 1) return { matched_by: kind, molecule: answer.data[0], request };
  // Several matches (or a later page of one): the page, for the caller to choose from.
  return { matched_by: kind, ambiguous: answer.total > 1, ...answer, request };
}

export const getMoleculeTool: CatalogTool = {
  tool: GET_MOLECULE_TOOL,
  call: (deps, args) => asUser(GET_MOLECULE, deps, (user) => getMolecule(deps, user, args ?? {})),
};

// ---------------------------------------------------------------------------------------------
// list_molecules

/** Per relation: the field a number names, and the field a string names. */
export const RELATION_KEYS = {
  organism: { relation: 'organisms', byId: 'organisms.id', byText: 'organisms.name', text: 'scientific name' },
  citation: { relation: 'citations', byId: 'citations.id', byText: 'citations.doi', text: 'DOI' },
  collection: { relation: 'collections', byId: 'collections.id', byText: 'collections.title', text: 'title' },
} as const;
type RelationKey = keyof typeof RELATION_KEYS;
const RELATION_NAMES = Object.keys(RELATION_KEYS) as RelationKey[];
const SORT_FIELDS = ['id', 'identifier', 'name', 'annotation_level'];

/** The body of `POST /api/molecules/search` that list_molecules runs. */
export function listMoleculesRequest(key: RelationKey, value: number | string, page: number, limit: number, sort: { field: string; direction: 'asc' | 'desc' }) {
  const k = RELATION_KEYS[key];
  const filter = { field: typeof value === 'number' ? k.byId : k.byText, operator: '=', value };
  return { search: { filters: [filter], sorts: [sort, ...(sort.field === 'id' ? [] : [{ field: 'id', direction: 'asc' }])], page, limit } };
}

export const LIST_MOLECULES_TOOL: Tool = {
  name: LIST_MOLECULES,
  title: 'Molecules of an organism, citation or collection',
  annotations: { title: 'Molecules of an organism, citation or collection', ...READ_ONLY },
  description: [
    'List the catalog molecules of an organism, a citation or a collection',
    'Exactly one of `organism` (its id, or its scientific name as stored, e.g. "Artemisia annua"), `citation` (its id, or its DOI) ' +
      'or `collection` (its id, or its title). Answers a page of molecule records with the total (Lomkit paginator: current_page, data, ' +
      'from, last_page, per_page, to, total). The same search as POST /api/molecules/search with a filter on the relation ' +
      '(organisms.id / organisms.name, citations.id / citations.doi, collections.id / collections.title; given back as `request`). ' +
      'For every organism under a taxon (a genus, a family) use search_taxon. Needs a reader token.',
  ].join('\n\n'),
  inputSchema: {
    type: 'object',
    title: `${LIST_MOLECULES}Arguments`,
    properties: {
      organism: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', minLength: 1 }], title: 'Organism', description: 'Organism id, or scientific name' },
      citation: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', minLength: 1 }], title: 'Citation', description: 'Citation id, or DOI' },
      collection: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', minLength: 1 }], title: 'Collection', description: 'Collection id, or title' },
      sort: { type: 'string', enum: SORT_FIELDS, default: 'id', title: 'Sort', description: 'Field to order by' },
      direction: { type: 'string', enum: ['asc', 'desc'], default: 'asc', title: 'Direction', description: 'Sort direction' },
      page: { type: 'integer', minimum: 1, default: 1, title: 'Page', description: 'Page number' },
      limit: { type: 'integer', enum: LIMITS, default: LIMITS[0], title: 'Limit', description: 'Molecules per page' },
    },
    additionalProperties: false,
  },
};

export async function listMolecules(deps: CatalogToolDeps, user: CatalogUser, args: Rec) {
  const e = new Errors();
  onlyKeys(args, [...RELATION_NAMES, 'sort', 'direction', 'page', 'limit'], e);
  const given = RELATION_NAMES.filter((k) => args[k] !== undefined && args[k] !== null);
  if (given.length !== 1) e.add('organism', `Give exactly one of ${RELATION_NAMES.join(', ')}${given.length ? ` (not ${given.join(' and ')})` : ''}.`);
  for (const k of given) {
    const v = args[k];
    if (typeof v === 'number' ? !Number.isInteger(v) || v < 1 : typeof v !== 'string' || !v.trim())
      e.add(k, `The ${k} field must be an id (a positive integer) or a ${RELATION_KEYS[k].text}.`);
  }
  const sort = args.sort ?? 'id';
  const direction = args.direction ?? 'asc';
  if (typeof sort !== 'string' || !SORT_FIELDS.includes(sort)) e.add('sort', `The selected sort is invalid: use ${SORT_FIELDS.join(', ')}.`);
  if (direction !== 'asc' && direction !== 'desc') e.add('direction', 'The selected direction is invalid: use asc or desc.');
  const { page, limit } = paging(args, e);
  e.throwIfAny();
  const key = given[0];
  const raw = args[key] as number | string;
  const value = typeof raw === 'string' ? raw.trim() : raw;
  const body = listMoleculesRequest(key, value, page, limit, { field: sort as string, direction: direction as 'asc' | 'desc' });
  const answer = await restSearch(molecules, body, deps, user);
  return { ...answer, request: { method: 'POST', path: '/api/molecules/search', body } };
}

export const listMoleculesTool: CatalogTool = {
  tool: LIST_MOLECULES_TOOL,
  call: (deps, args) => asUser(LIST_MOLECULES, deps, (user) => listMolecules(deps, user, args ?? {})),
};
